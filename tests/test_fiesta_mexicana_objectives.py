"""Fiesta Mexicana: every objective card, and Fernanda's scoring example from the rulebook."""

from __future__ import annotations

import pytest
from fiesta_mexicana_positions import card_with, objective, position, turn_to_face

from fiesta_envs.fiesta_mexicana.board import EAST, NEIGHBOURS, OPPOSITE, SOUTH
from fiesta_envs.fiesta_mexicana.components import DISHES, SAUCES
from fiesta_envs.fiesta_mexicana.scoring import complete_bowls, objective_points

TOKENS = {"to": "tostada", "el": "elotes", "bu": "burritos", "ch": "chilis", "sa": "salad", "ta": "tacos"}
NO_HALVES = (-1, -1, -1, -1)


def table(picture: str) -> list[int]:
    """Dishes of a table drawn row by row: ``to el bu ch sa ta`` or ``--`` for an uncovered space."""
    tokens = picture.split()
    assert len(tokens) == 16
    return [-1 if t == "--" else DISHES.index(TOKENS[t]) for t in tokens]


def bowls(dishes: list[int], joins: list[tuple[int, str, str]]) -> list[tuple[int, ...]]:
    """Edges with a complete bowl of ``colour`` between space ``s`` and its neighbour ``direction``."""
    edges = [list(NO_HALVES) for _ in dishes]
    for space, direction, colour in joins:
        d = "NESW".index(direction)
        neighbour = dict(NEIGHBOURS[space])[d]
        edges[space][d] = edges[neighbour][OPPOSITE[d]] = SAUCES.index(colour)
    return [tuple(e) for e in edges]


def score(kind: str, mine: list[int], others: tuple[list[int], ...] = (), edges=None, dish=None) -> int:
    edges = edges or [NO_HALVES] * 16
    return objective_points(objective(kind, dish), 0, [mine, *others], edges)


EMPTY = table("-- " * 16)


# ---------------------------------------------------------------------------------- children
def test_children_score_1_per_dish_of_their_kind():
    mine = table("ta ta -- -- ta -- -- -- to to -- -- -- -- -- --")
    assert score("children", mine, dish="tacos") == 3
    assert score("children", mine, dish="salad") == 0


# ---------------------------------------------------------------------------------- teens
def test_teens_score_5_for_the_most_dishes():
    mine = table("ch ch ch -- -- -- -- -- -- -- -- -- -- -- -- --")
    other = table("ch ch -- -- -- -- -- -- -- -- -- -- -- -- -- --")
    assert score("teens", mine, (other,), dish="chilis") == 5
    assert objective_points(objective("teens", "chilis"), 1, [mine, other], [NO_HALVES] * 16) == 0


def test_teens_tied_for_the_most_all_score():
    mine = table("ch ch -- -- -- -- -- -- -- -- -- -- -- -- -- --")
    other = table("-- -- ch ch -- -- -- -- -- -- -- -- -- -- -- --")
    third = table("-- -- ch -- -- -- -- -- -- -- -- -- -- -- -- --")
    assert score("teens", mine, (other, third), dish="chilis") == 5
    assert objective_points(objective("teens", "chilis"), 1, [mine, other, third], [NO_HALVES] * 16) == 5
    assert objective_points(objective("teens", "chilis"), 2, [mine, other, third], [NO_HALVES] * 16) == 0


def test_teens_need_at_least_one_dish():
    assert score("teens", EMPTY, (EMPTY,), dish="salad") == 0
    one = table("sa -- -- -- -- -- -- -- -- -- -- -- -- -- -- --")
    assert score("teens", one, (EMPTY,), dish="salad") == 5


# ---------------------------------------------------------------------------------- seniors
def test_seniors_square_of_four_identical_dishes():
    square = table("-- -- -- -- -- bu bu -- -- bu bu -- -- -- -- --")
    assert score("square of 4", square) == 6
    mixed = table("-- -- -- -- -- bu bu -- -- bu ta -- -- -- -- --")
    assert score("square of 4", mixed) == 0
    line = table("bu bu bu bu -- -- -- -- -- -- -- -- -- -- -- --")
    assert score("square of 4", line) == 0


@pytest.mark.parametrize(
    "picture",
    [
        "sa sa sa sa -- -- -- -- -- -- -- -- -- -- -- --",  # horizontal
        "-- sa -- -- -- sa -- -- -- sa -- -- -- sa -- --",  # vertical
        "sa -- -- -- -- sa -- -- -- -- sa -- -- -- -- sa",  # diagonal
        "-- -- -- sa -- -- sa -- -- sa -- -- sa -- -- --",  # other diagonal
    ],
)
def test_seniors_line_of_four_in_every_direction(picture):
    assert score("line of 4", table(picture)) == 6
    assert score("line of 3", table(picture)) == 4  # a line of 4 holds a line of 3


@pytest.mark.parametrize(
    "picture",
    [
        "-- -- -- -- -- el el el -- -- -- -- -- -- -- --",  # horizontal
        "-- -- -- -- -- -- -- el -- -- -- el -- -- -- el",  # vertical, bottom
        "-- -- -- -- el -- -- -- -- el -- -- -- -- el --",  # diagonal
        "-- -- -- -- -- -- -- el -- -- el -- -- el -- --",  # other diagonal
    ],
)
def test_seniors_line_of_three_in_every_direction(picture):
    assert score("line of 3", table(picture)) == 4
    assert score("line of 4", table(picture)) == 0


@pytest.mark.parametrize(
    "picture",
    [
        "el el -- el -- -- -- -- -- -- -- -- -- -- -- --",  # not consecutive
        "el el ta -- -- -- -- -- -- -- -- -- -- -- -- --",  # not identical
        "el -- -- -- -- -- el -- -- -- -- -- -- -- -- el",  # not a straight run
        "-- -- el el el -- -- -- -- -- -- -- -- -- -- --",  # wraps round a row: not a line
    ],
)
def test_seniors_lines_must_be_consecutive_identical_dishes(picture):
    assert score("line of 3", table(picture)) == 0


def test_an_objective_scores_once_even_when_met_twice():
    two_lines = table("bu bu bu -- sa sa sa -- -- -- -- -- -- -- -- --")
    assert score("line of 3", two_lines) == 4


# ---------------------------------------------------------------------------------- masked guests
FULL = table("to " * 16)


def test_masked_guests_count_complete_bowls():
    six = bowls(FULL, [(0, "E", "red"), (1, "E", "green"), (2, "S", "white"), (5, "S", "red"), (8, "E", "brown"),
                       (14, "E", "green")])  # fmt: skip
    assert sum(complete_bowls(FULL, six)) == 6
    assert score("6 bowls", FULL, edges=six) == 6
    assert score("4 bowls", FULL, edges=six) == 4
    five = bowls(FULL, [(0, "E", "red"), (1, "E", "green"), (2, "S", "white"), (5, "S", "red"), (8, "E", "brown")])
    assert score("6 bowls", FULL, edges=five) == 0
    assert score("4 bowls", FULL, edges=five) == 4
    three = bowls(FULL, [(0, "E", "red"), (1, "E", "green"), (2, "S", "white")])
    assert score("4 bowls", FULL, edges=three) == 0


def test_masked_guests_three_bowls_of_one_colour():
    green = bowls(FULL, [(0, "E", "green"), (5, "S", "green"), (10, "E", "green")])
    assert score("3 bowls of one colour", FULL, edges=green) == 6
    mixed = bowls(FULL, [(0, "E", "green"), (5, "S", "green"), (10, "E", "red")])
    assert score("3 bowls of one colour", FULL, edges=mixed) == 0


def test_halves_of_different_colours_or_facing_nothing_are_not_bowls():
    edges = [list(NO_HALVES) for _ in range(16)]
    edges[0][EAST], edges[1][OPPOSITE[EAST]] = 0, 1  # green against brown
    edges[4][SOUTH] = 2  # a white half facing a card without one
    assert complete_bowls(FULL, [tuple(e) for e in edges]) == [0, 0, 0, 0]
    half_table = table("to -- " + "-- " * 14)
    joined = bowls(FULL, [(0, "E", "red")])
    assert complete_bowls(half_table, joined) == [0, 0, 0, 0]  # the other half is not on the table


# ---------------------------------------------------------------------------------- the rulebook example
def fernanda_and_daniel():
    """Fernanda: 4 chilis, burritos 1-5-9 in a column, salads 6-11-16 on a diagonal, 6 bowls.

    Her table (numbers 1..16 in reading order)::

        bu to to ch
        bu sa el ch
        bu el sa to
        ch ch -- sa

    with a complete bowl inside each of the pairs 1-2, 3-4, 5-6, 7-8, 9-10 and 11-12.
    Daniel has 5 chilis.
    """
    used: list[int] = []
    fernanda: dict[int, tuple[int, int]] = {}
    pairs = [(1, "burritos", "tostada"), (3, "tostada", "chilis"), (5, "burritos", "salad"),
             (7, "elotes", "chilis"), (9, "burritos", "elotes"), (11, "salad", "tostada")]  # fmt: skip
    for left_number, left_dish, right_dish in pairs:
        for colour in SAUCES:
            try:
                left = card_with(left_dish, half=colour, exclude=used)
                right = card_with(right_dish, half=colour, exclude=[*used, left])
            except LookupError:
                continue
            break
        used += [left, right]
        fernanda[left_number] = (left, turn_to_face(left, colour, "E"))
        fernanda[left_number + 1] = (right, turn_to_face(right, colour, "W"))
    for number, dish in ((13, "chilis"), (14, "chilis"), (16, "salad")):
        used.append(card_with(dish, exclude=used))
        fernanda[number] = (used[-1], 0)
    daniel = {}
    for number in range(1, 6):
        used.append(card_with("chilis", exclude=used))
        daniel[number] = (used[-1], 0)
    return fernanda, daniel


def test_fernanda_scores_10_for_her_objectives():
    fernanda, daniel = fernanda_and_daniel()
    cards = [objective("teens", "chilis"), objective("line of 3"), objective("6 bowls")]
    game = position(2, tables={0: fernanda, 1: daniel}, objectives={0: cards}, phase="over", turn=-1)
    assert game.dishes[0].count(DISHES.index("chilis")) == 4
    assert sum(complete_bowls(game.dishes[0], game.edges[0])) >= 6
    assert game.objective_points(0) == [0, 4, 6]  # 4 chilis lose to Daniel's 5; one line; six bowls
    info = game.final_info()
    assert info["objective_points"][0] == 10
    assert info["objectives"][0] == ["teens: chilis", "line of 3: 4", "6 bowls: 6"]
