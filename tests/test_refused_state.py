"""A refused state dict leaves the game as it was, for every game.

An engine reads a state dict completely and checks it before it changes anything (``<game>/state.py``), so
a load that fails part-way leaves no half-loaded position behind. Each field of a real mid-game position
(and each field of the mappings nested in it) is damaged in turn -- deleted, given a value of another
type, pushed out of range, cut short -- and loaded into a game at another position (the start of another
deal): when the load is refused, that game must still show exactly what it showed before (state dict,
whose turn, legal actions, the observation of the seat to act) and play on as before.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from fiesta_envs.core.errors import InvalidStateError
from fiesta_envs.core.game import Game
from fiesta_envs.registry import GAMES


def _play(game: Game, rng: np.random.Generator, steps: int) -> int:
    """Up to ``steps`` random legal actions; how many were played."""
    for step in range(steps):
        if game.is_over:
            return step
        game.step(int(rng.choice(np.flatnonzero(game.legal_mask()))))
    return steps


def _damages(state: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """Copies of ``state`` with one field (at the top or one mapping or list below it) damaged."""
    places: list[tuple[Any, ...]] = []
    for key, value in state.items():
        places.append((key,))
        if isinstance(value, dict):
            places += [(key, inner) for inner in value]
        elif isinstance(value, list) and value:
            places += [(key, 0), (key, len(value) - 1)]
    for place in places:
        old = _at(state, place)
        replacements: list[Any] = ["junk", None, [], -1]
        if isinstance(old, int) and not isinstance(old, bool):
            replacements += [old + 1, old + 1000, -1000]
        if isinstance(old, list) and old:
            replacements += [old[:-1], [*old, old[-1]]]
        for replacement in replacements:
            damaged = copy.deepcopy(state)
            _set(damaged, place, replacement)
            yield f"{place} = {replacement!r:.40}", damaged
        if isinstance(place[-1], str):
            damaged = copy.deepcopy(state)
            del _at(damaged, place[:-1])[place[-1]]
            yield f"{place} deleted", damaged


def _at(data: Any, place: tuple[Any, ...]) -> Any:
    for key in place:
        data = data[key]
    return data


def _set(data: Any, place: tuple[Any, ...], value: Any) -> None:
    _at(data, place[:-1])[place[-1]] = value


def _view(game: Game) -> tuple[Any, ...]:
    seat = game.current_player
    observation = game.observe(seat).tolist() if seat >= 0 else None
    return game.state_dict(), seat, game.is_over, game.legal_mask().tolist(), observation


@pytest.mark.parametrize("name", list(GAMES))
def test_a_refused_state_dict_leaves_the_game_unchanged(name: str) -> None:
    game_class = GAMES[name].game_class()
    source = game_class(seed=1)
    length = _play(source, np.random.default_rng(1), 10**9)
    source = game_class(seed=1)
    _play(source, np.random.default_rng(1), length // 2)  # half-way
    saved = source.state_dict()
    game = game_class(seed=2)
    _play(game, np.random.default_rng(2), 3)
    before = _view(game)
    refused = 0
    for damage, state in _damages(saved["state"]):
        try:
            game.load_state_dict({**saved, "state": state})
        except InvalidStateError:
            refused += 1
            assert _view(game) == before, f"{name}: refusing {damage} changed the game"
        else:  # a damage the game accepts: back to the position the others are loaded into
            game = game_class(seed=2)
            _play(game, np.random.default_rng(2), 3)
    assert refused >= 20, f"{name}: only {refused} damaged state dicts refused"
    _play(game, np.random.default_rng(3), 20)  # and it plays on
