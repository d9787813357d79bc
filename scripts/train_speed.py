"""Training frames per second of one config, where the time goes, as one JSON line (of any checkout).

    python scripts/train_speed.py --config configs/fiesta_mexicana/ppo.yaml --steps 16384
    PYTHONPATH=/path/to/other/checkout python scripts/train_speed.py --config ...   # measures that checkout
    python scripts/train_speed.py --config configs/fiesta_mexicana/ppo.yaml --profile /tmp/train.prof

The measurement is ``fiesta bench --train-config``'s (``fiesta_envs.testing.bench.bench_config_training``: the
config's own training loop without warm start and evaluations, CPU seconds in ``learn``), taken from this
checkout's ``bench.py`` while the package it measures is whichever ``fiesta_envs`` Python imports: an older
checkout first on ``PYTHONPATH`` is measured by the same code (the line names the package it imported).
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


def measure(config_path: str, steps: int, profile: str | None = None) -> dict[str, Any]:
    import fiesta_envs

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
