"""One PettingZoo Parallel environment for every engine whose rules play decisions simultaneously.

A game opts in with two methods (``SimultaneousGame``):

* ``split_simultaneous()``: at a moment when several seats decide at the same time (Tequila: a round,
  once the dice are final), one copy of the game per such seat, each at that seat's next decision and
  playing that seat's part only; a copy's ``current_player`` becomes -1 once its seat's part is done.
  ``None`` when the decision now is one seat's alone (Tequila: the starting player's re-roll).
* ``join_simultaneous(parts)``: take every seat's part back into the game and go on.

``parallel_env_classes(GameClass, "name_v1", module=__name__)`` returns the ``parallel_raw_env`` class and the
``parallel_env`` factory of a game's public module. In every ``step(actions)``:

* in a simultaneous part, every seat with a decision left makes its next one, each in its own copy:
  what a seat is shown is what the game's observer shows it (for Tequila: the others as they stood
  when the round began), so nothing another seat does in the part is seen before it ends. Once every
  seat is done, the parts are joined;
* otherwise only the seat to act acts.

Agents with nothing to decide in a step (done with their part, or not the one to act) get an all-zero
``action_mask`` and ``infos[agent]["acting"] = False``; their action is ignored (``None`` is fine), as in
PettingZoo's turn-based conversion, where every live agent hands in an action and only the acting one's
counts. Every agent stays until the game ends; then all terminate, with ``Game.returns()`` as rewards and
the end-of-game ``infos`` of the AEC environment (``envs/infos.py``: fixed-shape ``scores`` and ``winners``;
``acting`` False); ``final_info()`` gives the game's breakdown. Observations, spaces, rewards, the
``illegal_action`` option (an illegal action ends the game: -1 for the offender, 0 for the others, or
``"raise"``) and ``render_mode`` are those of the AEC environment (``fiesta_envs.envs.aec``).

``state_dict()`` saves the game as it stood when the current simultaneous part began, the agents still in
the loop and each seat's actions in that part::

    {"game": <Game.state_dict()>,
     "parallel": {"agents": ["player_0", ...],               # [] once the game has ended
                  "part_actions": {"player_0": [12, 7], ...}}} # null outside a simultaneous part

``load_state_dict`` (on a freshly made environment too: it counts as a ``reset()``) splits the game again
and replays each seat's actions on its copy, so ``step(actions)`` continues exactly; a bare engine state
dict starts the loop afresh at that position. A bad field raises ``InvalidStateError`` naming it, and
nothing changes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Protocol, cast, runtime_checkable

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv

from fiesta_envs.core.errors import IllegalActionError, InvalidOptionError, InvalidStateError
from fiesta_envs.core.game import Game
from fiesta_envs.core.options import refuse_unknown_keywords
from fiesta_envs.core.state_fields import FieldReader
from fiesta_envs.envs.aec import (
    ILLEGAL_ACTION_PENALTY,
    GameEnvMixin,
    Picture,
    check_illegal_action_mode,
    check_render_mode,
    render_modes,
    seat_spaces,
)
from fiesta_envs.envs.aec_state import is_env_state_dict
from fiesta_envs.envs.infos import end_of_game_info

#: The key of the Parallel loop's bookkeeping in ``FiestaParallelEnv.state_dict()``.
PARALLEL_KEY = "parallel"


@runtime_checkable
class SimultaneousGame(Protocol):
    """What an engine provides to be played through the Parallel API (see the module docstring)."""

    def split_simultaneous(self) -> Mapping[int, Game] | None: ...

    def join_simultaneous(self, parts: Mapping[int, Game]) -> None: ...


class FiestaParallelEnv(GameEnvMixin, ParallelEnv):
    """The Parallel environment over ``game_class``; subclassed once per game by ``parallel_env_classes``."""

    game_class: ClassVar[type[Game]]
    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["human", "ansi"], "name": "fiesta", "render_fps": 1}
    factory_name: ClassVar[str] = "parallel_env()"  # render() shows the table as the current simultaneous part began

    def __init__(
        self,
        num_players: int | None = None,
        render_mode: str | None = None,
        illegal_action: str = "terminate",
        **options: Any,
    ) -> None:
        self.render_mode = check_render_mode(self.game_class, render_mode, type(self).picture)
        self.illegal_action = check_illegal_action_mode(illegal_action)
        refuse_unknown_keywords(self.game_class.name, self.game_class.options, options, type(self).__init__)
        self.game: Game = self.game_class(num_players=num_players, **options)
        if not isinstance(self.game, SimultaneousGame):
            raise InvalidOptionError(f"{self.game.name}: its rules play no decision simultaneously (no Parallel API)")
        n = self.game.num_players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agents: list[str] = []
        self.observation_spaces, self.action_spaces = seat_spaces(self.game, self.possible_agents)
        self._no_actions = np.zeros(self.game.num_actions, dtype=np.int8)
        self._parts: Mapping[int, Game] | None = None  # the seats' copies during a simultaneous part
        self._part_actions: dict[int, list[int]] = {}  # each seat's actions in the current part (state_dict)
        self._has_reset = False

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # -- who decides where -------------------------------------------------------------
    def _view_of(self, seat: int) -> Game:
        """The game ``seat`` looks at: its own copy during a simultaneous part, else the game."""
        if self._parts is not None and seat in self._parts:
            return self._parts[seat]
        return self.game

    def _deciding_in(self, seat: int) -> Game | None:
        """The game in which ``seat`` has a decision to make now, or None."""
        view = self._view_of(seat)
        return view if not view.is_over and view.current_player == seat else None

    def _split_if_simultaneous(self) -> None:
        if self._parts is None and not self.game.is_over:
            self._parts = cast(SimultaneousGame, self.game).split_simultaneous()  # checked in __init__
            self._part_actions = {seat: [] for seat in self._parts or ()}

    # -- the loop ----------------------------------------------------------------------
    def reset(
        self, seed: int | None = None, options: dict | None = None
    ) -> tuple[dict[str, dict[str, np.ndarray]], dict[str, dict[str, Any]]]:
        # ``options`` is accepted for API compatibility and ignored: game options are fixed at creation.
        self.game.reset(seed)
        self._start_loop()
        return self._observations(), self._infos()

    def _start_loop(self) -> None:
        """Every agent in the loop (none once the game is over), the simultaneous part split if one begins."""
        self._has_reset = True
        self.agents = [] if self.game.is_over else self.possible_agents[:]
        self._parts = None
        self._split_if_simultaneous()

    def step(self, actions: Mapping[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        if not self._has_reset:
            raise RuntimeError(f"{self.game.name}: call reset() before step()")
        if not self.agents:
            return {}, {}, {}, {}, {}
        deciding = {seat: game for seat in range(self.game.num_players) if (game := self._deciding_in(seat))}
        for seat, game in deciding.items():
            agent = self.possible_agents[seat]
            if actions.get(agent) is None:
                raise IllegalActionError(f"{self.game.name}: {agent} has a decision to make and must act this step")
            action = actions[agent]
            try:
                game.step(action)
            except IllegalActionError as error:
                if self.illegal_action == "raise" or not self._in_action_space(action):
                    raise
                return self._end_for_illegal_action(agent, error)
            if self._parts is not None and seat in self._parts:
                self._part_actions[seat].append(int(action))
        if self._parts is not None and all(part.current_player == -1 for part in self._parts.values()):
            cast(SimultaneousGame, self.game).join_simultaneous(self._parts)
            self._parts = None
            self._part_actions = {}
        self._split_if_simultaneous()
        observations = self._observations()
        if self.game.is_over:
            return self._end_game(observations)
        rewards = dict.fromkeys(self.agents, 0.0)
        unfinished = dict.fromkeys(self.agents, False)
        if self.render_mode == "human":
            self.render()
        return observations, rewards, unfinished, dict(unfinished), self._infos()

    def _in_action_space(self, action: Any) -> bool:
        return (
            isinstance(action, (int, np.integer))
            and not isinstance(action, (bool, np.bool_))
            and 0 <= int(action) < self.game.num_actions
        )

    def _mask(self, seat: int) -> np.ndarray:
        game = self._deciding_in(seat)
        return game.legal_mask().copy() if game is not None else self._no_actions.copy()

    def _observations(self) -> dict[str, dict[str, np.ndarray]]:
        return {
            agent: {"observation": self._view_of(seat).observe(seat), "action_mask": self._mask(seat)}
            for seat, agent in enumerate(self.possible_agents)
        }

    def _infos(self) -> dict[str, dict[str, Any]]:
        return {
            agent: {"action_mask": self._mask(seat), "acting": self._deciding_in(seat) is not None}
            for seat, agent in enumerate(self.possible_agents)
        }

    def _end_game(self, observations: dict) -> tuple[dict, dict, dict, dict, dict]:
        returns = self.game.returns()
        agents = self.agents
        self.agents = []
        rewards = {agent: float(returns[seat]) for seat, agent in enumerate(agents)}
        infos = {agent: {**end_of_game_info(self.game), "acting": False} for agent in agents}
        return observations, rewards, dict.fromkeys(agents, True), dict.fromkeys(agents, False), infos

    def _end_for_illegal_action(self, offender: str, error: IllegalActionError) -> tuple[dict, dict, dict, dict, dict]:
        gymnasium.logger.warn(f"[{offender}] illegal action, game ended: {error}")
        agents = self.agents
        observations = self._observations()
        self.agents = []
        rewards = {agent: ILLEGAL_ACTION_PENALTY if agent == offender else 0.0 for agent in agents}
        infos = {agent: {"action_mask": self._no_actions.copy(), "illegal_action": str(error)} for agent in agents}
        return observations, rewards, dict.fromkeys(agents, True), dict.fromkeys(agents, False), infos

    # -- saving and loading --------------------------------------------------------------
    def state_dict(self) -> dict[str, Any]:
        """The game, the agents in the loop and the current simultaneous part as JSON-safe data (see the
        module docstring)."""
        if not self._has_reset:
            raise RuntimeError(f"{self.game.name}: call reset() before state_dict()")
        part_actions = None
        if self._parts is not None:
            part_actions = {self.possible_agents[seat]: list(done) for seat, done in self._part_actions.items()}
        return {
            "game": self.game.state_dict(),
            PARALLEL_KEY: {"agents": list(self.agents), "part_actions": part_actions},
        }

    def load_state_dict(self, data: dict[str, Any]) -> None:
        """Continue exactly where ``state_dict`` was taken, also in a freshly made environment (no ``reset()``
        needed). A bare engine state dict (``Game.state_dict()``) starts the loop afresh at that position.
        Nothing changes when the data is refused (``InvalidStateError`` naming the field)."""
        before = self.game.state_dict()
        kept = self._has_reset, list(self.agents), self._parts, self._part_actions
        try:
            if not is_env_state_dict(data):
                self.game.load_state_dict(data)
                self._start_loop()
                return
            read = FieldReader(data, self.game.name)
            read.problem_if(
                PARALLEL_KEY not in data,
                f"a Parallel environment's state dict has the keys 'game' and {PARALLEL_KEY!r} "
                f"(an AEC environment's state dict loads into env(); got the keys {sorted(data)})",
            )
            read.refuse_unknown_keys(["game", PARALLEL_KEY])
            self.game.load_state_dict(read.raw("game"))
            self._load_bookkeeping(read.part(PARALLEL_KEY))
        except Exception:
            self.game.load_state_dict(before)
            self._has_reset, self.agents, self._parts, self._part_actions = kept
            raise

    def _load_bookkeeping(self, read: FieldReader) -> None:
        """The agents and the simultaneous part of ``read`` (the game is loaded), checked against the game."""
        read.refuse_unknown_keys(["agents", "part_actions"])
        agents = read.list("agents")
        if self.game.is_over:
            read.problem_if(agents != [], f"'{PARALLEL_KEY}.agents' must be [] once the game is over")
        else:
            read.problem_if(
                agents not in ([], self.possible_agents),
                f"'{PARALLEL_KEY}.agents' must be [] (ended) or {self.possible_agents}, got {agents!r:.80}",
            )
        self._start_loop()
        self.agents = list(agents)
        saved = read.raw("part_actions")
        if saved is None:
            return
        read.problem_if(
            self._parts is None,
            f"'{PARALLEL_KEY}.part_actions' is given but the game is not at the start of a simultaneous part",
        )
        assert self._parts is not None
        part = read.part("part_actions")
        expected = sorted(self.possible_agents[seat] for seat in self._parts)
        read.problem_if(
            sorted(part.data) != expected, f"'{PARALLEL_KEY}.part_actions' must have exactly the keys {expected}"
        )
        for seat, game in self._parts.items():
            agent = self.possible_agents[seat]
            actions = part.int_list(agent, low=0, high=self.game.num_actions - 1)
            for index, action in enumerate(actions):
                if game.is_over or game.current_player != seat:
                    raise InvalidStateError(
                        f"{self.game.name}: state field '{PARALLEL_KEY}.part_actions.{agent}[{index}]': "
                        f"{agent} has no decision left in this part"
                    )
                try:
                    game.step(action)
                except IllegalActionError as error:
                    raise InvalidStateError(
                        f"{self.game.name}: state field '{PARALLEL_KEY}.part_actions.{agent}[{index}]': {error}"
                    ) from error
            self._part_actions[seat] = list(actions)


def parallel_env_classes(
    game_class: type[Game], env_name: str, *, module: str, picture: Picture | None = None
) -> tuple[type[FiestaParallelEnv], Callable[..., FiestaParallelEnv]]:
    """The public ``parallel_raw_env`` class and ``parallel_env()`` factory of a game whose engine is a
    ``SimultaneousGame`` (``picture``: as for ``envs.aec.aec_env_classes``).

    Both are named as attributes ``parallel_raw_env`` and ``parallel_env`` of ``module`` (the caller passes its
    own ``__name__``), so that plain ``pickle`` finds them there: assign them to exactly those names.
    """
    raw = type(
        "parallel_raw_env",
        (FiestaParallelEnv,),
        {
            "game_class": game_class,
            "picture": picture,
            "metadata": {
                "render_modes": render_modes(picture),
                "name": env_name,
                "is_parallelizable": True,
                "render_fps": 1,
            },
            "__doc__": f"The PettingZoo Parallel environment of {game_class.name}.",
            "__module__": module,
            "__qualname__": "parallel_raw_env",
        },
    )

    def parallel_env(**kwargs: Any) -> FiestaParallelEnv:
        """The Parallel environment (see ``fiesta_envs.envs.parallel``). Keyword arguments: ``num_players``,
        ``render_mode``, ``illegal_action`` and the game's options."""
        return raw(**kwargs)

    parallel_env.__module__ = module
    parallel_env.__qualname__ = "parallel_env"
    return raw, parallel_env
