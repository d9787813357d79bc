"""Fiesta Mexicana components and table geometry: the committed data matches the rulings."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from fiesta_envs.fiesta_mexicana import board
from fiesta_envs.fiesta_mexicana.components import (
    DISH_CARDS,
    DISHES,
    OBJECTIVE_COLOURS,
    OBJECTIVE_DECK,
    OBJECTIVE_KINDS,
    PINATA_SPACES,
    SAUCES,
    VARIANT_PENALTIES,
)


def test_66_dish_cards_eleven_of_each_of_six_dishes():
    assert len(DISH_CARDS) == 66 and len(DISHES) == 6
    assert Counter(c.dish for c in DISH_CARDS) == {d: 11 for d in range(6)}
    assert [c.index for c in DISH_CARDS] == list(range(66))


def test_skulls_and_half_bowls_follow_the_rulings_proportions():
    assert Counter(c.skulls for c in DISH_CARDS) == {1: 36, 2: 24, 3: 6}
    halves = [sum(e >= 0 for e in c.edges) for c in DISH_CARDS]
    assert max(halves) <= 3 and min(halves) >= 0
    assert 1.4 <= sum(halves) / len(halves) <= 1.8
    colours = Counter(e for c in DISH_CARDS for e in c.edges if e >= 0)
    assert set(colours) == set(range(len(SAUCES))) and len(set(colours.values())) == 1  # balanced


def test_twelve_start_cards_one_of_each_dish_per_pinata_colour():
    for colour in (0, 1):
        start = [c for c in DISH_CARDS if c.pinata == colour]
        assert sorted(c.dish for c in start) == list(range(6))
    assert sum(c.pinata >= 0 for c in DISH_CARDS) == 12


def test_24_objective_cards_six_of_each_colour():
    assert len(OBJECTIVE_DECK) == 24
    colours = Counter(OBJECTIVE_COLOURS[OBJECTIVE_KINDS[code].colour] for code in OBJECTIVE_DECK)
    assert colours == {"red": 6, "white": 6, "blue": 6, "green": 6}
    labels = Counter(OBJECTIVE_KINDS[code].label for code in OBJECTIVE_DECK)
    for dish in DISHES:
        assert labels[f"children: {dish}"] == 1 and labels[f"teens: {dish}"] == 1
    for label in (
        "square of 4: 6",
        "line of 4: 6",
        "line of 3: 4",
        "6 bowls: 6",
        "4 bowls: 4",
        "3 bowls of one colour: 6",
    ):
        assert labels[label] == 2


def test_special_spaces_read_6_11_and_16_at_the_start():
    assert [board.number_of_space(0, s) for s in PINATA_SPACES] == [6, 11]
    assert {board.number_of_space(0, s): v for s, v in VARIANT_PENALTIES.items()} == {6: 5, 11: 5, 16: 3}


def test_frames_are_consistent():
    for orientation in range(4):
        for space in range(16):
            number = board.number_of_space(orientation, space)
            assert board.space_of_number(orientation, number) == space
    assert board.ROTATED_EDGES[0][0] == DISH_CARDS[0].edges
    north, east, south, west = DISH_CARDS[0].edges
    assert board.ROTATED_EDGES[0][1] == (west, north, east, south)  # a clockwise quarter turn


def test_lines_squares_and_neighbours():
    assert len(board.LINES_OF_3) == 8 + 8 + 4 + 4
    assert len(board.LINES_OF_4) == 4 + 4 + 2
    assert len(board.SQUARES) == 9
    assert len(board.TOUCHING_PAIRS) == 24
    for space in range(16):
        for direction, other in board.NEIGHBOURS[space]:
            assert (board.OPPOSITE[direction], space) in board.NEIGHBOURS[other]


def test_the_package_reads_no_files_at_run_time():
    package = Path(board.__file__).parent
    for path in [*package.glob("*.py"), package.parent / "fiesta_mexicana_v1.py"]:
        text = path.read_text()
        assert "open(" not in text and "/shared" not in text, path
