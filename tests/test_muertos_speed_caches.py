"""The speed caches of Fiesta de los Muertos / La Catrina change nothing a player or learner sees.

* Observations are kept per seat and only their changed blocks are rewritten
  (``ObservationEncoder.refresh``): at every step, every seat's kept vector must equal one
  encoded from scratch, also after a state dict round trip and across La Catrina's rounds.
* Legal masks are shared between positions (``round.legal_mask``): each must equal a mask
  built afresh from the rules (``allowed_words`` for the writing), and be read-only.
  (Draw and spend masks are built afresh for every position.)
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from fiesta_envs.muertos.catrina import LaCatrina
from fiesta_envs.muertos.common import ENCODER, LAYOUT
from fiesta_envs.muertos.game import FiestaDeLosMuertos
from fiesta_envs.muertos.round import Phase

CASES = [
    (FiestaDeLosMuertos, 4, {}),
    (FiestaDeLosMuertos, 8, {"draw_choice": True, "constraints": 2}),
    (FiestaDeLosMuertos, 4, {"double_challenge": True, "cortege": True, "constraints": 1}),
    (LaCatrina, 5, {}),
    (LaCatrina, 4, {"double_challenge": True}),
]


def fresh_observation(game, player: int) -> np.ndarray:
    return ENCODER.encode(game.round, player, game.round_index, game.memory_cap, game.over)


def fresh_mask(game) -> np.ndarray:
    """The legal mask built from the rules without any shared table."""
    game_round = game.round
    mask = np.zeros(LAYOUT.size, dtype=np.int8)
    if game.over:
        return mask
    if game_round.phase == Phase.WRITE:
        allowed = game_round.allowed_words()
        if allowed.any():
            mask[LAYOUT.write : LAYOUT.blank] = allowed
        else:
            mask[LAYOUT.blank] = 1
        return mask
    if game_round.phase == Phase.DEDUCE:
        start = LAYOUT.match_action(game_round.number, 0)
        mask[start : start + 8] = 1
        return mask
    if game_round.phase == Phase.YELLOW:
        mask[[LAYOUT.flower, LAYOUT.memory]] = 1
        return mask
    return game_round.legal_mask()  # draw and spend masks are built afresh anyway


@pytest.mark.parametrize(("game_class", "players", "options"), CASES)
def test_kept_observations_and_shared_masks_equal_fresh_ones(game_class, players, options) -> None:
    game = game_class(num_players=players, **options)
    rng = np.random.default_rng(players)
    for seed in range(6):
        game.reset(seed)
        step = 0
        while not game.is_over:
            mask = game.legal_mask()
            if game.round.phase in (Phase.WRITE, Phase.DEDUCE, Phase.YELLOW) and not game.over:
                assert not mask.flags.writeable  # shared between positions: nobody may change it
            np.testing.assert_array_equal(mask, fresh_mask(game))
            # The actor every step (as rollouts do), all seats now and then (their blocks lag behind).
            seats = range(players) if step % 4 == 0 else [game.current_player]
            for seat in seats:
                assert np.array_equal(game.observe(seat), fresh_observation(game, seat))
            if step % 23 == 7:
                copy = game_class.from_state_dict(json.loads(json.dumps(game.state_dict())))
                for seat in range(players):
                    assert np.array_equal(copy.observe(seat), game.observe(seat))
            legal = np.flatnonzero(mask)
            game.step(int(legal[rng.integers(len(legal))]))
            step += 1
        for seat in range(players):
            assert np.array_equal(game.observe(seat), fresh_observation(game, seat))


def test_observe_returns_a_fresh_vector() -> None:
    game = FiestaDeLosMuertos(num_players=4, seed=1)
    first = game.observe(0)
    first[:] = 7.0
    assert np.array_equal(game.observe(0), fresh_observation(game, 0))
