"""Fiesta Mexicana's engine holds its position in one typed ``FiestaMexicanaState`` (``game.state``).

No field of the state is also an attribute of the engine; a clone, a determinisation and a loaded state dict
each get a state of their own; ``FiestaMexicanaState.copy`` is a deep copy; and the tables derived from the
state (dishes, edges, filled spaces, facing halves, free spaces) stay equal to a rebuild as a game goes on.
"""

from __future__ import annotations

import copy
import dataclasses
import json

import numpy as np
import pytest
from play_support import played as random_play

from fiesta_envs.fiesta_mexicana.game import FiestaMexicana
from fiesta_envs.fiesta_mexicana.state import FiestaMexicanaState

FIELDS = {field.name for field in dataclasses.fields(FiestaMexicanaState)}


def played(steps: int, seed: int = 3, **options) -> FiestaMexicana:
    """A 3-player game after ``steps`` random legal actions (fewer if it ends first)."""
    game = random_play(FiestaMexicana, 3, seed, steps, **options)
    assert isinstance(game, FiestaMexicana)
    return game


def positions() -> list[FiestaMexicana]:
    """Games in every phase: orienting, keeping, in an auction, placing, turning tables, over."""
    games = [played(steps, seed) for seed in (3, 8) for steps in (0, 4, 9, 30, 31, 32, 33, 80, 500)]
    games += [played(steps, 5, variant="confirmed_waiters") for steps in (0, 3, 40, 500)]
    phases = {game.phase_name for game in games}
    assert phases == {"orient", "keep", "auction", "place", "rotate", "over"}, phases
    return games


POSITIONS = positions()


def test_the_state_is_a_fiesta_mexicana_state_and_no_field_lives_on_the_engine():
    for game in POSITIONS:
        copies = [game.clone(), FiestaMexicana.from_state_dict(game.state_dict())]
        if not game.is_over:
            copies.append(game.determinize(game.current_player, np.random.default_rng(1)))
        for engine in [game, *copies]:
            assert type(engine.state) is FiestaMexicanaState
            assert not FIELDS & set(vars(engine)), sorted(FIELDS & set(vars(engine)))


def test_a_clone_is_equal_and_independent():
    for game in POSITIONS:
        saved = json.dumps(game.state_dict())
        clone = game.clone()
        assert clone.state_dict() == game.state_dict()
        assert clone.state is not game.state
        for name in FIELDS:  # change every list of the clone's state, at every depth
            value = getattr(clone.state, name)
            if isinstance(value, list):
                value.append(0)
                for item in value:
                    if isinstance(item, list):
                        item.append(0)
        clone.state.turn = 99
        assert json.dumps(game.state_dict()) == saved


def test_a_clone_plays_on_as_the_original_does():
    for game in POSITIONS:
        if game.is_over:
            continue
        clone = game.clone()
        original = game.clone()  # played on in place of ``game``, which other tests share
        rng = np.random.default_rng(0)
        while not original.is_over:
            action = int(rng.choice(original.legal_actions()))
            original.step(action)
            clone.step(action)
            assert clone.state_dict() == original.state_dict()
            assert (clone.legal_mask() == original.legal_mask()).all()


def test_copy_equals_a_deep_copy_and_shares_no_list():
    for game in POSITIONS:
        state = game.state
        copied = state.copy()
        assert copied == copy.deepcopy(state)
        for name in FIELDS:
            value, mine = getattr(state, name), getattr(copied, name)
            if isinstance(value, list):
                assert mine is not value, name
                for item, own in zip(value, mine, strict=True):
                    assert not isinstance(item, list) or own is not item, name


def test_determinising_leaves_the_position_unchanged():
    for game in POSITIONS:
        if game.is_over:
            continue
        saved = json.dumps(game.state_dict())
        for seat in range(game.num_players):
            game.determinize(seat, np.random.default_rng(seat))
        assert json.dumps(game.state_dict()) == saved


@pytest.mark.parametrize("variant", ["standard", "confirmed_waiters"])
def test_the_derived_tables_equal_a_rebuild_from_the_state(variant):
    game = FiestaMexicana(num_players=4, seed=11, variant=variant)
    rng = np.random.default_rng(11)
    while not game.is_over:
        game.step(int(rng.choice(game.legal_actions())))
        rebuilt = FiestaMexicana.from_state_dict(game.state_dict())
        assert isinstance(rebuilt, FiestaMexicana)
        assert game.dishes == rebuilt.dishes and game.edges == rebuilt.edges and game.filled == rebuilt.filled
        for mine, fresh in zip(game.facing + game._free, rebuilt.facing + rebuilt._free, strict=True):
            assert (mine == fresh).all()
