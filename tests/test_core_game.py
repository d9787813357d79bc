"""The engine contract's generic parts, on the toy Nim game."""

from __future__ import annotations

import json

import numpy as np
import pytest
from toy_game import Nim

from fiesta_envs.core.errors import IllegalActionError, InvalidOptionError, InvalidStateError
from fiesta_envs.core.rewards import margin_returns, ranking_returns


def test_same_seed_same_game_and_different_seeds_differ():
    piles = {Nim(seed=s).pile for s in range(20)}
    assert len(piles) > 1
    assert Nim(seed=3).pile == Nim(seed=3).pile


def test_reset_without_a_seed_continues_the_generator_so_a_seeded_sequence_repeats():
    def piles(game: Nim) -> list[int]:
        sequence = []
        for _ in range(12):
            game.reset()
            sequence.append(game.pile)
        return sequence

    first = piles(Nim(seed=5))
    assert first == piles(Nim(seed=5))
    assert len(set(first)) > 1
    reseeded = Nim(seed=99)
    reseeded.reset(5)
    assert reseeded.pile == Nim(seed=5).pile


def test_play_by_name_and_names_round_trip():
    game = Nim(seed=1)
    start = game.pile
    game.play("take 2", "take 1")
    assert game.pile == start - 3
    for action in range(game.num_actions):
        assert game.string_to_action(game.action_to_string(action)) == action


def test_unknown_action_name_suggests_close_names():
    with pytest.raises(IllegalActionError, match="did you mean 'take 2'"):
        Nim(seed=1).string_to_action("tak 2")


@pytest.mark.parametrize("bad", [1.5, "1", None, True, np.float32(1)])
def test_action_of_wrong_type_is_refused(bad):
    with pytest.raises(IllegalActionError, match="must be an integer"):
        Nim(seed=1).step(bad)


@pytest.mark.parametrize("bad", [-1, 3, 99])
def test_action_out_of_range_is_refused(bad):
    with pytest.raises(IllegalActionError, match="out of range"):
        Nim(seed=1).step(bad)


def test_illegal_action_names_the_action_and_the_rule():
    game = Nim(seed=1)
    d = game.state_dict()
    d["state"]["pile"] = 2
    game.load_state_dict(d)
    with pytest.raises(IllegalActionError, match=r"'take 3' \(action 2\): only 2 stones are left"):
        game.step(2)


def test_stepping_after_the_end_is_refused():
    game = Nim(seed=1)
    while not game.is_over:
        game.step(0)
    with pytest.raises(IllegalActionError, match="the game is over"):
        game.step(0)


def test_state_dict_is_json_safe_and_continues_identically():
    game = Nim(seed=5)
    game.step(0)
    saved = json.loads(json.dumps(game.state_dict()))
    copy = Nim.from_state_dict(saved)
    game.reset(123)
    copy.reset(123)  # the restored generator and options give the same new game too
    assert copy.pile == game.pile
    again = Nim(seed=9)
    again.load_state_dict(saved)
    assert again.rng.integers(1 << 30) == Nim.from_state_dict(saved).rng.integers(1 << 30)


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d.pop("state"), "missing key 'state'"),
        (lambda d: d.update(game="other"), "is for game 'other'"),
        (lambda d: d.update(num_players=3), "for 3 players"),
        (lambda d: d["options"].update(max_take=2), "options"),
        (lambda d: d["state"].update(pile="many"), "malformed state dict"),
        (lambda d: d["state"].update(pile=40), "malformed state dict"),
        (lambda d: d["rng"].update(bit_generator="Nope"), "malformed state dict"),
    ],
)
def test_malformed_state_dicts_are_refused_clearly(mutate, message):
    game = Nim(seed=1)
    d = game.state_dict()
    mutate(d)
    with pytest.raises(InvalidStateError, match=message):
        game.load_state_dict(d)


def test_state_dict_must_be_a_mapping():
    with pytest.raises(InvalidStateError, match="must be a mapping"):
        Nim(seed=1).load_state_dict([1, 2])


def test_unknown_option_is_named_with_a_suggestion():
    with pytest.raises(InvalidOptionError, match="unknown option 'max_tak'.*did you mean 'max_take'"):
        Nim(max_tak=2)


def test_option_value_out_of_range_names_allowed_values():
    with pytest.raises(InvalidOptionError, match="max_take=5 is not allowed; allowed values: 2, 3"):
        Nim(max_take=5)
    with pytest.raises(InvalidOptionError, match="allowed values: 'rank', 'margin'"):
        Nim(reward="score")


def test_boolean_is_not_taken_for_a_number():
    with pytest.raises(InvalidOptionError):
        Nim(max_take=True)


@pytest.mark.parametrize("count", [1, 4, "2", 2.0, 0])
def test_wrong_player_counts_name_the_allowed_counts(count):
    with pytest.raises(InvalidOptionError, match="allowed: 2, 3"):
        Nim(num_players=count)


def test_ranking_returns():
    assert ranking_returns(np.array([3, 1])).tolist() == [1.0, -1.0]
    assert ranking_returns(np.array([2, 2])).tolist() == [0.0, 0.0]
    np.testing.assert_allclose(ranking_returns(np.array([5, 9, 1])), [0.0, 1.0, -1.0])
    # tie for first of 4 players: ranks 0 and 1 share (1 + 1/3) / 2
    np.testing.assert_allclose(ranking_returns(np.array([7, 7, 3, 1])), [2 / 3, 2 / 3, -1 / 3, -1.0])
    np.testing.assert_allclose(ranking_returns(np.array([4, 4, 4])), [0.0, 0.0, 0.0])


@pytest.mark.parametrize("num_players", range(2, 9))
def test_an_all_way_tie_is_worth_exactly_zero(num_players):
    """Not 5.55e-17: a tie across the middle ranks is exactly 0, and the rewards sum to exactly 0."""
    assert ranking_returns(np.full(num_players, 7.0)).tolist() == [0.0] * num_players
    middle = np.array([9.0, *([5.0] * (num_players - 2)), 1.0])
    assert ranking_returns(middle).tolist() == [1.0, *([0.0] * (num_players - 2)), -1.0]


def test_margin_returns_clip_and_scale():
    np.testing.assert_allclose(margin_returns(np.array([30, 20, 10]), 20.0), [0.5, -0.5, -1.0])
    np.testing.assert_allclose(margin_returns(np.array([100, 0]), 20.0), [1.0, -1.0])


def test_returns_follow_the_reward_option():
    game = Nim(seed=2, reward="margin")
    assert game.returns().tolist() == [0.0, 0.0]  # not over yet
    while not game.is_over:
        game.step(0)
    assert sorted(game.returns().tolist()) == [-1.0, 1.0]
    assert game.winners() == [int(np.argmax(game.scores()))]


class TeamNim(Nim):
    """Three seats, seats 0 and 2 on one team sharing the win; a tie-break favours seat 1."""

    name = "toy_team_nim"
    player_counts = (3,)
    default_players = 3

    def teams(self):
        return [0, 1, 0]

    def scores(self):
        won = super().scores()
        return np.array([won[0] + won[2], won[1], won[0] + won[2]])


def finish(game, winner):
    d = game.state_dict()
    d["state"].update(pile=0, turn=winner, winner=winner)
    game.load_state_dict(d)


def test_teams_are_ranked_as_one_and_every_member_gets_the_team_reward():
    game = TeamNim(seed=0)
    finish(game, 2)
    assert game.returns().tolist() == [1.0, -1.0, 1.0]
    assert game.winners() == [0, 2]
    finish(game, 1)
    assert game.returns().tolist() == [-1.0, 1.0, -1.0]


def test_margin_reward_compares_teams():
    game = TeamNim(seed=0, reward="margin")
    finish(game, 0)
    assert game.returns().tolist() == [1.0, -1.0, 1.0]


def test_ranking_keys_break_ties():
    class TieBreakNim(Nim):
        def scores(self):
            return np.zeros(self.num_players)  # everybody ties on score...

        def ranking_keys(self):
            return self.scores() + np.arange(self.num_players)  # ...and the last seat wins the tie-break

    game = TieBreakNim(num_players=3, seed=0)
    finish(game, 0)
    assert game.returns().tolist() == [-1.0, 0.0, 1.0]
    assert game.winners() == [2]


def test_an_equal_option_value_is_stored_as_the_declared_choice():
    game = Nim(max_take=2.0)
    assert game.config["max_take"] == 2 and type(game.config["max_take"]) is int
    assert type(Nim(max_take=np.int64(3)).config["max_take"]) is int


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.bool_, np.int64, np.float32])
def test_legal_actions_are_the_nonzero_entries_of_any_mask(dtype):
    from fiesta_envs.policies.policy import first_legal, legal_actions

    rng = np.random.default_rng(3)
    for _ in range(20):
        mask = (rng.random(50) < 0.3).astype(dtype)
        mask[rng.integers(50)] = 1
        assert legal_actions(mask).tolist() == np.flatnonzero(mask).tolist()
        assert first_legal(mask) == int(np.flatnonzero(mask)[0])
