"""Tequila scripted baselines: legal, deterministic, fast, and the planner beats random."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from tequila_positions import holding, position
from tequila_support import CHAIN

from fiesta_envs.core.errors import InvalidOptionError
from fiesta_envs.policies.policy import Policy, RandomPolicy
from fiesta_envs.registry import make_policy
from fiesta_envs.tequila import components
from fiesta_envs.tequila.baselines import BASELINES, LAYOUT, LAYOUT_NAMES, LAYOUT_NAMES_V1, LAYOUT_V1, Planner
from fiesta_envs.tequila.game import Tequila
from fiesta_envs.tequila.state import Phase


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
    assert len(LAYOUT) == len(LAYOUT_NAMES) and len(LAYOUT_V1) == len(LAYOUT_NAMES_V1)  # they fit the printed sheet


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


@pytest.mark.parametrize("version", [1, 2])
def test_planner_builds_the_chain_and_produces(version):
    game = Tequila(1)
    for seed in range(3):
        play(game, [Planner(version=version)], seed=seed)
        sheet = game.state.sheets[0]
        assert {components.KILN, components.DISTILLER, components.CASK} <= sheet.linked_kinds
        if version == 1:  # the same tequila over and over
            assert max(sheet.production) == components.PRODUCTION_TRACK_LENGTH
        else:  # spread for the majorities (solo: 6 of a type)
            assert max(sheet.production) >= components.SOLO_TEQUILA_MINIMUM


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


# ---------------------------------------------------------------- version 2 (issue 20): scenarios version 1 fails
def chosen(game: Tequila, version: int) -> str:
    """The action ``planner:version=...`` chooses in this position, by name."""
    player = game.current_player
    action = Planner(seed=0, version=version).act(None, game.legal_mask(), game, player)
    return game.action_to_string(action)


def test_planner_version_is_an_agent_option():
    assert make_policy("tequila", "planner:version=1").version == 1
    assert make_policy("tequila", "planner").version == 2
    with pytest.raises(InvalidOptionError, match="version"):
        make_policy("tequila", "planner:version=3")


def test_planner_versus_planner_is_not_a_tie_every_game():
    tied = {1: 0, 2: 0}
    for version, seed in itertools.product(tied, range(6)):
        scores = play(Tequila(2), [Planner(version=version), Planner(version=version)], seed=seed)
        tied[version] += scores[0] == scores[1]
    assert tied[1] == 6  # deterministic and blind to the other seat: the same game twice
    assert tied[2] < 3


def test_virtual_die_goes_to_fencing_when_the_building_dice_are_enough():
    # two building dice already; the hand pays for one agave field only: a third building action is idle
    game = position(1, phase="virtual", dice=(4, 5), sheets={0: holding(agave=2, donkey=1, barrel=1)})
    assert chosen(game, 1) == "virtual build"
    assert chosen(game, 2) == "virtual fence"


def test_reroll_chases_building_dice_when_the_hand_can_pay_for_buildings():
    # two fencing dice, a hand that pays for four buildings: version 1 re-rolls only a 6
    game = position(1, phase="reroll", dice=(1, 1), sheets={0: holding(agave=4, donkey=2, worker=2)})
    assert chosen(game, 1) == "reroll none"
    assert chosen(game, 2) == "reroll both"


def test_last_round_builds_no_agave_field_that_gains_nothing():
    plan = list(LAYOUT_NAMES_V1[:12])  # version 1's chain and shop; next in its plan: "agave at 5 0 as 0"
    sheet = {**holding(agave=2), "builds_left": 1, "gears_left": 0}
    game = position(1, round=components.ROUNDS - 1, sheets={0: sheet}, buildings={0: plan})
    assert chosen(game, 1) == "build agave at 5 0 as 0"
    assert not chosen(game, 2).startswith("build")


def test_last_round_spends_what_is_left_on_the_market():
    sheet = {**holding(water=6, agave=1), "builds_left": 0, "gears_left": 0}
    game = position(1, round=components.ROUNDS - 1, sheets={0: sheet})
    assert chosen(game, 1) == "end"
    assert chosen(game, 2) == "extra"
    policy = Planner(seed=0)
    while game.current_player == 0 and game.decision != Phase.CASK and not game.is_over:
        game.step(policy.act(None, game.legal_mask(), game, 0))
    assert game.state.sheets[0].market_count() == 1


def test_red_tequila_when_it_gives_the_most_per_barrel():
    # (the donkey and the worker are kept for the next kiln of the plan)
    sheet = {**holding(agave=1, water=1, barrel=1, donkey=1, worker=1), "builds_left": 0, "gears_left": 1}
    game = position(1, sheets={0: sheet}, buildings={0: CHAIN})
    assert chosen(game, 1) == "produce cream"  # version 1 counted the agave and water as dear as the barrel
    assert chosen(game, 2) == "produce red"


def test_planner_races_for_a_majority():
    # white is far ahead of the other seat; cream is tied at 1 each: the cream breaks the tie (10 points, 2p)
    mine = {**holding(barrel=1, donkey=1, worker=1), "builds_left": 0, "gears_left": 1, "production": [6, 1, 0, 0]}
    theirs = {"production": [0, 1, 0, 0]}
    game = position(2, sheets={0: mine, 1: theirs}, buildings={0: CHAIN[:4]})
    assert chosen(game, 1) == "produce white"
    assert chosen(game, 2) == "produce cream"


def test_a_building_not_yet_affordable_does_not_block_tequila():
    # the next kiln of the plan needs a donkey and a worker, none held: version 1 kept back what it lacked
    sheet = {**holding(barrel=1), "builds_left": 0, "gears_left": 1}
    game = position(1, sheets={0: sheet}, buildings={0: CHAIN[:4]})
    assert not chosen(game, 1).startswith("produce")
    assert chosen(game, 2) == "produce cream"


def test_a_shop_with_a_cask_of_its_own_makes_red_tequila_early():
    # version 2's layout: the chain to the cask, then a shop and a second cask in section 5 (no roads over water)
    built = list(LAYOUT_NAMES[: LAYOUT_NAMES.index("shop at 4 4 as 2")])
    sheet = {**holding(agave=2, donkey=1, worker=1), "builds_left": 2, "gears_left": 0}
    game = position(1, round=3, sheets={0: sheet}, buildings={0: built})
    policy = Planner(seed=0)
    game.play("build shop at 4 4 as 2")
    assert chosen(game, 2) == "build cask at 5 7 as 1"
    game.step(policy.act(None, game.legal_mask(), game, 0))
    assert game.state.sheets[0].building_linked(components.SHOP)  # red tequila may be produced
    assert "road at 1 6 as 0" in LAYOUT_NAMES_V1 and "road at 1 6 as 0" not in LAYOUT_NAMES
