"""Every game of the registry as an OpenSpiel game: its ``GameType``, its ``GameInfo`` and the ``pyspiel.Game``.

One adapter serves the five games: it reads the engine contract (``fiesta_envs.core.game.Game``) and the
registry (``fiesta_envs.registry``), nothing game-specific. What it declares:

- dynamics ``SEQUENTIAL``: one seat acts at a time, in our AEC order (Tequila's simultaneous rounds are
  played in turn, each choice hidden until the round reveals them, as in the AEC environment);
- information ``IMPERFECT_INFORMATION``;
- chance ``SAMPLED_STOCHASTIC``: chance is drawn inside the engine from its seeded generator, never exposed
  as chance nodes;
- utility from the reward: ``IDENTICAL`` for the cooperative games, ``ZERO_SUM`` for the ranking reward
  (``reward="rank"``) when every team has as many seats, else ``GENERAL_SUM`` (the ``margin`` reward,
  Tortilla's two teams of unequal size, one player alone); returns lie in [-1, 1];
- reward model ``TERMINAL``: the returns are final;
- observation string and tensor always; information state string and tensor where the configuration's
  observation is its information state (``Game.observation_is_information_state``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
import pyspiel

from fiesta_envs.core.game import Game
from fiesta_envs.openspiel.observer import FiestaObserver, check_observation_type, observation_blocks
from fiesta_envs.openspiel.parameters import configuration, parameter_specification
from fiesta_envs.openspiel.state import FiestaState
from fiesta_envs.registry import GAMES, GameSpec, game_spec
from fiesta_envs.tools.guides import guide_for

#: OpenSpiel's short names of our games start with this (as OpenSpiel's own Python games do).
PREFIX = "python_"

#: The longest game OpenSpiel is told to expect (``GameInfo.max_game_length``): random play ends every game
#: within a few thousand actions, and the fuzzing harness fails a game still running after 20,000.
MAX_GAME_LENGTH = 20_000


def short_name(game: str) -> str:
    """The OpenSpiel name of a game of the registry: ``python_fiesta_mexicana``."""
    return PREFIX + game_spec(game).name


def spec_of(name: str) -> GameSpec:
    """The registry's spec of an OpenSpiel short name (``python_tequila``) or of a registry name."""
    return game_spec(name.removeprefix(PREFIX) if name.startswith(PREFIX) else name)


def utility(engine: Game) -> pyspiel.GameType.Utility:
    """How the returns of ``engine``'s configuration relate across seats (see the module docstring)."""
    if engine.cooperative:
        return pyspiel.GameType.Utility.IDENTICAL
    team_sizes = np.unique(np.asarray(engine.teams()), return_counts=True)[1]
    ranked = engine.config.get("reward", "rank") == "rank"
    if engine.num_players > 1 and ranked and len(set(team_sizes.tolist())) == 1:
        return pyspiel.GameType.Utility.ZERO_SUM
    return pyspiel.GameType.Utility.GENERAL_SUM


def game_type(spec: GameSpec, engine: Game) -> pyspiel.GameType:
    """The OpenSpiel game type of ``spec`` in the configuration of ``engine``."""
    game_class = spec.game_class()
    information_state = engine.observation_is_information_state
    return pyspiel.GameType(
        short_name=PREFIX + spec.name,
        long_name=f"{guide_for(spec.name).title} (fiesta_envs)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility(engine),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(game_class.player_counts),
        min_num_players=min(game_class.player_counts),
        provides_information_state_string=information_state,
        provides_information_state_tensor=information_state,
        provides_observation_string=True,
        provides_observation_tensor=True,
        provides_factored_observation_string=False,
        parameter_specification=parameter_specification(game_class),
    )


def game_info(engine: Game) -> pyspiel.GameInfo:
    """The OpenSpiel game info of ``engine``'s configuration."""
    zero_sum = utility(engine) == pyspiel.GameType.Utility.ZERO_SUM
    return pyspiel.GameInfo(
        num_distinct_actions=engine.num_actions,
        max_chance_outcomes=0,
        num_players=engine.num_players,
        min_utility=-1.0,
        max_utility=1.0,
        utility_sum=0.0 if zero_sum else None,
        max_game_length=MAX_GAME_LENGTH,
    )


class FiestaGame(pyspiel.Game):
    """One of our games in one configuration, as ``pyspiel.load_game("python_<game>(players=N,...)")`` gives it.

    Each game has its subclass (``game_class_for``), whose ``spec`` says which game it is: OpenSpiel creates a
    Python game by calling the class it was registered with on the parameters. ``new_initial_state()`` deals
    a new game each time, from a generator seeded by the parameter ``rng_seed`` (-1, the default: fresh
    entropy).
    """

    spec: ClassVar[GameSpec | None] = None

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        spec = self.spec
        if spec is None:
            raise TypeError("FiestaGame is the adapter's base: load a game with pyspiel.load_game('python_<game>')")
        params = dict(params or {})
        game_class = spec.game_class()
        config = configuration(game_class, params)
        probe = config.new_engine(game_class, seed=0)
        super().__init__(game_type(spec, probe), game_info(probe), {**parameter_specification(game_class), **params})
        self.game_class = game_class
        #: this game's entry of the registry (the class attribute ``spec``, known to be set)
        self.game_spec: GameSpec = spec
        self.configuration = config
        self.has_information_state = probe.observation_is_information_state
        self._blocks = observation_blocks(probe)
        self._observation_size = probe.observation_size
        self._seeds = np.random.default_rng(config.rng_seed)

    def new_initial_state(self) -> FiestaState:
        """A new game (its deal is made when the state is first used)."""
        return FiestaState(self)

    def new_engine(self) -> Game:
        """A new engine of this configuration, seeded from the game's sequence of deals."""
        return self.configuration.new_engine(self.game_class, int(self._seeds.integers(1 << 63)))

    def deal(self, seed: int) -> FiestaState:
        """A new game dealt from ``seed``: the same seed gives the same deal (to replay a deal with the seats
        swapped), whatever the game's ``rng_seed``."""
        return FiestaState(self, engine=self.configuration.new_engine(self.game_class, seed))

    def state_of(self, engine: Game) -> FiestaState:
        """A state playing ``engine`` (a game of this configuration, at any position: from a saved state dict,
        a scenario...)."""
        if type(engine) is not self.game_class or engine.num_players != self.configuration.num_players:
            raise ValueError(f"{self}: the engine {engine!r} is not a game of this configuration")
        if engine.config != self.configuration.options:
            raise ValueError(f"{self}: the engine's options {engine.config} differ from {self.configuration.options}")
        return FiestaState(self, engine=engine)

    def make_py_observer(self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None) -> FiestaObserver:
        """The observer OpenSpiel asks for: our observation (default), or the information state where this
        configuration's observation is one (``iig_obs_type.perfect_recall``)."""
        if params:
            raise ValueError(f"{self.game_spec.name}: observers take no parameters; got {dict(params)}")
        check_observation_type(self.game_spec.name, iig_obs_type, self.has_information_state)
        return FiestaObserver(self._blocks, self._observation_size)

    def __deepcopy__(self, memo: dict[int, Any]) -> FiestaGame:
        return self  # a game is immutable but for its sequence of deals: states share it

    def __reduce__(self) -> tuple[Any, ...]:
        return load_game, (str(self),)


def load_game(text: str) -> pyspiel.Game:
    """``pyspiel.load_game(text)`` once our games are registered (what unpickling a game calls)."""
    register_games()
    return pyspiel.load_game(text)


def game_class_for(spec: GameSpec) -> type[FiestaGame]:
    """The ``FiestaGame`` subclass of one game of the registry (made once; what OpenSpiel registers). A class,
    not a function, as OpenSpiel's own Python games do: OpenSpiel keeps what it registers until the process
    has ended, and a class outlives the interpreter's shutdown."""
    if spec.name not in _GAME_CLASSES:
        name = "".join(part.title() for part in spec.name.split("_")) + "Game"
        _GAME_CLASSES[spec.name] = type(name, (FiestaGame,), {"spec": spec, "__module__": __name__})
    return _GAME_CLASSES[spec.name]


_GAME_CLASSES: dict[str, type[FiestaGame]] = {}


def register_games() -> list[str]:
    """Register every game of the registry with OpenSpiel (once per process); returns their short names."""
    registered = set(pyspiel.registered_names())
    names = []
    for spec in GAMES.values():
        name = PREFIX + spec.name
        if name not in registered:
            default = spec.game_class()(seed=0)
            pyspiel.register_game(game_type(spec, default), game_class_for(spec))
        names.append(name)
    return names
