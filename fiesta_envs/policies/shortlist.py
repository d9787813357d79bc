"""Shortlists: a decision among a few ranked candidates instead of the game's whole action space.

Some games have a huge action space in which a good move is a local calculation over many options
(Fiesta de los Muertos: 1,685 actions, of which ~140 legal words, chosen by how their tags meet the
word read). A plain network must rediscover that calculation from the observation; a *shortlist* does
it once, in code, from what the seat knows: it ranks the legal actions, keeps the best ``choices`` of
them, and describes each with a few numbers. The learner then picks a candidate (``Discrete(choices)``)
and reads, as its whole input, a vector of the decision's context and every candidate's features.

    shortlist = shortlist_of(game)           # a ``Shortlist`` (games that have one: ``Game.shortlist_target``)
    shortlist = shortlist_of(game, version=2)  # a later version of it (``shortlist_versions(game)``)
    candidates = shortlist.build(game, seat)  # for the seat to act now
    candidates.vector                        # float32 (shortlist.size,), entries in [0, 1]
    candidates.actions                       # int64 (shortlist.choices,): the game action of each
                                             # candidate, -1 where there is none
    game.step(candidates.action(k))          # play candidate k

Three users share it, so that training and the shipped agent see exactly the same thing:

* ``ShortlistEnv`` wraps a single-seat (or team) Gymnasium environment: observation = the vector,
  action = a candidate, ``action_masks()`` = the candidates present (what ``fiesta train`` does with
  ``shortlist: true`` in a config);
* ``ShortlistPolicy`` turns a network over the vector into a ``Policy`` of the game's actions
  (evaluations during training, frozen team-mates);
* ``fiesta_envs.agents.shipped`` plays a shipped agent trained this way (its JSON names the shortlist).

A game may keep several versions of its shortlist (a newer ranking, other features) so that agents trained
on an older one play as they did: a run chooses one with ``shortlist_version`` in its config (default 1),
its checkpoints and exported JSON record it, and ``shortlist_version_of(config)`` reads it back (1 when a
run or file predates the field).

A shortlist must use only what the seat to act may know (its test: the vector and the candidates do not
change when only hidden information changes).
"""

from __future__ import annotations

import abc
import importlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, cast

import gymnasium
import numpy as np
from gymnasium import spaces

from fiesta_envs.core.errors import InvalidOptionError
from fiesta_envs.policies.mlp import ActorSnapshot, masked_choice
from fiesta_envs.policies.policy import Policy

if TYPE_CHECKING:
    from fiesta_envs.core.game import Game

#: ``Candidates.actions`` entry of an empty candidate place.
NO_CANDIDATE = -1
#: The shortlist version of a run or file that does not name one.
DEFAULT_VERSION = 1


@dataclass(frozen=True)
class Candidates:
    """One decision as a shortlist sees it: the network's input and the action behind each candidate."""

    vector: np.ndarray  # float32 (Shortlist.size,)
    actions: np.ndarray  # int64 (Shortlist.choices,): a game action, or NO_CANDIDATE

    @property
    def mask(self) -> np.ndarray:
        """int8 (choices,): 1 where a candidate is present."""
        return (self.actions != NO_CANDIDATE).astype(np.int8)

    def action(self, choice: int) -> int:
        """The game action of candidate ``choice``; ``ValueError`` for an empty or unknown place."""
        if not 0 <= choice < len(self.actions) or self.actions[choice] == NO_CANDIDATE:
            present = np.flatnonzero(self.actions != NO_CANDIDATE).tolist()
            raise ValueError(f"candidate {choice} is not on the shortlist; present: {present}")
        return int(self.actions[choice])

    def choice_of(self, action: int) -> int:
        """The candidate holding game action ``action``; ``ValueError`` if the shortlist lacks it."""
        found = np.flatnonzero(self.actions == action)
        if len(found) == 0:
            raise ValueError(f"action {action} is not on the shortlist {self.actions.tolist()}")
        return int(found[0])


class Shortlist(abc.ABC):
    """Ranks a seat's legal actions and describes the best ``choices`` of them (see the module docstring).

    Subclasses set ``name`` (recorded by shipped agents, like ``Game.observation_layout``: change it
    whenever the vector's meaning changes), ``choices`` and ``size``, and implement ``build``.
    """

    name: str
    choices: int
    size: int

    @abc.abstractmethod
    def build(self, game: Game, player: int) -> Candidates:
        """The candidates of ``player``, the seat to act in ``game`` (only what it may know)."""

    def empty(self) -> Candidates:
        """No decision (the game is over): a zero vector and no candidate."""
        return Candidates(np.zeros(self.size, dtype=np.float32), np.full(self.choices, NO_CANDIDATE, dtype=np.int64))

    def action_names(self) -> list[str]:
        """Names of the learner's actions: ``candidate 0`` .. ``candidate K-1``."""
        return [f"candidate {k}" for k in range(self.choices)]


def shortlist_versions(game: Game | type[Game]) -> dict[int, Shortlist]:
    """Every version of a game's shortlist, ``{version: Shortlist}``, loaded from its ``shortlist_target`` (a
    ``Shortlist``: version 1 only, or a mapping of versions); ``NotImplementedError`` for a game without one."""
    target = game.shortlist_target
    if target is None:
        raise NotImplementedError(f"{game.name} has no shortlist")
    module, _, attribute = target.partition(":")
    found = getattr(importlib.import_module(module), attribute)
    return dict(found) if isinstance(found, Mapping) else {DEFAULT_VERSION: found}


def shortlist_of(game: Game | type[Game], version: int = DEFAULT_VERSION) -> Shortlist:
    """Version ``version`` of a game's (or game class's) shortlist; ``NotImplementedError`` for a game without
    one, ``InvalidOptionError`` naming the allowed versions for an unknown version."""
    versions = shortlist_versions(game)
    if isinstance(version, bool) or version not in versions:
        allowed = ", ".join(str(v) for v in versions)
        raise InvalidOptionError(f"{game.name} has no shortlist version {version!r}; allowed: {allowed}")
    return versions[version]


def shortlist_version_of(config: Mapping[str, Any]) -> int | None:
    """The shortlist version a run's config (a checkpoint's, or an exported agent's) trained on: None without
    ``shortlist: true``, else its ``shortlist_version`` (``DEFAULT_VERSION`` when the run predates the field)."""
    if not config.get("shortlist", False):
        return None
    return int(config.get("shortlist_version", DEFAULT_VERSION))


class PlaysOneSeat(Protocol):
    """What ``ShortlistEnv`` reads of the environment it wraps: the game and the seat whose turn it plays."""

    game: Game
    seat: int


class ShortlistEnv(gymnasium.Wrapper):
    """A Gymnasium env whose agent chooses among the shortlist's candidates.

    Wraps an environment whose ``unwrapped`` has ``game`` and ``seat`` (the seat whose observation is
    returned: ``SingleSeatEnv``, ``TeamEnv``). Its observation is ``Candidates.vector``, its action a
    candidate, ``action_masks()`` the candidates present; ``info["action_mask"]`` is replaced likewise.
    ``choice_of(action)`` tells a teacher that plays game actions which candidate that is.
    """

    def __init__(self, env: gymnasium.Env, shortlist: Shortlist) -> None:
        super().__init__(env)
        self.shortlist = shortlist
        self.observation_space = spaces.Box(0.0, 1.0, shape=(shortlist.size,), dtype=np.float32)
        self.action_space = spaces.Discrete(shortlist.choices)
        self._candidates = shortlist.empty()

    def _observe(self, info: dict[str, Any], over: bool) -> np.ndarray:
        base = cast("PlaysOneSeat", self.env.unwrapped)
        self._candidates = self.shortlist.empty() if over else self.shortlist.build(base.game, base.seat)
        if "action_mask" in info:
            info["action_mask"] = self._candidates.mask
        return self._candidates.vector

    def reset(self, **kwargs: Any) -> tuple[np.ndarray, dict[str, Any]]:
        _, info = self.env.reset(**kwargs)
        return self._observe(info, over=False), info

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        _, reward, terminated, truncated, info = self.env.step(self._candidates.action(int(action)))
        return self._observe(info, over=terminated or truncated), float(reward), terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        return self._candidates.mask.astype(bool)

    def choice_of(self, action: int) -> int:
        return self._candidates.choice_of(action)


class ShortlistPolicy(Policy):
    """A network over a shortlist's vector as a ``Policy`` of the game's actions (argmax, or sampled)."""

    needs_observation = False  # it builds its own input from the game

    def __init__(
        self, actor: ActorSnapshot, shortlist: Shortlist, deterministic: bool = True, seed: int | None = None
    ) -> None:
        super().__init__(seed)
        if actor.input_size != shortlist.size or actor.output_size != shortlist.choices:
            raise ValueError(
                f"the network takes {actor.input_size} inputs and gives {actor.output_size} logits; the shortlist "
                f"{shortlist.name!r} has {shortlist.size} entries and {shortlist.choices} candidates"
            )
        self.actor = actor
        self.shortlist = shortlist
        self.deterministic = deterministic

    def act(self, observation: np.ndarray | None, action_mask: np.ndarray, game: Game, player: int) -> int:
        candidates = self.shortlist.build(game, player)
        choice = masked_choice(
            self.actor.logits(candidates.vector), candidates.mask, None if self.deterministic else self.rng
        )
        return candidates.action(choice)

    def __repr__(self) -> str:
        return f"ShortlistPolicy({self.shortlist.name!r}, deterministic={self.deterministic})"


def first_candidate_policy(shortlist: Shortlist) -> ShortlistPolicy:
    """A policy that always plays candidate 0 (the ranking's own choice): what behaviour cloning starts from,
    and the check that a shortlist's candidate 0 plays like the team it ranks by."""
    bias = np.zeros(shortlist.choices, dtype=np.float32)
    bias[0] = 1.0
    actor = ActorSnapshot([np.zeros((shortlist.size, shortlist.choices), dtype=np.float32)], [bias], ["identity"])
    return ShortlistPolicy(actor, shortlist)
