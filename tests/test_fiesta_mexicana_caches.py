"""Fiesta Mexicana's cached observations and masks equal a plain recomputation from the state.

``observe`` writes each observer's buffer incrementally and ``legal_mask`` reads precomputed tables
(see ``observation.encode`` and ``FiestaMexicana._compute_mask``). Here both are checked, entry for
entry, against a slow reference written straight from the documented layout and the rules, on
random games that also observe out of turn and reload their state midway.
"""

from __future__ import annotations

import numpy as np
import pytest

from fiesta_envs.fiesta_mexicana import actions as A
from fiesta_envs.fiesta_mexicana.board import FIXED_OF
from fiesta_envs.fiesta_mexicana.components import (
    DISH_CARDS,
    MAX_PENALTY,
    MAX_SKULLS,
    NUM_DISH_CARDS,
    NUM_OBJECTIVE_KINDS,
    NUM_SPACES,
    OBJECTIVES_DEALT,
    VARIANT_PENALTIES,
)
from fiesta_envs.fiesta_mexicana.game import AUCTION, KEEP, ORIENT, PLACE, ROTATE, FiestaMexicana, valid_keeps

PER_SPACE = 26  # dish one-hot 6, skulls 1, edges 4 x 4, covered, number, penalty


def reference_card(card: int, turns: int) -> list[float]:
    """Dish one-hot, skulls / 3, then the edges N, E, S, W (4 colours each) of a card turned clockwise."""
    c = DISH_CARDS[card]
    values = [0.0] * 23
    values[c.dish] = 1.0
    values[6] = c.skulls / MAX_SKULLS
    for direction in range(4):
        colour = c.edges[(direction - turns) % 4]
        if colour >= 0:
            values[7 + 4 * direction + colour] = 1.0
    return values


def reference_table(game: FiestaMexicana, seat: int) -> list[float]:
    orientation = game.orientation[seat]
    values: list[float] = []
    for view in range(NUM_SPACES):
        space = FIXED_OF[orientation][view]
        card = game.cards[seat][space]
        if card >= 0:
            values += [*reference_card(card, game.rotations[seat][space] - orientation), 1.0]
        else:
            values += [0.0] * 24
        penalty = VARIANT_PENALTIES.get(space, 0) / MAX_PENALTY if game.confirmed_waiters else 0.0
        values += [(view + 1) / NUM_SPACES, penalty]
    return values + [float(o == orientation) for o in range(4)]


def reference_observation(game: FiestaMexicana, player: int) -> np.ndarray:
    n = game.num_players
    seats = [(player + k) % n for k in range(n)]
    values: list[float] = []
    for seat in seats:
        values += reference_table(game, seat)
    shown = game.start_cards[game.turn][game.orient_step] if game.phase == ORIENT else game.offer
    values += [1.0, *reference_card(shown, 0)] if shown >= 0 else [0.0] * 24
    values.append(game.high_bid / NUM_SPACES)
    values += [float(seat == game.high_bidder) for seat in seats]
    values += [float(game.passed[seat]) for seat in seats]
    values += [float(seat == game.current_player) for seat in seats]
    values += [float(phase == game.phase) for phase in range(6)]
    values += [min(game.points[seat] / 100, 1.0) for seat in seats]
    slots = [0.0] * (OBJECTIVES_DEALT * NUM_OBJECTIVE_KINDS)
    for slot, code in enumerate(game.hands[player] or game.objectives[player]):
        if code >= 0:
            slots[slot * NUM_OBJECTIVE_KINDS + code] = 1.0
    values += slots
    for seat in seats:
        held = len(game.hands[seat]) or sum(code >= 0 for code in game.objectives[seat])
        values.append(held / OBJECTIVES_DEALT)
    values.append(len(game.deck) / NUM_DISH_CARDS)
    return np.array(values, dtype=np.float32)


def reference_mask(game: FiestaMexicana) -> np.ndarray:
    mask = np.zeros(A.NUM_ACTIONS, dtype=np.int8)
    player = game.turn
    if game.phase == AUCTION:
        for number in range(game.high_bid + 1, NUM_SPACES + 1):
            if game.cards[player][FIXED_OF[game.orientation[player]][number - 1]] < 0:
                mask[A.bid_action(number)] = 1
                for slot, code in enumerate(game.objectives[player]):
                    mask[A.reserve_action(number, slot)] = code >= 0
        mask[A.PASS] = game.high_bid > 0
    elif game.phase == PLACE:
        mask[A.PLACE : A.ROTATE] = 1
    elif game.phase == ROTATE:
        mask[A.ROTATE :] = 1
    elif game.phase == ORIENT:
        for rotation in range(4):
            mask[A.orient_action(game.orient_step, rotation)] = 1
    elif game.phase == KEEP:
        for choice in valid_keeps(game.hands[player]):
            mask[A.KEEP + choice] = 1
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
                    np.testing.assert_array_equal(observation, reference_observation(game, player))
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
            np.testing.assert_array_equal(game.observe(player), reference_observation(game, player))


def test_an_observation_is_a_copy_that_later_steps_do_not_change():
    game = FiestaMexicana(num_players=2, seed=3)
    first = game.observe(0)
    kept = first.copy()
    first[:] = 0.5  # the caller may write into it
    game.step(int(np.flatnonzero(game.legal_mask())[0]))
    np.testing.assert_array_equal(game.observe(1), reference_observation(game, 1))
    assert not np.shares_memory(first, game.observe(0))
    np.testing.assert_array_equal(game.observe(0), reference_observation(game, 0))
    assert (kept != 0.5).any()
