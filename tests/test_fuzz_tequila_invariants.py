"""Tequila's fuzz invariants (``fiesta_envs/testing/invariants/tequila.py``): they hold in real games of
every configuration, they recompute the final score category by category from the state alone
(and agree with the engine), and each check fails when its rule is broken."""

from __future__ import annotations

import copy
import itertools

import numpy as np
import pytest

from fiesta_envs.policies.policy import RandomPolicy
from fiesta_envs.registry import GAMES
from fiesta_envs.tequila import speedups
from fiesta_envs.tequila.baselines import Planner
from fiesta_envs.tequila.components import BUILDINGS, FARM, SECTION_PRESTIGE
from fiesta_envs.tequila.game import Tequila
from fiesta_envs.testing.invariants import invariants_for
from fiesta_envs.testing.invariants import tequila as inv

#: The registry's configurations, and every jimador of side B (2 players only meet purple and red)
#: with both cask tiles.
CONFIGURATIONS = [
    *GAMES["tequila"].configurations(),
    (4, {"jimadores": "B", "cask_tile": "B"}),
    (3, {"jimadores": "B", "jimador_order": "green,orange,red"}),
]
BUILD_OFFSET = Tequila(num_players=2).action_names().index("build road at 0 0 as 0")
WHITE_BONUS, CREAM_BONUS = inv.TEQUILA_BIT, inv.TEQUILA_BIT + 1


def play(num_players: int, options: dict | None = None, seed: int = 0, planners: tuple[int, ...] = ()):
    """Every state dict of one game (seats in ``planners`` play the planner, the others at
    random) and the finished game."""
    game = Tequila(num_players=num_players, seed=seed, **(options or {}))
    policies = [Planner(seed=seed) if p in planners else RandomPolicy(seed=seed + p) for p in range(num_players)]
    states = [game.state_dict()]
    while not game.is_over:
        p = game.current_player
        game.step(int(policies[p].act(game.observe(p), game.legal_mask(), game, p)))
        states.append(game.state_dict())
    return states, game


@pytest.fixture(scope="module")
def rich_game():
    """A 3-player game, the planner against two random players: sections, fences, chains, tequila."""
    return play(3, seed=4, planners=(0,))


def problems_of(data: dict) -> list[str]:
    return inv.check_state(data)


def assert_caught(problems: list[str], match: str) -> None:
    assert problems, "the damage went unnoticed"
    assert any(match in p for p in problems), problems


def with_sheet(data: dict, player: int = 0, **fields) -> dict:
    damaged = copy.deepcopy(data)
    damaged["state"]["sheets"][player].update(fields)
    return damaged


# ---------------------------------------------------------------------------- (a) real games pass
@pytest.mark.parametrize(
    ("num_players", "options"),
    CONFIGURATIONS,
    ids=["-".join([f"{n}p", *(f"{k}={v}" for k, v in o.items())]) for n, o in CONFIGURATIONS],
)
def test_games_of_every_configuration_keep_every_invariant(num_players, options):
    checks = invariants_for("tequila")
    for seed, planners in ((0, ()), (1, (0,))):
        states, game = play(num_players, options, seed, planners)
        for before, after in itertools.pairwise(states):
            assert checks.check_transition(before, after) == []
        for data in states[::7] + states[-1:]:
            assert checks.check_state(data) == []
        final = states[-1]
        assert checks.check_final(final, game.scores().tolist()) == []
        assert inv.score_breakdowns(final) == game.score_breakdowns()
        assert inv.tie_breaks(final) == game.tie_breaks()


@pytest.mark.parametrize("fast", [True, False], ids=["speedups", "reference"])
def test_the_fuzzer_runs_the_tequila_checks(fast):
    """With the speed-ups on and off (``tequila.speedups``: kept masks and fences, or the rules directly)."""
    from fiesta_envs.testing.fuzz import fuzz_game

    with speedups.enabled(fast):
        report = fuzz_game(Tequila, 2, {}, games=1, seed=3)
    assert report.ok, [failure.describe() for failure in report.examples]
    assert report.checks["invariants"] > 0


# ---------------------------------------------------------------------------- the farm, read again
def test_placements_follow_the_build_action_names():
    """The state's placement index is the ``build`` action's: kind, orientation, top-left."""
    names = Tequila(num_players=2).action_names()
    assert len(inv.PLACEMENTS) == sum(name.startswith("build ") for name in names)
    for index, (kind, cells) in enumerate(inv.PLACEMENTS):
        word, _, row, col, _, orientation = names[BUILD_OFFSET + index].split()[1:]
        assert BUILDINGS[kind] == word
        shape = inv.ORIENTATIONS[word][int(orientation)]
        assert cells == {(int(row) + r, int(col) + c) for r, c in shape}
        assert kind == BUILDINGS.index("road") or not cells & inv.WATER_CELLS


def test_sections_are_the_rulings_seven_arid_areas():
    assert [len(s) for s in inv.SECTIONS] == [8, 8, 2, 4, 7, 8, 4]
    assert len(SECTION_PRESTIGE) == len(inv.SECTIONS)
    assert all(FARM[r].split()[c] != "~" for section in inv.SECTIONS for r, c in section)


def test_zones_and_fence_segments():
    every = (1 << inv.NUM_SEGMENTS) - 1
    assert inv.zones(0) == [(frozenset(range(16)), False)]
    assert inv.zones(every) == [(frozenset({f}), True) for f in range(16)]
    assert inv.segment_fields(0) == (None, 0) and inv.segment_fields(19) == (15, None)
    assert inv.segment_fields(21) == (0, 1) and inv.segment_fields(20) == (None, 0)
    # fencing only the border of F0 (top 0, left 20) and its inner sides (bottom 4, right 21) closes it
    assert (frozenset({0}), True) in inv.zones(1 << 0 | 1 << 20 | 1 << 4 | 1 << 21)


def test_connections_run_through_roads_only():
    names = [n for n in Tequila(2).action_names() if n.startswith("build ")]

    def sheet(*built: str) -> dict:
        return {"buildings": [[BUILDINGS.index(n.split()[0]), names.index(f"build {n}")] for n in built]}

    agave = "agave at 0 0 as 0"  # spaces 0 0 to 1 1
    assert inv.linked(sheet(agave, "kiln at 2 0 as 0")) == [False, True]  # beside it
    # through the road spaces 0 2 (arid) and 0 3 (water), not with a gap at 0 2
    assert inv.linked(sheet(agave, "road at 0 2 as 0", "road at 0 3 as 0", "kiln at 0 4 as 0"))[-1]
    assert not inv.linked(sheet(agave, "road at 0 3 as 0", "kiln at 0 4 as 0"))[-1]
    assert not inv.linked(sheet("kiln at 0 4 as 0"))[0]


# ---------------------------------------------------------------------------- (b) wrong scores are caught
def _edit_category(final: dict, category: str) -> dict:
    """The final state changed so that ``category`` is worth something else for somebody."""
    data = copy.deepcopy(final)
    sheets = data["state"]["sheets"]
    first = sheets[0]
    if category == "unused_gears":
        first["gears_unused"] += 1
    elif category == "coin_track":
        first["coins"] = 0 if first["coins"] >= 2 else 2
    elif category == "production_tracks":
        first["production"][3] = 1 if first["production"][3] != 1 else 2
    elif category == "collections":
        first["collections"] = 1 if first["collections"] != 1 else 2
    elif category == "sections_first":
        first["bonuses"] ^= 1 << inv.SECTION_BIT
    elif category == "first_to_bonuses":
        first["bonuses"] ^= 1 << (inv.MARKET_BIT + 2)
    elif category == "market_spaces":
        first["market"] ^= 1 << 23
    elif category == "tequila_majorities":
        alone = first["production"][2] > 0 and not any(sheet["production"][2] for sheet in sheets[1:])
        for sheet in sheets:
            sheet["production"][2] = 0
        if not alone:
            first["production"][2] = 1  # player 0 alone makes pink tequila (else nobody does)
    elif category == "market_majority":
        for sheet in sheets:
            sheet["market"] = 0
        first["market"] = 1
    return data


@pytest.mark.parametrize("category", inv.CATEGORIES)
def test_a_wrong_score_in_any_category_is_caught(rich_game, category):
    """The state says one thing, the scores another: ``check_final`` reports it. Loaded into the
    engine, the edited state scores as the recomputation does (both read the category)."""
    states, game = rich_game
    final = states[-1]
    edited = _edit_category(final, category)
    before = inv.score_breakdowns(final)
    after = inv.score_breakdowns(edited)
    assert any(b[category] != a[category] for b, a in zip(before, after, strict=True)), "the edit changed nothing"
    assert inv.check_final(final, game.scores().tolist()) == []
    assert_caught(inv.check_final(edited, game.scores().tolist()), "differ from the recomputed")

    engine = Tequila(num_players=3, seed=4)
    engine.load_state_dict(edited)
    assert engine.score_breakdowns() == after


@pytest.mark.parametrize("category", inv.CATEGORIES)
def test_an_engine_scoring_the_wrong_points_is_caught(rich_game, category, monkeypatch):
    """An engine whose scoring of one category is off by one for one player fails the check."""
    states, game = rich_game
    right = game.score_breakdowns()

    def wrong(self):
        out = copy.deepcopy(right)
        out[1][category] += 1
        return out

    def wrong_totals(self):  # the engine keeps its totals apart from the breakdown: both are off
        return np.array([sum(b.values()) for b in wrong(self)], dtype=float)

    monkeypatch.setattr(Tequila, "score_breakdowns", wrong)
    monkeypatch.setattr(Tequila, "scores", wrong_totals)
    assert_caught(inv.check_final(states[-1], game.scores().tolist()), "differ from the recomputed")


# ---------------------------------------------------------------------------- (c) the rulebook's scoring
def _final(num_players: int, **per_player) -> dict:
    """A finished game's state dict whose sheets hold ``per_player`` values (a list per field)."""
    states, _ = play(num_players, seed=0)
    data = copy.deepcopy(states[-1])
    for name, values in per_player.items():
        for sheet, value in zip(data["state"]["sheets"], values, strict=True):
            sheet[name] = copy.deepcopy(value)
    return data


def _engine_breakdowns(data: dict) -> list[dict[str, int]]:
    engine = Tequila(num_players=data["num_players"], **data["options"])
    engine.load_state_dict(data)
    return engine.score_breakdowns()


@pytest.mark.parametrize(
    ("whites", "points"),
    [
        # 3+ players: most gains the left value (white 16), second the right one (8)
        ((5, 3, 1), [16, 8, 0]),
        # "In the case of a tie, both values are added and divided evenly (rounded down) between
        # the tied players and the next place gains nothing"
        ((5, 5, 1), [12, 12, 0]),
        ((5, 3, 3), [16, 4, 4]),
        ((4, 4, 4, 4), [6, 6, 6, 6]),
        ((0, 0, 2), [0, 0, 16]),  # nobody without tequila takes a place
        # 2 players: only the right column, a tie divides it
        ((3, 1), [8, 0]),
        ((3, 3), [4, 4]),
        # 5 or more: against the left and right neighbours only, right column
        ((1, 2, 3, 4, 5), [0, 0, 0, 0, 8]),
        ((2, 2, 0, 0, 0), [4, 4, 0, 0, 0]),
        ((3, 0, 3, 0, 3, 0), [8, 0, 8, 0, 8, 0]),
        # solo: the right column for 6 tequilas of the type
        ((6,), [8]),
        ((5,), [0]),
    ],
)
def test_tequila_majorities_as_the_rulebook_splits_them(whites, points):
    n = len(whites)
    data = _final(n, production=[[w, 0, 0, 0] for w in whites])
    assert [b["tequila_majorities"] for b in inv.score_breakdowns(data)] == points
    assert [b["tequila_majorities"] for b in _engine_breakdowns(data)] == points


@pytest.mark.parametrize(
    ("spaces", "points"),
    [
        ((6, 6, 1), [17, 17, 0]),  # "most shops 20 points, next 14", a tie adds and splits them
        ((6, 2, 1), [20, 14, 0]),
        ((4, 4), [7, 7]),  # 2 players: 14 for the most
        ((12,), [14]),  # solo: 12 market spaces gain 14 points
        ((11,), [0]),
    ],
)
def test_market_majority_as_the_rulebook_splits_it(spaces, points):
    market = [sum(1 << ((k % 3) * 8 + k // 3) for k in range(count)) for count in spaces]  # column by column
    data = _final(len(spaces), market=market)
    assert [bin(m).count("1") for m in market] == list(spaces)
    assert [b["market_majority"] for b in inv.score_breakdowns(data)] == points
    assert [b["market_majority"] for b in _engine_breakdowns(data)] == points


def test_a_final_sheet_scored_by_hand():
    """Each line of the rulebook's "End of the Game and Scoring", on one sheet (solo):

    unused free actions 3; coin track at square 9: highest prestige reached 21 (square 8);
    production white 3 (9), cream 5 (24), pink 1 (6), red 1 (8): 47; one collection: 8;
    sections 0 and 2 first: 18 + 6; first to the 5th cream: 9, first to the rulebook's market
    column 6 (index 5): 12; 7 market spaces: 7; majorities (solo: 6 of a type, 12 spaces): none. Total 3 + 21 + 47
    + 8 + 24 + 21 + 7 = 131 (our calibrated prestige values).
    """
    market = sum(1 << c for c in range(7))  # row 0, columns 0-6
    bonuses = 1 << inv.SECTION_BIT | 1 << (inv.SECTION_BIT + 2) | 1 << CREAM_BONUS | 1 << (inv.MARKET_BIT + 1)
    data = _final(
        1,
        gears_unused=[3],
        coins=[9],
        coins_earned=[9],
        production=[[3, 5, 1, 1]],
        collections=[1],
        bonuses=[bonuses],
        market=[market],
    )
    expected = {
        "unused_gears": 3,
        "coin_track": 21,
        "production_tracks": 47,
        "collections": 8,
        "sections_first": 24,
        "first_to_bonuses": 21,
        "market_spaces": 7,
        "tequila_majorities": 0,
        "market_majority": 0,
    }
    assert inv.score_breakdowns(data) == [expected]
    assert inv.final_scores(data) == [131]
    assert _engine_breakdowns(data) == [expected]


def test_collections_score_only_the_first_four():
    data = _final(2, collections=[4, 6])
    assert [b["collections"] for b in inv.score_breakdowns(data)] == [42, 42]


# ---------------------------------------------------------------------------- conservation checks fail
def test_every_rich_position_is_clean(rich_game):
    states, _ = rich_game
    final = states[-1]["state"]["sheets"][0]
    assert final["sections"] and final["rewarded_fields"] and final["market"] and any(final["production"])
    assert problems_of(states[-1]) == []


@pytest.mark.parametrize(
    ("fields", "match"),
    [
        ({"coins": 3, "coins_earned": 2}, "coins marked but"),
        ({"collections": 1}, "collections for production"),
        ({"gears_unused": 1}, "gears crossed"),
        ({"production": [1, 0, 0, 0], "crossed": [0, 0, 0, 0, 1], "marked": [0, 0, 0, 0, 1]}, "without a kiln"),
        ({"market": 1 << 11}, "not joined to column 0"),  # row 1 column 3 alone
        ({"market": 1 << 16, "gears_left": 0}, "requires 1"),  # row 2 column 0: an agave field
        ({"sections": 1}, "marked filled"),
        ({"rewarded_fields": 1}, "rewarded, the fences close"),
        ({"coins": 1, "coins_earned": 1}, "coins earned, the sheet proves 0 to 0"),
        ({"crossed": [0, 0, 0, 0, 1], "marked": [0, 0, 0, 0, 1], "bonuses": 1 << WHITE_BONUS}, "without having"),
    ],
)
def test_a_damaged_opening_sheet_is_caught(fields, match):
    """Player 0 at the start of their first turn: nothing built, fenced, made or earned yet."""
    states, _ = play(2, seed=5)
    opening = next(s for s in states if s["state"]["phase"] == "main")
    assert problems_of(opening) == []
    assert_caught(problems_of(with_sheet(opening, **fields)), match)


def test_built_and_fenced_things_must_have_been_paid_and_gained():
    states, _ = play(2, seed=5)
    opening = copy.deepcopy(next(s for s in states if s["state"]["phase"] == "main"))
    sheet = opening["state"]["sheets"][0]
    sheet["marked"] = [0] * 5
    sheet["crossed"] = [0] * 5
    names = Tequila(2).action_names()
    kiln = names.index("build kiln at 0 5 as 0") - BUILD_OFFSET  # on the donkey at 0 6
    road = names.index("build road at 3 0 as 0") - BUILD_OFFSET  # on water
    sheet["buildings"] = [[BUILDINGS.index("kiln"), kiln], [0, road]]
    problems = problems_of(opening)
    assert_caught(problems, "0 donkey marked, the sheet proves 1")
    assert_caught(problems, "0 donkey crossed, the sheet proves 1")
    assert_caught(problems, "0 worker crossed, the sheet proves 1")
    assert_caught(problems, "0 resources crossed, the sheet proves 4")  # kiln 2 + road 2 of choice

    fenced = with_sheet(states[0], fences=(1 << inv.NUM_SEGMENTS) - 1 - (1 << 21) - (1 << 22), rewarded_fields=0xFFFF)
    assert_caught(problems_of(fenced), "holds 2 houses")  # F0, F1, F2 in one zone: houses on F0 and F2
    assert_caught(problems_of(fenced), "agave marked, the sheet proves")


def test_bonuses_must_match_the_sheets_and_the_rounds(rich_game):
    states, _ = rich_game
    final = states[-1]
    bonus, first = next((b, r) for b, r in enumerate(final["state"]["bonus_round"]) if r >= 0)
    forgotten = copy.deepcopy(final)
    forgotten["state"]["bonus_round"][bonus] = -1
    assert_caught(problems_of(forgotten), f"bonus {bonus} first gained in round -1")
    lost = copy.deepcopy(final)
    for sheet in lost["state"]["sheets"]:
        sheet["bonuses"] &= ~(1 << bonus)
    assert_caught(problems_of(lost), f"bonus {bonus} first gained in round {first}, held by []")

    solo, _ = play(1, seed=2, planners=(0,))
    sheet = solo[-1]["state"]["sheets"][0]
    reached = next(b for b in range(inv.NUM_BONUSES) if inv.qualified(sheet, b))
    assert problems_of(solo[-1]) == []
    missed = with_sheet(solo[-1], bonuses=sheet["bonuses"] & ~(1 << reached))
    assert_caught(problems_of(missed), f"player 0 reached bonus {reached} but did not gain it")


# ---------------------------------------------------------------------------- transition checks fail
def test_bonuses_are_gained_exactly_when_reached_first(rich_game):
    states, _ = rich_game
    pairs = [
        (b, a, p, bonus)
        for b, a in itertools.pairwise(states)
        for p in range(3)
        for bonus in range(inv.NUM_BONUSES)
        if inv.holds(a["state"]["sheets"][p], bonus)
        and not inv.holds(b["state"]["sheets"][p], bonus)
        and b["state"]["round"] >= 1
    ]
    assert pairs
    before, after, p, bonus = pairs[0]
    assert inv.check_transition(before, after) == []
    taken_earlier = copy.deepcopy(before)
    taken_earlier["state"]["bonus_round"][bonus] = before["state"]["round"] - 1  # somebody else, last round
    assert_caught(inv.check_transition(taken_earlier, after), f"player {p}: bonus {bonus} gained")
    withheld = with_sheet(after, p, bonuses=after["state"]["sheets"][p]["bonuses"] & ~(1 << bonus))
    assert_caught(inv.check_transition(before, withheld), f"player {p}: bonus {bonus} not gained")


def test_one_action_adds_one_mark_at_most(rich_game):
    states, _ = rich_game
    before, after = states[40], copy.deepcopy(states[41])
    assert inv.check_transition(before, after) == []
    sheet = after["state"]["sheets"][1]
    free_fences = [s for s in range(inv.NUM_SEGMENTS) if not sheet["fences"] >> s & 1]
    sheet["fences"] |= 1 << free_fences[0] | 1 << free_fences[1]
    sheet["production"][0] += 2
    after["state"]["jimadores"][0] = "green"
    problems = inv.check_transition(before, after)
    assert_caught(problems, "more than one mark added to fences")
    assert_caught(problems, "more than one tequila")
    assert_caught(problems, "jimadores changed")


def test_the_final_check_wants_a_finished_round_8(rich_game):
    states, game = rich_game
    scores = game.scores().tolist()
    assert_caught(inv.check_final(with_sheet(states[-1], 2, gears_left=1), scores), "player 2 keeps")
    assert_caught(inv.check_final(with_sheet(states[-1], 0, free_road=True), scores), "free road True")
    unfinished = copy.deepcopy(states[-1])
    unfinished["state"]["round"] = 7
    assert_caught(inv.check_final(unfinished, scores), "ended in round 7")
    assert_caught(inv.check_final(states[-1], scores[:2]), "2 final scores for 3 players")
