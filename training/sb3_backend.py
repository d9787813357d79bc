"""``SB3Backend``: MaskablePPO (sb3-contrib) on this machine, the default backend of ``fiesta train``.

The network is trained on ``n_envs`` environments of ``make_vec_env`` (``training/envs.py``); the self-play
pool is a ``League`` of snapshot files that the environments' opponents read. Repeatability: every ``learn``
re-seeds the global RNGs (python, numpy, torch) from ``(seed, step)``, and after every checkpoint the
environments restart with fresh episodes seeded from ``(seed, step)``, so a run resumed from a checkpoint
computes the same weights as the uninterrupted run (``training/train.py`` states the guarantee).
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from fiesta_envs.evaluation.checkpoints import CheckpointError, load_model
from fiesta_envs.policies.mlp import ActorSnapshot
from fiesta_envs.training.backend import uses_league
from fiesta_envs.training.checkpoint import save_checkpoint
from fiesta_envs.training.envs import env_factory, make_vec_env
from fiesta_envs.training.league import League
from fiesta_envs.training.run_eval import run_seed

if TYPE_CHECKING:
    from fiesta_envs.training.config import TrainConfig
    from fiesta_envs.training.progress import ProgressBar


def seed_everything(seed: int) -> None:
    """Seed python's, numpy's and torch's global RNGs."""
    import torch

    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


class SB3Backend:
    """MaskablePPO with a league of past selves on disk (see the module docstring)."""

    algorithm = "MaskablePPO"
    label = ""

    def __init__(self, config: TrainConfig, run_dir: Path, note: Callable[[str], None]) -> None:
        self.config = config
        self.run_dir = Path(run_dir)
        self.note = note
        self.schedule_unit = config.rollout_size
        self.uses_league = uses_league(config)
        self.league = League(self.run_dir, 1 if config.cooperative() else config.opponents.self_play.pool_size)
        self.model: Any = None
        self.vec_env: Any = None
        self._fresh_episodes = True
        self._callback: Any = None

    def describe(self) -> str:
        return f"with {self.config.n_envs} env(s)"

    # -- start -------------------------------------------------------------------------------
    def start(self, checkpoint: Path | None, meta: dict[str, Any] | None) -> int:
        import torch

        torch.set_num_threads(self.config.torch_threads)
        torch.distributions.Distribution.set_default_validate_args(False)  # ~20% faster rollouts; masks are valid
        self._fresh_episodes = True
        if checkpoint is not None and meta is not None:
            return self._resume(checkpoint, int(meta["step"]))
        self.league.forget_after(-1)  # leftovers of an attempt that died before its first checkpoint
        self.vec_env = make_vec_env(self.config, [])
        self.model = self._new_model(self.vec_env)
        self._configure_logger(0)
        if self.config.init is not None:
            self._warm_start()
        if self.config.pretrain is not None:
            self._pretrain()
        if self.uses_league:  # the first member of the league: the network as PPO starts
            self.snapshot(0)
        return 0

    def _resume(self, checkpoint: Path, step: int) -> int:
        self.league.forget_after(step)
        self.vec_env = make_vec_env(self.config, self.league.members(step))
        from fiesta_envs.training.lean_ppo import lean

        self.model = lean(load_model(checkpoint, env=self.vec_env, device=self.config.device))
        if self.model.num_timesteps != step:
            raise CheckpointError(
                f"checkpoint {checkpoint}: its model is at step {self.model.num_timesteps}, its meta says {step}"
            )
        self._configure_logger(step)
        return step

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

    def _warm_start(self) -> None:
        """The policy starts as the network named by ``init`` (training/warm_start.py)."""
        from fiesta_envs.training.warm_start import copy_into, initial_actor

        copy_into(self.model, initial_actor(self.config))
        self.note(f"init: the policy starts as {self.config.init!r}")

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
            note=self.note,
        )

    def _configure_logger(self, step: int) -> None:
        """TensorBoard events in ``tensorboard/`` and a CSV per (re)start: ``logs/progress_from_<step>.csv``."""
        from stable_baselines3.common.logger import CSVOutputFormat, KVWriter, Logger, make_output_format

        logs = self.run_dir / "logs"
        logs.mkdir(exist_ok=True)
        formats: list[KVWriter] = [CSVOutputFormat(str(logs / f"progress_from_{step:09d}.csv"))]
        if self.config.tensorboard:
            formats.append(make_output_format("tensorboard", str(self.run_dir / "tensorboard")))
        self.model.set_logger(Logger(str(logs), formats))

    # -- training ----------------------------------------------------------------------------
    def learn(self, start: int, stop: int, bar: ProgressBar) -> int:
        from fiesta_envs.training.progress import ProgressCallback

        seed_everything(run_seed(self.config.seed, start, "global"))
        if self._fresh_episodes:
            self._restart_envs(start)
            self._fresh_episodes = False
        if self._callback is None or self._callback.progress is not bar:
            self._callback = ProgressCallback(bar)
        self.model.learn(stop - start, reset_num_timesteps=False, callback=self._callback, progress_bar=False)
        if self.model.num_timesteps != stop:  # cannot happen with schedules rounded to rollouts
            raise RuntimeError(f"training stopped at step {self.model.num_timesteps}, expected {stop}")
        return stop

    def _restart_envs(self, step: int) -> None:
        """Fresh episodes seeded from (seed, step): what makes a resumed run match an uninterrupted one."""
        self.vec_env.seed(run_seed(self.config.seed, step, "envs"))
        self.model._last_obs = self.vec_env.reset()
        self.model._last_episode_starts = np.ones((self.vec_env.num_envs,), dtype=bool)

    def actor(self) -> ActorSnapshot:
        return ActorSnapshot.from_model(self.model)

    def snapshot(self, step: int) -> None:
        self.league.add(self.model, step)
        self.vec_env.env_method("set_league", self.league.members(step))

    # -- checkpoints and logs ----------------------------------------------------------------
    def checkpoint_fields(self, step: int) -> dict[str, Any]:
        league = [Path(p).name for p in self.league.members(step)] if self.uses_league else []
        return {"league": league, "algorithm": self.algorithm}

    def save_checkpoint(self, step: int, meta: dict[str, Any]) -> Path:
        """The checkpoint (``model.zip`` and ``policy.npz``); the next ``learn`` starts fresh episodes."""
        self._fresh_episodes = True
        return save_checkpoint(self.model, self.run_dir, step, meta)

    def log_scalars(self, step: int, scalars: dict[str, float]) -> None:
        for name, value in scalars.items():
            self.model.logger.record(name, value)
        self.model.logger.dump(step)

    def close(self) -> None:
        if self.vec_env is not None:
            with contextlib.suppress(OSError, EOFError):  # workers already gone (Ctrl-C reaches them too)
                self.vec_env.close()
