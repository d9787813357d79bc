"""Positions reached by random legal play, for tests that need a game in progress."""

from __future__ import annotations

from typing import Any

import numpy as np

from fiesta_envs.core.game import Game


def played(game_class: type[Game], num_players: int, seed: int, steps: int, **options: Any) -> Game:
    """A game of ``game_class`` after ``steps`` random legal actions drawn from ``seed`` (fewer if it ends first)."""
    game = game_class(num_players=num_players, seed=seed, **options)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if game.is_over:
            break
        game.step(int(rng.choice(game.legal_actions())))
    return game
