"""Fiesta Mexicana's action features (option ``action_features``): each entry says what its action brings."""

from __future__ import annotations

import numpy as np
import pytest
from fiesta_mexicana_positions import card, objective, position

from fiesta_envs.fiesta_mexicana import features as F
from fiesta_envs.fiesta_mexicana.components import DISH_CARDS
from fiesta_envs.fiesta_mexicana.game import FiestaMexicana
from fiesta_envs.fiesta_mexicana.observation import observation_size

SALAD = card("salad", 1, ("green", None, None, "brown"))


def points_entry(points: float) -> float:
    return np.float32((points + 4) / 20)


def rulebook_example(orientation: int = 0) -> FiestaMexicana:
    """Daniel's table before the salad (see test_the_rulebook_placement_example_scores_2)."""
    north = card("tostada", 1, ("green", None, "brown", None))
    west = card("tostada", 1, ("white", None, None, "red"))
    east = card("tostada", 1, (None, None, "white", None))
    tables = {0: {2: (north, 2), 5: (west, 2), 7: (east, 1)}}
    return position(2, tables=tables, orientation=[orientation, 0], offer=SALAD, points=[4, 0], turn=0)


@pytest.mark.parametrize("orientation", [0, 1, 2, 3])
def test_place_features_give_the_points_of_each_turn_of_the_rulebook_example(orientation):
    game = rulebook_example(orientation)
    game.play("bid 6", "pass")
    features = game.action_features(0)
    assert features[F.PLACE_POINTS + 0] == points_entry(2)  # the rulebook's +2 for the salad unturned
    for rotation in range(4):  # every turn's entry is what placing it that way scores
        trial = FiestaMexicana(num_players=2)
        trial.load_state_dict(game.state_dict())
        before = trial.state.points[0]
        trial.play(f"place {rotation}")
        assert features[F.PLACE_POINTS + rotation] == points_entry(trial.state.points[0] - before)
    assert features[F.DISH_VALID] == 1.0


def test_bid_features_hold_the_best_turn_for_each_free_number():
    game = rulebook_example()
    features = game.action_features(0)
    best_on_6 = max(features[F.PLACE_POINTS : F.PLACE_POINTS + 4])  # not placing yet: place entries are 0
    assert best_on_6 == 0.0
    assert features[F.BID_POINTS + 5] >= points_entry(2)  # bid 6: at least the rulebook's turn
    for number in (2, 5, 7):  # covered spaces: not free, nothing to score
        assert features[F.BID_FREE + number - 1] == 0.0
        assert features[F.BID_POINTS + number - 1] == 0.0
    assert features[F.BID_FREE + 0] == 1.0
    # an empty corner of the table: only the skull counts
    assert features[F.BID_POINTS + 15] == points_entry(DISH_CARDS[SALAD].skulls)


def test_outbid_share_counts_the_other_players_with_a_higher_free_number():
    bare = card("tostada", 2, (None, None, None, None))
    others = [d.index for d in DISH_CARDS if d.index != bare][:8]
    filled = {number: (c, 0) for number, c in zip(range(9, 17), others, strict=True)}
    game = position(3, tables={1: filled}, offer=bare, turn=0)  # seat 1's highest free number is 8
    features = game.action_features(0)
    assert features[F.BID_OUTBID + 7 - 1] == 1.0  # above 7: both others have a free number
    assert features[F.BID_OUTBID + 8 - 1] == 0.5  # above 8: only seat 2
    assert features[F.BID_OUTBID + 16 - 1] == 0.0
    assert features[F.OTHER_HIGHEST + 0] == np.float32(8 / 16)
    assert features[F.OTHER_HIGHEST + 1] == 1.0
    assert features[F.FREE_SPACES + 1] == 0.5


def test_objective_slots_show_what_a_reserve_gives_up():
    game = position(2, objectives={0: [objective("children", "salad"), -1, objective("line of 3")]}, turn=0)
    features = game.action_features(0)
    assert list(features[F.SLOT_HELD : F.SLOT_HELD + 3]) == [1.0, 0.0, 1.0]
    assert features[F.SLOT_WORTH + 1] == 0.0
    assert features[F.SLOT_WORTH + 0] > 0 and features[F.SLOT_WORTH + 2] > 0


def test_features_do_not_depend_on_hidden_objectives_of_others():
    mine = [objective("children", "salad"), objective("teens", "tacos"), objective("line of 3")]
    a = position(2, objectives={0: mine, 1: [objective("children", "tacos"), -1, -1]}, turn=1)
    b = position(2, objectives={0: mine, 1: [objective("line of 4"), objective("teens", "salad"), -1]}, turn=1)
    assert np.array_equal(a.action_features(0), b.action_features(0))


def test_the_option_appends_the_features_and_leaves_the_plain_observation_unchanged():
    plain = FiestaMexicana(num_players=3, seed=5)
    extended = FiestaMexicana(num_players=3, seed=5, action_features=True)
    assert extended.observation_size == observation_size(3) + F.FEATURES_SIZE == plain.observation_size + 92
    assert extended.action_features_size == F.FEATURES_SIZE and plain.action_features_size == 0
    rng = np.random.default_rng(0)
    while not plain.is_over:
        player = plain.current_player
        observation = extended.observe(player)
        assert np.array_equal(observation[: plain.observation_size], plain.observe(player))
        assert np.array_equal(observation[plain.observation_size :], plain.action_features(player))
        assert observation.min() >= 0.0 and observation.max() <= 1.0
        action = int(rng.choice(plain.legal_actions()))
        plain.step(action)
        extended.step(action)
