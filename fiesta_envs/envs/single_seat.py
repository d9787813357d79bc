"""One seat of any game as a ``gymnasium.Env``, the other seats played by policies.

This is what ``gymnasium.make("fiesta_envs/FiestaMexicana-v1", ...)`` returns::

    env = gymnasium.make("fiesta_envs/FiestaMexicana-v1", num_players=3,
                         opponents=["greedy", "random"], seat=None)
    obs, info = env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step(env.unwrapped.action_masks().argmax())

* ``seat``: the learner's seat, or ``None`` for a random seat each episode.
* ``opponents``: one policy for every other seat, or a list with one per other seat (in seat
  order, skipping the learner's). A policy is a baseline name (``"random"``, or the game's
  scripted players such as ``"greedy"``), ``"ppo"`` (the trained agent shipped with the
  package, for games that ship one: ``fiesta_envs.agents``), a ``Policy`` object, or a function
  ``fn(observation, action_mask) -> action``. ``set_opponents`` swaps them between episodes.
* Cooperative games: the opponents are the learner's team-mates.
* The learner only sees its own turns. Its reward is 0 until the game ends, then its entry
  of ``Game.returns()`` -- also when an opponent's move ends the game. ``info`` holds the
  ``action_mask`` and the learner's ``seat``, and at the end the final ``scores`` and the
  ``winners`` as fixed-shape arrays (``envs/infos.py``); ``final_info()`` has the game's breakdown.
* ``action_masks()`` (for sb3-contrib's MaskablePPO) and ``info["action_mask"]`` give the
  legal actions. An illegal action ends the episode with reward -1 and a warning, or raises
  ``IllegalActionError`` with ``illegal_action="raise"``.
* ``state_dict()``/``load_state_dict()`` save and continue a game; loading counts as a ``reset()``, so a
  freshly made environment continues a saved game at once (``gymnasium.make`` returns the environment
  itself, which enforces the order: ``step`` or ``render`` before ``reset``/``load_state_dict`` raise
  ``ResetNeeded``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from fiesta_envs.core.errors import IllegalActionError, InvalidOptionError, InvalidStateError
from fiesta_envs.core.game import Game
from fiesta_envs.core.options import refuse_unknown_keywords
from fiesta_envs.core.state_fields import FieldReader
from fiesta_envs.core.wording import players
from fiesta_envs.envs.aec import (
    ILLEGAL_ACTION_PENALTY,
    Picture,
    check_illegal_action_mode,
    check_render_mode,
    render_game,
    render_modes,
)
from fiesta_envs.envs.infos import end_of_game_info, illegal_action_info
from fiesta_envs.files.pickling import PicklesGameAsStateDict
from fiesta_envs.policies.policy import Policy


class ResetNeeded(gymnasium.error.ResetNeeded, RuntimeError):
    """``step`` or ``render`` before ``reset()`` or ``load_state_dict()`` (Gymnasium's ``ResetNeeded``)."""


PolicyFactory = Callable[[Any, "int | None"], Policy]  # (spec, seed) -> Policy; see registry.make_policy


@dataclass(frozen=True)
class NetworkMove:
    """An opponent's move that waits on a network: the logits of ``actor`` (an ``ActorSnapshot``) for ``inputs``,
    then ``choose(logits)`` gives the action. A policy offers one with ``network_move(observation, action_mask,
    game, player)`` (``None`` when it decides otherwise), so that a vector environment can answer the network
    moves of several games with one forward pass (``SingleSeatEnv.begin_step``); ``act`` must play
    ``choose(actor.logits(inputs))``."""

    actor: Any
    inputs: np.ndarray
    choose: Callable[[np.ndarray], int]


def network_move(policy: Any, observation: Any, action_mask: np.ndarray, game: Game, player: int) -> NetworkMove | None:
    """``policy.network_move(...)`` for a policy that has it, else ``None``."""
    offer = getattr(policy, "network_move", None)
    return offer(observation, action_mask, game, player) if callable(offer) else None


class SingleSeatEnv(PicklesGameAsStateDict, gymnasium.Env):
    """The learner plays ``seat``; ``opponents`` play every other seat.

    Plain ``pickle`` works (the opponents must be picklable: baselines are; a lambda is not) and the
    copy continues the episode (``files/pickling.py``).
    """

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "render_fps": 1}

    def __init__(
        self,
        game_class: type[Game],
        policy_factory: PolicyFactory,
        num_players: int | None = None,
        opponents: Any = "random",
        seat: int | None = None,
        illegal_action: str = "terminate",
        render_mode: str | None = None,
        *,
        picture: Picture | None = None,
        **options: Any,
    ) -> None:
        internal = ("game_class", "policy_factory", "picture")  # given by the registry, not by users
        refuse_unknown_keywords(game_class.name, game_class.options, options, SingleSeatEnv.__init__, internal)
        self.game: Game = game_class(num_players=num_players, **options)
        self.picture = picture
        self.metadata = {"render_modes": render_modes(picture), "render_fps": 1}
        self.render_mode = check_render_mode(game_class, render_mode, picture)
        self.illegal_action = check_illegal_action_mode(illegal_action)
        n = self.game.num_players
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n):
            raise InvalidOptionError(f"{self.game.name}: seat={seat!r} is not allowed; use None (random) or 0..{n - 1}")
        self.fixed_seat = seat
        self.seat = 0 if seat is None else seat
        self._policy_factory = policy_factory
        self.opponents: list[Policy] = []
        self.set_opponents(opponents)
        low, high = self.game.observation_bounds()
        self.observation_space = spaces.Box(low, high, shape=(self.game.observation_size,), dtype=np.float32)
        self.action_space = spaces.Discrete(self.game.num_actions)
        self._started = False  # a game is under way (False again after an illegal action ended it)
        self._has_reset = False  # reset() or load_state_dict() was called (Gymnasium's order check)
        self._begun: int | None = None  # the learner's action that begin_step played, until step() completes it

    # -- opponents ------------------------------------------------------------------
    def set_opponents(self, opponents: Any) -> None:
        """One policy spec for all other seats, or a list of one per other seat."""
        others = self.game.num_players - 1
        if isinstance(opponents, (str, bytes)) or not isinstance(opponents, Sequence):
            specs = [opponents] * others
        else:
            specs = list(opponents)
            if len(specs) != others:
                raise InvalidOptionError(
                    f"{self.game.name}: {len(specs)} opponents given for {others} other seats "
                    f"({players(self.game.num_players)}); give one spec or a list of {others}"
                )
        opponents = [self._opponent(spec) for spec in specs]
        for policy in opponents:  # a shipped agent refuses now (no weights for this player count...)
            check = getattr(policy, "check_game", None)
            if callable(check):
                check(self.game)
        self.opponents = opponents

    def _opponent(self, spec: Any) -> Policy:
        try:
            return self._policy_factory(spec, None)
        except InvalidOptionError as error:  # the same kind of error, saying it is about an opponent
            raise type(error)(f"opponents={spec!r}: {error}") from error

    def _policy_of(self, seat: int) -> Policy:
        return self.opponents[seat if seat < self.seat else seat - 1]

    # -- the loop ---------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict]:
        super().reset(seed=seed)
        if options:
            raise InvalidOptionError(
                f"{self.game.name}: reset() takes no options; pass game options to gymnasium.make(...)"
            )
        seeds = self.np_random.integers(0, 2**63 - 1, size=1 + len(self.opponents))
        if self.fixed_seat is None:
            self.seat = int(self.np_random.integers(self.game.num_players))
        self.game.reset(int(seeds[0]))
        self._begun = None
        for policy, policy_seed in zip(self.opponents, seeds[1:], strict=True):
            policy.start_episode(int(policy_seed))
        self._started = self._has_reset = True
        self._play_opponents()
        if self.game.is_over:  # only possible if the rules let others end the game before our turn
            raise RuntimeError(f"{self.game.name}: the game ended before seat {self.seat} could act")
        return self.game.observe(self.seat), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict]:
        if not self._started:
            raise ResetNeeded(f"{self.game.name}: call reset() or load_state_dict() before step()")
        if self._begun is not None:  # begin_step played the action and the opponents so far
            if not isinstance(action, (int, np.integer)) or int(action) != self._begun:
                raise RuntimeError(f"{self.game.name}: step({action!r}) after begin_step({self._begun})")
            self._begun = None
        else:
            if self.game.is_over:
                raise IllegalActionError(f"{self.game.name}: the episode is over; call reset() to start another")
            try:
                self.game.step(action)
            except IllegalActionError as error:
                in_space = isinstance(action, (int, np.integer)) and 0 <= int(action) < self.game.num_actions
                if self.illegal_action == "raise" or not in_space or isinstance(action, (bool, np.bool_)):
                    raise
                gymnasium.logger.warn(f"[seat {self.seat}] illegal action, episode ended: {error}")
                self._started = False
                info = {**illegal_action_info(self.game, str(error)), "seat": self.seat}
                return self.game.observe(self.seat), ILLEGAL_ACTION_PENALTY, True, False, info
        self._play_opponents()
        if self.render_mode == "human":
            self.render()
        if self.game.is_over:
            reward = float(self.game.returns()[self.seat])
            return self.game.observe(self.seat), reward, True, False, self._final_info()
        return self.game.observe(self.seat), 0.0, False, False, self._info()

    def begin_step(self, action: int) -> NetworkMove | None:
        """The first part of ``step(action)``, for a vector environment that answers the network opponents of its
        games together: play the learner's legal ``action`` and the opponents' moves up to the first that waits
        on a network, returned (``None``: no opponent waits). ``play_network_move`` answers it; ``step(action)``
        then plays the rest and returns as usual. Nothing is played for an action ``step`` would refuse (it
        refuses it then), nor before ``reset()``."""
        if not self._started or self.game.is_over or self._begun is not None:
            return None
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            return None
        if not 0 <= int(action) < self.game.num_actions or not self.game.legal_mask()[int(action)]:
            return None
        self.game.step(int(action))
        self._begun = int(action)
        return self._play_opponents(defer=True)

    def play_network_move(self, action: int) -> NetworkMove | None:
        """Play the opponent's answer to the ``NetworkMove`` that ``begin_step`` (or the last call) returned, then
        the opponents' moves up to the next one that waits on a network (returned) or the learner's turn."""
        self.game.step(action)
        return self._play_opponents(defer=True)

    def _play_opponents(self, defer: bool = False) -> NetworkMove | None:
        """Play the opponents until the learner is to act or the game ends; with ``defer``, stop at a move that
        waits on a network and return it (``begin_step``)."""
        game = self.game
        while not game.is_over and game.current_player != self.seat:
            player = game.current_player
            mask = game.legal_mask()
            policy = self._policy_of(player)
            observation = game.observe(player) if getattr(policy, "needs_observation", True) else None
            if defer and (move := network_move(policy, observation, mask, game, player)) is not None:
                return move
            action = policy.act(observation, mask, game, player)
            game.step(action)
        return None

    def action_masks(self) -> np.ndarray:
        """Boolean mask of the learner's legal actions (sb3-contrib's MaskablePPO reads this)."""
        if self.game.is_over or not self._started:
            return np.ones(self.game.num_actions, dtype=bool)
        return self.game.legal_mask().astype(bool)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.game.legal_mask().copy(), "seat": self.seat}

    def _final_info(self) -> dict[str, Any]:
        return {**end_of_game_info(self.game), "seat": self.seat}

    def final_info(self) -> dict[str, Any]:
        """The game's breakdown of the final scores (``Game.final_info()``; its shape is the game's own)."""
        if not self.game.is_over:
            raise RuntimeError(f"{self.game.name}: final_info() is only defined once the game is over")
        return self.game.final_info()

    # -- rendering, names, state --------------------------------------------------------
    def render(self) -> str | np.ndarray | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; pass render_mode= to gymnasium.make")
            return None
        if not self._has_reset:
            raise ResetNeeded(f"{self.game.name}: call reset() or load_state_dict() before render()")
        return render_game(self.game, self.render_mode, self.picture)

    def action_to_string(self, action: int) -> str:
        return self.game.action_to_string(action)

    def string_to_action(self, text: str) -> int:
        return self.game.string_to_action(text)

    def observation_views(self, observation: Any) -> dict[str, np.ndarray]:
        """``{block name: array in its documented shape}`` for an observation of this environment (see the
        game's page, "Reading an observation")."""
        return self.game.observation_views(observation)

    def state_dict(self) -> dict[str, Any]:
        """The game and the learner's seat as JSON-safe data (opponent policies are not saved)."""
        return {"seat": self.seat, "game": self.game.state_dict()}

    def load_state_dict(self, data: dict[str, Any]) -> None:
        """Continue a game saved by ``state_dict`` (the learner keeps the saved seat), also in a freshly made
        environment (no ``reset()`` needed); nothing changes when the data is refused (``InvalidStateError``
        naming the field)."""
        if not isinstance(data, Mapping) or "seat" not in data or "game" not in data:
            raise InvalidStateError(f"{self.game.name}: a single-seat state dict needs the keys 'seat' and 'game'")
        FieldReader(data, self.game.name).refuse_unknown_keys(["seat", "game"])
        seat = data["seat"]
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.game.num_players:
            raise InvalidStateError(
                f"{self.game.name}: seat={seat!r} in the state dict; expected 0..{self.game.num_players - 1}"
            )
        if self.fixed_seat is not None and seat != self.fixed_seat:
            raise InvalidStateError(
                f"{self.game.name}: state dict is for seat {seat}, this env plays seat {self.fixed_seat}"
            )
        before = self.game.state_dict()
        try:
            self.game.load_state_dict(data["game"])
        except Exception:
            self.game.load_state_dict(before)  # an engine may have half-loaded the refused data
            raise
        self.seat = seat
        self._started = self._has_reset = True
        self._begun = None
        self._play_opponents()
