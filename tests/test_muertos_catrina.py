"""La Catrina: the campaign rules of the rulebook and our rulings, as scenario tests."""

from __future__ import annotations

import json

import numpy as np
import pytest
from muertos_scenarios import deduce, edit_state, play_round

from fiesta_envs.core.errors import IllegalActionError, InvalidOptionError
from fiesta_envs.muertos.bands import mood_band
from fiesta_envs.muertos.catrina import LaCatrina
from fiesta_envs.muertos.components import LIMBO_BONES, MEMORY_BONES, Phase
from fiesta_envs.muertos.constraints import INCOMPATIBLE
from fiesta_envs.muertos.engine import LAYOUT, LEXICON, OBSERVER
from fiesta_envs.muertos.lexicon import THEMES


def new(n: int = 4, seed: int = 0, **options) -> LaCatrina:
    return LaCatrina(num_players=n, seed=seed, **options)


def finish_round(game, correct, rewards="memory") -> None:
    """Play a round to the given right guesses; yellow boxes take ``rewards``; then ``done``."""
    round_index = game.state.round_index
    play_round(game, correct)
    while not game.is_over and game.state.round_index == round_index:
        if game.state.round.phase == Phase.YELLOW:
            game.play(rewards)
        else:
            game.play("done")


def test_options_and_player_counts():
    assert LaCatrina.player_counts == (4, 5, 6, 7, 8) and LaCatrina.cooperative
    with pytest.raises(InvalidOptionError, match="constraints"):
        new(constraints=2)  # the campaign fixes the cards of each round
    with pytest.raises(InvalidOptionError, match="needs 4 players"):
        new(6, double_challenge=True)
    with pytest.raises(InvalidOptionError, match="draw_choice"):
        new(4, double_challenge=True, draw_choice=True)


@pytest.mark.parametrize("n", [4, 5, 6, 7, 8])
def test_bones_at_the_start_by_player_count(n):
    game = new(n)
    assert game.state.team.limbo == LIMBO_BONES[n] == {4: 0, 5: 1, 6: 2, 7: 3, 8: 4}[n]
    assert game.state.team.memory == MEMORY_BONES[n]
    assert game.state.team.flowers == 0


def test_constraint_cards_by_round_are_new_and_compatible():
    for seed in range(5):
        game = new(4, seed=seed)
        drawn = []
        for round_index in range(4):
            assert game.state.round_index == round_index
            cards = game.state.round.constraints
            assert len(cards) == round_index
            assert not any(frozenset((a, b)) in INCOMPATIBLE for a in cards for b in cards if a != b)
            drawn += cards
            finish_round(game, [4, 4, 4, 4])
        assert len(drawn) == len(set(drawn)) == 6


def test_decider_rotates_each_round():
    game = new(5, seed=1)
    for round_index in range(3):
        assert game.state.round.decider == round_index
        play_round(game, [5, 5, 5, 5, 5])
        assert game.state.round.phase == Phase.YELLOW and game.current_player == round_index
        while game.state.round_index == round_index:
            game.play("memory" if game.state.round.phase == Phase.YELLOW else "done")


def test_yellow_box_choice_memory_or_flower_in_number_order():
    game = new(4, seed=2)
    play_round(game, [4, 4, 3, 4])
    assert game.state.round.phase == Phase.YELLOW
    assert game.state.round.pending == [0, 1, 3]
    assert np.flatnonzero(game.legal_mask()).tolist() == [LAYOUT.flower, LAYOUT.memory]
    with pytest.raises(IllegalActionError, match="not now"):
        game.play("done")
    game.play("flower")
    game.play("memory")
    assert game.state.team.flowers == 1 and game.state.team.memory == 1
    rewards = [game.state.round.rewards[game.state.round.numbers[d]] for d in range(4)]
    assert rewards == ["flower", "memory", "", ""] and game.state.round.pending == [3]
    game.play("flower")
    assert game.state.team.flowers == 2
    # every skull is closed: round 1 succeeds (no bonus flower in round 1), round 2 begins
    assert game.state.round_index == 1 and game.state.team.flowers == 2 and game.state.team.memory == 1
    assert game.state.history[0]["success"] and game.state.history[0]["yellow_flowers"] == 2


def test_limbo_bone_closes_any_unappeased_skull_but_never_checks_the_yellow_box():
    game = new(6, seed=3)  # 2 Limbo Bones, 2 Memory Bones
    play_round(game, [0, 5, 5, 5, 5, 1])
    assert game.state.round.phase == Phase.SPEND
    mask = game.legal_mask()
    assert mask[LAYOUT.limbo + 0] and mask[LAYOUT.limbo + 5]
    assert not mask[LAYOUT.limbo + 1]
    with pytest.raises(IllegalActionError, match="already closed"):
        game.play("limbo 2")
    skull = game.state.round.numbers[0]
    game.play("limbo 1")  # no box checked at all: still closed
    assert game.state.round.closed(skull) and game.state.round.whites[skull] == 0
    assert not game.state.round.yellow[skull] and game.state.team.flowers == 0
    assert game.state.team.limbo == 1
    game.play("limbo 6")
    assert game.state.team.limbo == 0
    # every skull closed: the round succeeds; Memory Bones are carried over untouched
    assert game.state.round_index == 1 and game.state.team.memory == 2 and game.state.team.limbo == 0


def test_rulebook_example_six_players_a_limbo_bone_closes_skull_1_with_three_boxes_missing():
    """Rulebook: "You are 6 players. For Skull number 1, three boxes are still missing to be
    checked. You may use one Limbo Bone to close the Skull and appease it." """
    game = new(6, seed=16)
    play_round(game, [2, 5, 5, 5, 5, 5])  # skull 1: 2 of its 5 white boxes checked
    skull = game.state.round.numbers[0]
    assert game.rules.white_boxes - game.state.round.whites[skull] == 3
    assert game.state.round.phase == Phase.SPEND and game.state.team.limbo == 2
    first_round = game.state.round
    game.play("limbo 1")
    assert first_round.closed(skull) and first_round.limbo[skull]
    assert first_round.whites[skull] == 2 and not first_round.yellow[skull]
    # every skull is closed: the round succeeds and the other Limbo Bone is kept
    assert game.state.history[0]["success"] and game.state.round_index == 1 and game.state.team.limbo == 1


def test_limbo_bones_are_never_won_back():
    for seed in range(6):
        game = new(7, seed=seed)
        rng = np.random.default_rng(seed)
        limbo = game.state.team.limbo
        while not game.is_over:
            legal = np.flatnonzero(game.legal_mask())
            game.step(int(legal[rng.integers(len(legal))]))
            assert game.state.team.limbo <= limbo
            limbo = game.state.team.limbo


def test_no_limbo_bone_left_is_refused():
    game = new(4, seed=4)
    play_round(game, [3, 3, 3, 2])
    assert game.is_over  # 4 players: no Limbo Bone, no Memory Bone: the round fails at once
    assert game.state.end_reason == "failed round"


def test_spending_says_which_bone_is_missing():
    game = new(6, seed=20)  # 2 Memory Bones, 2 Limbo Bones
    play_round(game, [0, 3, 5, 5, 5, 5])  # skull 1: no white box; skull 2: 2 of 5 missing
    game.play("bone 2", "bone 2")
    assert game.state.round.closed(game.state.round.numbers[1]) and game.state.team.memory == 0
    assert game.state.round.phase == Phase.SPEND  # a Limbo Bone is left for skull 1
    with pytest.raises(IllegalActionError, match="no Memory Bone left"):
        game.play("bone 1")
    with pytest.raises(IllegalActionError, match="already closed"):
        game.play("limbo 2")
    game.play("limbo 1")
    assert game.state.history[0]["success"] and game.state.team.limbo == 1


def test_no_limbo_bone_left_is_named():
    game = new(5, seed=21)  # 1 Memory Bone, 1 Limbo Bone
    play_round(game, [0, 0, 4, 4, 4])
    game.play("limbo 1")
    assert game.state.round.phase == Phase.SPEND and game.state.team.limbo == 0
    with pytest.raises(IllegalActionError, match="no Limbo Bone left"):
        game.play("limbo 2")


def test_memory_bones_still_check_white_boxes():
    game = new(5, seed=5)  # 1 Memory Bone, 1 Limbo Bone
    play_round(game, [3, 4, 4, 4, 4])
    first_round, skull = game.state.round, game.state.round.numbers[0]
    assert first_round.whites[skull] == 3
    game.play("bone 1")
    assert first_round.closed(skull) and first_round.whites[skull] == 4
    assert game.state.round_index == 1  # round 1 succeeded
    assert game.state.team.memory == 0 and game.state.team.limbo == 1


def test_flowers_for_round_success_in_rounds_2_3_4_and_end_after_round_4():
    game = new(4, seed=6)
    flowers = []
    for _ in range(4):
        finish_round(game, [4, 4, 4, 4], rewards="memory")
        flowers.append(game.state.team.flowers)
    assert flowers == [0, 1, 3, 6]
    assert game.is_over and game.state.end_reason == "after round 4"
    assert [r["bonus_flowers"] for r in game.state.history] == [0, 1, 2, 3]
    assert game.state.team.memory == 16  # every yellow box taken as a bone, all carried over
    info = game.final_info()
    assert info["flowers"] == 6 and info["mood_band"] == "slight smile" and info["rounds_played"] == 4
    assert np.allclose(game.returns(), 6 / 13)
    assert game.scores().tolist() == [6.0] * 4


def test_a_failed_round_stops_the_campaign():
    game = new(5, seed=7)
    finish_round(game, [5, 5, 5, 5, 5], rewards="flower")
    assert game.state.team.flowers == 5 and game.state.round_index == 1
    finish_round(game, [0, 0, 0, 5, 5], rewards="flower")  # 3 open skulls, 1 Memory + 1 Limbo Bone
    assert game.is_over and game.state.end_reason == "failed round"
    assert game.state.team.flowers == 7  # no bonus for the failed round 2
    assert game.final_info()["mood_band"] == "proud"
    assert np.allclose(game.returns(), 7 / 13)


def test_the_thirteenth_flower_stops_the_campaign_at_once():
    game = new(8, seed=8)
    finish_round(game, [8] * 8, rewards="flower")
    assert game.state.team.flowers == 8 and game.state.round_index == 1
    play_round(game, [8] * 8)
    for _ in range(5):
        game.play("flower")
    assert game.is_over and game.state.end_reason == "13 flowers"
    assert game.state.round.pending  # three yellow boxes were never rewarded
    assert game.state.team.flowers == 13 and game.final_info()["mood_band"] == "won over"
    assert np.allclose(game.returns(), 1.0)


def test_a_thirteenth_flower_from_a_yellow_box_stops_even_a_round_with_open_skulls():
    """Rulebook: "If you ever manage to color in all 13 Flowers during the game, the game also
    stops": the open skulls do not make it a failed round."""
    game = new(4, seed=17)
    edit_state(game, lambda s: s["team"].__setitem__("flowers", 12))
    play_round(game, [4, 4, 0, 0])
    assert game.state.round.phase == Phase.YELLOW
    game.play("flower")
    assert game.is_over and game.state.end_reason == "13 flowers" and game.state.team.flowers == 13
    assert game.state.history[-1]["success"] is False and game.state.history[-1]["bonus_flowers"] == 0


def test_a_success_bonus_never_colours_more_than_13_flowers():
    game = new(4, seed=9)
    finish_round(game, [4] * 4)
    finish_round(game, [4] * 4)
    edit_state(game, lambda s: s["team"].__setitem__("flowers", 12))
    finish_round(game, [4] * 4)  # round 3 success: +2, but only one flower is left to colour
    assert game.state.team.flowers == 13 and game.is_over and game.state.end_reason == "13 flowers"
    assert game.state.history[-1]["bonus_flowers"] == 1


def test_failing_round_1_scores_nothing():
    game = new(4, seed=10)
    finish_round(game, [0, 0, 0, 0])
    assert game.is_over and game.state.team.flowers == 0
    assert game.final_info()["mood_band"] == "put out"
    assert game.returns().tolist() == [0.0] * 4


def test_cortege_draws_two_themes_for_every_round_of_the_campaign():
    """La Catrina may be combined with Les Cortèges (rulebook remark); our ruling: two themes are
    drawn every round and the round's characters come from them only."""
    game = new(8, seed=18, cortege=True)
    for _ in range(3):
        themes = game.state.round.theme_names()
        assert len(set(themes)) == 2 and set(themes) <= set(THEMES)
        assert {LEXICON.characters[c].theme for c in game.state.round.table} <= set(themes)
        finish_round(game, [8] * 8)


@pytest.mark.parametrize(
    ("flowers", "band"),
    [(0, "put out"), (3, "put out"), (4, "slight smile"), (6, "slight smile"), (7, "proud"), (9, "proud"),
     (10, "radiant"), (12, "radiant"), (13, "won over")],
)  # fmt: skip
def test_mood_bands(flowers, band):
    assert mood_band(flowers)[0] == band


def test_observation_shows_the_team_and_round():
    game = new(5, seed=11)
    finish_round(game, [5] * 5, rewards="flower")
    blocks = OBSERVER.decode(game.observe(1))
    assert blocks["round"].tolist() == [0, 1, 0, 0]
    assert blocks["team"][2] == pytest.approx(5 / 13)
    assert blocks["team"][3] == 1.0  # seat 1 decides in round 2
    assert blocks["constraints"].sum() == 1.0


def test_memory_bones_in_the_observation_are_scaled_by_the_most_the_team_can_hold():
    """4 players: 0 bones at the start and at most one per skull in each of the 4 rounds."""
    game = new(4, seed=19)
    assert game.memory_cap == 16
    for _ in range(3):
        finish_round(game, [4] * 4, rewards="memory")
    assert game.state.team.memory == 12
    assert OBSERVER.decode(game.observe(0))["team"][0] == pytest.approx(12 / 16)


def test_the_decider_sees_which_yellow_boxes_await_a_reward():
    game = new(4, seed=15)
    play_round(game, [4, 0, 4, 4])

    def pending() -> list[float]:
        return OBSERVER.decode(game.observe(0))["reveal"].reshape(8, 15)[:4, 14].tolist()

    assert pending() == [1.0, 0.0, 1.0, 1.0]
    game.play("flower")
    assert pending() == [0.0, 0.0, 1.0, 1.0]


def test_state_dict_round_trips_through_a_campaign():
    game = new(6, seed=12, draw_choice=True)
    rng = np.random.default_rng(3)
    while not game.is_over:
        data = game.state_dict()
        restored = LaCatrina.from_state_dict(json.loads(json.dumps(data)))
        assert restored.state_dict() == data
        assert np.array_equal(restored.legal_mask(), game.legal_mask())
        legal = np.flatnonzero(game.legal_mask())
        # prefer the right answer in the deduction so the campaign lasts
        game_round = game.state.round
        if game_round.phase == Phase.DEDUCE:
            answer = game_round.answer(game_round.numbers[game_round.number])
            game.step(LAYOUT.match_action(game_round.number, answer))
        else:
            game.step(int(legal[rng.integers(len(legal))]))
    assert game.state.round_index >= 1


def test_same_seed_same_campaign():
    def run():
        game = new(7, seed=13, cortege=True)
        rng = np.random.default_rng(0)
        while not game.is_over:
            if game.state.round.phase == Phase.DEDUCE:
                deduce(game, [7] * 7)
                continue
            legal = np.flatnonzero(game.legal_mask())
            game.step(int(legal[rng.integers(len(legal))]))
        return game.state_dict()

    assert run() == run()


def test_final_info_lists_every_round():
    game = new(4, seed=14)
    finish_round(game, [4] * 4)
    finish_round(game, [4, 4, 0, 0])
    info = game.final_info()
    assert [r["round"] for r in info["rounds"]] == [1, 2]
    assert [r["success"] for r in info["rounds"]] == [True, False]
    assert info["end_reason"] == "failed round"
    assert len(info["skull_reports"]) == 4
    json.dumps(info)
