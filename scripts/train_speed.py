"""Training frames per second of one config, where the time goes, as one JSON line (of any checkout).

    python scripts/train_speed.py --config configs/fiesta_mexicana/ppo.yaml --steps 16384
    PYTHONPATH=/path/to/other/checkout python scripts/train_speed.py --config ...   # measures that checkout
    python scripts/train_speed.py --config configs/fiesta_mexicana/ppo.yaml --profile /tmp/train.prof

The measurement is ``fiesta bench --train-config``'s (``fiesta_envs.testing.bench.bench_config_training``: the
config's own training loop without warm start and evaluations, CPU seconds in ``learn``), taken from this
checkout's ``bench.py`` while the package it measures is whichever ``fiesta_envs`` Python imports: an older
checkout first on ``PYTHONPATH`` is measured by the same code (the line names the package it imported). The
training code (``fiesta_envs.training``, installed from the repository's ``training/`` folder) is taken from
the same checkout as the package, not from wherever the package was installed in editable mode.
``scripts/train_speed_ab.py`` runs it for two checkouts in turn.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
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

        profiler = cProfile.Profile()
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", required=True, help="a training config (YAML)")
    parser.add_argument("--steps", type=int, default=16384, help="PPO steps to time (default 16384)")
    parser.add_argument("--profile", metavar="FILE", help="also save a cProfile of the run to FILE")
    args = parser.parse_args(argv)
    print(json.dumps(measure(args.config, args.steps, args.profile)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
