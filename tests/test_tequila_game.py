"""Tequila as a whole: scoring, majorities, variants, options, state dicts, determinism, observations."""

from __future__ import annotations

import json

import numpy as np
import pytest
from tequila_positions import holding, position

from fiesta_envs.core.errors import IllegalActionError, InvalidOptionError, InvalidStateError
from fiesta_envs.tequila import actions, components
from fiesta_envs.tequila.game import Tequila
from fiesta_envs.tequila.scoring import achievements, majority_awards, place_awards, solo_rank
from fiesta_envs.tequila.sheet import Sheet
from fiesta_envs.tequila.state import Phase


def random_game(game: Tequila, seed: int, stop_after: int | None = None) -> list[int]:
    rng = np.random.default_rng(seed)
    played = []
    while not game.is_over and (stop_after is None or len(played) < stop_after):
        legal = np.flatnonzero(game.legal_mask())
        action = int(legal[rng.integers(len(legal))])
        game.step(action)
        played.append(action)
    return played


# ---------------------------------------------------------------- majorities
WHITE_LEFT, WHITE_RIGHT = components.TEQUILA_MAJORITY[components.WHITE]


def test_two_players_most_gains_the_right_value_and_ties_split_it():
    assert majority_awards([5, 3], WHITE_LEFT, WHITE_RIGHT, 6) == [8, 0]
    assert majority_awards([3, 3], WHITE_LEFT, WHITE_RIGHT, 6) == [4, 4]
    assert majority_awards([0, 0], WHITE_LEFT, WHITE_RIGHT, 6) == [0, 0]
    assert majority_awards([4, 4], *components.MARKET_MAJORITY, 12) == [7, 7]
    assert majority_awards([4, 2], *components.MARKET_MAJORITY, 12) == [14, 0]


def test_three_players_first_and_second_with_tie_splits():
    assert majority_awards([5, 3, 1], WHITE_LEFT, WHITE_RIGHT, 6) == [16, 8, 0]
    assert majority_awards([5, 5, 2], WHITE_LEFT, WHITE_RIGHT, 6) == [12, 12, 0]  # (16 + 8) / 2
    assert majority_awards([5, 3, 3], WHITE_LEFT, WHITE_RIGHT, 6) == [16, 4, 4]  # 8 / 2
    assert majority_awards([3, 3, 3], WHITE_LEFT, WHITE_RIGHT, 6) == [8, 8, 8]  # 24 / 3
    assert majority_awards([2, 0, 0], WHITE_LEFT, WHITE_RIGHT, 6) == [16, 0, 0]  # 0 takes no place
    red = components.TEQUILA_MAJORITY[components.RED]
    assert majority_awards([4, 4, 4, 1], *red, 6) == [15, 15, 15, 0]  # (30 + 15) / 3
    assert majority_awards([1, 4, 4, 4], *components.MARKET_MAJORITY, 12) == [0, 11, 11, 11]  # 34 / 3 rounded down


def test_five_or_more_players_contest_only_their_neighbours():
    counts = [5, 1, 4, 4, 0, 2]
    awards = majority_awards(counts, WHITE_LEFT, WHITE_RIGHT, 6)
    # seat 0 vs 5 and 1: most; seat 1 vs 0, 2: no; seat 2 vs 1, 3: tie; seat 3 vs 2, 4: tie;
    # seat 4 has none; seat 5 vs 4 and 0: no
    assert awards == [8, 0, 4, 4, 0, 0]


def test_solo_majorities_need_six_and_twelve():
    assert majority_awards([6], WHITE_LEFT, WHITE_RIGHT, 6) == [8]
    assert majority_awards([5], WHITE_LEFT, WHITE_RIGHT, 6) == [0]
    assert majority_awards([12], *components.MARKET_MAJORITY, 12) == [14]
    assert majority_awards([11], *components.MARKET_MAJORITY, 12) == [0]


def test_place_awards_later_places_are_worth_nothing():
    assert place_awards([1, 2, 3, 4], (10, 5)) == [0, 0, 5, 10]
    assert place_awards([3, 2, 2, 2], (10, 5)) == [10, 1, 1, 1]


# ---------------------------------------------------------------- solo
@pytest.mark.parametrize(
    ("score", "rank"),
    [
        (0, "Clear"),
        (119, "Clear"),
        (120, "Young"),
        (179, "Young"),
        (180, "Rested"),
        (229, "Rested"),
        (230, "Aged"),
        (329, "Aged"),
        (330, "Golden"),
        (500, "Golden"),
    ],
)
def test_solo_ranks(score, rank):
    assert solo_rank(score) == f"{rank} tequilero"


def test_solo_game_keeps_the_starting_player_and_reports_the_rank():
    game = Tequila(1, seed=3)
    rounds_seen = set()
    rng = np.random.default_rng(0)
    while not game.is_over:
        assert game.state.start_player == 0
        rounds_seen.add(game.state.round)
        legal = np.flatnonzero(game.legal_mask())
        game.step(int(legal[rng.integers(len(legal))]))
    assert rounds_seen == set(range(8))
    info = game.final_info()
    assert info["solo_rank"] == solo_rank(info["scores"][0])
    assert game.returns()[0] == pytest.approx(min(info["scores"][0] / 330, 1.0))


def test_solo_gains_every_first_to_bonus():
    sheets = {0: {**holding(donkey=1, worker=1)}}
    game = position(1, sheets=sheets, round=3, bonus_round={2: 0})
    game.play("build kiln at 2 7 as 1")
    assert game.score_breakdowns()[0]["sections_first"] == 6


# ---------------------------------------------------------------- round flow and variants
def test_the_coaster_passes_left_each_round():
    game = Tequila(3, seed=1)
    starts = []
    rng = np.random.default_rng(1)
    while not game.is_over:
        if game.decision == Phase.REROLL:
            starts.append(game.current_player)
        legal = np.flatnonzero(game.legal_mask())
        game.step(int(legal[rng.integers(len(legal))]))
    assert starts == [0, 1, 2, 0, 1, 2, 0, 1]


def test_turns_run_seat_by_seat_from_the_starting_player():
    game = position(3, phase="reroll", start_player=2)
    game.play("reroll none", "virtual build", "end")
    assert game.current_player == 0
    game.play("virtual build", "end")
    assert game.current_player == 1


def test_five_or_more_players_have_no_reroll():
    game = Tequila(6, seed=0)
    assert game.decision == Phase.VIRTUAL
    assert game.many_players


@pytest.mark.parametrize("options", [{"jimadores": "B"}, {"cask_tile": "B"}, {"jimadores": "dealt"}])
def test_five_or_more_players_refuse_side_b(options):
    with pytest.raises(InvalidOptionError, match="side A"):
        Tequila(5, **options)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"jimadores": "blue"}, "allowed values"),
        ({"jimadores": "B", "jimador_order": "red,red"}, "distinct jimadores"),
        ({"jimadores": "B", "jimador_order": "red,blue"}, "distinct jimadores"),
        ({"jimadores": "B", "jimador_order": "red"}, "one jimador per seat"),
        ({"jimador_order": "red,green"}, "needs jimadores='B'"),
        ({"cask_tile": "C"}, "allowed values"),
        ({"reward": "score"}, "allowed values"),
    ],
)
def test_bad_options_are_refused_by_name(options, message):
    with pytest.raises(InvalidOptionError, match=message):
        Tequila(2, **options)


def test_jimadores_side_b_default_order_and_dealt():
    assert Tequila(4, jimadores="B").state.jimadores == ["purple", "red", "orange", "green"]
    assert Tequila(2, jimadores="B", jimador_order="green,purple").state.jimadores == ["green", "purple"]
    dealt = Tequila(3, seed=4, jimadores="dealt").state.jimadores
    assert len(set(dealt)) == 3 and set(dealt) <= set(components.JIMADORES)
    assert Tequila(3, seed=4, jimadores="dealt").state.jimadores == dealt


def test_cask_tile_b_resources_and_virtual_die():
    game = position(phase="reroll", dice=(6, 3), cask_tile="B")
    game.play("reroll none")
    assert game.state.sheets[0].held(components.AGAVE) == 2  # 6 and 3 both give agave on side B
    game.play("virtual fence")
    assert game.state.sheets[0].fences_left == 7  # 2 dice on fencing, +1 fence
    game.play("end", "virtual build")
    sheet = game.state.sheets[1]
    assert sheet.builds_left == 2 and sheet.free_road
    game.play("free road at 0 3")  # on water, free
    assert sheet.buildings and not sheet.free_road and sheet.held(components.AGAVE) == 2


def test_free_road_is_only_for_cask_tile_b():
    game = position(phase="reroll", dice=(6, 3))
    game.play("reroll none", "virtual build")
    with pytest.raises(IllegalActionError, match="no free road"):
        game.play("free road at 0 3")


# ---------------------------------------------------------------- end of game
def test_final_scoring_and_tie_break():
    game = Tequila(2, seed=0)
    data = game.state_dict()
    state = data["state"]
    state["phase"] = "over"
    state["round"] = 8
    for sheet in state["sheets"]:
        sheet["production"] = [3, 0, 0, 0]
        sheet["coins"] = 4
        sheet["market"] = 0b111
        sheet["gears_unused"] = 2
    state["sheets"][1]["rewarded_fields"] = 0b1000  # F3 shows water x2
    game.load_state_dict(data)
    assert game.is_over
    assert list(game.scores()) == [33, 33]  # 2 + 8 + 9 + 3 + 4 + 7 each
    assert game.winners() == [1]
    assert list(game.returns()) == [-1.0, 1.0]
    info = game.final_info()
    assert info["tie_break"] == [0, 2]
    assert info["score_breakdown"][0] == {
        "unused_gears": 2,
        "coin_track": 8,
        "production_tracks": 9,
        "collections": 0,
        "sections_first": 0,
        "first_to_bonuses": 0,
        "market_spaces": 3,
        "tequila_majorities": 4,
        "market_majority": 7,
    }


def test_achievements():
    sheet = Sheet()
    assert achievements(sheet, 0) == []
    sheet.collections = 6
    sheet.production = [6, 6, 8, 6]
    sheet.coins, sheet.coins_earned = 15, 16
    sheet.extra_bought = 12
    sheet.sections = 0b111111
    sheet.market = (1 << 20) - 1
    sheet.rewarded_fields = 0b1111111111111111
    assert achievements(sheet, 275) == [
        "Guadalajara Guadalajara",
        "La Bikina",
        "Con dinero y sin dinero",
        "Se alegran los corazones",
        "México lindo y querido",
        "Viva México",
        "El Aventurero",
        "Canta y no llores",
        "Olor a tierra mojada",
        "Pero sigo siendo el rey",
    ]
    sheet.rewarded_fields = 0b0000000001111111  # 7 fields, 3 houses (F0 F2 F4)... 28 spaces
    names = achievements(sheet, 274)
    assert "Canta y no llores" not in names and "Olor a tierra mojada" not in names
    assert "Pero sigo siendo el rey" not in names


# ---------------------------------------------------------------- engine contract
@pytest.mark.parametrize(
    ("num_players", "options"),
    [(1, {}), (2, {}), (3, {"cask_tile": "B"}), (4, {"jimadores": "B"}), (2, {"jimadores": "dealt"}), (5, {}), (8, {})],
)
def test_random_games_run_to_the_end_with_valid_observations(num_players, options):
    game = Tequila(num_players, seed=11, **options)
    rng = np.random.default_rng(2)
    steps = 0
    while not game.is_over:
        mask = game.legal_mask()
        assert mask.dtype == np.int8 and mask.shape == (game.num_actions,) and mask.sum() > 0
        if steps % 7 == 0:
            obs = game.observe(game.current_player)
            assert obs.dtype == np.float32 and obs.shape == (game.observation_size,)
            assert obs.min() >= 0.0 and obs.max() <= 1.0
        legal = np.flatnonzero(mask)
        game.step(int(legal[rng.integers(len(legal))]))
        steps += 1
    assert game.current_player == -1
    assert game.legal_mask().sum() == 0
    lines = game.render_text().splitlines()
    assert len(lines) > 10 and max(len(line) for line in lines) <= 100
    json.dumps(game.final_info())


def test_action_names_are_unique_and_as_in_the_rulings():
    names = Tequila(2).action_names()
    assert len(set(names)) == len(names) == actions.NUM_ACTIONS
    for name in (
        "reroll both",
        "virtual fence",
        "fence 39",
        "build shop at 4 4 as 2",
        "free road at 7 7",
        "produce red",
        "sell 2 7",
        "extra",
        "pay barrel",
        "gain agave",
        "cask yes",
        "shop no",
        "end",
    ):
        assert name in names


def test_state_dict_round_trip_mid_game_continues_identically():
    game = Tequila(3, seed=5, cask_tile="B")
    random_game(game, seed=1, stop_after=150)
    saved = json.loads(json.dumps(game.state_dict()))
    copy = Tequila.from_state_dict(saved)
    assert copy.state_dict() == game.state_dict()
    np.testing.assert_array_equal(copy.legal_mask(), game.legal_mask())
    np.testing.assert_array_equal(copy.observe(1), game.observe(1))
    rest = random_game(game, seed=9)
    for action in rest:
        copy.step(action)
    assert copy.state_dict() == game.state_dict()
    assert list(copy.scores()) == list(game.scores())


def test_same_seed_same_actions_same_game():
    first, second = Tequila(2, seed=8), Tequila(2, seed=8)
    played = random_game(first, seed=3)
    for action in played:
        second.step(action)
    assert first.state_dict() == second.state_dict()


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda s: s.update(phase="dance"), "'phase': expected one of 'reroll'"),
        (lambda s: s.update(phase="pay"), "'phase'"),  # a decision, never a saved phase
        (lambda s: s.update(dice=[0, 7]), r"'dice\[0\]': expected an int in \[1, 6\]"),
        (lambda s: s["sheets"].pop(), "'sheets': expected a list of 2 entries"),
        (lambda s: s["sheets"][0].update(buildings=[[1, 0]]), r"sheets\[0\]: a building's kind"),
        (lambda s: s["sheets"][0].update(marked=[1, 2, 3]), r"'sheets\[0\].marked'"),
        (lambda s: s["sheets"][0].update(coins="many"), r"'sheets\[0\].coins': expected an int"),
        (lambda s: s.pop("bonus_round"), "'bonus_round' is missing"),
        (lambda s: s.update(jimadores=["pink", None]), r"'jimadores\[0\]'"),
        (lambda s: s["sheets"][0].update(coins=99), r"'sheets\[0\].coins': expected an int in \[0, "),
        (lambda s: s["sheets"][1].update(virtual=3), r"'sheets\[1\].virtual'"),
        (lambda s: s["sheets"][0].update(production=[9, 0, 0, 0]), r"'sheets\[0\].production\[0\]'"),
        (lambda s: s["shown_sheets"][1].update(crossed=[1, 0, 0, 0, 0]), r"shown_sheets\[1\]: more crossed"),
        (lambda s: s.update(pay_left=2), "pay_purpose says what it is for"),
        (lambda s: s.update(pay_left=2, pay_purpose="road", pay_target=100), "not a road placement"),
        (lambda s: s.update(pay_target=3), "pay_target is -1 unless a road is paid for"),
        (lambda s: s["bonus_round"].__setitem__(0, 4), "names a round after round 0"),
        (lambda s: s.update(phase="over"), "over exactly after round 8"),
        (lambda s: s.update(round=8), "over exactly after round 8"),
    ],
)
def test_malformed_state_is_refused_naming_the_field_or_rule(edit, message):
    game = Tequila(2, seed=0)
    data = game.state_dict()
    edit(data["state"])
    with pytest.raises(InvalidStateError, match=message):
        game.load_state_dict(data)


def test_explanations_name_the_sub_step_asked():
    game = position(sheets={0: holding(agave=1, barrel=2)})
    game.play("build road at 0 3 as 0")
    with pytest.raises(IllegalActionError, match="choose a resource to pay"):
        game.play("end")
    with pytest.raises(IllegalActionError, match="you hold no water"):
        game.play("pay water")
    game = position(phase="reroll")
    with pytest.raises(IllegalActionError, match="now you must choose which dice to re-roll"):
        game.play("virtual build")


@pytest.mark.parametrize(
    ("field", "short", "enough", "name"),
    [
        ("extra_bought", 11, 12, "Se alegran los corazones"),
        ("coins_earned", 12, 13, "El Aventurero"),
        ("collections", 5, 6, "Guadalajara Guadalajara"),
        ("sections", 0b11111, 0b1111110, "México lindo y querido"),
        ("market", (1 << 19) - 1, (1 << 20) - 1, "Viva México"),
        ("rewarded_fields", 0b111111111, 0b1111111111, "Olor a tierra mojada"),  # 9 vs 10 fields
    ],
)
def test_achievement_thresholds(field, short, enough, name):
    sheet = Sheet()
    setattr(sheet, field, short)
    assert name not in achievements(sheet, 0)
    setattr(sheet, field, enough)
    assert name in achievements(sheet, 0)


def test_fenced_houses_achievement_counts_houses_in_fenced_off_fields():
    from fiesta_envs.tequila import farm

    sheet = Sheet()
    houses = farm.spaces_of(farm.HOUSE_FIELDS)
    sheet.rewarded_fields = sum(1 << f for f in houses[:6])
    assert "Canta y no llores" not in achievements(sheet, 0)
    sheet.rewarded_fields |= 1 << houses[6]
    assert "Canta y no llores" in achievements(sheet, 0)


@pytest.mark.parametrize("seed", range(4))
def test_invariants_hold_through_random_games(seed):
    from fiesta_envs.tequila import farm

    game = Tequila(3, seed=seed, jimadores="dealt", cask_tile="B" if seed % 2 else "A")
    rng = np.random.default_rng(seed)
    while not game.is_over:
        legal = np.flatnonzero(game.legal_mask())
        game.step(int(legal[rng.integers(len(legal))]))
        for sheet in game.state.sheets:
            assert all(
                0 <= c <= m <= components.RESOURCE_TRACK_LENGTH
                for c, m in zip(sheet.crossed, sheet.marked, strict=True)
            )
            assert sheet.coins == min(sheet.coins_earned, components.COIN_TRACK_LENGTH)
            spaces = [farm.PLACEMENTS[i].spaces for _, i in sheet.buildings]
            assert sum(farm.bit_count(m) for m in spaces) == farm.bit_count(sheet.occupied)  # no overlap
            fenced_off = [z for z in farm.zones(sheet.fences) if farm.is_fenced_off(z, sheet.fences)]
            assert all(farm.houses(z) <= 1 for z in fenced_off)
            assert sheet.rewarded_fields == sum(fenced_off)  # fenced-off fields, each rewarded once
            assert sheet.collections == min(min(sheet.production), components.COLLECTION_TRACK_LENGTH)


def test_action_ranges_match_the_documentation_table():
    game = Tequila(2)
    first = {
        "reroll none": 0,
        "virtual fence": 4,
        "fence 0": 6,
        "build road at 0 0 as 0": 46,
        "free road at 0 0": 234,
        "produce white": 298,
        "sell 0 0": 302,
        "extra": 326,
        "pay agave": 327,
        "gain agave": 332,
        "cask yes": 337,
        "shop yes": 339,
        "end": 341,
    }
    assert {name: game.string_to_action(name) for name in first} == first
    assert game.num_actions == 342
    assert [game.observation_size for game in (Tequila(1), Tequila(2), Tequila(8))] == [733, 1410, 5472]


def test_five_player_final_scoring_uses_neighbours_and_right_values():
    game = Tequila(5, seed=0)
    data = game.state_dict()
    for seat, sheet in enumerate(data["state"]["sheets"]):
        sheet["production"] = [[3, 0, 0, 0], [1, 0, 0, 0], [3, 0, 0, 0], [2, 0, 0, 0], [0, 0, 0, 0]][seat]
        sheet["market"] = (1 << [2, 2, 0, 1, 3][seat]) - 1
    game.load_state_dict(data)
    breakdown = game.score_breakdowns()
    # white: seat 0 vs 4 and 1 -> most (8); seat 2 vs 1 and 3 -> most (8); seat 3 vs 2 and 4 -> no
    assert [b["tequila_majorities"] for b in breakdown] == [8, 0, 8, 0, 0]
    # market: seat 0 (2) vs 4 (3): no; seat 1 (2) vs 0 (2), 2 (0): tie -> 7; seat 4 (3) vs 3, 0: 14
    assert [b["market_majority"] for b in breakdown] == [0, 7, 0, 0, 14]


# ---------------------------------------------------------------- added by the rules audit
def finished(num_players: int, **sheet_fields: list) -> Tequila:
    """A finished game whose sheets have the given fields (one value per seat)."""
    game = Tequila(num_players, seed=0)
    data = game.state_dict()
    data["state"].update(phase="over", round=8)
    for name, values in sheet_fields.items():
        for sheet, value in zip(data["state"]["sheets"], values, strict=True):
            sheet[name] = value
    game.load_state_dict(data)
    return game


def test_solo_final_scoring_needs_six_tequilas_and_twelve_market_spaces():
    """Solo: the right value of a tequila type needs 6 of it; 12 marked market spaces gain 14."""
    game = finished(1, production=[[6, 5, 6, 0]], market=[(1 << 12) - 1])
    assert game.score_breakdowns()[0]["tequila_majorities"] == 8 + 12  # white and pink, not cream
    assert game.score_breakdowns()[0]["market_majority"] == 14
    game = finished(1, production=[[5, 5, 5, 5]], market=[(1 << 11) - 1])
    assert game.score_breakdowns()[0]["tequila_majorities"] == 0
    assert game.score_breakdowns()[0]["market_majority"] == 0


def test_three_player_game_scores_left_and_right_values():
    game = finished(3, production=[[5, 0, 0, 0], [3, 0, 0, 0], [3, 0, 0, 0]], market=[7, 7, 1])
    majorities = [(b["tequila_majorities"], b["market_majority"]) for b in game.score_breakdowns()]
    # white: 16 for the most, 8 split by the two seconds; market: 20 + 14 split by the tied first two
    assert majorities == [(16, 17), (4, 17), (4, 0)]


def test_a_tie_on_score_and_tie_break_is_a_shared_win():
    game = finished(2, production=[[3, 0, 0, 0], [3, 0, 0, 0]], rewarded_fields=[0b1000, 0b0001 | 0b0010 | 0b0100])
    assert game.tie_breaks() == [2, 3]  # F3 water x2; F0 agave, F1 worker, F2 donkey
    assert game.winners() == [1]
    game = finished(2, production=[[3, 0, 0, 0], [3, 0, 0, 0]], rewarded_fields=[0b1000, 0b0011])
    assert game.tie_breaks() == [2, 2]
    assert game.winners() == [0, 1] and list(game.returns()) == [0.0, 0.0]


def test_the_free_road_uses_no_building_action_and_may_go_on_water():
    game = position(phase="reroll", dice=(6, 5), cask_tile="B")
    game.play("reroll none", "virtual build")
    sheet = game.state.sheets[0]
    assert (sheet.builds_left, sheet.free_road) == (3, True)
    game.play("free road at 0 3")
    assert (sheet.builds_left, sheet.free_road) == (3, False)
    game.play("end", "virtual build")
    assert game.state.sheets[1].free_road  # every player has their own
    game.play("end")
    assert not game.state.sheets[1].free_road  # an unused free road is lost at the end


@pytest.mark.parametrize(
    "edit",
    [
        lambda s: s.update(phase="next"),  # 'next' only while a payment or gain is pending
        lambda s: s.update(pay_left=3, pay_purpose="extra"),  # holds nothing to pay with
        lambda s: s.update(gain_left=1) or s["sheets"][0].update(marked=[24] * 5, crossed=[0] * 5),
    ],
)
def test_states_without_a_legal_action_are_refused(edit):
    game = position()
    data = game.state_dict()
    edit(data["state"])
    with pytest.raises(InvalidStateError):
        game.load_state_dict(data)
