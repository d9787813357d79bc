"""``fiesta train --backend rllib``: PPO on Ray RLlib's multi-agent API, on one machine or a Ray cluster.

    fiesta train --backend rllib --config configs/fiesta_mexicana/ppo_rllib.yaml
    RAY_ADDRESS=ray://head:10001 fiesta train --backend rllib --config configs/fiesta_mexicana/ppo_rllib.yaml

The same YAML config as the stable-baselines3 backend (``training/config.py``), read the same way:

* the environment is ``training/rllib_env.py``: each game deals the seats to roles -- ``learner``, frozen
  copies of it (``opponent_k``), scripted baselines played inside the environment -- by
  ``opponents.baselines`` and ``opponents.self_play.weight``; cooperative games with ``team_play: shared``
  put the learner in every seat;
* the modules are ``training/rllib_module.py`` (masked actor, critic): ``learner`` is trained; the frozen
  copies ``frozen_0 .. frozen_{pool_size-1}`` are not (``policies_to_train``); every
  ``opponents.self_play.snapshot_every`` steps the learner's weights replace the oldest of them (a pool of
  the last ``pool_size`` snapshots; at the start all hold the initial network);
* ``ppo`` maps onto RLlib's PPO: ``n_steps x n_envs`` is ``train_batch_size_per_learner`` (steps between two
  updates), ``batch_size`` the minibatch, ``n_epochs``, ``learning_rate``, ``gamma``, ``gae_lambda``,
  ``clip_range``, ``ent_coef``, ``vf_coef``, ``max_grad_norm``, ``target_kl`` (RLlib's KL target; none: no KL
  loss), ``net_arch`` and ``activation``; ``n_envs`` environments per env runner;
* ``rllib``: ``num_env_runners`` (Ray actors that sample; 0 samples in this process),
  ``num_cpus_per_env_runner`` and ``address`` (none: the cluster in ``RAY_ADDRESS``, else a new local Ray
  instance; ``local``; ``auto``; ``host:port``; ``ray://host:port``).

The run is the one of ``fiesta train`` (``training/trainer.py``: schedule, evaluations, checkpoint meta,
``eval.jsonl`` and ``learning_curve.png``) with the backend of ``training/rllib_backend.py``; each iteration is
also logged to ``rllib_progress.jsonl`` (steps per second, the learner's mean return).

Checkpoints have the layout of the other backend without ``model.zip`` (``save_policy_checkpoint``):
``policy.npz`` (the learner's actor as an ``ActorSnapshot``), ``meta.json``, ``config.yaml``, and RLlib's own
state in ``rllib/`` (what ``--resume`` restores). So ``fiesta evaluate --agents ppo=RUN_DIR`` and ``fiesta
play --opponents RUN_DIR`` use them without Ray, torch or pickle. Periodic and final evaluations are the
usual seat-rotated tables against the baselines (``eval``, ``final_eval``).

Not reproduced from the stable-baselines3 backend: behaviour cloning (``pretrain``), reward shaping, the
shortlist (the network plays the game's actions; ``shortlist: true`` is refused), and
bit-for-bit repeatability (RLlib's sampling actors run asynchronously; a run with one seed is statistically,
not exactly, repeatable). Steps are environment steps of the network seats (the learner's and its frozen
copies'); an iteration samples at least ``n_steps x n_envs`` of them, so events happen at the first
iteration that reaches their step.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from fiesta_envs.training.config import TrainConfig
from fiesta_envs.training.envs import role_env_config as env_config
from fiesta_envs.training.rllib_backend import (
    ENV_NAME,
    PROGRESS_LOG,
    RLLIB_STATE_DIR,
    RllibBackend,
    actor_from_state,
    algorithm_config,
    ray_address,
)
from fiesta_envs.training.trainer import Trainer, crossed, note

__all__ = [
    "ENV_NAME",
    "PROGRESS_LOG",
    "RLLIB_STATE_DIR",
    "RllibTrainer",
    "actor_from_state",
    "algorithm_config",
    "crossed",
    "env_config",
    "ray_address",
    "run_rllib",
]


class RllibTrainer(Trainer):
    """One training run on RLlib: the ``Trainer`` with an ``RllibBackend`` (the module docstring says what it
    does), and the backend's state at hand for inspection."""

    def __init__(self, config: TrainConfig, run_dir: Path, resume: bool = False, progress: bool = True) -> None:
        if config.backend != "rllib":
            raise ValueError(f"RllibTrainer needs backend: rllib, not {config.backend!r}")
        self.rllib = RllibBackend(config, Path(run_dir), note)
        super().__init__(config, run_dir, resume=resume, progress=progress, backend=self.rllib)

    @property
    def algo(self) -> Any:
        return self.rllib.algo

    @property
    def snapshots_taken(self) -> int:
        return self.rllib.snapshots_taken

    def learner_state(self) -> dict[str, Any]:
        """The learner module's weights (numpy arrays) as the learner group holds them."""
        return self.rllib.learner_state()


def run_rllib(config: TrainConfig, run_dir: Path, resume: bool, progress: bool) -> Any:
    """What ``fiesta train`` calls for ``backend: rllib``."""
    os.environ.setdefault("RAY_DEDUP_LOGS", "0")
    return RllibTrainer(config, run_dir, resume=resume, progress=progress).run()
