"""The speed caches never change an answer: a game that has cached masks and observation blocks
all game long answers exactly as a fresh copy loaded from its state dict (which starts with empty
caches), at every step of random games for several player counts and options."""

from __future__ import annotations

import numpy as np
import pytest

from fiesta_envs.tequila.game import Tequila

CONFIGS = [
    {"num_players": 1},
    {"num_players": 2},
    {"num_players": 3, "jimadores": "dealt", "cask_tile": "B"},
    {"num_players": 5},
]


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: "-".join(f"{k}={v}" for k, v in c.items()))
def test_cached_masks_and_observations_match_a_fresh_copy(config: dict) -> None:
    game = Tequila(**config)
    fresh = Tequila(**config)
    rng = np.random.default_rng(7)
    for seed in range(2):
        game.reset(seed)
        while not game.is_over:
            mask = game.legal_mask()
            observations = [game.observe(p) for p in range(game.num_players)]
            fresh.load_state_dict(game.state_dict())
            np.testing.assert_array_equal(mask, fresh.legal_mask())
            for p in range(game.num_players):
                np.testing.assert_array_equal(observations[p], fresh.observe(p))
            np.testing.assert_array_equal(game.scores(), fresh.scores())
            legal = np.flatnonzero(mask)
            game.step(int(legal[rng.integers(len(legal))]))


def test_an_observation_is_a_new_array_each_time() -> None:
    """Callers may keep or modify what ``observe`` returns without touching the caches."""
    game = Tequila(num_players=2)
    game.reset(0)
    first = game.observe(0)
    first[:] = -1.0
    assert (game.observe(0) >= 0).all()
