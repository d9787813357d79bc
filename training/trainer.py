"""``Trainer``: one training run, whichever library learns (``training/backend.py``).

The trainer owns what a run does around the learning: the run directory (``config.yaml``, ``eval.jsonl``,
``learning_curve.png``, ``final_eval.json``), the schedule, the periodic and final evaluations against the
baselines, the checkpoint meta and the lines the run prints. The backend trains, snapshots and saves.

The schedule: ``snapshot_every``, ``eval.every``, ``checkpoint_every`` and ``total_timesteps`` are rounded up to
a multiple of the backend's ``schedule_unit`` (stable-baselines3: the rollout ``ppo.n_steps x n_envs``, so events
fall between PPO updates); the trainer asks the backend to learn up to the next event, and an event happens at
the first step reached that crosses a multiple of its period (in this order: snapshot, evaluation, checkpoint;
the last step always checkpoints).
"""

from __future__ import annotations

import json
import math
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fiesta_envs.core.wording import players
from fiesta_envs.evaluation.checkpoints import CheckpointError, check_compatible, latest_checkpoint, read_meta
from fiesta_envs.files.atomic import write_atomically
from fiesta_envs.training.backend import Backend, uses_league
from fiesta_envs.training.config import TrainConfig, checkpoint_meta, save_config
from fiesta_envs.training.league import FrozenPolicy
from fiesta_envs.training.run_eval import (
    EVAL_LOG,
    FINAL_EVAL,
    evaluate,
    intervals,
    print_table,
    run_seed,
    summarise,
)

RUN_CONFIG = "config.yaml"
LEARNING_CURVE = "learning_curve.png"


def _round_up(value: int, unit: int) -> int:
    return max(unit, math.ceil(value / unit) * unit)


def crossed(before: int, after: int, every: int) -> bool:
    """Whether a multiple of ``every`` lies in ``(before, after]``."""
    return every > 0 and after // every > before // every


def make_backend(config: TrainConfig, run_dir: Path, note: Callable[[str], None]) -> Backend:
    """The backend named by ``config.backend``; ``note`` prints one line for the user."""
    if config.backend == "rllib":
        from fiesta_envs.training.rllib_backend import RllibBackend

        return RllibBackend(config, run_dir, note)
    from fiesta_envs.training.sb3_backend import SB3Backend

    return SB3Backend(config, run_dir, note)


class Trainer:
    """One training run (see the module docstring for the order of events)."""

    def __init__(
        self,
        config: TrainConfig,
        run_dir: Path,
        resume: bool = False,
        progress: bool = True,
        on_evaluation: Callable[[int, dict[str, float]], None] | None = None,
        backend: Backend | None = None,
    ) -> None:
        self.config = config
        #: called after every periodic evaluation with (step, {baseline: win rate}); may raise to stop
        self.on_evaluation = on_evaluation
        self.run_dir = Path(run_dir)
        self.resume = resume
        self.show_progress = progress and config.progress_bar
        self.backend: Backend = backend if backend is not None else make_backend(config, self.run_dir, note)
        unit = self.backend.schedule_unit
        # (0 steps: a run that is only its pretrain stage; its network is the checkpoint at step 0)
        self.total = _round_up(config.total_timesteps, unit) if config.total_timesteps else 0
        self.checkpoint_every = _round_up(config.checkpoint_every, unit)
        self.snapshot_every = _round_up(config.opponents.self_play.snapshot_every, unit)
        self.eval_every = _round_up(config.eval.every, unit) if config.eval.every else 0
        self.uses_league = uses_league(config)
        self.step = 0
        self.bar: Any = None
        #: seconds spent training (pretrain and PPO, not evaluating) before this process, and since when it counts
        self.trained_before = 0.0
        self._counting_since = time.perf_counter()

    # -- what stable-baselines3's backend holds (bench measures them) -----------------------------
    @property
    def model(self) -> Any:
        return getattr(self.backend, "model", None)

    @property
    def vec_env(self) -> Any:
        return getattr(self.backend, "vec_env", None)

    # -- the run ---------------------------------------------------------------------------
    def run(self) -> Any:
        """Train to ``total_timesteps`` from the start or the latest checkpoint; the final evaluation's rows."""
        self.run_dir.mkdir(parents=True, exist_ok=True)
        try:
            self._counting_since = time.perf_counter()
            self._start()
            bar = self._progress_bar(self.step)
            try:
                self.bar = bar
                if self.config.eval.at_start and not self.resume:  # the network PPO starts from
                    self._periodic_evaluation(0)
                self._train(self.step, bar)
            finally:
                bar.close()
            return self._final_evaluation()
        finally:
            self.backend.close()

    def _start(self) -> int:
        config = self.config
        if self.resume:
            checkpoint = latest_checkpoint(self.run_dir)
            if checkpoint is None:
                raise CheckpointError(f"cannot resume: {self.run_dir} has no complete checkpoint")
            meta = read_meta(checkpoint)
            check_compatible(meta, config.game, config.num_players)
            self.trained_before = self._forget_evaluations_after(int(meta["step"]))
            self.step = self.backend.start(checkpoint, meta)
            self._note(f"resuming {self.run_dir} from step {self.step:,} ({checkpoint.name})")
            return self.step
        save_config(config, self.run_dir / RUN_CONFIG)
        (self.run_dir / EVAL_LOG).unlink(missing_ok=True)
        self.step = self.backend.start(None, None)
        if config.pretrain is not None or config.init is not None:  # a resumable starting point
            self.backend.save_checkpoint(self.step, self._meta(self.step))
        self._note(
            f"training {config.game} ({players(config.num_players)}) for {self.total:,} steps "
            f"{self.backend.describe()}; run directory {self.run_dir}"
        )
        return self.step

    def _forget_evaluations_after(self, step: int) -> float:
        """Drop evaluations logged after the checkpoint we resume from (they will be redone); the training seconds
        of the last one kept (0 if none), from which the resumed run goes on counting."""
        path = self.run_dir / EVAL_LOG
        if not path.is_file():
            return 0.0
        kept = [line for line in path.read_text(encoding="utf-8").splitlines() if _logged_at_most(line, step)]
        write_atomically(path, "".join(line + "\n" for line in kept))
        return float(json.loads(kept[-1]).get("train_seconds", 0.0)) if kept else 0.0

    def training_seconds(self) -> float:
        """Seconds spent training so far (set-up, pretrain and PPO; evaluations not counted), over restarts."""
        return self.trained_before + time.perf_counter() - self._counting_since

    def _progress_bar(self, start: int) -> Any:
        from fiesta_envs.training.progress import ProgressBar

        return ProgressBar(self.total, start, self.show_progress)

    def _train(self, step: int, bar: Any) -> None:
        self.bar = bar
        while step < self.total:
            before = step
            step = self.backend.learn(step, self._next_event(step), bar)
            self.step = step
            bar.advance_to(step)
            if self.uses_league and crossed(before, step, self.snapshot_every):
                self.backend.snapshot(step)
            if crossed(before, step, self.eval_every):
                self._periodic_evaluation(step)
            if crossed(before, step, self.checkpoint_every) or step >= self.total:
                path = self.backend.save_checkpoint(step, self._meta(step))
                bar.note(f"step {step:,}: checkpoint {path}")

    def _next_event(self, step: int) -> int:
        periods = [self.checkpoint_every]
        if self.uses_league:
            periods.append(self.snapshot_every)
        if self.eval_every:
            periods.append(self.eval_every)
        return min([self.total] + [(step // p + 1) * p for p in periods])

    def _meta(self, step: int) -> dict[str, Any]:
        return {**checkpoint_meta(self.config), **self.backend.checkpoint_fields(step)}

    # -- evaluation -------------------------------------------------------------------------
    def learner_policy(self) -> Any:
        """The current network as a deterministic policy (picklable: numpy weights only); with ``shortlist``,
        one that builds the shortlist from the game and plays the chosen candidate's action."""
        actor = self.backend.actor()
        shortlist = self.config.game_shortlist()
        if shortlist is not None:
            from fiesta_envs.policies.shortlist import ShortlistPolicy

            return ShortlistPolicy(actor, shortlist, deterministic=True)
        return FrozenPolicy(actor, deterministic=True, name="learner")

    def _periodic_evaluation(self, step: int) -> None:
        config = self.config
        baselines = config.eval_baselines(config.eval.baselines)
        trained = self.training_seconds()
        started = time.perf_counter()
        results = evaluate(
            config, self.learner_policy(), baselines, config.eval.games, run_seed(config.seed, step, "eval")
        )
        rates = summarise(results)
        self.backend.log_scalars(step, {f"eval/win_rate_vs_{name}": rate for name, rate in rates.items()})
        entry = {
            "step": step,
            "win_rate": rates,
            "interval": intervals(results),
            "games": config.eval.games,
            "train_seconds": round(trained, 1),
        }
        with open(self.run_dir / EVAL_LOG, "a", encoding="utf-8") as handle:
            handle.write(json.dumps(entry) + "\n")
        from fiesta_envs.evaluation.plots import plot_learning_curve

        plot_learning_curve(
            self.run_dir / EVAL_LOG,
            self.run_dir / LEARNING_CURVE,
            f"{config.game}, {players(config.num_players)}: {self.run_dir.name}",
        )
        text = " ".join(f"{name} {rate:.0%}" for name, rate in rates.items())
        self.bar.show(eval=text)
        self.bar.note(f"step {step:,}: win rate vs {text} ({time.perf_counter() - started:.1f}s)")
        self._counting_since += time.perf_counter() - started  # evaluating is not training
        if self.on_evaluation is not None:
            self.on_evaluation(step, rates)

    def _final_evaluation(self) -> Any:
        config = self.config
        if config.final_eval.games == 0:
            return []
        checkpoint = latest_checkpoint(self.run_dir)
        baselines = config.eval_baselines(config.final_eval.baselines)
        results = evaluate(
            config,
            self.learner_policy(),
            baselines,
            config.final_eval.games,
            run_seed(config.seed, self.total, "final_eval"),
            workers=config.final_eval.workers,
        )
        label = f" ({self.backend.label})" if self.backend.label else ""
        print_table(results, f"{config.game}, {players(config.num_players)}{label}: {checkpoint} against the baselines")
        write_atomically(  # a run killed while writing it leaves the previous file, never half of one
            self.run_dir / FINAL_EVAL,
            json.dumps({"step": self.step, "checkpoint": str(checkpoint), "win_rate": summarise(results)}, indent=2),
        )
        return results

    def _note(self, text: str) -> None:
        note(text)


def note(text: str) -> None:
    """One line for the user, on stderr."""
    print(text, file=sys.stderr, flush=True)


def _logged_at_most(line: str, step: int) -> bool:
    """Whether an ``eval.jsonl`` line is a whole evaluation at or before ``step`` (a line torn by a kill is not)."""
    try:
        entry = json.loads(line)
    except json.JSONDecodeError:
        return False
    return isinstance(entry, dict) and isinstance(entry.get("step"), int) and entry["step"] <= step
