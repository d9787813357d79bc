"""What the providers of ``tests/test_information.py`` share (providers: ``tests/information_of_<game>.py``).

``InformationCase`` is one pair of positions; ``play_until`` finds a real position by seeded random play;
``changed`` copies a state dict and changes one fact of its ``state``; ``configuration_of`` names the
configuration (player count, non-default options) a state dict belongs to, which is how the test checks that
every configuration of every game has its cases.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from fiesta_envs.core.game import Game

#: Options that change no observation (left out of a case's configuration).
NOT_SHOWN = ("reward",)


@dataclass
class InformationCase:
    """Two positions of ``game`` (state dicts) and the seat whose observation is compared."""

    name: str
    game: str
    seat: int
    first: dict[str, Any]
    second: dict[str, Any]
    options: dict[str, Any] = field(default_factory=dict)


def play_until(
    game_class: type[Game],
    stop: Callable[[Any], bool],
    *,
    num_players: int,
    seeds: Iterable[int] = range(300),
    **options: Any,
) -> dict[str, Any]:
    """The state dict of the first position of a seeded random game (seed 0 first) where ``stop`` holds."""
    for seed in seeds:
        game = game_class(num_players=num_players, seed=seed, **options)
        moves = np.random.default_rng(seed)
        while not game.is_over:
            if stop(game):
                return game.state_dict()
            legal = game.legal_actions()
            game.step(legal[int(moves.integers(len(legal)))])
    raise LookupError(
        f"no random game of {game_class.__name__} ({num_players} players, {options}) reached the position"
    )


def changed(data: dict[str, Any], change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    """A deep copy of the state dict ``data`` with ``change`` applied to its ``state``."""
    other = copy.deepcopy(data)
    change(other["state"])
    return other


def other_chance(data: dict[str, Any]) -> dict[str, Any]:
    """A copy of ``data`` whose random generator is another one: every later draw and roll differs."""
    other = copy.deepcopy(data)
    other["rng"] = np.random.default_rng(987_654_321).bit_generator.state
    return other


def configuration_of(game_class: type[Game], data: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """The (player count, non-default options) of the state dict ``data``, options in ``NOT_SHOWN`` aside."""
    options = {
        name: value
        for name, value in data.get("options", {}).items()
        if name not in NOT_SHOWN and value != game_class.options[name].default
    }
    return data["num_players"], options


def labelled(name: str, game_class: type[Game], data: dict[str, Any]) -> str:
    """``name`` followed by the configuration of ``data``: ``"deck order (3 players, variant=...)"``."""
    num_players, options = configuration_of(game_class, data)
    return f"{name} ({num_players} players{''.join(f', {k}={v}' for k, v in options.items())})"
