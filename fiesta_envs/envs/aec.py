"""One PettingZoo AEC environment for every game engine.

``aec_env_classes(GameClass, "name_v0", module=__name__)`` returns ``(raw_env, env)`` for a game's public
module, following PettingZoo's classic games:

* agents ``player_0 .. player_{n-1}`` in seat order; the engine says whose turn it is, so a
  player may act several times in a row when the rules say so;
* observation ``{"observation": Box(float32), "action_mask": Box(int8)}``; the mask is all
  zeros for every agent but the one to act; ``infos[agent]["action_mask"]`` carries it too;
* rewards are zero until the game ends, then ``Game.returns()``; ``infos`` then carry the
  final ``scores`` and the ``winners`` as fixed-shape arrays (``envs/infos.py``); the game's
  breakdown of the scores is ``final_info()``;
* an illegal action ends the game with reward -1 for the offender and 0 for the others, and
  a warning naming the action and the rule (PettingZoo's ``TerminateIllegalWrapper``
  convention); ``illegal_action="raise"`` raises ``IllegalActionError`` instead. Actions that
  are not actions at all (wrong type, out of range) always raise.
* ``render_mode``: ``"ansi"`` returns the text table, ``"human"`` prints it, ``"rgb_array"``
  returns a picture where the game has one (and Pillow is installed): the engines draw nothing, the
  environment is given the game's ``Picture`` (``picture=``: the registry's ``GameSpec.picture()``,
  which draws with the game's module in ``fiesta_envs.render``);
* ``state_dict()`` saves the game and the AEC loop's bookkeeping (``envs/aec_state.py``):
  ``load_state_dict`` continues exactly, the end-of-game ``None`` steps included; plain ``pickle``
  works the same way (``files/pickling.py``).

``env()`` wraps the raw environment in PettingZoo's ``OrderEnforcingWrapper`` (clear errors
for stepping before ``reset`` or reading attributes too early). ``load_state_dict`` counts as a
``reset``: a freshly made environment continues a saved game under ``agent_iter()``/``last()``/``step()``
whether the state is loaded through the wrapper or its ``.unwrapped`` environment (the wrapper reads
its order flags from the environment).
"""

from __future__ import annotations

import importlib.util
import warnings
from collections.abc import Callable
from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from fiesta_envs.core.errors import IllegalActionError, InvalidOptionError
from fiesta_envs.core.game import Game
from fiesta_envs.core.options import refuse_unknown_keywords
from fiesta_envs.core.state_fields import FieldReader
from fiesta_envs.envs.aec_state import BOOKKEEPING_KEY, AECBookkeeping, is_env_state_dict
from fiesta_envs.envs.infos import end_of_game_info, illegal_action_info, no_actions
from fiesta_envs.files.pickling import PicklesGameAsStateDict

ILLEGAL_ACTION_MODES = ("terminate", "raise")
ILLEGAL_ACTION_PENALTY = -1.0


def check_illegal_action_mode(mode: Any) -> str:
    if mode not in ILLEGAL_ACTION_MODES:
        raise InvalidOptionError(
            f"illegal_action={mode!r} is not allowed; allowed values: {', '.join(map(repr, ILLEGAL_ACTION_MODES))}"
        )
    return mode


def pictures_available() -> bool:
    """True when Pillow, which draws the pictures, can be imported (``pip install fiesta_envs[render]``)."""
    try:
        return importlib.util.find_spec("PIL") is not None
    except (ImportError, ValueError):
        return False


#: Draws a game's table as an RGB ``uint8`` array (height x width x 3); given to an environment by the
#: registry (``GameSpec.picture()``), None for a game drawn as text only.
Picture = Callable[[Game], np.ndarray]


def render_modes(picture: Picture | None) -> list[str]:
    """The modes an environment can draw now: text always; ``rgb_array`` when the game has a picture
    and Pillow is installed (so PettingZoo's ``render_test`` and Gymnasium's ``check_env`` pass without it)."""
    modes = ["human", "ansi"]
    if picture is not None and pictures_available():
        modes.append("rgb_array")
    return modes


def check_render_mode(game_class: type[Game], mode: str | None, picture: Picture | None) -> str | None:
    allowed = render_modes(picture)
    if mode is not None and mode not in allowed:
        raise InvalidOptionError(
            f"{game_class.name}: render_mode={mode!r} is not supported; allowed: None, {', '.join(allowed)}"
        )
    return mode


def render_game(game: Game, render_mode: str, picture: Picture | None) -> str | np.ndarray | None:
    """``"ansi"``: the text table; ``"human"``: print it; ``"rgb_array"``: the game's picture."""
    if render_mode == "rgb_array" and picture is not None:
        return picture(game)
    text = game.render_text()
    if render_mode == "human":
        print(text)
        return None
    return text


def seat_spaces(game: Game, agents: list[str]) -> tuple[dict[str, spaces.Dict], dict[str, spaces.Discrete]]:
    """Each agent's observation space (the observation and its action mask) and action space."""
    low, high = game.observation_bounds()

    def observation() -> spaces.Dict:  # one instance per agent: a space carries its own sampling generator
        return spaces.Dict(
            {
                "observation": spaces.Box(low, high, shape=(game.observation_size,), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, shape=(game.num_actions,), dtype=np.int8),
            }
        )

    return (
        {agent: observation() for agent in agents},
        {agent: spaces.Discrete(game.num_actions) for agent in agents},
    )


class GameEnvMixin:
    """What the AEC and the Parallel environments share: drawing the table, naming actions, the final breakdown."""

    game: Game
    render_mode: str | None
    _has_reset: bool
    #: The game's picture (``render_mode="rgb_array"``), None for text only: set by the class factories.
    picture: ClassVar[Picture | None] = None
    #: The public factory named in the warning of ``render()`` without a render mode.
    factory_name: ClassVar[str] = "env()"

    def render(self) -> str | np.ndarray | None:
        if self.render_mode is None:
            gymnasium.logger.warn(f"render() called without a render_mode; pass render_mode= to {self.factory_name}")
            return None
        if not self._has_reset:
            raise RuntimeError(f"{self.game.name}: call reset() before render()")
        return render_game(self.game, self.render_mode, type(self).picture)

    def close(self) -> None:
        pass

    def action_to_string(self, action: int) -> str:
        return self.game.action_to_string(action)

    def string_to_action(self, text: str) -> int:
        return self.game.string_to_action(text)

    def observation_views(self, observation: Any) -> dict[str, np.ndarray]:
        """``{block name: array in its documented shape}`` for an observation (the dict ``observe`` returns,
        or its ``"observation"`` vector); see the game's page, "Reading an observation"."""
        return self.game.observation_views(observation)

    def final_info(self) -> dict[str, Any]:
        """The game's breakdown of the final scores (``Game.final_info()``; its shape is the game's own)."""
        if not self.game.is_over:
            raise RuntimeError(f"{self.game.name}: final_info() is only defined once the game is over")
        return self.game.final_info()


class FiestaAECEnv(PicklesGameAsStateDict, GameEnvMixin, AECEnv):
    """The AEC environment over ``game_class``; subclassed once per game by ``aec_env_classes``.

    Plain ``pickle`` works and the copy continues the game (``files/pickling.py``).
    """

    game_class: ClassVar[type[Game]]
    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "ansi"],
        "name": "fiesta",
        "render_fps": 1,
    }

    def __init__(
        self,
        num_players: int | None = None,
        render_mode: str | None = None,
        illegal_action: str = "terminate",
        **options: Any,
    ) -> None:
        super().__init__()
        self.render_mode = check_render_mode(self.game_class, render_mode, type(self).picture)
        self.illegal_action = check_illegal_action_mode(illegal_action)
        refuse_unknown_keywords(self.game_class.name, self.game_class.options, options, type(self).__init__)
        self.game: Game = self.game_class(num_players=num_players, **options)
        n = self.game.num_players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agents = self.possible_agents[:]
        self._seat = {agent: i for i, agent in enumerate(self.possible_agents)}
        self.observation_spaces, self.action_spaces = seat_spaces(self.game, self.possible_agents)
        self._has_reset = False
        self._has_updated = False  # PettingZoo's order check: reset, a step or a load since agent_iter's last agent
        self._skip_agent_selection: str | None = None
        self._illegal_action: dict[str, str] | None = None  # {"agent", "message"} once one ended the game

    # -- spaces -----------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # -- the loop -----------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        # ``options`` is accepted for API compatibility and ignored, as in PettingZoo's classic
        # games: game options are fixed when the environment is made.
        self.game.reset(seed)
        self._start_loop()

    def _start_loop(self) -> None:
        """Every agent in the loop, nothing collected yet, the game's seat to act selected."""
        self._has_reset = self._has_updated = True
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._skip_agent_selection = None
        self._illegal_action = None
        if self.game.is_over:  # only from a loaded engine state dict: the game ends at once
            self.agent_selection = self.possible_agents[0]
            self._end_game()
            self._accumulate_rewards()  # as after a last move: last() gives every agent its reward
        else:
            self.agent_selection = self.possible_agents[self.game.current_player]
            self._refresh_infos()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._seat[agent]
        to_act = not self.game.is_over and agent == self.agent_selection and seat == self.game.current_player
        mask = self.game.legal_mask().copy() if to_act else no_actions(self.game)
        return {"observation": self.game.observe(seat), "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalActionError(
                f"{self.game.name}: {agent} is still in the game and must act; None is only for finished agents"
            )
        self._clear_rewards()
        self._cumulative_rewards[agent] = 0.0
        try:
            self.game.step(action)
        except IllegalActionError as error:
            if self.illegal_action == "raise" or not self._in_action_space(action):
                raise
            self._end_for_illegal_action(agent, error)
        else:
            if self.game.is_over:
                self._end_game()
            else:
                self.agent_selection = self.possible_agents[self.game.current_player]
                self._refresh_infos()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _clear_rewards(self) -> None:
        """Every reward back to 0.0 (PettingZoo's version writes the int 0)."""
        for agent in self.rewards:
            self.rewards[agent] = 0.0

    def _in_action_space(self, action: Any) -> bool:
        return (
            isinstance(action, (int, np.integer))
            and not isinstance(action, (bool, np.bool_))
            and 0 <= int(action) < self.game.num_actions
        )

    def _refresh_infos(self) -> None:
        current = self.agent_selection
        for agent in self.agents:
            mask = self.game.legal_mask().copy() if agent == current else no_actions(self.game)
            self.infos[agent] = {"action_mask": mask}

    def _end_game(self) -> None:
        returns = self.game.returns()
        for agent in self.agents:
            self.rewards[agent] = float(returns[self._seat[agent]])
            self.terminations[agent] = True
        self._end_infos()

    def _end_for_illegal_action(self, offender: str, error: IllegalActionError) -> None:
        gymnasium.logger.warn(f"[{offender}] illegal action, game ended: {error}")
        self._illegal_action = {"agent": offender, "message": str(error)}
        for agent in self.agents:
            self.rewards[agent] = ILLEGAL_ACTION_PENALTY if agent == offender else 0.0
            self.terminations[agent] = True
        self._end_infos()

    def _end_infos(self) -> None:
        """Every agent left in the loop gets the end-of-game info (its own copy)."""
        for agent in self.agents:
            if self._illegal_action is not None:
                self.infos[agent] = illegal_action_info(self.game, self._illegal_action["message"])
            else:
                self.infos[agent] = end_of_game_info(self.game)

    # -- rendering, state -----------------------------------------------------------

    def state_dict(self) -> dict[str, Any]:
        """The game (with its random generator) and the AEC loop's bookkeeping, as JSON-safe data:
        ``{"game": Game.state_dict(), "aec": ...}`` (``envs/aec_state.py``)."""
        if not self._has_reset:
            raise RuntimeError(f"{self.game.name}: call reset() before state_dict()")
        bookkeeping = AECBookkeeping(
            agents=list(self.agents),
            agent_selection=self.agent_selection,
            skip_agent_selection=self._skip_agent_selection,
            rewards=self.rewards,
            cumulative_rewards=self._cumulative_rewards,
            terminations=self.terminations,
            truncations=self.truncations,
            illegal_action=self._illegal_action,
        )
        return {"game": self.game.state_dict(), BOOKKEEPING_KEY: bookkeeping.to_dict()}

    def load_state_dict(self, data: dict[str, Any]) -> None:
        """Continue exactly where ``state_dict`` was taken, the end-of-game ``None`` steps included.

        A bare engine state dict (``Game.state_dict()``, e.g. a scenario) is accepted too: the loop
        then starts afresh at that position (rewards at zero; a finished game ends at once).
        Nothing changes when the data is refused (``InvalidStateError`` naming the field).
        """
        before = self.game.state_dict()
        try:
            if not is_env_state_dict(data):
                self.game.load_state_dict(data)
                self._start_loop()
                return
            read = FieldReader(data, self.game.name)
            read.refuse_unknown_keys(["game", BOOKKEEPING_KEY])
            self.game.load_state_dict(read.raw("game"))
            bookkeeping = AECBookkeeping.from_dict(read.raw(BOOKKEEPING_KEY), self.game, self.possible_agents)
        except Exception:
            self.game.load_state_dict(before)
            raise
        self._has_reset = self._has_updated = True
        self.agents = list(bookkeeping.agents)
        self.agent_selection = bookkeeping.agent_selection
        self._skip_agent_selection = bookkeeping.skip_agent_selection
        self.rewards = dict(bookkeeping.rewards)
        self._cumulative_rewards = dict(bookkeeping.cumulative_rewards)
        self.terminations = dict(bookkeeping.terminations)
        self.truncations = dict(bookkeeping.truncations)
        self._illegal_action = bookkeeping.illegal_action
        self.infos = {agent: {} for agent in self.agents}
        if self._illegal_action is not None or self.game.is_over:
            self._end_infos()
        else:
            self._refresh_infos()


class OrderEnforcingEnv(wrappers.OrderEnforcingWrapper):
    """PettingZoo's order-enforcing wrapper, with ``last()`` answered by the environment in one
    call once it has been reset (the generic wrapper looks up eight attributes through
    ``__getattr__`` on every step), and ``load_state_dict`` counting as a reset.

    The order flags (``_has_reset``, and ``_has_updated`` which ``agent_iter()`` checks) live in the
    wrapped environment, so loading a state through ``env.unwrapped`` starts the loop as well.
    """

    @property
    def _has_reset(self) -> bool:
        inner = self.__dict__.get("env")
        return bool(inner is not None and inner._has_reset)

    @_has_reset.setter
    def _has_reset(self, value: bool) -> None:
        inner = self.__dict__.get("env")  # None while the base class's __init__ sets its defaults
        if inner is not None:
            inner._has_reset = value

    @property
    def _has_updated(self) -> bool:
        inner = self.__dict__.get("env")
        return bool(inner is not None and getattr(inner, "_has_updated", inner._has_reset))

    @_has_updated.setter
    def _has_updated(self, value: bool) -> None:
        inner = self.__dict__.get("env")
        if inner is not None:
            inner._has_updated = value

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            raise AttributeError("last() cannot be called before reset()")
        return self.env.last(observe)

    def state_dict(self) -> dict[str, Any]:
        return self.env.state_dict()

    def load_state_dict(self, data: dict[str, Any]) -> None:
        """Load into the environment; like ``reset()``, this makes ``step``, ``last`` and ``agent_iter`` available."""
        self.env.load_state_dict(data)


def aec_env_classes(
    game_class: type[Game], env_name: str, *, module: str, picture: Picture | None = None
) -> tuple[type[FiestaAECEnv], Callable[..., AECEnv]]:
    """The public ``raw_env`` class and ``env()`` factory of a game's ``<game>_vN`` module (``picture``: how
    to draw it, the registry's ``GameSpec.picture()``; None: text only).

    Both are named as attributes ``raw_env`` and ``env`` of ``module`` (the caller passes its own
    ``__name__``), so that plain ``pickle`` finds them there: assign them to exactly those names.
    """
    raw = type(
        "raw_env",
        (FiestaAECEnv,),
        {
            "game_class": game_class,
            "picture": picture,
            "metadata": {
                "render_modes": render_modes(picture),
                "name": env_name,
                "is_parallelizable": False,
                "render_fps": 1,
            },
            "__doc__": f"The PettingZoo AEC environment of {game_class.name}, without wrappers.",
            "__module__": module,
            "__qualname__": "raw_env",
        },
    )

    def env(**kwargs: Any) -> AECEnv:
        """The wrapped environment (order enforcing). Keyword arguments: see ``raw_env``."""
        return OrderEnforcingEnv(raw(**kwargs))

    env.__doc__ = f"The {game_class.name} AEC environment, wrapped as PettingZoo's classic games are."
    env.__module__ = module
    env.__qualname__ = "env"
    return raw, env


def __getattr__(name: str) -> Any:
    """``PlaysAGame``, the old name of ``GameEnvMixin``, with a ``DeprecationWarning`` (until 0.4.0)."""
    if name == "PlaysAGame":
        warnings.warn(
            "fiesta_envs.envs.aec.PlaysAGame is renamed GameEnvMixin (the old name works until 0.4.0)",
            DeprecationWarning,
            stacklevel=2,
        )
        return GameEnvMixin
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
