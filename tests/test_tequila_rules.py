"""Tequila rules, one scenario per rule: dice, fences, buildings, connections, sections, production."""

from __future__ import annotations

import pytest
from tequila_positions import held, holding, placement, position

from fiesta_envs.core.errors import IllegalActionError
from fiesta_envs.tequila import components, farm
from fiesta_envs.tequila.sheet import SECTION_BONUS
from fiesta_envs.tequila.state import Phase

NOTHING = {"agave": 0, "water": 0, "worker": 0, "donkey": 0, "barrel": 0}


def has(**amounts: int) -> dict[str, int]:
    return {**NOTHING, **amounts}


# ---------------------------------------------------------------- dice and the virtual die
def test_rulebook_example_reroll_keeps_the_other_die():
    # Pepe rolls a 2 and a 3 and re-rolls the 2 (with seed 0 the re-roll shows a 4, as in the example)
    game = position(phase="reroll", dice=(2, 3), seed=0)
    game.play("reroll first")
    assert game.state.dice == [4, 3]
    assert held(game, 0) == has(worker=1, donkey=1)  # "each player gains a worker from the die showing 3"
    game = position(phase="reroll", dice=(2, 3), seed=0)
    game.play("reroll second")
    assert game.state.dice[0] == 2


def test_rulebook_example_dice_3_and_4_and_the_virtual_die():
    # Pepe places 3 and 4: each player gains a worker (3) and, on cask tile A, a donkey (4)
    game = position(phase="reroll", dice=(3, 4))
    game.play("reroll none")
    assert held(game, 0) == has(worker=1, donkey=1)
    game.play("virtual build")  # Pepe: 1 die on fencing, 2 on building
    assert (game.state.sheets[0].fences_left, game.state.sheets[0].builds_left) == (4, 2)
    game.play("end")
    assert game.current_player == 1 and game.decision == Phase.VIRTUAL
    assert held(game, 1) == has(worker=1, donkey=1)
    game.play("virtual fence")  # Rubén: 2 dice on fencing, 1 on building
    assert (game.state.sheets[1].fences_left, game.state.sheets[1].builds_left) == (6, 1)


def test_only_the_starting_player_rerolls():
    game = position(phase="reroll", dice=(3, 4), start_player=1)
    assert game.current_player == 1
    assert game.legal_action_names() == ["reroll none", "reroll first", "reroll second", "reroll both"]
    game.play("reroll none")
    assert game.current_player == 1 and game.decision == Phase.VIRTUAL


@pytest.mark.parametrize(
    ("dice", "virtual", "fences", "builds"),
    [((1, 2), "fence", 8, 0), ((1, 2), "build", 6, 1), ((5, 6), "fence", 4, 2), ((5, 6), "build", 0, 3)],
)
def test_dice_values_give_fences_and_building_actions(dice, virtual, fences, builds):
    game = position(phase="reroll", dice=dice)
    game.play("reroll none", f"virtual {virtual}")
    assert (game.state.sheets[0].fences_left, game.state.sheets[0].builds_left) == (fences, builds)


def test_a_double_gives_its_resource_twice_and_a_six_nothing():
    game = position(phase="reroll", dice=(1, 1))
    game.play("reroll none")
    assert held(game, 0) == has(agave=2)
    game = position(phase="reroll", dice=(6, 2))
    game.play("reroll none")
    assert held(game, 0) == has(water=1)


def test_fences_not_drawn_are_lost_at_end():
    game = position(phase="reroll", dice=(1, 2))
    game.play("reroll none", "virtual fence", "fence 0", "end")
    assert game.state.sheets[0].fences_left == 0
    assert game.state.sheets[0].fences == 1


# ---------------------------------------------------------------- buildings: cost, shape, placement
def bare_placement(kind: int) -> str:
    """A placement of ``kind`` covering as few resource spaces as possible."""
    index = min(
        (i for i, p in enumerate(farm.PLACEMENTS) if p.kind == kind), key=lambda i: len(farm.placement_resources(i))
    )
    return farm.PLACEMENTS[index].name


@pytest.mark.parametrize(
    "kind", [components.AGAVE_FIELD, components.KILN, components.DISTILLER, components.CASK, components.SHOP]
)
def test_each_building_costs_its_resources_and_covers_its_shape(kind):
    cost = {components.RESOURCES[r]: n for r, n in components.BUILDING_COSTS[kind].items()}
    name = bare_placement(kind)
    game = position(sheets={0: holding(**cost)})
    game.play(f"build {name}")
    shown = farm.placement_resources(placement(name))  # gained after paying
    assert held(game, 0) == has(**{components.RESOURCES[r]: shown.count(r) for r in shown})
    assert game.state.sheets[0].occupied == farm.PLACEMENTS[placement(name)].spaces
    assert farm.bit_count(game.state.sheets[0].occupied) == len(components.SHAPES[kind])
    assert game.state.sheets[0].builds_left == 1


@pytest.mark.parametrize(
    "kind", [components.AGAVE_FIELD, components.KILN, components.DISTILLER, components.CASK, components.SHOP]
)
def test_a_building_short_of_one_resource_is_refused(kind):
    cost = {components.RESOURCES[r]: n for r, n in components.BUILDING_COSTS[kind].items()}
    short = dict(cost)
    first = next(iter(short))
    short[first] -= 1
    game = position(sheets={0: holding(**short)})
    with pytest.raises(
        IllegalActionError, match=f"costs {components.BUILDING_COSTS[kind][components.RESOURCES.index(first)]}"
    ):
        game.play(f"build {bare_placement(kind)}")


def test_the_official_costs():
    assert components.BUILDING_COSTS[components.AGAVE_FIELD] == {components.AGAVE: 2}
    assert components.BUILDING_COSTS[components.KILN] == {components.DONKEY: 1, components.WORKER: 1}
    assert components.BUILDING_COSTS[components.DISTILLER] == {components.AGAVE: 1, components.WATER: 1}
    assert components.BUILDING_COSTS[components.CASK] == {components.AGAVE: 1, components.DONKEY: 1}
    assert components.BUILDING_COSTS[components.SHOP] == {components.AGAVE: 1, components.WORKER: 1}


def test_a_road_costs_two_resources_of_choice_and_may_go_on_water():
    game = position(sheets={0: holding(worker=1, barrel=3)})
    game.play("build road at 0 3 as 0")
    assert game.decision == Phase.PAY
    assert game.legal_action_names() == ["pay worker", "pay barrel"]
    game.play("pay worker")
    assert game.legal_action_names() == ["pay barrel"]
    game.play("pay barrel")
    assert held(game, 0) == has(barrel=2)
    assert game.state.sheets[0].buildings == [(components.ROAD, placement("road at 0 3 as 0"))]
    assert game.decision == Phase.MAIN


def test_a_road_needs_two_resources():
    game = position(sheets={0: holding(worker=1)})
    with pytest.raises(IllegalActionError, match="a road costs 2 resources of your choice"):
        game.play("build road at 0 3 as 0")


def test_buildings_may_not_overlap():
    game = position(sheets={0: holding(donkey=1, worker=1)}, buildings={0: ["road at 0 1 as 0"]})
    with pytest.raises(IllegalActionError, match="the kiln would overlap your road at 0 1"):
        game.play("build kiln at 0 0 as 0")


def test_no_building_action_left():
    game = position(sheets={0: {**holding(donkey=2, worker=2), "builds_left": 1}})
    game.play("build kiln at 0 4 as 0")
    with pytest.raises(IllegalActionError, match="no building actions left"):
        game.play("build kiln at 5 4 as 0")


def test_non_road_buildings_have_no_water_placements():
    game = position()
    with pytest.raises(IllegalActionError, match="no action is named"):
        game.play("build kiln at 0 2 as 0")


def test_building_on_a_resource_space_gains_it_after_paying():
    # the field at 0 0 covers the agave at 0 1: pay 2 agave, then gain 1
    game = position(sheets={0: holding(agave=2)})
    game.play("build agave at 0 0 as 0")
    assert held(game, 0) == has(agave=1)


def test_payment_cannot_use_what_the_space_gives():
    game = position(sheets={0: holding(agave=1)})
    assert not game.legal_mask()[game.string_to_action("build agave at 0 0 as 0")]


# ---------------------------------------------------------------- connections and their bonuses
def test_kiln_connected_to_an_agave_field_gains_one_water_once_each():
    game = position(sheets={0: holding(donkey=2, worker=2)}, buildings={0: ["agave at 0 0 as 0"]})
    game.play("build kiln at 2 0 as 0")  # covers the worker at 2 0; touches the field
    assert held(game, 0) == has(donkey=1, worker=2, water=1)
    game.play("build kiln at 0 2 as 1")  # a second kiln on the same field: its own bonus
    assert held(game, 0) == has(worker=1, water=2)


def test_a_connected_kiln_gains_nothing_when_a_second_field_joins_it():
    game = position(
        sheets={0: holding(agave=2)},
        buildings={0: ["agave at 0 0 as 0", "kiln at 0 2 as 1", "road at 1 3 as 0"]},
    )
    assert game.state.sheets[0].links.linked[1]  # already connected (its water was gained then)
    game.play("build agave at 1 4 as 0")  # joins the kiln through the road
    assert held(game, 0) == has(worker=1)  # the worker shown at (1,5); no second water


def test_a_later_road_pays_the_connection_bonus_then():
    game = position(
        sheets={0: holding(barrel=4)},
        buildings={0: ["agave at 0 1 as 0", "kiln at 2 4 as 0", "road at 1 3 as 0"]},
    )
    assert not game.state.sheets[0].links.linked[1]
    game.play("build road at 2 3 as 0", "pay barrel", "pay barrel")
    assert game.state.sheets[0].links.linked[1]
    assert held(game, 0) == has(barrel=2, water=1)
    game.play("build road at 3 3 as 0", "pay barrel", "pay barrel")  # touches the network again
    assert held(game, 0) == has(water=1)


def test_distiller_connected_to_a_kiln_gains_three_barrels():
    game = position(sheets={0: holding(agave=1, water=1)}, buildings={0: ["kiln at 0 4 as 0"]})
    game.play("build distiller at 1 4 as 1")  # (1,4) (1,5) (2,4): touches the kiln at (0,4)
    assert held(game, 0) == has(worker=1, barrel=3)  # the worker shown at (1,5)


def test_shop_connected_to_a_cask_gains_two_coins_and_cask_has_no_bonus():
    game = position(sheets={0: holding(agave=2, donkey=1, worker=1)}, buildings={0: ["distiller at 1 0 as 1"]})
    game.play("build cask at 0 0 as 0")  # touches the distiller: no bonus for casks
    assert game.state.sheets[0].coins == 0 and held(game, 0) == has(agave=2, worker=1)  # + the agave at 0 1
    game.play("build shop at 0 4 as 0")  # far from the cask: not connected
    assert game.state.sheets[0].coins == 0
    game = position(sheets={0: holding(agave=1, worker=1)}, buildings={0: ["cask at 0 0 as 0"]})
    game.play("build shop at 1 0 as 0")
    assert game.state.sheets[0].coins == 2


def test_orange_jimadora_gains_one_more_on_every_connection_bonus():
    game = position(
        sheets={0: holding(donkey=1, worker=1)},
        buildings={0: ["agave at 0 0 as 0"]},
        jimadores="B",
        jimador_order="orange,green",
    )
    game.play("build kiln at 2 0 as 0")
    assert held(game, 0)["water"] == 2
    game = position(sheets={0: holding(agave=1, water=1)}, buildings={0: ["kiln at 0 4 as 0"]}, jimadores="B")
    game.play("build distiller at 1 4 as 1")
    assert held(game, 0)["barrel"] == 3  # purple: no extra


# ---------------------------------------------------------------- sections
def test_filling_a_section_gains_a_coin_and_the_first_to_prestige():
    game = position(sheets={0: holding(donkey=1, worker=1)})
    game.play("build kiln at 2 7 as 1")  # section 2 is (2,7) and (3,7)
    sheet = game.state.sheets[0]
    assert sheet.coins == 1 and sheet.sections == 1 << 2
    assert game.score_breakdowns()[0]["sections_first"] == components.SECTION_PRESTIGE[2]
    assert held(game, 0) == has(barrel=1)


def test_section_prestige_is_shared_within_the_round_only():
    game = position(sheets={0: holding(donkey=1, worker=1)}, bonus_round={SECTION_BONUS + 2: 0})
    game.play("build kiln at 2 7 as 1")  # somebody filled it earlier this round: still first
    assert game.score_breakdowns()[0]["sections_first"] == 6
    game = position(sheets={0: holding(donkey=1, worker=1)}, round=1, bonus_round={SECTION_BONUS + 2: 0})
    game.play("build kiln at 2 7 as 1")  # filled in an earlier round: only the coin
    assert game.score_breakdowns()[0]["sections_first"] == 0
    assert game.state.sheets[0].coins == 1


def test_two_players_filling_a_section_in_the_same_round_both_score():
    game = position(3, sheets={0: holding(donkey=1, worker=1), 1: holding(donkey=1, worker=1)})
    game.play("build kiln at 2 7 as 1", "end", "virtual build", "build kiln at 2 7 as 1", "end")
    scores = [b["sections_first"] for b in game.score_breakdowns()]
    assert scores == [6, 6, 0]


def test_roads_fill_sections_too():
    game = position(sheets={0: holding(barrel=4)})
    game.play(
        "build road at 2 7 as 0", "pay barrel", "pay barrel", "build road at 3 7 as 0", "pay barrel", "pay barrel"
    )
    assert game.state.sheets[0].sections == 1 << 2


# ---------------------------------------------------------------- fencing
def fence_position(segments: int = 6, fences: tuple[int, ...] = ()) -> object:
    return position(sheets={0: {"fences_left": segments, "fences": sum(1 << s for s in fences)}})


def test_fencing_off_a_field_gains_its_resources_once():
    game = fence_position()
    game.play("fence 3", "fence 24", "fence 23")
    assert held(game, 0) == NOTHING
    game.play("fence 7")  # F3 closed: water x2
    assert held(game, 0) == has(water=2)
    assert game.state.sheets[0].rewarded_fields == 1 << 3


def test_splitting_a_fenced_off_zone_gains_nothing_again():
    game = fence_position(fences=(2, 3, 22, 24, 6))
    game.play("fence 7")  # F2 + F3 closed: donkey + water x2
    assert held(game, 0) == has(donkey=1, water=2)
    game.play("fence 23")  # now F2 and F3 apart, both still fenced off
    assert held(game, 0) == has(donkey=1, water=2)


def test_fencing_in_two_houses_is_refused():
    game = fence_position(fences=(0, 1, 2, 20, 4, 5, 6))
    with pytest.raises(IllegalActionError, match="fence in 2 houses"):
        game.play("fence 23")


def test_fences_run_out():
    game = fence_position(segments=1)
    game.play("fence 0")
    with pytest.raises(IllegalActionError, match="no fences left"):
        game.play("fence 1")


def test_fenced_resources_ask_a_choice_when_a_coin_square_gives_a_gem():
    # water track at 5 and coins at 2: closing F3 marks water 6 (a coin) then 7; coin 3 is a gem
    game = position(
        sheets={0: {**holding(water=5), "coins": 2, "fences_left": 1, "fences": (1 << 3) | (1 << 24) | (1 << 23)}}
    )
    game.play("fence 7")
    assert game.state.sheets[0].coins == 3
    assert game.decision == Phase.GAIN
    game.play("gain donkey")
    assert held(game, 0) == has(water=7, donkey=1)


# ---------------------------------------------------------------- added by the rules audit
def test_rulebook_example_pepe_and_ruben_in_full():
    """Rulebook, Game Round: Pepe rolls 2 and 3, re-rolls the 2 and gets a 4; everyone gains the
    worker of the 3 (and, with our cask tile A, the donkey of the 4). Pepe puts his virtual die on
    building (1 fencing die, 2 building dice); Rubén puts his on fencing (2 fencing dice, 1 building)."""
    game = position(phase="reroll", dice=(2, 3), seed=0)
    game.play("reroll first")
    assert game.state.dice == [4, 3]
    game.play("virtual build")
    pepe = game.state.sheets[0]
    assert (pepe.fences_left, pepe.builds_left) == (components.FENCES_BY_DICE[1], 2) == (4, 2)
    assert held(game, 0) == has(worker=1, donkey=1)
    game.play("end", "virtual fence")
    ruben = game.state.sheets[1]
    assert (ruben.fences_left, ruben.builds_left) == (6, 1)
    assert held(game, 1) == has(worker=1, donkey=1)


def test_the_virtual_die_gives_no_resource():
    game = position(phase="reroll", dice=(5, 6))
    game.play("reroll none")
    assert held(game, 0) == has(barrel=1)  # the 5; the 6 shows nothing on side A
    game.play("virtual fence")
    assert held(game, 0) == has(barrel=1)


def test_non_road_buildings_do_not_pass_a_connection_on_in_play():
    # the kiln at 0 4 touches the agave field at 1 4; the kiln at 0 6 touches only that kiln
    game = position(sheets={0: holding(donkey=2, worker=2)}, buildings={0: ["agave at 1 4 as 0"]})
    game.play("build kiln at 0 4 as 0")
    assert held(game, 0) == has(donkey=1, worker=1, water=1)  # first connection: +1 water
    game.play("build kiln at 0 6 as 0")  # gains the donkey shown at 0 6, but no water
    assert held(game, 0) == has(donkey=1, water=1)
    assert game.state.sheets[0].links.linked == [False, True, False]


def test_fences_do_not_block_buildings_or_connections():
    """Fences and buildings are separate layers: a kiln may cross a fenced field line and still
    connect to the agave field on the other side of the fence."""
    game = position(
        sheets={0: {**holding(donkey=1, worker=1), "fences": 1 << 21}}, buildings={0: ["agave at 0 0 as 0"]}
    )
    game.play("build kiln at 0 2 as 1")  # F1, across fenced segment 21 from the field in F0
    assert game.state.sheets[0].links.linked[1] and held(game, 0)["water"] == 1
    game = position(sheets={0: {**holding(donkey=1, worker=1), "fences": 1 << 21}})
    game.play("build kiln at 0 1 as 0")  # covers (0,1) in F0 and (0,2) in F1, over the fence
    assert game.state.sheets[0].fences == 1 << 21


def test_fencing_off_a_field_with_buildings_on_it_still_gains_its_resources():
    game = position(
        sheets={0: {"fences_left": 4}},
        buildings={0: ["agave at 0 0 as 0"]},
    )
    game.play("fence 0", "fence 20", "fence 21", "fence 4")  # F0: agave
    assert held(game, 0) == has(agave=1)


def test_a_road_on_a_resource_space_is_paid_first_then_gains_the_space():
    game = position(sheets={0: holding(agave=1, barrel=1)})
    game.play("build road at 0 1 as 0")  # the agave shown at 0 1
    assert game.legal_action_names() == ["pay agave", "pay barrel"]
    game.play("pay agave", "pay barrel")
    assert held(game, 0) == has(agave=1)


def test_orange_jimadora_distiller_and_shop_bonuses():
    orange = {"jimadores": "B", "jimador_order": "orange,green"}
    game = position(sheets={0: holding(agave=1, water=1)}, buildings={0: ["kiln at 0 4 as 0"]}, **orange)
    game.play("build distiller at 1 4 as 1")
    assert held(game, 0) == has(worker=1, barrel=4)  # 3 + 1 (and the worker shown at 1 5)
    game = position(sheets={0: holding(agave=1, worker=1)}, buildings={0: ["cask at 0 0 as 0"]}, **orange)
    game.play("build shop at 1 0 as 0")
    assert game.state.sheets[0].coins == 3  # 2 + 1


@pytest.mark.parametrize(
    ("kind", "first", "joining"),
    [
        # a distiller already connected to a kiln gains nothing when a second kiln joins it
        ("distiller", ["kiln at 0 1 as 0", "distiller at 0 0 as 0"], "kiln at 2 0 as 0"),
        # a shop already connected to a cask gains nothing when a second cask joins it (by a road)
        ("shop", ["cask at 0 0 as 0", "shop at 1 0 as 0", "road at 1 3 as 0"], "cask at 0 4 as 1"),
    ],
)
def test_each_connection_bonus_is_gained_once_per_building(kind, first, joining):
    game = position(sheets={0: holding(donkey=2, worker=2, agave=2)}, buildings={0: first})
    assert game.state.sheets[0].building_linked(components.BUILDINGS.index(kind))
    before = (held(game, 0), game.state.sheets[0].coins)
    game.play(f"build {joining}")
    shown = {components.RESOURCES[r] for r in farm.placement_resources(placement(joining))}
    after = held(game, 0)
    assert after["barrel"] == before[0]["barrel"] + ("barrel" in shown)
    assert game.state.sheets[0].coins == before[1]


def test_building_refusals_name_the_building():
    game = position(sheets={0: holding(agave=1)})
    with pytest.raises(IllegalActionError, match="an agave field costs 2 agave$"):
        game.play("build agave at 0 0 as 0")
    game = position(sheets={0: holding(donkey=1, worker=1)}, buildings={0: ["agave at 0 0 as 0"]})
    with pytest.raises(IllegalActionError, match="the kiln would overlap your agave field at 0 1$"):
        game.play("build kiln at 0 1 as 0")
