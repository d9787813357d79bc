"""Tequila scripted baselines: legal, deterministic, fast, and the planner beats random."""

from __future__ import annotations

import numpy as np
import pytest

from fiesta_envs.core.policy import Policy, RandomPolicy
from fiesta_envs.tequila import components
from fiesta_envs.tequila.baselines import BASELINES, LAYOUT, LAYOUT_NAMES, Planner
from fiesta_envs.tequila.game import Tequila


def play(game: Tequila, policies: list[Policy], seed: int) -> np.ndarray:
    game.reset(seed)
    for i, policy in enumerate(policies):
        policy.start_episode(seed * 100 + i)
    while not game.is_over:
        seat = game.current_player
        mask = game.legal_mask()
        action = policies[seat].act(game.observe(seat), mask, game, seat)
        assert mask[action], game.action_to_string(action)
        game.step(action)
    return game.scores()


def test_baselines_table():
    assert {"planner": Planner} == BASELINES
    assert len(LAYOUT) == len(LAYOUT_NAMES)  # the layout fits the printed sheet


@pytest.mark.parametrize(
    ("num_players", "options"), [(1, {}), (2, {}), (4, {"jimadores": "B", "cask_tile": "B"}), (6, {})]
)
def test_planner_plays_legal_full_games(num_players, options):
    game = Tequila(num_players, **options)
    scores = play(game, [Planner() for _ in range(num_players)], seed=1)
    assert scores.min() > 40  # builds the chain and produces


def test_planner_is_deterministic():
    first = play(Tequila(2), [Planner(), Planner()], seed=4)
    again = play(Tequila(2), [Planner(), Planner()], seed=4)
    assert list(first) == list(again)


def test_planner_builds_the_chain_and_fills_a_production_track():
    game = Tequila(1)
    for seed in range(3):
        play(game, [Planner()], seed=seed)
        sheet = game.sheets[0]
        assert {components.KILN, components.DISTILLER, components.CASK} <= sheet.linked_kinds
        assert max(sheet.production) == components.PRODUCTION_TRACK_LENGTH


@pytest.mark.slow
def test_planner_beats_random_seat_balanced():
    game = Tequila(2)
    wins = 0
    games = 200
    for k in range(games):
        planner_seat = k % 2
        policies: list[Policy] = [RandomPolicy(), RandomPolicy()]
        policies[planner_seat] = Planner()
        scores = play(game, policies, seed=k)
        wins += scores[planner_seat] > scores[1 - planner_seat]
    # with p = 0.5 the chance of >= 120 wins in 200 is below 0.3%: a real edge, not luck
    assert wins >= 0.6 * games
