"""Fiesta Mexicana's cached observations and masks equal a plain recomputation from the state.

``legal_mask`` reads precomputed tables (``FiestaMexicana._compute_mask``); here it is checked against a
slow reference written straight from the rules, and the incremental ``observe`` against the observer's
from-scratch reference (``observation.FiestaMexicanaObserver.encode``), on random games that also
observe out of turn and reload their state midway.
"""

from __future__ import annotations

import numpy as np
import pytest

from fiesta_envs.fiesta_mexicana import actions
from fiesta_envs.fiesta_mexicana.board import FIXED_OF
from fiesta_envs.fiesta_mexicana.components import (
    NUM_SPACES,
)
from fiesta_envs.fiesta_mexicana.game import FiestaMexicana, valid_keeps
from fiesta_envs.fiesta_mexicana.state import Phase


def reference_mask(game: FiestaMexicana) -> np.ndarray:
    mask = np.zeros(actions.NUM_ACTIONS, dtype=np.int8)
    player = game.state.turn
    if game.state.phase == Phase.AUCTION:
        for number in range(game.state.high_bid + 1, NUM_SPACES + 1):
            if game.state.cards[player][FIXED_OF[game.state.orientation[player]][number - 1]] < 0:
                mask[actions.bid_action(number)] = 1
                for slot, code in enumerate(game.state.objectives[player]):
                    mask[actions.reserve_action(number, slot)] = code >= 0
        mask[actions.PASS] = game.state.high_bid > 0
    elif game.state.phase == Phase.PLACE:
        mask[actions.PLACE : actions.ROTATE] = 1
    elif game.state.phase == Phase.ROTATE:
        mask[actions.ROTATE :] = 1
    elif game.state.phase == Phase.ORIENT:
        for rotation in range(4):
            mask[actions.orient_action(game.state.orient_step, rotation)] = 1
    elif game.state.phase == Phase.KEEP:
        for choice in valid_keeps(game.state.hands[player]):
            mask[actions.KEEP + choice] = 1
    return mask


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("variant", ["standard", "confirmed_waiters"])
def test_cached_observations_and_masks_equal_a_plain_recomputation(n, variant):
    for seed in range(4):
        game = FiestaMexicana(num_players=n, seed=seed, variant=variant)
        rng = np.random.default_rng(seed)
        step = 0
        while True:
            observers = [game.current_player] if step % 3 else list(range(n))  # in turn and out of turn
            for player in observers:
                if player >= 0:
                    observation = game.observe(player)
                    assert observation.dtype == np.float32
                    np.testing.assert_array_equal(observation, game.observer.reference(game, player))
            if game.is_over:
                break
            mask = game.legal_mask()
            assert mask.dtype == np.int8
            np.testing.assert_array_equal(mask, reference_mask(game))
            if step % 11 == 5:  # a reload rebuilds every cache
                game.load_state_dict(game.state_dict())
            legal = np.flatnonzero(mask)
            game.step(int(legal[rng.integers(len(legal))]))
            step += 1
        for player in range(n):
            np.testing.assert_array_equal(game.observe(player), game.observer.reference(game, player))


def test_an_observation_is_a_copy_that_later_steps_do_not_change():
    game = FiestaMexicana(num_players=2, seed=3)
    first = game.observe(0)
    kept = first.copy()
    first[:] = 0.5  # the caller may write into it
    game.step(int(np.flatnonzero(game.legal_mask())[0]))
    np.testing.assert_array_equal(game.observe(1), game.observer.reference(game, 1))
    assert not np.shares_memory(first, game.observe(0))
    np.testing.assert_array_equal(game.observe(0), game.observer.reference(game, 0))
    assert (kept != 0.5).any()
