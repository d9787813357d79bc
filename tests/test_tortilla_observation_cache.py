"""The incremental observation cache gives exactly the vectors of the from-scratch encoders."""

from __future__ import annotations

import numpy as np
import pytest

from fiesta_envs.tortilla.game import TortillaDePatatas
from fiesta_envs.tortilla.observation import encode_information_state, encode_observation

REFERENCE = {"information_state": encode_information_state, "observation": encode_observation}


@pytest.mark.parametrize("mode", sorted(REFERENCE))
@pytest.mark.parametrize("menu", ["kids", "day", "gourmet"])
@pytest.mark.parametrize("num_players", [2, 4])
def test_cached_observations_equal_the_reference_encoders(mode: str, menu: str, num_players: int) -> None:
    game = TortillaDePatatas(num_players=num_players, menu=menu, observation=mode)
    encode = REFERENCE[mode]
    for seed in range(12):
        game.reset(seed)
        rng = np.random.default_rng(seed)
        steps = 0
        while True:
            # some seats look every turn, others skip turns (their vectors must catch up)
            for seat in range(num_players):
                if seat == game.current_player or rng.random() < 0.3 or game.is_over:
                    assert np.array_equal(game.observe(seat), encode(game, seat))
            if game.is_over:
                break
            game.step(int(rng.choice(game.legal_actions())))
            steps += 1
            if steps % 9 == 0:  # a loaded position starts a fresh cache
                game.load_state_dict(game.state_dict())


def test_observe_returns_a_fresh_array() -> None:
    game = TortillaDePatatas(seed=3)
    first = game.observe(0)
    first[:] = 7.0
    assert np.array_equal(game.observe(0), encode_information_state(game, 0))
