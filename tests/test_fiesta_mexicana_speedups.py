"""Fiesta Mexicana's fast paths equal the computation from scratch at every step of fuzzed games.

The action features and ``greedy`` share what they compute (``valuation``: once per table position, once per
table until a dish is put on it; ``features``: each table's view per orientation). ``reference`` computes the
same numbers plainly from the position alone. Here fuzzed games (random and greedy moves, reserves included,
a reload now and then) check at every step, for every seat and in a random order of readers: the features and
the observation byte for byte, every valuation value for value, and ``greedy`` (both versions) playing the move
that a ``greedy`` reading the reference plays.
"""

from __future__ import annotations

import numpy as np
import pytest

from fiesta_envs.fiesta_mexicana import baselines, reference
from fiesta_envs.fiesta_mexicana.baselines import GreedyPolicy
from fiesta_envs.fiesta_mexicana.features import FEATURES_SIZE, action_features
from fiesta_envs.fiesta_mexicana.game import FiestaMexicana
from fiesta_envs.fiesta_mexicana.valuation import (
    best_by_number,
    best_points,
    objective_worths,
    placements_values,
)


def fresh(game: FiestaMexicana) -> FiestaMexicana:
    """The same position in a new engine, loaded from its state dict: nothing computed or kept yet."""
    loaded = FiestaMexicana.from_state_dict(game.state_dict())
    assert isinstance(loaded, FiestaMexicana)
    return loaded


def reference_greedy_move(monkeypatch: pytest.MonkeyPatch, greedy: GreedyPolicy, game: FiestaMexicana) -> int:
    """What ``greedy`` plays in ``game``'s position when every valuation it reads is computed from scratch."""
    scratch = fresh(game)
    with monkeypatch.context() as patched:
        patched.setattr(baselines, "best_by_number", reference.best_by_number)
        patched.setattr(
            baselines, "best_points", lambda g, p, c: reference.placements_table(g, p, c, ())[0].max(axis=1)
        )
        patched.setattr(baselines, "objective_worths", reference.objective_worths)
        patched.setattr(baselines, "best_rotation", reference.best_rotation)
        return int(greedy.act(None, scratch.legal_mask(), scratch, scratch.current_player))


def check_valuations(game: FiestaMexicana, scratch: FiestaMexicana, seat: int, rng: np.random.Generator) -> None:
    assert objective_worths(game, seat) == reference.objective_worths(scratch, seat)
    card = game.state.offer
    if card < 0:
        return
    free_numbers = [n for n in range(16) if game.dishes[seat][game.space_of(seat, n + 1)] < 0]
    np.testing.assert_array_equal(best_points(game, seat, card), reference.best_points(scratch, seat, card))
    held = game.state.objectives[seat]
    for objectives in (held, [], [code for code in held if code >= 0][:1], held[1:]):
        codes = tuple(code for code in objectives if code >= 0)
        for fast, slow in zip(
            best_by_number(game, seat, card, codes), reference.best_by_number(scratch, seat, card, codes), strict=True
        ):
            np.testing.assert_array_equal(fast[free_numbers], slow[free_numbers])
        free = np.flatnonzero(np.asarray(game.dishes[seat]) < 0)
        asked = [
            rng.permutation(free)[: rng.integers(len(free) + 1)].tolist(),  # uncovered spaces: from the memo
            rng.permutation(16)[: rng.integers(1, 17)].tolist(),  # covered ones too: valued as asked
        ]
        for spaces in asked:
            got = placements_values(game, seat, spaces, card, list(objectives))
            want = reference.placements_values(scratch, seat, np.asarray(spaces, dtype=np.intp), card, codes)
            for a, b in zip(got, want, strict=True):
                assert a.dtype == b.dtype and a.shape == b.shape
                np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize(
    ("n", "variant", "games"), [(2, "standard", 4), (3, "confirmed_waiters", 2), (4, "standard", 2)]
)
def test_features_valuations_and_greedy_equal_the_computation_from_scratch(monkeypatch, n, variant, games):
    greedy = [GreedyPolicy(), GreedyPolicy(version=1)]
    for seed in range(games):
        game = FiestaMexicana(num_players=n, seed=seed, variant=variant, action_features=True)
        rng = np.random.default_rng(seed)
        step = 0
        while not game.is_over:
            scratch = fresh(game)
            for seat in rng.permutation(n).tolist():  # in turn and out of turn, in any order
                if rng.random() < 0.5:
                    check_valuations(game, scratch, seat, rng)
                features = action_features(game, seat)
                want = reference.action_features(scratch, seat)
                assert features.dtype == want.dtype and features.tobytes() == want.tobytes()
                features[:] = 0.5  # the caller's copy: what is kept must not change
                assert game.observe(seat)[-FEATURES_SIZE:].tobytes() == want.tobytes()
                check_valuations(game, scratch, seat, rng)
            mask = game.legal_mask()
            player = game.current_player
            moves = [int(policy.act(None, mask, game, player)) for policy in greedy]
            assert moves == [reference_greedy_move(monkeypatch, policy, game) for policy in greedy]
            if step % 17 == 9:  # a reload forgets everything kept for the position and the tables
                game.load_state_dict(game.state_dict())
            legal = np.flatnonzero(mask)
            game.step(moves[step % 2] if rng.random() < 0.7 else int(legal[rng.integers(len(legal))]))
            step += 1
