"""Training frames per second of configs, where the time goes: one JSON line per config, and the results file.

    python scripts/train_speed.py --config configs/fiesta_mexicana/ppo.yaml --steps 16384
    PYTHONPATH=/path/to/other/checkout python scripts/train_speed.py --config ...   # measures that checkout
    python scripts/train_speed.py --config configs/fiesta_mexicana/ppo.yaml --profile /tmp/train.prof
    python scripts/train_speed.py --steps 8192 --config configs/fiesta_mexicana/ppo.yaml \\
        --config configs/tortilla_de_patatas/ppo.yaml ... --json results/perf_training.json

The measurement is ``fiesta bench --train-config``'s (``fiesta_envs.testing.bench.bench_config_training``: the
config's own training loop without warm start and evaluations, CPU seconds in ``learn``, split into the
environments' steps, the opponents' moves, the rest of the rollout and the PPO update), taken from this
checkout's ``bench.py`` while the package it measures is whichever ``fiesta_envs`` Python imports: an older
checkout first on ``PYTHONPATH`` is measured by the same code (the line names the package it imported). The
training code (``fiesta_envs.training``, installed from the repository's ``training/`` folder) is taken from
the same checkout as the package, not from wherever the package was installed in editable mode.
``scripts/train_speed_ab.py`` runs it for two checkouts in turn. With ``--json``, every config's measurement
goes into one results file with the command, the machine, the package and game versions: the one
``results/perf_training.json`` that ``scripts/make_results_pages.py`` turns into the performance page.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shlex
import sys
import time
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent.parent / "fiesta_envs" / "testing" / "bench.py"


def bench_module() -> Any:
    """This checkout's ``fiesta_envs/testing/bench.py``, loaded on its own (the package may be another's)."""
    spec = importlib.util.spec_from_file_location("bench_of_this_checkout", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def use_checkout_folders() -> None:
    """Import ``fiesta_envs.training`` (and ``fiesta_envs.configs``) from the checkout of the imported ``fiesta_envs``.

    An editable install maps them to its own repository's ``training/`` and ``configs/`` whatever checkout
    ``PYTHONPATH`` puts first; measuring an older checkout must run that checkout's training code."""
    import fiesta_envs

    root = Path(fiesta_envs.__file__).resolve().parent.parent
    for name, folder in (("fiesta_envs.training", "training"), ("fiesta_envs.configs", "configs")):
        init = root / folder / "__init__.py"
        if name in sys.modules or not init.is_file():
            continue
        spec = importlib.util.spec_from_file_location(name, init, submodule_search_locations=[str(init.parent)])
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        setattr(fiesta_envs, name.rsplit(".", 1)[1], module)
        spec.loader.exec_module(module)


def measure(config_path: str, steps: int, profile: str | None = None) -> dict[str, Any]:
    use_checkout_folders()
    import fiesta_envs
    import fiesta_envs.training

    bench = bench_module()
    profiler = None
    if profile:
        import cProfile

        profiler = cProfile.Profile(time.process_time)  # CPU time, as measured (a loaded machine inflates wall time)
        profiler.enable()
    try:
        measured = bench.bench_config_training(config_path, steps)
    finally:
        if profiler is not None:
            profiler.disable()
            profiler.dump_stats(profile)
    return {
        "config": config_path,
        "package": str(Path(fiesta_envs.__file__).parent),
        "training": str(Path(fiesta_envs.training.__file__).parent),
        "steps": measured.steps,
        "cpu_seconds": round(measured.seconds, 3),
        "wall_seconds": round(measured.wall_seconds, 3),
        "frames_per_second": round(measured.frames_per_second, 1),
        "frames_per_wall_second": round(measured.steps / measured.wall_seconds, 1),
        "share": {part: round(share, 3) for part, share in measured.shares.items()},
    }


def results_file(rows: list[dict[str, Any]], steps: int, argv: list[str]) -> dict[str, Any]:
    """The measurements of several configs as one results file (``results/perf_training.json``)."""
    from fiesta_envs.registry import game_spec
    from fiesta_envs.training.config import load_config
    from fiesta_envs.version import __version__

    games = [load_config(row["config"]).game for row in rows]
    keep = ("config", "steps", "cpu_seconds", "wall_seconds", "frames_per_second", "share")
    return {
        "table": "training_speed",
        "command": "python " + " ".join(shlex.quote(a) for a in ["scripts/train_speed.py", *argv]),
        "what": "frames per second of MaskablePPO training with each config (no warm start, no evaluations): steps "
        "over the CPU seconds of the process in learn(), and the share of those seconds in the environments' "
        "steps without the opponents, the opponents' moves, the rest of the rollout (mostly the policy's "
        "forward passes) and the PPO update",
        "steps": steps,
        "machine": {"cpus": os.cpu_count(), "load_average": [round(x, 2) for x in os.getloadavg()]},
        "finished": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "fiesta_envs_version": __version__,
        "game_versions": {game: f"v{game_spec(game).game_class().version}" for game in dict.fromkeys(games)},
        "rows": [{key: row[key] for key in keep} for row in rows],
    }


def main(argv: list[str] | None = None) -> int:
    arguments = sys.argv[1:] if argv is None else list(argv)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", action="append", required=True, help="a training config (YAML); repeatable")
    parser.add_argument("--steps", type=int, default=16384, help="PPO steps to time per config (default 16384)")
    parser.add_argument("--profile", metavar="FILE", help="also save a cProfile of the run to FILE (one config)")
    parser.add_argument("--json", type=Path, metavar="FILE", help="write every config's measurement to FILE")
    args = parser.parse_args(arguments)
    if args.profile and len(args.config) > 1:
        parser.error("--profile takes one --config")
    rows = []
    for config in args.config:
        rows.append(measure(config, args.steps, args.profile))
        print(json.dumps(rows[-1]), flush=True)
    if args.json:
        text = json.dumps(results_file(rows, args.steps, arguments), indent=2) + "\n"
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
