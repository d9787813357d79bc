"""``fiesta train``: MaskablePPO on one seat of a game, against a league of past selves and baselines.

    fiesta train --config fiesta_mexicana/ppo          # a packaged config (fiesta configs lists them)
    fiesta train --config smoke --set total_timesteps=4096 --set ppo.learning_rate=1e-4
    fiesta train --config my_run.yaml                  # a file
    fiesta train --resume runs/fiesta_mexicana/ppo-seed0 [--set total_timesteps=600000]

What a run does, top to bottom (``Trainer.run``):

1. Validate the config (``training/config.py``); pick the run directory; refuse to overwrite a
   run that has checkpoints (continue it with ``--resume``).
2. Build ``n_envs`` single-seat environments with random seats: in ``SubprocVecEnv`` worker
   processes (one torch thread each) when ``n_envs > 1``, or all in this process with
   ``vec_env: dummy`` (faster for cheap games on few cores: one batched forward pass for all
   environments, the frozen opponents of all games answered together, and no inter-process
   traffic: ``training/lean_vec_env.py``). Every other seat holds an ``OpponentMix``
   (``training/league.py``) that picks, per episode, a scripted baseline or a frozen past
   self according to the config's weights. Cooperative games: every other seat is the
   learner's latest frozen snapshot (``team_play: frozen``), or, with ``team_play: shared``, one
   ``TeamEnv`` per environment in which the learner plays every seat (parameter sharing: every
   decision is a training sample; ``fiesta_envs/core/team_env.py``). ``reward_shaping`` adds
   potential-based shaping by the running score margin (``training/shaping.py``).
3. Train in chunks that end at the next event (MaskablePPO, its rollouts collected by
   ``LeanMaskablePPO``: the same computation with less bookkeeping, ``training/lean_ppo.py``);
   every schedule (``snapshot_every``, ``eval.every``, ``checkpoint_every``,
   ``total_timesteps``) is rounded up to a multiple of the rollout size ``ppo.n_steps x
   n_envs``, so events fall between PPO updates. At each event:
   add a snapshot to the league, evaluate against the baselines (TensorBoard ``eval/``), and
   write a checkpoint atomically (``training/checkpoint.py``).
4. At the end: an evaluation table (win rate with a 95% Wilson interval per baseline).

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
import contextlib
import functools
import json
import math
import os
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from fiesta_envs.core.atomic import write_atomically
from fiesta_envs.core.errors import FiestaError
from fiesta_envs.core.wording import players
from fiesta_envs.evaluation.checkpoints import (
    CheckpointError,
    check_compatible,
    latest_checkpoint,
    list_checkpoints,
    load_model,
    read_meta,
)
from fiesta_envs.training.checkpoint import save_checkpoint
from fiesta_envs.training.config import (
    ConfigError,
    TrainConfig,
    add_override_argument,
    apply_overrides,
    checkpoint_meta,
    config_to_dict,
    load_config,
    read_yaml,
    save_config,
    validate_config,
)
from fiesta_envs.training.league import ActorSnapshot, FrozenPolicy, League, LeagueEnv, OpponentMix
from fiesta_envs.training.run_eval import EVAL_LOG, FINAL_EVAL, evaluate, print_table, run_seed, summarise

RUN_CONFIG = "config.yaml"
LEARNING_CURVE = "learning_curve.png"
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


# ---------------------------------------------------------------------------------- seeds
def seed_everything(seed: int) -> None:
    import torch

    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


# ---------------------------------------------------------------------------------- environments
def _build_env(
    *,
    game: str,
    num_players: int,
    options: dict[str, Any],
    baselines: dict[str, float],
    self_play_weight: float,
    deterministic_members: bool,
    cooperative: bool,
    members: list[str],
    reward_shaping: float = 0.0,
    gamma: float = 0.99,
    team_play: str = "frozen",
    shortlist: int | None = None,
) -> Any:
    """One training environment (module level so that worker processes can build it); ``shortlist``: the version
    of the game's shortlist the learner chooses among (None: the game's actions)."""
    if "torch" in sys.modules:  # one thread per worker: n_envs workers share the machine's cores
        sys.modules["torch"].set_num_threads(1)
    from stable_baselines3.common.monitor import Monitor

    from fiesta_envs.core.shortlist import ShortlistEnv, shortlist_of
    from fiesta_envs.registry import game_spec, make_gym_env, make_policy

    if cooperative and team_play == "shared":  # one policy plays every seat: every decision trains it
        from fiesta_envs.core.team_env import TeamEnv

        env: Any = TeamEnv(game_spec(game).game_class(), num_players=num_players, **options)
        if shortlist is not None:
            env = ShortlistEnv(env, shortlist_of(env.game, shortlist))
        if reward_shaping > 0:
            from fiesta_envs.training.shaping import ScoreShaping

            env = ScoreShaping(env, reward_shaping, gamma)
        return Monitor(env)

    def opponent(name: str) -> Any:  # any agent spec (fiesta_envs/agents/registry.py), checked for this game
        return make_policy(game, name, num_players=num_players, options=options)

    opponents = [
        OpponentMix(
            {name: (opponent(name), weight) for name, weight in baselines.items()},
            self_play_weight=1.0 if cooperative else self_play_weight,
            deterministic_members=deterministic_members,
            latest_only=cooperative,
        )
        for _ in range(num_players - 1)
    ]
    env = LeagueEnv(make_gym_env(game, num_players=num_players, opponents=opponents, seat=None, **options))
    env.set_league(members)
    if shortlist is not None:
        env = ShortlistEnv(env, shortlist_of(env.unwrapped.game, shortlist))
    if reward_shaping > 0:
        from fiesta_envs.training.shaping import ScoreShaping

        env = ScoreShaping(env, reward_shaping, gamma)
    return Monitor(env)


def env_factory(config: TrainConfig, members: list[str], pretraining: bool = False) -> Any:
    """A picklable function that builds one training environment; with ``pretraining``, the one the
    teacher's games are collected in (its opponents are ``pretrain.opponents``, no league)."""
    return functools.partial(
        _build_env,
        game=config.game,
        num_players=config.num_players,
        options=dict(config.options),
        baselines=config.pretrain_opponents if pretraining else dict(config.opponents.baselines),
        self_play_weight=0.0 if pretraining else config.opponents.self_play.weight,
        deterministic_members=config.opponents.self_play.deterministic,
        cooperative=False if pretraining else config.cooperative(),
        members=[] if pretraining else list(members),
        reward_shaping=config.reward_shaping,
        gamma=config.ppo.gamma,
        team_play=config.team_play,
        shortlist=config.shortlist_in_use,
    )


def make_vec_env(config: TrainConfig, members: list[str]) -> Any:
    from stable_baselines3.common.vec_env import SubprocVecEnv

    from fiesta_envs.training.lean_vec_env import LeanDummyVecEnv

    factory = env_factory(config, members)
    if config.n_envs == 1 or config.vec_env == "dummy":
        return LeanDummyVecEnv([factory] * config.n_envs)
    return SubprocVecEnv([factory] * config.n_envs, start_method="forkserver")


# ---------------------------------------------------------------------------------- the trainer
def _round_up(value: int, unit: int) -> int:
    return max(unit, math.ceil(value / unit) * unit)


class Trainer:
    """One training run (see the module docstring for the order of events)."""

    def __init__(
        self,
        config: TrainConfig,
        run_dir: Path,
        resume: bool = False,
        progress: bool = True,
        on_evaluation: Callable[[int, dict[str, float]], None] | None = None,
    ) -> None:
        self.config = config
        #: called after every periodic evaluation with (step, {baseline: win rate}); may raise to stop
        self.on_evaluation = on_evaluation
        self.run_dir = Path(run_dir)
        self.resume = resume
        self.show_progress = progress and config.progress_bar
        unit = config.rollout_size
        self.total = _round_up(config.total_timesteps, unit)
        self.checkpoint_every = _round_up(config.checkpoint_every, unit)
        self.snapshot_every = _round_up(config.opponents.self_play.snapshot_every, unit)
        self.eval_every = _round_up(config.eval.every, unit) if config.eval.every else 0
        self.cooperative = config.cooperative()
        shared_team = self.cooperative and config.team_play == "shared"
        self.uses_league = not shared_team and (self.cooperative or config.opponents.self_play.weight > 0)
        self.league = League(self.run_dir, 1 if self.cooperative else config.opponents.self_play.pool_size)
        self.model: Any = None
        self.vec_env: Any = None

    # -- the run -----------------------------------------------------------------------
    def run(self) -> Any:
        import torch

        torch.set_num_threads(self.config.torch_threads)
        torch.distributions.Distribution.set_default_validate_args(False)  # ~20% faster rollouts; masks are valid
        self.run_dir.mkdir(parents=True, exist_ok=True)
        try:
            start = self._start()
            bar = self._progress_bar(start)
            try:
                self._train(start, bar)
            finally:
                bar.close()
        finally:
            if self.vec_env is not None:
                with contextlib.suppress(OSError, EOFError):  # workers already gone (Ctrl-C reaches them too)
                    self.vec_env.close()
        return self._final_evaluation()

    def _start(self) -> int:
        config = self.config
        if self.resume:
            checkpoint = latest_checkpoint(self.run_dir)
            meta = read_meta(checkpoint)
            check_compatible(meta, config.game, config.num_players)
            step = int(meta["step"])
            self.league.forget_after(step)
            self._forget_evaluations_after(step)
            self.vec_env = make_vec_env(config, self.league.members(step))
            from fiesta_envs.training.lean_ppo import lean

            self.model = lean(load_model(checkpoint, env=self.vec_env, device=config.device))
            if self.model.num_timesteps != step:
                raise CheckpointError(
                    f"checkpoint {checkpoint}: its model is at step {self.model.num_timesteps}, its meta says {step}"
                )
            self._note(f"resuming {self.run_dir} from step {step:,} ({checkpoint.name})")
        else:
            step = 0
            save_config(config, self.run_dir / RUN_CONFIG)
            self.league.forget_after(-1)  # leftovers of an attempt that died before its first checkpoint
            (self.run_dir / EVAL_LOG).unlink(missing_ok=True)
            self.vec_env = make_vec_env(config, [])
            self.model = self._new_model(self.vec_env)
            self._configure_logger(step)
            if config.pretrain is not None:
                self._pretrain()
            if self.uses_league:  # the first member of the league: the network as PPO starts
                self.league.add(self.model, 0)
                self.vec_env.env_method("set_league", self.league.members(0))
            if config.pretrain is not None:  # a resumable starting point: the cloned network
                save_checkpoint(self.model, self.run_dir, 0, self._meta(0))
            self._note(
                f"training {config.game} ({players(config.num_players)}) for {self.total:,} steps "
                f"with {config.n_envs} env(s); run directory {self.run_dir}"
            )
            return step
        self._configure_logger(step)
        return step

    def _pretrain(self) -> None:
        """Behaviour cloning of ``pretrain.teacher`` before the first PPO step (training/pretrain.py)."""
        from fiesta_envs.training.pretrain import pretrain

        config = self.config
        seed_everything(run_seed(config.seed, 0, "pretrain"))
        pretrain(
            self.model,
            config,
            self.run_dir,
            env_factory=env_factory(config, [], pretraining=True),
            seed=run_seed(config.seed, 0, "pretrain"),
            note=self._note,
        )

    def _forget_evaluations_after(self, step: int) -> None:
        """Drop evaluations logged after the checkpoint we resume from (they will be redone)."""
        path = self.run_dir / EVAL_LOG
        if path.is_file():
            kept = [line for line in path.read_text(encoding="utf-8").splitlines() if _logged_at_most(line, step)]
            write_atomically(path, "".join(line + "\n" for line in kept))

    def _new_model(self, vec_env: Any) -> Any:
        import torch.nn as nn

        from fiesta_envs.training.lean_ppo import LeanMaskablePPO

        config, ppo = self.config, self.config.ppo
        seed_everything(run_seed(config.seed, 0, "model"))
        return LeanMaskablePPO(
            "MlpPolicy",
            vec_env,
            learning_rate=ppo.learning_rate,
            n_steps=ppo.n_steps,
            batch_size=ppo.batch_size,
            n_epochs=ppo.n_epochs,
            gamma=ppo.gamma,
            gae_lambda=ppo.gae_lambda,
            clip_range=ppo.clip_range,
            ent_coef=ppo.ent_coef,
            vf_coef=ppo.vf_coef,
            max_grad_norm=ppo.max_grad_norm,
            target_kl=ppo.target_kl,
            normalize_advantage=ppo.normalize_advantage,
            policy_kwargs={
                "net_arch": list(ppo.net_arch),
                "activation_fn": nn.Tanh if ppo.activation == "tanh" else nn.ReLU,
            },
            seed=run_seed(config.seed, 0, "model"),
            device=config.device,
            verbose=0,
        )

    def _configure_logger(self, step: int) -> None:
        """TensorBoard events in ``tensorboard/`` and a CSV per (re)start: ``logs/progress_from_<step>.csv``."""
        from stable_baselines3.common.logger import CSVOutputFormat, Logger, make_output_format

        logs = self.run_dir / "logs"
        logs.mkdir(exist_ok=True)
        formats = [CSVOutputFormat(str(logs / f"progress_from_{step:09d}.csv"))]
        if self.config.tensorboard:
            formats.append(make_output_format("tensorboard", str(self.run_dir / "tensorboard")))
        self.model.set_logger(Logger(str(logs), formats))

    def _progress_bar(self, start: int) -> Any:
        from fiesta_envs.training.progress import ProgressBar

        return ProgressBar(self.total, start, self.show_progress)

    def _train(self, step: int, bar: Any) -> None:
        from fiesta_envs.training.progress import ProgressCallback

        callback = ProgressCallback(bar)
        self.bar = bar
        restart_envs = True
        while step < self.total:
            seed_everything(run_seed(self.config.seed, step, "global"))
            if restart_envs:
                self._restart_envs(step)
                restart_envs = False
            stop = self._next_event(step)
            self.model.learn(stop - step, reset_num_timesteps=False, callback=callback, progress_bar=False)
            if self.model.num_timesteps != stop:  # cannot happen with schedules rounded to rollouts
                raise RuntimeError(f"training stopped at step {self.model.num_timesteps}, expected {stop}")
            step = stop
            bar.advance_to(step)
            if self.uses_league and step % self.snapshot_every == 0:
                self.league.add(self.model, step)
                self.vec_env.env_method("set_league", self.league.members(step))
            if self.eval_every and step % self.eval_every == 0:
                self._periodic_evaluation(step)
            if step % self.checkpoint_every == 0 or step == self.total:
                path = save_checkpoint(self.model, self.run_dir, step, self._meta(step))
                bar.note(f"step {step:,}: checkpoint {path}")
                restart_envs = True

    def _next_event(self, step: int) -> int:
        periods = [self.checkpoint_every]
        if self.uses_league:
            periods.append(self.snapshot_every)
        if self.eval_every:
            periods.append(self.eval_every)
        return min([self.total] + [(step // p + 1) * p for p in periods])

    def _restart_envs(self, step: int) -> None:
        """Fresh episodes seeded from (seed, step): what makes a resumed run match an uninterrupted one."""
        self.vec_env.seed(run_seed(self.config.seed, step, "envs"))
        self.model._last_obs = self.vec_env.reset()
        self.model._last_episode_starts = np.ones((self.vec_env.num_envs,), dtype=bool)

    def _meta(self, step: int) -> dict[str, Any]:
        config = self.config
        return {
            **checkpoint_meta(config),
            "league": [Path(p).name for p in self.league.members(step)] if self.uses_league else [],
            "algorithm": "MaskablePPO",
        }

    # -- evaluation ---------------------------------------------------------------------
    def learner_policy(self) -> Any:
        """The current network as a deterministic policy (picklable: numpy weights only); with ``shortlist``,
        one that builds the shortlist from the game and plays the chosen candidate's action."""
        actor = ActorSnapshot.from_model(self.model)
        shortlist = self.config.game_shortlist()
        if shortlist is not None:
            from fiesta_envs.core.shortlist import ShortlistPolicy

            return ShortlistPolicy(actor, shortlist, deterministic=True)
        return FrozenPolicy(actor, deterministic=True, name="learner")

    def _periodic_evaluation(self, step: int) -> None:
        config = self.config
        baselines = config.eval_baselines(config.eval.baselines)
        started = time.perf_counter()
        results = evaluate(
            config, self.learner_policy(), baselines, config.eval.games, run_seed(config.seed, step, "eval")
        )
        rates = summarise(results)
        for name, rate in rates.items():
            self.model.logger.record(f"eval/win_rate_vs_{name}", rate)
        self.model.logger.dump(step)
        with open(self.run_dir / EVAL_LOG, "a", encoding="utf-8") as handle:
            handle.write(json.dumps({"step": step, "win_rate": rates}) + "\n")
        from fiesta_envs.evaluation.plots import plot_learning_curve

        plot_learning_curve(
            self.run_dir / EVAL_LOG,
            self.run_dir / LEARNING_CURVE,
            f"{config.game}, {players(config.num_players)}: {self.run_dir.name}",
        )
        text = " ".join(f"{name} {rate:.0%}" for name, rate in rates.items())
        self.bar.show(eval=text)
        self.bar.note(f"step {step:,}: win rate vs {text} ({time.perf_counter() - started:.1f}s)")
        if self.on_evaluation is not None:
            self.on_evaluation(step, rates)

    def _final_evaluation(self) -> Any:
        config = self.config
        if config.final_eval.games == 0:
            return []
        checkpoint = latest_checkpoint(self.run_dir)
        baselines = config.eval_baselines(config.final_eval.baselines)
        agent = self.learner_policy()
        results = evaluate(
            config,
            agent,
            baselines,
            config.final_eval.games,
            run_seed(config.seed, self.total, "final_eval"),
            workers=config.final_eval.workers,
        )
        print_table(results, f"{config.game}, {players(config.num_players)}: {checkpoint} against the baselines")
        (self.run_dir / FINAL_EVAL).write_text(
            json.dumps({"step": self.total, "checkpoint": str(checkpoint), "win_rate": summarise(results)}, indent=2),
            encoding="utf-8",
        )
        return results

    def _note(self, text: str) -> None:
        print(text, file=sys.stderr, flush=True)


def _logged_at_most(line: str, step: int) -> bool:
    """Whether an ``eval.jsonl`` line is a whole evaluation at or before ``step`` (a line torn by a kill is not)."""
    try:
        entry = json.loads(line)
    except json.JSONDecodeError:
        return False
    return isinstance(entry, dict) and isinstance(entry.get("step"), int) and entry["step"] <= step


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="fiesta train")
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    sys.exit(main())
