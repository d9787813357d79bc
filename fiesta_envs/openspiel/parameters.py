"""A game's OpenSpiel parameters: ``players``, each of the game's options, and ``rng_seed``.

OpenSpiel parameters are ints, floats, bools and strings, declared with their defaults in the game type's
``parameter_specification``. Every option of our engines has such a default, except an option whose default
is ``None`` (a choice the game makes itself, such as Tequila's ``jimador_order``): its parameter is a string
whose default ``""`` means ``None``.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from fiesta_envs.core.errors import InvalidOptionError
from fiesta_envs.core.game import Game
from fiesta_envs.core.options import Option

#: The parameter giving the number of players (OpenSpiel's usual name).
PLAYERS = "players"

#: The parameter seeding the deals of a loaded game: -1 (the default) draws fresh entropy, so every
#: ``new_initial_state()`` deals a new game; a seed >= 0 makes the sequence of deals reproducible.
RNG_SEED = "rng_seed"

#: The parameter value that stands for an option's default of ``None``.
UNSET = ""


def parameter_default(option: Option) -> Any:
    """The OpenSpiel default of an option: its own default, ``""`` for ``None``."""
    return UNSET if option.default is None else option.default


def parameter_specification(game_class: type[Game]) -> dict[str, Any]:
    """Every parameter of ``game_class`` with its default: players, the options, the seed."""
    return {
        PLAYERS: game_class.default_players,
        **{name: parameter_default(option) for name, option in game_class.options.items()},
        RNG_SEED: -1,
    }


@dataclass(frozen=True)
class Configuration:
    """What the parameters of one loaded game say: the engine's arguments and the seed of its deals."""

    num_players: int
    options: dict[str, Any]
    rng_seed: int | None

    def new_engine(self, game_class: type[Game], seed: int | None) -> Game:
        return game_class(num_players=self.num_players, seed=seed, **self.options)


def configuration(game_class: type[Game], params: Mapping[str, Any]) -> Configuration:
    """The configuration ``params`` asks for; ``InvalidOptionError`` names an unknown parameter (with the
    known ones) or a value the game refuses (with the allowed ones)."""
    known = parameter_specification(game_class)
    for name in params:
        if name not in known:
            close = difflib.get_close_matches(str(name), list(known), n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise InvalidOptionError(
                f"{game_class.name}: unknown OpenSpiel parameter {name!r}{hint}; parameters: {', '.join(known)}"
            )
    values = {**known, **params}
    players = values[PLAYERS]
    if isinstance(players, bool) or not isinstance(players, int) or players not in game_class.player_counts:
        counts = ", ".join(str(count) for count in game_class.player_counts)
        raise InvalidOptionError(f"{game_class.name}: parameter players={players!r} is not allowed; allowed: {counts}")
    seed = values[RNG_SEED]
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise InvalidOptionError(f"{game_class.name}: parameter rng_seed={seed!r} must be an integer (-1: unseeded)")
    options = {}
    for name, option in game_class.options.items():
        value = values[name]
        options[name] = None if option.default is None and value == UNSET else value
    return Configuration(players, options, None if seed < 0 else seed)
