"""Fiesta Mexicana v1's observation: the page lists the blocks of the code, and each block shows what it says.

The simultaneous steps of the printed game (orienting start cards, turning tables) are shown as printed:
nobody sees a choice another player made in the same step before the step is over.
"""

from __future__ import annotations

import importlib
import re

import gymnasium
import numpy as np
import pettingzoo
import pytest
from fiesta_mexicana_positions import card_with, position

import fiesta_envs
import fiesta_envs.fiesta_mexicana_v1 as page
from fiesta_envs.fiesta_mexicana import observation as O
from fiesta_envs.fiesta_mexicana.components import DISH_CARDS
from fiesta_envs.fiesta_mexicana.game import FiestaMexicana


def documented_blocks(num_players: int) -> list[tuple[str, int]]:
    """(name, size) of every block listed in the page's observation section, sizes evaluated for n."""
    text = page.__doc__
    section = text[text.index("Observation: ``Box") : text.index("Action features (option")]
    blocks = []
    for name, size in re.findall(r"^\s*\d+\. ``(\w+)`` \[([^\]]+)\]", section, flags=re.MULTILINE):
        blocks.append((name, eval(size.replace("x", "*"), {"n": num_players})))  # sizes like "n x 420"
    blocks.append(("action_features", int(re.search(r"``action_features`` \[(\d+)\]", section).group(1))))
    return blocks


@pytest.mark.parametrize("n", [2, 3, 4])
def test_the_page_lists_the_blocks_of_the_code_in_order(n):
    game = FiestaMexicana(num_players=n, seed=0, action_features=True)
    assert [(name, size) for name, _, size in game.observer.layout.describe()] == documented_blocks(n)
    plain = FiestaMexicana(num_players=n, seed=0)
    assert f"Box(0, 1, ({441} n + {191},)" in page.__doc__
    assert plain.observation_size == 441 * n + 191


def test_the_old_names_fail_naming_v1():
    assert fiesta_envs  # registers the ids
    retired = importlib.import_module("fiesta_envs.fiesta_mexicana_v0")
    for make in (retired.env, retired.raw_env):
        with pytest.raises(ImportError, match="fiesta_mexicana_v1"):  # PettingZoo's DeprecatedEnv
            make()
    with pytest.raises(gymnasium.error.DeprecatedEnv, match="FiestaMexicana-v1"):
        gymnasium.make("fiesta_envs/FiestaMexicana-v0")
    with pytest.raises(Exception, match="v1"):
        pettingzoo.make("aec", "fiesta_envs/FiestaMexicana-v0")


def blocks(game: FiestaMexicana, seat: int) -> dict[str, np.ndarray]:
    return game.observer.decode(game.observe(seat))


def test_while_start_cards_are_oriented_each_seat_sees_only_its_own_table_and_points():
    game = FiestaMexicana(num_players=3, seed=2)
    game.play("orient 0 1", "orient 1 2")  # seat 0 is done; seat 1 orients now
    seen_by_1 = blocks(game, 1)
    other_tables = seen_by_1["tables"].reshape(3, O.TABLE_SIZE)[2]  # seat 0 is relative seat 2 for seat 1
    assert not other_tables[: 16 * O.PER_SPACE].reshape(16, O.PER_SPACE)[:, O.COVERED].any()
    assert seen_by_1["points"].tolist() == [0, 0, 0]
    own = blocks(game, 0)
    assert own["tables"][: 16 * O.PER_SPACE].reshape(16, O.PER_SPACE)[:, O.COVERED].sum() == 2
    assert own["points"][0] == pytest.approx(game.state.points[0] / 100)
    game.play("orient 0 0", "orient 1 0", "orient 0 0", "orient 1 0")  # everybody has oriented
    tables = blocks(game, 1)["tables"].reshape(3, O.TABLE_SIZE)
    for k in range(3):
        assert tables[k, : 16 * O.PER_SPACE].reshape(16, O.PER_SPACE)[:, O.COVERED].sum() == 2
    assert blocks(game, 1)["points"][2] == pytest.approx(game.state.points[0] / 100)


def test_table_turns_apply_together_when_the_last_player_has_chosen():
    game = position(3, offer=card_with("tacos"), turn=0)
    game.play("bid 7", "pass", "pass", "place 0")  # seats 1 then 2 choose a turn
    assert game.phase_name == "rotate" and game.state.turn == 1
    before_for_2 = blocks(game, 2)
    game.play("rotate left")
    assert game.state.orientation == [0, 0, 0] and game.state.turns_chosen == [-1, 0, -1]
    after_for_2 = blocks(game, 2)  # seat 2 learns nothing of seat 1's choice, only that it is its turn
    assert [name for name in after_for_2 if not np.array_equal(after_for_2[name], before_for_2[name])] == ["to_act"]
    assert blocks(game, 1)["turn_chosen"].tolist() == [1, 0, 0]  # seat 1 sees its own choice
    assert not blocks(game, 0)["turn_chosen"].any()
    restored = FiestaMexicana.from_state_dict(game.state_dict())
    assert restored.state.turns_chosen == [-1, 0, -1]
    game.play("rotate right")
    assert game.state.orientation == [0, 1, 3] and game.state.turns_chosen == [-1, -1, -1]
    assert game.phase_name == "auction"
    tables = blocks(game, 0)["tables"].reshape(3, O.TABLE_SIZE)
    assert tables[1, -4:].tolist() == [0, 1, 0, 0] and tables[2, -4:].tolist() == [0, 0, 0, 1]


def test_bids_of_this_auction_are_shown_until_the_next_one_starts():
    game = position(2, offer=card_with("tacos"), turn=0)
    game.play("bid 3", "bid 5", "bid 9")
    bids = blocks(game, 1)["bids"].reshape(2, 16)  # seen by seat 1: itself, then seat 0
    assert bids[0].nonzero()[0].tolist() == [4] and bids[1].nonzero()[0].tolist() == [2, 8]
    game.play("pass", "place 0")
    assert blocks(game, 1)["bids"].reshape(2, 16)[1].nonzero()[0].tolist() == [2, 8]
    game.play("rotate none")  # the next auction starts
    assert not blocks(game, 1)["bids"].any() and game.state.bids == [[], []]


def test_objective_hands_shown_at_setup_are_public():
    game = FiestaMexicana(num_players=2, seed=1, variant="confirmed_waiters")
    assert game.state.shown_objectives  # this deal showed and replaced hands
    counts = np.zeros(18)
    for hand in game.state.shown_objectives:
        for code in hand:
            counts[code] += 1
    for seat in (0, 1):
        assert blocks(game, seat)["shown_objectives"] == pytest.approx(np.minimum(counts / 4, 1))


def test_the_offer_block_shows_the_dish_as_printed():
    offer = card_with("salad", half="red")
    game = position(2, offer=offer, turn=0)
    shown = blocks(game, 1)["offer"]
    assert shown[0] == 1 and shown[1 + DISH_CARDS[offer].dish] == 1
    assert shown[1:] == pytest.approx(O.card_features(offer, 0))
