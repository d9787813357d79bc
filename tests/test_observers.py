"""Every game's observer: the incremental ``observe`` agrees with the from-scratch reference at every step.

For every configuration the registry enumerates, a few seeded random games are played; after every step (and
after a state-dict round trip midway) each seat's observation from ``game.observer.observe`` must equal
``game.observer.reference`` bit for bit, and ``game.observe(seat)`` must be that same vector.
"""

from __future__ import annotations

import numpy as np
import pytest
from playthrough_support import configurations

from fiesta_envs.registry import GAMES

GAMES_PER_CONFIGURATION = 2


def _check_every_seat(game, where: str) -> None:
    observer = game.observer
    for seat in range(game.num_players):
        reference = observer.reference(game, seat)
        incremental = observer.observe(game, seat)
        if not np.array_equal(reference, incremental):
            blocks = [
                name
                for name, part in observer.layout.blocks.items()
                if not np.array_equal(reference[part], incremental[part])
            ]
            pytest.fail(f"{where}, seat {seat}: incremental observation differs in blocks {blocks}")
        assert np.array_equal(game.observe(seat), reference), (
            f"{where}, seat {seat}: game.observe is not the observer's"
        )


@pytest.mark.parametrize(("game_name", "num_players", "options"), configurations(), ids=lambda v: str(v))
def test_incremental_observations_agree_with_the_reference(game_name, num_players, options):
    game_class = GAMES[game_name].game_class()
    for seed in range(GAMES_PER_CONFIGURATION):
        game = game_class(num_players=num_players, seed=seed, **options)
        if not hasattr(game, "observer"):
            pytest.skip(f"{game_name} has no observer yet")
        moves = np.random.default_rng(seed + 100)
        step = 0
        _check_every_seat(game, f"seed {seed}, start")
        while not game.is_over:
            legal = game.legal_actions()
            game.step(legal[int(moves.integers(len(legal)))])
            step += 1
            _check_every_seat(game, f"seed {seed}, after step {step}")
            if step == 10:  # a loaded copy must observe the same from its first look
                copy = game_class.from_state_dict(game.state_dict())
                _check_every_seat(copy, f"seed {seed}, loaded at step {step}")
                for seat in range(num_players):
                    assert np.array_equal(copy.observe(seat), game.observe(seat))
