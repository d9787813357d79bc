"""The opponent league: frozen past selves of the learner, mixed with scripted baselines.

Self-play here means playing against a *league* of earlier versions of the network, never
the live network on several seats of one trajectory:

* Every ``snapshot_every`` steps the trainer freezes the learner's actor network into a small
  ``.npz`` file in ``run_dir/league/`` (``League.add``). A snapshot is the policy's layers as
  numpy arrays, so frozen opponents run without torch inside the environment workers and cost
  a few matrix-vector products per move.
* The newest ``pool_size`` snapshots form the pool. After each snapshot the trainer sends the
  pool's file list to every environment (``LeagueEnv.set_league``).
* Each opponent seat holds an ``OpponentMix``: at the start of every episode it draws, from the
  episode's seed, either a scripted baseline (by the config's weights) or the pool (with the
  self-play weight), and then a uniformly random member of the pool.
* Cooperative games put the learner's *latest* snapshot in every other seat (``latest_only``),
  refreshed each ``snapshot_every`` steps: all seats are played by the shared policy, one of
  them learning, the others a frozen copy at most ``snapshot_every`` steps old.
"""

from __future__ import annotations

import functools
import os
import re
import weakref
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import gymnasium
import numpy as np

from fiesta_envs.envs.single_seat import NetworkMove
from fiesta_envs.policies.mlp import ACTIVATIONS as _ACTIVATIONS
from fiesta_envs.policies.mlp import ActorSnapshot, masked_choice
from fiesta_envs.policies.policy import Policy

if TYPE_CHECKING:
    from fiesta_envs.core.game import Game

LEAGUE_DIR = "league"
_SNAPSHOT = re.compile(r"^snapshot_(\d{9})\.npz$")

# ``ActorSnapshot`` (the actor as numpy arrays, torch-free) and ``masked_choice`` live in
# ``fiesta_envs.policies.mlp``, shared with the agents shipped in the package; importable from here too.
__all__ = ["_ACTIVATIONS", "ActorSnapshot", "FrozenPolicy", "League", "LeagueEnv", "OpponentMix", "masked_choice"]


# ---------------------------------------------------------------------------------- frozen actor
class FrozenPolicy(Policy):
    """A frozen actor as a ``Policy``: argmax when ``deterministic``, else samples with ``self.rng``."""

    def __init__(self, actor: ActorSnapshot, deterministic: bool = False, seed: int | None = None, name: str = ""):
        super().__init__(seed)
        self.actor = actor
        self.deterministic = deterministic
        self.name = name

    def act(self, observation: np.ndarray, action_mask: np.ndarray, game: Game, player: int) -> int:
        return self._choose(self.actor.logits(observation), action_mask)

    def network_move(self, observation: np.ndarray, action_mask: np.ndarray, game: Game, player: int) -> NetworkMove:
        """The move as a ``NetworkMove`` (its logits computed elsewhere, with other games' moves)."""
        return NetworkMove(self.actor, observation, functools.partial(self._choose, action_mask=action_mask))

    def _choose(self, logits: np.ndarray, action_mask: np.ndarray) -> int:
        return masked_choice(logits, action_mask, None if self.deterministic else self.rng)

    def __repr__(self) -> str:
        return f"FrozenPolicy({self.name or 'actor'}, deterministic={self.deterministic})"


# ---------------------------------------------------------------------------------- the pool on disk
class League:
    """The snapshots of one run, in ``run_dir/league/snapshot_{step:09d}.npz``."""

    def __init__(self, run_dir: Path, pool_size: int) -> None:
        self.directory = Path(run_dir) / LEAGUE_DIR
        self.pool_size = pool_size

    def add(self, model: Any, step: int) -> Path:
        self.directory.mkdir(parents=True, exist_ok=True)
        path = self.directory / f"snapshot_{step:09d}.npz"
        ActorSnapshot.from_model(model).save(path)
        return path

    def snapshots(self) -> list[tuple[int, Path]]:
        """Every snapshot on disk as ``(step, path)``, oldest first."""
        if not self.directory.is_dir():
            return []
        found = [(int(m.group(1)), p) for p in self.directory.iterdir() if (m := _SNAPSHOT.match(p.name))]
        return sorted(found)

    def members(self, up_to_step: int | None = None) -> list[str]:
        """The pool: paths of the newest ``pool_size`` snapshots taken at or before ``up_to_step``."""
        found = [path for step, path in self.snapshots() if up_to_step is None or step <= up_to_step]
        return [str(path) for path in found[-self.pool_size :]]

    def forget_after(self, step: int) -> None:
        """Delete snapshots newer than ``step`` (left by a run killed after its last checkpoint)."""
        for snapshot_step, path in self.snapshots():
            if snapshot_step > step:
                path.unlink(missing_ok=True)


#: the snapshots loaded in this process, by file (see ``shared_snapshot``)
_LOADED: weakref.WeakValueDictionary[tuple[str, int, int, int], ActorSnapshot] = weakref.WeakValueDictionary()


def shared_snapshot(path: str) -> ActorSnapshot:
    """The snapshot in the file ``path``, one object for every seat of every environment of this process that
    holds it (so that their moves are answered by one forward pass: ``LeanDummyVecEnv``). A file written anew
    is another file (its inode and time change); a snapshot no seat holds any more is dropped."""
    status = os.stat(path)
    key = (os.path.abspath(path), status.st_ino, status.st_mtime_ns, status.st_size)
    actor = _LOADED.get(key)
    if actor is None:
        actor = _LOADED[key] = ActorSnapshot.load(path)
    return actor


# ---------------------------------------------------------------------------------- one opponent seat
class OpponentMix(Policy):
    """One opponent seat: per episode, a scripted baseline or a frozen self, drawn by weight.

    ``baselines`` maps a policy (already built) to its weight; ``self_play_weight`` is the
    weight of the league pool as a whole. ``latest_only`` always takes the newest member
    (cooperative team-mates). Until the pool has a member its weight is ignored.
    """

    def __init__(
        self,
        baselines: Mapping[str, tuple[Policy, float]],
        self_play_weight: float,
        deterministic_members: bool = False,
        latest_only: bool = False,
        seed: int | None = None,
    ) -> None:
        super().__init__(seed)
        self.baselines = {name: pair for name, pair in baselines.items() if pair[1] > 0}
        self.self_play_weight = float(self_play_weight)
        self.deterministic_members = deterministic_members
        self.latest_only = latest_only
        self.members: list[str] = []
        self._cache: dict[str, ActorSnapshot] = {}
        self._frozen = FrozenPolicy(ActorSnapshot([], [], []), deterministic_members)
        self.current: Policy | None = None
        self.current_name = ""

    def set_members(self, paths: Sequence[str]) -> None:
        self.members = list(paths)
        self._cache = {path: actor for path, actor in self._cache.items() if path in self.members}

    def _actor(self, path: str) -> ActorSnapshot:
        if path not in self._cache:
            self._cache[path] = shared_snapshot(path)
        return self._cache[path]

    def start_episode(self, seed: int | None) -> None:
        self.rng = np.random.default_rng(seed)
        names = list(self.baselines)
        weights = [self.baselines[name][1] for name in names]
        if self.members and self.self_play_weight > 0:
            names.append("")  # the league
            weights.append(self.self_play_weight)
        if not names:
            raise RuntimeError("OpponentMix: no opponent available (no baselines and an empty league)")
        probabilities = np.asarray(weights, dtype=np.float64)
        choice = names[int(self.rng.choice(len(names), p=probabilities / probabilities.sum()))]
        policy_seed = int(self.rng.integers(2**63 - 1))
        if choice:
            policy = self.baselines[choice][0]
            self.current_name = choice
        else:
            path = self.members[-1] if self.latest_only else self.members[int(self.rng.integers(len(self.members)))]
            self._frozen.actor = self._actor(path)
            self._frozen.name = Path(path).stem
            policy = self._frozen
            self.current_name = "self"
        policy.start_episode(policy_seed)
        self.current = policy

    @property  # type: ignore[override]
    def needs_observation(self) -> bool:
        """Whether this episode's opponent reads observations (scripted ones read the engine)."""
        return getattr(self.current, "needs_observation", True)

    def act(self, observation: np.ndarray, action_mask: np.ndarray, game: Game, player: int) -> int:
        if self.current is None:
            raise RuntimeError("OpponentMix.act before start_episode")
        return self.current.act(observation, action_mask, game, player)

    def network_move(
        self, observation: np.ndarray, action_mask: np.ndarray, game: Game, player: int
    ) -> NetworkMove | None:
        """This episode's opponent's ``NetworkMove`` when it plays by a network (a frozen self), else ``None``."""
        offer = getattr(self.current, "network_move", None)
        return offer(observation, action_mask, game, player) if callable(offer) else None


class LeagueEnv(gymnasium.Wrapper):
    """Lets the trainer update the league of every opponent seat (via ``VecEnv.env_method``)."""

    def set_league(self, paths: Sequence[str]) -> None:
        for policy in self.env.unwrapped.opponents:
            if isinstance(policy, OpponentMix):
                policy.set_members(paths)

    def opponent_names(self) -> list[str]:
        return [getattr(policy, "current_name", type(policy).__name__) for policy in self.env.unwrapped.opponents]
