"""Training frames per second of one config: ``fiesta train``'s own loop, timed around MaskablePPO's ``learn``.

    python scripts/train_speed.py --config configs/fiesta_mexicana/ppo.yaml --steps 16384
    python scripts/train_speed.py --config configs/fiesta_mexicana/ppo.yaml --profile /tmp/train.prof

The run is the config's (environments, opponents and league, reward shaping, network, PPO settings) without
its warm start, evaluations and final table: it starts PPO from a fresh network, its league holding that
network, for ``--steps`` steps (rounded up to whole rollouts), in a temporary run directory. Frames per
second are steps over the CPU seconds of this process spent in ``learn`` (rollouts and updates; one torch
thread as the shipped configs use, so on an idle machine the wall time), so other programs on a busy
machine count less. It prints one JSON line; ``scripts/train_speed_ab.py`` runs it for two checkouts in turn.
It reads only what every version of ``training.train`` has, so that it measures an older checkout too
(``PYTHONPATH=<checkout> python scripts/train_speed.py ...``; the line names the package it imported).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any


def _timed(method: Any, clock: dict[str, float], name: str) -> Any:
    """``method`` adding its CPU seconds to ``clock[name]``."""

    def timed(*args: Any, **kwargs: Any) -> Any:
        started = time.process_time()
        try:
            return method(*args, **kwargs)
        finally:
            clock[name] += time.process_time() - started

    return timed


def measure(config_path: str, steps: int, profile: str | None = None) -> dict[str, Any]:
    import torch

    import fiesta_envs
    from fiesta_envs.training.config import load_config
    from fiesta_envs.training.train import Trainer

    overrides = [
        f"total_timesteps={steps}",
        "pretrain=null",
        "eval.every=0",
        "final_eval.games=0",
        "checkpoint_every=100000000",
        "tensorboard=false",
        "progress_bar=false",
    ]
    config = load_config(config_path, overrides)
    clock = {"cpu": 0.0, "wall": 0.0, "environment": 0.0, "update": 0.0}
    with tempfile.TemporaryDirectory(prefix="train-speed-") as run_dir:
        trainer = Trainer(config, Path(run_dir), progress=False)
        torch.set_num_threads(config.torch_threads)
        torch.distributions.Distribution.set_default_validate_args(False)
        start = trainer._start()
        model_class = type(trainer.model)
        learn = model_class.learn  # timed on the class: an attribute of the model would go into its checkpoint
        profiler = None
        if profile:
            import cProfile

            profiler = cProfile.Profile()

        def timed_learn(model: Any, *args: Any, **kwargs: Any) -> Any:
            cpu, wall = time.process_time(), time.perf_counter()
            if profiler is not None:
                profiler.enable()
            try:
                return learn(model, *args, **kwargs)
            finally:
                if profiler is not None:
                    profiler.disable()
                clock["cpu"] += time.process_time() - cpu
                clock["wall"] += time.perf_counter() - wall

        parts = {"environment": (type(trainer.vec_env), "step_wait"), "update": (model_class, "train")}
        originals = {name: getattr(owner, method) for name, (owner, method) in parts.items()}
        for name, (owner, method) in parts.items():
            setattr(owner, method, _timed(originals[name], clock, name))
        model_class.learn = timed_learn
        bar = trainer._progress_bar(start)
        try:
            trainer._train(start, bar)
        finally:
            model_class.learn = learn
            for name, (owner, method) in parts.items():
                setattr(owner, method, originals[name])
            bar.close()
            trainer.vec_env.close()
        frames = int(trainer.model.num_timesteps)
    if profiler is not None:
        profiler.dump_stats(profile)
    return {
        "config": config_path,
        "package": str(Path(fiesta_envs.__file__).parent),
        "steps": frames,
        "cpu_seconds": round(clock["cpu"], 3),
        "wall_seconds": round(clock["wall"], 3),
        "frames_per_second": round(frames / clock["cpu"], 1),
        "frames_per_wall_second": round(frames / clock["wall"], 1),
        "share": {
            "environment": round(clock["environment"] / clock["cpu"], 3),
            "update": round(clock["update"] / clock["cpu"], 3),
            "rollout_inference_and_rest": round(1 - (clock["environment"] + clock["update"]) / clock["cpu"], 3),
        },
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", required=True, help="a training config (YAML)")
    parser.add_argument("--steps", type=int, default=16384, help="PPO steps to time (default 16384)")
    parser.add_argument("--profile", metavar="FILE", help="also save a cProfile of learn() to FILE")
    args = parser.parse_args(argv)
    print(json.dumps(measure(args.config, args.steps, args.profile)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
