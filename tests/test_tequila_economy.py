"""Tequila economy: end-of-round production, tequilas, collections, the market, extra free actions."""

from __future__ import annotations

import json

import pytest
from tequila_positions import held, holding, position
from tequila_support import CHAIN

from fiesta_envs.core.errors import IllegalActionError
from fiesta_envs.tequila import components
from fiesta_envs.tequila.sheet import MARKET_BONUS, TEQUILA_BONUS, Sheet
from fiesta_envs.tequila.state import Phase

NOTHING = {"agave": 0, "water": 0, "worker": 0, "donkey": 0, "barrel": 0}


def has(**amounts: int) -> dict[str, int]:
    return {**NOTHING, **amounts}


def test_the_chain_layout_is_linked_link_by_link():
    game = position(buildings={0: CHAIN})
    linked = game.state.sheets[0].links.linked
    assert [linked[i] for i in (1, 3, 4, 8)] == [True, True, True, True]


# ---------------------------------------------------------------- end of round
def end_position(buildings: list[str], jimador_order: str | None = None, **resources: int):
    side = {"jimadores": "B", "jimador_order": jimador_order} if jimador_order else {}
    return position(sheets={0: {**holding(**resources), "builds_left": 0}}, buildings={0: buildings}, **side)


def test_two_agave_fields_give_one_agave_and_two_kilns_one_water():
    game = end_position(["agave at 0 0 as 0", "agave at 0 4 as 0", "agave at 4 5 as 0", "kiln at 2 0 as 0"])
    game.play("end")
    assert held(game, 0) == has(agave=1)
    game = end_position(["kiln at 2 0 as 0", "kiln at 7 3 as 0"])
    game.play("end")
    assert held(game, 0) == has(water=1)


def test_red_jimador_produces_for_each_building():
    game = end_position(
        ["agave at 0 0 as 0", "agave at 0 4 as 0", "agave at 4 5 as 0", "kiln at 2 0 as 0"], "red,green"
    )
    game.play("end")
    assert held(game, 0) == has(agave=3, water=1)


def test_red_jimador_builds_one_more_every_round():
    game = position(phase="reroll", dice=(1, 2), jimadores="B", jimador_order="red,purple")
    game.play("reroll none", "virtual fence")
    assert game.state.sheets[0].builds_left == 1 and game.state.sheets[0].fences_left == 8
    game.play("end", "virtual fence")
    assert game.state.sheets[1].fences_left == 9  # purple: 5/7/9


# two casks on one road network with a distiller; a second distiller joins later
CASKS = [
    "distiller at 1 0 as 1",
    "road at 1 2 as 0",
    "road at 1 3 as 0",
    "road at 2 3 as 0",
    "road at 3 3 as 0",
    "road at 3 4 as 0",
    "road at 3 5 as 0",
    "cask at 0 4 as 1",
    "cask at 0 5 as 1",
]


def test_casks_need_different_distillers():
    game = end_position(CASKS, agave=1)
    assert game.state.sheets[0].cask_matching() == 1
    game.play("end")
    assert game.decision == Phase.CASK
    game.play("cask yes")
    assert held(game, 0) == has(barrel=1)


def test_two_distillers_serve_two_casks():
    game = end_position([*CASKS, "distiller at 3 2 as 0"], agave=2)
    assert game.state.sheets[0].cask_matching() == 2
    game.play("end", "cask yes")
    assert held(game, 0) == has(agave=1, barrel=2)


def test_cask_production_is_optional_and_only_asked_when_it_can_pay():
    game = end_position(CASKS, agave=1)
    game.play("end", "cask no")
    assert held(game, 0) == has(agave=1)
    game = end_position(CASKS)
    game.play("end")
    assert game.current_player == 1  # nothing to pay with: not asked


def test_shops_connected_to_a_cask_sell_for_coins():
    game = end_position(["cask at 0 0 as 0", "shop at 1 0 as 0"], barrel=1)
    game.play("end")
    assert game.decision == Phase.SHOP
    game.play("shop yes", "pay barrel")
    assert game.state.sheets[0].coins == 1 and held(game, 0) == NOTHING


def test_unconnected_shops_sell_nothing():
    game = end_position(["cask at 0 0 as 0", "shop at 4 5 as 2"], barrel=1)
    game.play("end")
    assert game.current_player == 1


def test_unused_gears_score_one_each():
    game = position(round=6)  # 3 gears
    game.play("end")
    assert game.state.sheets[0].gears_unused == 3
    assert game.score_breakdowns()[0]["unused_gears"] == 3


# ---------------------------------------------------------------- tequila
REQUIREMENTS = {
    "white": (CHAIN[:2], ["kiln at 0 2 as 1"]),
    "cream": (CHAIN[:4], ["agave at 0 0 as 0", "road at 0 3 as 0", "distiller at 0 4 as 0"]),
    "pink": (CHAIN[:5], ["kiln at 0 2 as 1", "cask at 0 5 as 0"]),
    "red": (
        CHAIN,
        ["distiller at 0 4 as 0", "road at 1 6 as 0", "road at 2 6 as 0", "road at 3 6 as 0", "shop at 4 5 as 2"],
    ),
}


@pytest.mark.parametrize("tequila", components.TEQUILAS)
def test_each_tequila_needs_its_building_connected_and_its_resources(tequila):
    t = components.TEQUILAS.index(tequila)
    enough, missing = REQUIREMENTS[tequila]
    cost = {components.RESOURCES[r]: n for r, n in components.TEQUILA_COSTS[t].items()}
    game = position(sheets={0: holding(**cost)}, buildings={0: enough})
    game.play(f"produce {tequila}")
    assert game.state.sheets[0].production[t] == 1
    assert held(game, 0) == NOTHING
    assert game.state.sheets[0].gears_left == 0
    game = position(sheets={0: holding(**cost)}, buildings={0: missing})
    with pytest.raises(IllegalActionError, match=f"{tequila} tequila needs a"):
        game.play(f"produce {tequila}")


def test_tequila_costs_as_printed_on_the_production_track():
    assert [sum(c.values()) for c in components.TEQUILA_COSTS] == [1, 1, 2, 3]
    game = position(sheets={0: holding(water=1)}, buildings={0: CHAIN})
    with pytest.raises(IllegalActionError, match="pink tequila costs 1 water \\+ 1 barrel"):
        game.play("produce pink")


def test_producing_uses_a_free_action_bought_ones_first():
    game = position(sheets={0: {**holding(barrel=2), "credits": 1}}, buildings={0: CHAIN})
    game.play("produce white")
    assert (game.state.sheets[0].credits, game.state.sheets[0].gears_left) == (0, 1)
    game.play("produce white")
    assert game.state.sheets[0].gears_left == 0
    with pytest.raises(IllegalActionError, match="no free action left"):
        game.play("produce white")


def test_first_to_the_fifth_tequila_gains_a_coin_and_prestige():
    sheets = {0: {**holding(barrel=1), "production": [4, 0, 0, 0]}}
    game = position(sheets=sheets, buildings={0: CHAIN})
    game.play("produce white")
    assert game.state.sheets[0].coins == 1
    assert game.score_breakdowns()[0]["first_to_bonuses"] == 6
    game = position(sheets=sheets, buildings={0: CHAIN}, round=2, bonus_round={TEQUILA_BONUS: 2})
    game.play("produce white")  # first reached this same round by somebody else: shared
    assert game.score_breakdowns()[0]["first_to_bonuses"] == 6
    game = position(sheets=sheets, buildings={0: CHAIN}, round=2, bonus_round={TEQUILA_BONUS: 1})
    game.play("produce white")  # reached in an earlier round: nothing
    assert game.score_breakdowns()[0]["first_to_bonuses"] == 0 and game.state.sheets[0].coins == 0


def test_a_full_production_track_cannot_produce():
    game = position(sheets={0: {**holding(barrel=1), "production": [8, 0, 0, 0]}}, buildings={0: CHAIN})
    with pytest.raises(IllegalActionError, match="track is full"):
        game.play("produce white")


def test_a_collection_gains_a_coin_and_prestige():
    sheets = {0: {**holding(agave=1, water=1, barrel=1), "production": [1, 1, 1, 0]}}
    game = position(sheets=sheets, buildings={0: CHAIN})
    game.play("produce red")
    sheet = game.state.sheets[0]
    assert sheet.collections == 1 and sheet.coins == 1
    assert game.score_breakdowns()[0]["collections"] == 8


def test_only_the_first_four_collections_give_coins_and_prestige():
    sheets = {0: {**holding(agave=1, water=1, barrel=1), "production": [6, 6, 6, 5], "collections": 5}}
    game = position(sheets=sheets, buildings={0: CHAIN})
    game.play("produce red")
    assert game.state.sheets[0].collections == 6 and game.state.sheets[0].coins == 0
    assert game.score_breakdowns()[0]["collections"] == 42


def test_production_track_prestige_is_the_highest_reached():
    sheet = Sheet()
    sheet.production = [3, 0, 8, 1]
    assert sheet.production_prestige(components.WHITE) == 9
    assert sheet.production_prestige(components.CREAM) == 0
    assert sheet.production_prestige(components.PINK) == 57
    assert sheet.production_prestige(components.RED) == 8


# ---------------------------------------------------------------- the market
def market_position(market: list[tuple[int, int]] = (), **resources: int):
    marked = sum(1 << (r * 8 + c) for r, c in market)
    return position(sheets={0: {**holding(**resources), "market": marked, "gears_left": 3}})


def test_the_market_opens_from_column_zero():
    game = market_position(agave=2, donkey=2, water=2)
    legal = [n for n in game.legal_action_names() if n.startswith("sell")]
    assert legal == ["sell 0 0", "sell 1 0"]
    with pytest.raises(IllegalActionError, match="requires 1 agave field$"):
        game.play("sell 2 0")
    with pytest.raises(IllegalActionError, match="not open"):
        game.play("sell 0 1")


def test_a_marked_space_opens_its_neighbours_in_the_next_column():
    plenty = {r: 5 for r in components.RESOURCES}
    game = market_position([(0, 0)], **plenty)
    assert [n for n in game.legal_action_names() if n.startswith("sell")] == ["sell 0 1", "sell 1 0", "sell 1 1"]
    game.play("sell 1 1", "gain agave")
    sells = [n for n in game.legal_action_names() if n.startswith("sell")]
    assert sells == ["sell 0 1", "sell 0 2", "sell 1 0", "sell 1 2"]
    with pytest.raises(IllegalActionError, match="requires 2 road spaces"):
        game.play("sell 2 2")  # open (next to 1 1) but its requirement is not met
    with pytest.raises(IllegalActionError, match="not open"):
        game.play("sell 2 3")


def test_opening_is_by_row_distance_one():
    game = market_position([(0, 0)])
    with pytest.raises(IllegalActionError, match="not open"):
        game.play("sell 2 1")


def test_selling_pays_and_gains_one_resource_of_choice():
    game = market_position(agave=1)
    game.play("sell 0 0")
    assert game.decision == Phase.GAIN and held(game, 0) == NOTHING
    game.play("gain barrel")
    assert held(game, 0) == has(barrel=1)
    assert game.state.sheets[0].market == 1 and game.state.sheets[0].gears_left == 2


def test_requirement_spaces_need_buildings_and_use_nothing_up():
    game = position(sheets={0: {"gears_left": 3, "market": 1 << 9}}, buildings={0: ["road at 0 3 as 0"]})
    with pytest.raises(IllegalActionError, match="requires 2 road spaces"):
        game.play("sell 2 2")
    game = position(
        sheets={0: {"gears_left": 3, "market": 1 << 9}}, buildings={0: ["road at 0 3 as 0", "road at 3 4 as 0"]}
    )
    game.play("sell 2 2", "gain agave")
    assert len(game.state.sheets[0].buildings) == 2


def test_market_column_bonuses_go_to_the_first_to_reach_them():
    game = market_position([(0, 0), (0, 1), (0, 2)], donkey=2)
    game.play("sell 0 3", "gain agave")
    assert game.state.sheets[0].coins == 1
    game = market_position([(0, 0), (0, 1), (0, 2), (0, 3), (0, 4)], agave=2)
    game.play("sell 0 5", "gain agave")
    assert game.score_breakdowns()[0]["first_to_bonuses"] == 12
    game = position(
        sheets={0: {**holding(barrel=3), "market": sum(1 << c for c in range(7)), "gears_left": 1}},
        bonus_round={MARKET_BONUS + 2: 0},
        round=1,
    )
    game.play("sell 0 7", "gain agave")  # somebody reached column 7 in an earlier round
    assert game.score_breakdowns()[0]["first_to_bonuses"] == 0
    assert game.score_breakdowns()[0]["market_spaces"] == 8


def test_green_jimadora_pays_one_less_and_gains_two_on_requirements():
    game = position(
        sheets={0: {"gears_left": 3}}, buildings={0: ["road at 0 3 as 0"]}, jimadores="B", jimador_order="green,red"
    )
    game.play("sell 0 0")  # 1 agave - 1 = free
    assert game.decision == Phase.GAIN
    game.play("gain water", "sell 1 1", "gain water")  # 1 barrel - 1 = free
    game.play("sell 2 2", "gain water", "gain water")  # 2 road spaces - 1: one road is enough
    assert held(game, 0) == has(water=4)


def test_extra_free_action_costs_four_resources_of_choice():
    game = position(sheets={0: {**holding(agave=2, barrel=3), "gears_left": 0}}, buildings={0: CHAIN})
    assert not game.legal_mask()[game.string_to_action("produce white")]
    game.play("extra", "pay agave", "pay agave", "pay barrel", "pay barrel")
    assert game.state.sheets[0].credits == 1 and game.state.sheets[0].extra_bought == 1
    game.play("produce white")
    assert held(game, 0) == NOTHING
    with pytest.raises(IllegalActionError, match="costs 4 resources"):
        game.play("extra")


def test_bought_free_actions_are_lost_at_the_end_of_the_turn():
    game = position(sheets={0: {**holding(agave=4), "gears_left": 1}})
    game.play("extra", "pay agave", "pay agave", "pay agave", "pay agave", "end")
    assert game.state.sheets[0].credits == 0 and game.state.sheets[0].gears_unused == 1


# ---------------------------------------------------------------- tracks
def test_resource_track_coins_and_the_end_of_the_track():
    sheet = Sheet()
    sheet.marked[components.AGAVE] = 5
    assert sheet.gain(components.AGAVE) == 0
    assert sheet.coins == 1  # square 6 shows a coin
    sheet.marked[components.AGAVE] = 23
    sheet.gain(components.AGAVE, 3)  # square 24 (a coin), then lost
    assert sheet.marked[components.AGAVE] == 24 and sheet.coins == 2


def test_coin_track_gems_prestige_and_lost_coins():
    sheet = Sheet()
    assert sheet.gain_coins(3) == 1  # square 3: a gem
    assert sheet.coin_prestige() == 3
    assert sheet.gain_coins(13) == 4  # squares 6, 9, 12, 15
    assert sheet.coins == 15 and sheet.coins_earned == 16
    assert sheet.coin_prestige() == 53


def test_a_gain_of_choice_is_not_offered_on_a_full_track():
    game = market_position(agave=1)
    data = game.state_dict()
    data["state"]["sheets"][0]["marked"] = [1, 24, 24, 24, 24]
    game.load_state_dict(data)
    game.play("sell 0 0")
    assert game.legal_action_names() == ["gain agave"]


# ---------------------------------------------------------------- added by the rules audit
def test_the_fifth_collection_gains_nothing_and_the_track_stops_at_six():
    sheets = {0: {**holding(agave=1, water=1, barrel=1), "production": [5, 5, 5, 4], "collections": 4}}
    red_bonus_taken = {TEQUILA_BONUS + components.RED: 0}  # in an earlier round: no first-to coin now
    game = position(sheets=sheets, buildings={0: CHAIN}, round=1, bonus_round=red_bonus_taken)
    game.play("produce red")  # the fifth collection: no coin, the prestige stays at the fourth (42)
    assert game.state.sheets[0].collections == 5 and game.state.sheets[0].coins == 0
    assert game.score_breakdowns()[0]["collections"] == 42
    sheets = {0: {**holding(agave=1, water=1, barrel=1), "production": [7, 7, 7, 6], "collections": 6}}
    game = position(sheets=sheets, buildings={0: CHAIN})
    game.play("produce red")  # a seventh set of tequilas: the collection track (6 squares) is full
    assert game.state.sheets[0].collections == 6


@pytest.mark.parametrize(("tequila", "prestige"), [("white", 6), ("cream", 9), ("pink", 12), ("red", 15)])
def test_first_to_five_of_each_tequila_prestige(tequila, prestige):
    t = components.TEQUILAS.index(tequila)
    production = [0, 0, 0, 0]
    production[t] = 4
    sheets = {0: {**holding(agave=1, water=1, barrel=1), "production": production}}
    game = position(sheets=sheets, buildings={0: CHAIN})
    game.play(f"produce {tequila}")
    assert game.score_breakdowns()[0]["first_to_bonuses"] == prestige
    assert game.state.sheets[0].coins == 1


def test_two_shops_connected_to_casks_sell_for_two_coins_with_one_payment():
    game = end_position(["cask at 0 0 as 0", "shop at 1 0 as 0", *CHAIN[4:]], barrel=2)
    assert game.state.sheets[0].linked_shops() == 2
    game.play("end", "shop yes", "pay barrel")
    assert game.state.sheets[0].coins == 2 and held(game, 0) == has(barrel=1)


def test_shops_are_not_asked_without_a_resource_to_pay():
    game = end_position(["cask at 0 0 as 0", "shop at 1 0 as 0"])
    game.play("end")
    assert game.current_player == 1


def test_casks_are_not_asked_with_a_full_barrel_track():
    game = position(
        sheets={0: {"marked": [1, 0, 0, 0, 24], "crossed": [0, 0, 0, 0, 0], "builds_left": 0}},
        buildings={0: CASKS},
    )
    game.play("end")
    assert game.current_player == 1


def test_loaded_end_of_round_questions_only_offer_yes_when_it_pays():
    game = end_position(CASKS)
    data = game.state_dict()
    data["state"]["phase"] = "cask"
    game.load_state_dict(data)  # no agave to pay
    assert game.legal_action_names() == ["cask no"]
    with pytest.raises(IllegalActionError, match="casks need 1 agave"):
        game.play("cask yes")


@pytest.mark.parametrize("round_index", range(8))
def test_gears_printed_on_each_round(round_index):
    game = position(phase="reroll", round=round_index, dice=(3, 4))
    game.play("reroll none")
    assert game.state.sheets[0].gears_left == (1, 1, 1, 2, 2, 2, 3, 3)[round_index]


#: The rulings' market rows 0 and 1: what each column pays.
ROW_PAYMENTS = (
    ("agave 1", "water 1", "worker 1", "donkey 2", "barrel 2", "agave 2", "water 3", "barrel 3"),
    ("donkey 1", "barrel 1", "agave 2", "worker 2", "water 2", "donkey 3", "worker 3", "agave 3"),
)


@pytest.mark.parametrize("row", [0, 1])
@pytest.mark.parametrize("col", range(8))
def test_market_payments_of_rows_zero_and_one(row, col):
    resource, amount = ROW_PAYMENTS[row][col].split()
    amount = int(amount)
    opened = [(row, c) for c in range(col)]  # the spaces to its left are marked: it is open
    game = market_position(opened, **{resource: amount - 1})
    with pytest.raises(IllegalActionError, match=f"costs {amount} {resource}$"):
        game.play(f"sell {row} {col}")
    game = market_position(opened, **{resource: amount})
    game.play(f"sell {row} {col}")
    assert held(game, 0) == NOTHING  # paid in full, then a resource of choice
    game.play("gain water")
    assert held(game, 0) == has(water=1)


#: The rulings' market row 2: the standing requirement of each column, and buildings meeting it.
ROW_REQUIREMENTS = (
    ("agave field", ["agave at 0 0 as 0"]),
    ("kiln", ["kiln at 2 0 as 0"]),
    ("road spaces", ["road at 0 3 as 0", "road at 3 4 as 0"]),
    ("distiller", ["distiller at 1 0 as 1"]),
    ("kilns", ["kiln at 2 0 as 0", "kiln at 7 3 as 0"]),
    ("cask", ["cask at 0 5 as 0"]),
    ("shop", ["shop at 0 0 as 0"]),
    ("shops", ["shop at 0 0 as 0", "shop at 4 5 as 2"]),
)


@pytest.mark.parametrize("col", range(8))
def test_market_requirements_of_row_two_are_standing(col):
    noun, buildings = ROW_REQUIREMENTS[col]
    marked = sum(1 << (2 * 8 + c) for c in range(col))
    game = position(sheets={0: {"gears_left": 1, "market": marked}}, buildings={0: buildings[:-1]})
    with pytest.raises(IllegalActionError, match=f"requires {len(buildings)} {noun}$"):
        game.play(f"sell 2 {col}")
    game = position(sheets={0: {"gears_left": 1, "market": marked}}, buildings={0: buildings})
    game.play(f"sell 2 {col}", "gain agave")  # nothing paid, the buildings stay
    assert held(game, 0) == has(agave=1) and len(game.state.sheets[0].buildings) == len(buildings)


def test_a_column_bonus_is_gained_once_even_with_two_marks_in_that_column():
    game = market_position([(0, 0), (0, 1), (0, 2)], donkey=3, worker=2)
    game.state.sheets[0].gears_left = 2
    game.play("sell 0 3", "gain agave")
    assert game.state.sheets[0].coins == 1
    game.play("sell 1 3", "gain agave")  # the same round, the same column: no second coin
    assert game.state.sheets[0].coins == 1


def test_the_column_seven_bonus_is_twenty_four_prestige():
    game = position(sheets={0: {**holding(barrel=3), "market": sum(1 << c for c in range(7)), "gears_left": 1}})
    game.play("sell 0 7", "gain agave")
    assert game.score_breakdowns()[0]["first_to_bonuses"] == 24


def test_a_space_is_not_opened_by_the_space_above_it():
    """Opening goes sideways to the next column only: (r, c) opens (r', c +- 1) with |r - r'| <= 1."""
    marked = sum(1 << (r * 8 + c) for r, c in [(0, 0), (0, 1), (1, 2)])
    roads = ["road at 0 3 as 0", "road at 3 4 as 0"]  # the requirement of space 2 2 is met
    game = position(sheets={0: {"gears_left": 1, "market": marked}}, buildings={0: roads})
    with pytest.raises(IllegalActionError, match="market space 2 2 is not open"):
        game.play("sell 2 2")  # above it, 1 2 is marked: that does not open it
    game = position(sheets={0: {"gears_left": 1, "market": marked | 1 << (1 * 8 + 1)}}, buildings={0: roads})
    game.play("sell 2 2", "gain agave")  # 1 1 (up and to the left) opens it


def test_a_seat_done_with_its_turn_is_saved_as_next():
    """``Phase.TURN_DONE`` keeps the label state dicts and messages have always used: "next"."""
    assert Phase.TURN_DONE.label == "next" and Phase.from_label("next") is Phase.TURN_DONE
    assert [Phase.from_label(phase.label) for phase in Phase] == list(Phase)
    game = end_position(["cask at 0 0 as 0", "shop at 1 0 as 0"], barrel=1)
    game.play("end", "shop yes")  # the turn is done once the shop's barrel is paid
    assert game.state.phase == Phase.TURN_DONE and game.decision == Phase.PAY
    data = json.loads(json.dumps(game.state_dict()))
    assert data["state"]["phase"] == "next"
    loaded = type(game).from_state_dict(data)
    assert loaded.state.phase == Phase.TURN_DONE and loaded.state_dict() == data
