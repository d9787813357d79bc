"""What the training loop (``training/trainer.py``) asks of a learning library: the ``Backend`` protocol.

A backend owns the network, its optimiser, the environments it samples and its pool of past selves; the
trainer owns the schedule, the evaluations, the checkpoint meta and what the run prints. Two implement it:
``SB3Backend`` (MaskablePPO, ``training/sb3_backend.py``) and ``RllibBackend`` (RLlib's PPO on Ray,
``training/rllib_backend.py``); the trainer picks one by the config's ``backend``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from fiesta_envs.policies.mlp import ActorSnapshot
    from fiesta_envs.training.config import TrainConfig
    from fiesta_envs.training.progress import ProgressBar


class Backend(Protocol):
    """One learner being trained (the trainer calls ``start`` first and ``close`` last)."""

    #: written into every checkpoint's meta as ``algorithm``
    algorithm: str
    #: every schedule is rounded up to a multiple of it (1: events fall at the first step that reaches them)
    schedule_unit: int
    #: what the final results table's title names after the game (empty: nothing)
    label: str

    def describe(self) -> str:
        """How it samples, for the line a new run prints (``with 8 env(s)``)."""
        ...

    def start(self, checkpoint: Path | None, meta: dict[str, Any] | None) -> int:
        """A new run (``checkpoint`` None; the self-play pool holds the initial network), or the state of
        ``checkpoint`` whose ``meta.json`` is ``meta`` restored; the step the run is at."""
        ...

    def learn(self, start: int, stop: int, bar: ProgressBar) -> int:
        """Train from step ``start`` towards ``stop``; the step reached (``stop`` itself when ``stop - start`` is a
        multiple of ``schedule_unit``)."""
        ...

    def actor(self) -> ActorSnapshot:
        """The current network's actor: numpy weights, picklable, the same logits as the network."""
        ...

    def snapshot(self, step: int) -> None:
        """Add the current network to the self-play pool and hand the new pool to the environments."""
        ...

    def save_checkpoint(self, step: int, meta: dict[str, Any]) -> Path:
        """Write a checkpoint at ``step`` whose ``meta.json`` holds ``meta``; its path."""
        ...

    def checkpoint_fields(self, step: int) -> dict[str, Any]:
        """What this backend adds to a checkpoint's meta (``algorithm`` included)."""
        ...

    def log_scalars(self, step: int, scalars: dict[str, float]) -> None:
        """Record ``{name: value}`` at ``step`` where the backend keeps its training curves."""
        ...

    def close(self) -> None:
        """Release environments, worker processes and clusters (safe after a failed ``start``)."""
        ...


def uses_league(config: TrainConfig) -> bool:
    """Whether past selves of the learner sit in other seats: self-play, or team-mates that are its latest frozen
    self (not with ``team_play: shared``, where the learner plays every seat)."""
    cooperative = config.cooperative()
    if cooperative and config.team_play == "shared":
        return False
    return cooperative or config.opponents.self_play.weight > 0
