"""Fiesta Mexicana's valuations and action features, kept once per table position, equal a computation from scratch.

``valuation.position_memo`` keeps what the action features, ``greedy`` and the search compute from the tables
(placement points, the dish's value on every free space, the objectives' worth, the features' part that only
the tables decide) until a table, a table turn or a score changes. Fuzzed games check, at every step and for
every seat, the cached answers against a new engine that loaded the same position (nothing cached) and against
the valuation of exactly the spaces asked; the halves facing each space, kept up to date as dishes are placed,
against the same computed from the table.
"""

from __future__ import annotations

import numpy as np
import pytest

from fiesta_envs.fiesta_mexicana import reference
from fiesta_envs.fiesta_mexicana.features import action_features
from fiesta_envs.fiesta_mexicana.game import FiestaMexicana
from fiesta_envs.fiesta_mexicana.valuation import (
    facing_halves,
    facing_of_table,
    objective_worths,
    placement_points_table,
    placements_values,
    position_memo,
)


def fresh(game: FiestaMexicana) -> FiestaMexicana:
    """The same position in a new engine: nothing computed yet."""
    loaded = FiestaMexicana.from_state_dict(game.state_dict())
    assert isinstance(loaded, FiestaMexicana)
    return loaded


@pytest.mark.parametrize(("n", "variant"), [(2, "standard"), (3, "confirmed_waiters"), (4, "standard")])
def test_cached_features_and_valuations_equal_a_computation_from_scratch(n, variant):
    for seed in range(2):
        game = FiestaMexicana(num_players=n, seed=seed, variant=variant, action_features=True)
        rng = np.random.default_rng(seed)
        step = 0
        while not game.is_over:
            scratch = fresh(game)
            seats = rng.permutation(n).tolist()  # in turn and out of turn, in any order
            for seat in seats:
                np.testing.assert_array_equal(
                    facing_halves(game, seat), facing_of_table(game.dishes[seat], game.edges[seat])
                )
                features = action_features(game, seat)
                np.testing.assert_array_equal(features, reference.action_features(scratch, seat))
                features[:] = 0.5  # the caller's copy: the cached part must not change
                np.testing.assert_array_equal(action_features(game, seat), reference.action_features(scratch, seat))
                assert objective_worths(game, seat) == objective_worths(scratch, seat)
                if game.state.offer >= 0:
                    card = game.state.offer
                    np.testing.assert_array_equal(
                        placement_points_table(game, seat, card), placement_points_table(scratch, seat, card)
                    )
                    free = np.flatnonzero(np.asarray(game.dishes[seat]) < 0)
                    for objectives in (None, [], game.state.objectives[seat][:1]):
                        spaces = rng.permutation(free)[: rng.integers(len(free) + 1)].tolist()
                        held = game.state.objectives[seat] if objectives is None else objectives
                        codes = tuple(code for code in held if code >= 0)
                        got = placements_values(game, seat, spaces, card, objectives)
                        where = np.asarray(spaces, dtype=np.intp)
                        want = reference.placements_values(scratch, seat, where, card, codes)
                        for a, b in zip(got, want, strict=True):
                            assert a.dtype == b.dtype and a.shape == b.shape
                            np.testing.assert_array_equal(a, b)
            if step % 13 == 7:  # a reload forgets the memo of the position held before
                game.load_state_dict(game.state_dict())
            legal = np.flatnonzero(game.legal_mask())
            game.step(int(legal[rng.integers(len(legal))]))
            step += 1


def test_bids_and_passes_keep_the_memo_and_a_placement_starts_a_new_one():
    game = FiestaMexicana(num_players=2, seed=4)
    while game.phase_name != "auction":
        game.step(int(np.flatnonzero(game.legal_mask())[0]))
    memo = position_memo(game)
    action_features(game, 0)
    game.play("bid 3")
    assert position_memo(game) is memo  # the same tables: everything computed stays valid
    game.play("bid 5", "pass")
    assert game.phase_name == "place"
    game.play("place 0")
    assert position_memo(game) is not memo


def test_a_clone_and_a_reloaded_game_start_from_an_empty_memo():
    game = FiestaMexicana(num_players=2, seed=5)
    while game.phase_name != "auction":
        game.step(int(np.flatnonzero(game.legal_mask())[0]))
    action_features(game, 0)
    assert position_memo(game).derived
    assert not position_memo(game.clone()).derived
    game.load_state_dict(game.state_dict())
    assert not position_memo(game).derived
