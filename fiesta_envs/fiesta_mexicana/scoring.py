"""Points: what a newly placed dish brings, and what each objective card is worth at the end.

Tables are given in their fixed frame (see ``board``): ``dishes[s]`` is the dish on space ``s``
(-1 when uncovered) and ``edges[s]`` the four sauce halves (N, E, S, W; -1 for none) of the card
on ``s`` as it lies on the table. Turning a table changes neither, so no function here needs the
orientation.
"""

from __future__ import annotations

from collections.abc import Sequence

from fiesta_envs.fiesta_mexicana.board import LINES_OF_3, LINES_OF_4, NEIGHBOURS, OPPOSITE, SQUARES, TOUCHING_PAIRS
from fiesta_envs.fiesta_mexicana.components import (
    CHILDREN,
    DISHES,
    MASKED_FOUR,
    MASKED_SIX,
    MASKED_THREE_SAME,
    OBJECTIVE_KINDS,
    SAUCES,
    SENIORS_LINE_3,
    SENIORS_LINE_4,
    SENIORS_SQUARE,
    TEENS,
)

Edges = Sequence[int]

SAME_COLOUR_BOWL = 3  # two halves of one colour joined
MIXED_BOWL = -1  # two halves of different colours joined
HALF_BOWL = -1  # a half bowl against a card edge without one (either side)


def edge_points(mine: int, theirs: int) -> int:
    """Points for one touching edge: the new card's half ``mine`` against the neighbour's ``theirs``."""
    if mine >= 0 and theirs >= 0:
        return SAME_COLOUR_BOWL if mine == theirs else MIXED_BOWL
    if mine >= 0 or theirs >= 0:
        return HALF_BOWL
    return 0


def placement_points(
    dishes: Sequence[int], edges: Sequence[Edges], *, space: int, new_edges: Edges, skulls: int
) -> int:
    """What a card with ``skulls`` and ``new_edges`` brings on ``space`` (before the score floor).

    +1 per skull; each edge touching an occupied space is judged once (``edge_points``). Halves
    facing the table's border or an uncovered space count nothing.
    """
    points = skulls
    for direction, neighbour in NEIGHBOURS[space]:
        if dishes[neighbour] >= 0:
            points += edge_points(new_edges[direction], edges[neighbour][OPPOSITE[direction]])
    return points


def complete_bowls(dishes: Sequence[int], edges: Sequence[Edges]) -> list[int]:
    """Complete sauce bowls (two touching halves of one colour) on a table, counted per sauce colour."""
    counts = [0] * len(SAUCES)
    for space, direction, other in TOUCHING_PAIRS:
        if dishes[space] >= 0 and dishes[other] >= 0:
            colour = edges[space][direction]
            if colour >= 0 and colour == edges[other][OPPOSITE[direction]]:
                counts[colour] += 1
    return counts


def dish_counts(dishes: Sequence[int]) -> list[int]:
    """How many dishes of each kind a table holds."""
    counts = [0] * len(DISHES)
    for dish in dishes:
        if dish >= 0:
            counts[dish] += 1
    return counts


def _identical(dishes: Sequence[int], cells: Sequence[int]) -> bool:
    first = dishes[cells[0]]
    return first >= 0 and all(dishes[c] == first for c in cells)


def has_shape(dishes: Sequence[int], shapes: Sequence[Sequence[int]]) -> bool:
    """True if any of ``shapes`` (lines or squares) is filled with one and the same dish."""
    return any(_identical(dishes, cells) for cells in shapes)


SHAPES_OF_KIND: dict[str, tuple[tuple[int, ...], ...]] = {
    SENIORS_SQUARE: SQUARES,
    SENIORS_LINE_4: LINES_OF_4,
    SENIORS_LINE_3: LINES_OF_3,
}


def objective_points(kind_code: int, player: int, all_dishes: Sequence[Sequence[int]], edges: Sequence[Edges]) -> int:
    """Points objective ``kind_code`` gives ``player`` at the end (each card scores at most once).

    ``all_dishes`` holds every player's table (the teens compare with everybody); ``edges`` is the
    player's own table.
    """
    kind = OBJECTIVE_KINDS[kind_code]
    dishes = all_dishes[player]
    if kind.kind == CHILDREN:
        return kind.points * dish_counts(dishes)[kind.dish]
    if kind.kind == TEENS:
        counts = [dish_counts(table)[kind.dish] for table in all_dishes]
        mine = counts[player]
        return kind.points if mine >= 1 and mine == max(counts) else 0
    if kind.kind in SHAPES_OF_KIND:
        return kind.points if has_shape(dishes, SHAPES_OF_KIND[kind.kind]) else 0
    bowls = complete_bowls(dishes, edges)
    if kind.kind in (MASKED_SIX, MASKED_FOUR):
        return kind.points if sum(bowls) >= kind.target else 0
    if kind.kind == MASKED_THREE_SAME:
        return kind.points if max(bowls) >= kind.target else 0
    raise AssertionError(f"unknown objective kind {kind.kind!r}")
