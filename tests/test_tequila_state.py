"""The engine plays on its typed position: ``game.state`` is the ``TequilaState`` (live ``Sheet`` sheets), no
field of it is copied onto the engine, and ``clone()`` copies the position and the generator."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

from fiesta_envs.tequila.game import Tequila
from fiesta_envs.tequila.sheet import Sheet
from fiesta_envs.tequila.state import SheetState, TequilaState

STATE_FIELDS = {field.name for field in dataclasses.fields(TequilaState)}


def random_game(seed: int, steps: int, **options) -> Tequila:
    game = Tequila(seed=seed, **options)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if game.is_over:
            break
        legal = np.flatnonzero(game.legal_mask())
        game.step(int(legal[rng.integers(len(legal))]))
    return game


def assert_plays_on_its_state(game: Tequila) -> None:
    assert isinstance(game.state, TequilaState)
    assert all(type(sheet) is Sheet for sheet in game.state.sheets)
    assert not set(vars(game)) & STATE_FIELDS, set(vars(game)) & STATE_FIELDS


def test_the_engine_holds_its_position_as_the_state_dataclass() -> None:
    game = Tequila(num_players=3, seed=1, jimadores="dealt")
    assert_plays_on_its_state(game)
    game = random_game(2, 150, num_players=3, jimadores="dealt")
    assert_plays_on_its_state(game)
    assert game.state_dict()["state"] == game.state.to_dict()  # the state dict is the dataclass's own
    loaded = Tequila.from_state_dict(game.state_dict())
    assert_plays_on_its_state(loaded)
    assert_plays_on_its_state(game.clone())
    game = Tequila(num_players=2, seed=0)
    game.play("reroll none")
    parts = game.split_simultaneous()
    assert parts is not None
    for part in parts.values():
        assert_plays_on_its_state(part)


def test_the_saved_state_has_plain_saved_sheets() -> None:
    game = random_game(3, 80, num_players=2)
    saved = game.saved_state()
    assert all(type(sheet) is SheetState for sheet in saved.sheets)
    assert saved.to_dict() == game.state.to_dict()
    saved.sheets[0].coins += 3  # a copy of each sheet
    assert game.state.sheets[0].coins == saved.sheets[0].coins - 3


@pytest.mark.parametrize("steps", [0, 60, 10_000], ids=["new", "round 1", "over"])
def test_a_clone_is_equal_and_independent(steps: int) -> None:
    game = random_game(4, steps, num_players=3, jimadores="dealt", cask_tile="B")
    before = json.dumps(game.state_dict())
    clone = game.clone()
    assert clone.state_dict() == game.state_dict()
    assert clone.legal_mask().tolist() == game.legal_mask().tolist()
    clone.state.sheets[0].coins += 1
    clone.state.sheets[1].marked[0] += 1
    clone.state.dice[0] = 7 - clone.state.dice[0]
    clone.state.bonus_round[0] = 5
    clone.state.shown_sheets[0] = clone.state.shown_sheets[1]
    assert json.dumps(game.state_dict()) == before


def test_a_clone_goes_on_as_the_game_does() -> None:
    """The same generator and position: the same chance and masks as a copy made through the state dict."""
    game = random_game(5, 30, num_players=2)
    clone, through_dict = game.clone(), Tequila.from_state_dict(game.state_dict())
    rng = np.random.default_rng(5)
    while not game.is_over:
        legal = np.flatnonzero(game.legal_mask())
        assert clone.legal_mask().tolist() == through_dict.legal_mask().tolist() == game.legal_mask().tolist()
        action = int(legal[rng.integers(len(legal))])
        for copy in (game, clone, through_dict):
            copy.step(action)
        assert clone.state_dict() == game.state_dict() == through_dict.state_dict()
