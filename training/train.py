"""``fiesta train``: MaskablePPO on one seat of a game, against a league of past selves and baselines.

    fiesta train --config fiesta_mexicana/ppo          # a packaged config (fiesta configs lists them)
    fiesta train --config smoke --set total_timesteps=4096 --set ppo.learning_rate=1e-4
    fiesta train --config my_run.yaml                  # a file
    fiesta train --resume runs/fiesta_mexicana/ppo-seed0 [--set total_timesteps=600000]

What a run does, top to bottom (``Trainer.run``, ``training/trainer.py``, with the backend the config's
``backend`` names: ``training/sb3_backend.py`` here, ``training/rllib_backend.py`` for RLlib):

1. Validate the config (``training/config.py``); pick the run directory; refuse to overwrite a
   run that has checkpoints (continue it with ``--resume``).
2. Build ``n_envs`` single-seat environments with random seats: in ``SubprocVecEnv`` worker
   processes (one torch thread each) when ``n_envs > 1``, or all in this process with
   ``vec_env: dummy`` (faster for cheap games on few cores: one batched forward pass for all
   environments, the frozen opponents of all games answered together, and no inter-process
   traffic: ``training/lean_vec_env.py``); ``training/envs.py`` builds them. Every other seat holds
   an ``OpponentMix`` (``training/league.py``) that picks, per episode, a scripted baseline or a frozen past
   self according to the config's weights. Cooperative games: every other seat is the
   learner's latest frozen snapshot (``team_play: frozen``), or, with ``team_play: shared``, one
   ``TeamEnv`` per environment in which the learner plays every seat (parameter sharing: every
   decision is a training sample; ``fiesta_envs/envs/team_env.py``). ``reward_shaping`` adds
   potential-based shaping by the running score margin (``training/shaping.py``).
3. Train in chunks that end at the next event (MaskablePPO, its rollouts collected by
   ``LeanMaskablePPO``: the same computation with less bookkeeping, ``training/lean_ppo.py``);
   every schedule (``snapshot_every``, ``eval.every``, ``checkpoint_every``,
   ``total_timesteps``) is rounded up to a multiple of the rollout size ``ppo.n_steps x
   n_envs``, so events fall between PPO updates. At each event:
   add a snapshot to the league, evaluate against the baselines (TensorBoard ``eval/``), and
   write a checkpoint atomically (``training/checkpoint.py``).
4. At the end: an evaluation table (win rate with its 95% interval per baseline).

Repeatability. A run is a function of its config (seed included) on a given machine and
library versions: at the start of every chunk the global RNGs (python, numpy, torch) are
re-seeded from ``(seed, step)``, and after every checkpoint the environments restart with
fresh episodes seeded from ``(seed, step)`` (episodes in progress at a checkpoint are cut
there, their value bootstrapped as for a time limit). So a run stopped and resumed with
``--resume`` computes bit for bit the same weights, optimiser state and league as the
uninterrupted run at every later checkpoint (on CPU, same versions; tested on the smoke
config). What "exactly" does not cover: the work done after the last checkpoint of a killed
run is redone, not recovered; TensorBoard curves of the redone stretch appear twice; changing
anything but ``total_timesteps``, ``eval``, ``final_eval`` or ``progress_bar`` with ``--set``
on resume gives a different (valid) run. Learning rate and clip range are constants (no
schedules), so extending ``total_timesteps`` on resume changes nothing before the old end.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from fiesta_envs.core.errors import FiestaError
from fiesta_envs.evaluation.checkpoints import CheckpointError, latest_checkpoint, list_checkpoints
from fiesta_envs.training.config import (
    ConfigError,
    TrainConfig,
    add_override_argument,
    apply_overrides,
    config_to_dict,
    load_config,
    read_yaml,
    validate_config,
)
from fiesta_envs.training.envs import _build_env, env_factory, make_vec_env
from fiesta_envs.training.sb3_backend import seed_everything
from fiesta_envs.training.trainer import LEARNING_CURVE, RUN_CONFIG, Trainer

__all__ = [
    "LEARNING_CURVE",
    "RESUME_SAFE_FIELDS",
    "RUN_CONFIG",
    "Trainer",
    "_build_env",
    "add_arguments",
    "env_factory",
    "main",
    "make_vec_env",
    "resolve_run",
    "resume_config",
    "run",
    "seed_everything",
]

#: config fields whose change on ``--resume`` keeps the run identical to an uninterrupted one
RESUME_SAFE_FIELDS = {"total_timesteps", "eval", "final_eval", "progress_bar", "run_dir", "tensorboard"}


# ---------------------------------------------------------------------------------- command line
def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--config",
        type=Path,
        metavar="CONFIG",
        help="a YAML file, or the name of a packaged config (smoke, fiesta_mexicana/ppo: fiesta configs lists them)",
    )
    add_override_argument(parser)
    parser.add_argument(
        "--resume",
        type=Path,
        metavar="RUN_DIR",
        help="continue a run from its latest checkpoint, with the config saved in RUN_DIR",
    )
    parser.add_argument("--run-dir", type=Path, metavar="DIR", help="where the run writes (default: from config)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.add_argument(
        "--backend",
        choices=("sb3", "rllib"),
        help="sb3: MaskablePPO on this machine; rllib: RLlib's PPO on Ray (the rllib extra; see "
        "training/rllib_train.py); default: the config's `backend` field (sb3)",
    )


def run(args: argparse.Namespace) -> int:
    from rich.console import Console

    console = Console(stderr=True)
    run_dir: Path | None = None
    try:
        config, run_dir, resume = resolve_run(args)
        if config.backend == "rllib":
            from fiesta_envs.training.rllib_train import run_rllib

            run_rllib(config, run_dir, resume=resume, progress=not args.no_progress)
        else:
            Trainer(config, run_dir, resume=resume, progress=not args.no_progress).run()
    except (ConfigError, CheckpointError, FiestaError) as error:
        console.print(f"[bold red]error:[/] {error}", markup=True, highlight=False, soft_wrap=True)
        return 2
    except KeyboardInterrupt:
        last = latest_checkpoint(run_dir) if run_dir is not None else None
        if last is None:
            console.print("[yellow]interrupted[/] before the first checkpoint", markup=True, soft_wrap=True)
        else:
            console.print(
                f"[yellow]interrupted[/]; the last checkpoint is {last}; continue with: "
                f"fiesta train --resume {run_dir}",
                markup=True,
                highlight=False,
                soft_wrap=True,
            )
        return 130
    return 0


def resolve_run(args: argparse.Namespace) -> tuple[TrainConfig, Path, bool]:
    """The validated config, the run directory, and whether the run continues from a checkpoint."""
    if args.resume is not None:
        if args.config is not None:
            raise ConfigError(
                f"--resume uses the config saved in {args.resume / RUN_CONFIG}; drop --config "
                "(change fields with --set, e.g. --set total_timesteps=1000000)"
            )
        config, run_dir, resume = resume_config(args.resume, args.overrides, args.run_dir)
        backend = getattr(args, "backend", None)
        if backend is not None and backend != config.backend:
            raise ConfigError(f"{args.resume} was trained with backend {config.backend!r}; drop --backend {backend}")
        return config, run_dir, resume
    if args.config is None:
        raise ConfigError("give --config FILE to start a run, or --resume RUN_DIR to continue one")
    backend = getattr(args, "backend", None)
    config = load_config(args.config, [*args.overrides, *([f"backend={backend}"] if backend else [])])
    run_dir = Path(args.run_dir or config.run_dir or default_run_dir(config, args.config))
    if list_checkpoints(run_dir):
        raise ConfigError(
            f"the run directory {run_dir} already holds checkpoints; continue it with "
            f"`fiesta train --resume {run_dir}` or choose another with --run-dir"
        )
    config.run_dir = str(run_dir)
    return config, run_dir, False


def default_run_dir(config: TrainConfig, config_path: Path) -> Path:
    return Path("runs") / config.game / f"{Path(config_path).stem}-seed{config.seed}"


def resume_config(run_dir: Path, overrides: Sequence[str], new_run_dir: Path | None) -> tuple[TrainConfig, Path, bool]:
    if not run_dir.is_dir():
        raise CheckpointError(f"cannot resume: the run directory {run_dir} does not exist")
    saved_path = run_dir / RUN_CONFIG
    if not saved_path.is_file():
        raise CheckpointError(f"cannot resume: {saved_path} is missing; is {run_dir} a training run directory?")
    if new_run_dir is not None and Path(new_run_dir) != run_dir:
        raise ConfigError("--run-dir cannot move a resumed run; it continues in its own directory")
    if latest_checkpoint(run_dir) is None:
        raise CheckpointError(f"cannot resume: {run_dir} has no complete checkpoint yet; start it again instead")
    saved = read_yaml(saved_path)
    data = apply_overrides(saved, overrides)
    config = validate_config(data, f"{saved_path}" + (f" (with --set {' '.join(overrides)})" if overrides else ""))
    config.run_dir = str(run_dir)
    changed = sorted(k for k in config_to_dict(config) if config_to_dict(config)[k] != saved.get(k))
    risky = [k for k in changed if k not in RESUME_SAFE_FIELDS]
    fixed = [k for k in risky if k in ("game", "num_players", "options", "ppo")]
    if fixed:
        raise ConfigError(
            f"--resume cannot change {', '.join(fixed)}: the checkpoints hold a model built and trained with the "
            f"saved values (see {saved_path}); start a new run to change them"
        )
    if risky:
        print(
            f"note: resuming with changed {', '.join(risky)}; the run is no longer identical to an uninterrupted one",
            file=sys.stderr,
        )
    return config, run_dir, True


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="fiesta train")
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    sys.exit(main())
