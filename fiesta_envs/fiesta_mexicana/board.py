"""Geometry of a 4x4 table: frames, neighbours, lines and squares (precomputed at import).

A table is stored in its *fixed frame*: the starting orientation, maracas bottom right, where space
``s = 4 * row + col`` reads the number ``s + 1``. Its *orientation* ``o`` counts quarter turns to the
left (counter-clockwise) since then. A left turn moves the space seen at (row, col) to
(3 - col, row), so the space that read 1 reads 13 afterwards (the rulebook's example).

In every orientation the legible numbers run 1..16 in reading order of the player's current view, so
``VIEW_OF[o][s] + 1`` is the number that fixed space ``s`` reads, and ``FIXED_OF[o][n - 1]`` is the
fixed space that reads ``n``.

Edges: directions are 0..3 = north, east, south, west. A card turned ``r`` quarter turns clockwise
shows its own edge ``(d - r) % 4`` towards direction ``d``. Turning the table ``o`` quarter turns to
the left makes fixed direction ``f`` face view direction ``(f - o) % 4``.
"""

from __future__ import annotations

from fiesta_envs.fiesta_mexicana.components import DISH_CARDS, NUM_SPACES, TABLE_SIDE

NORTH, EAST, SOUTH, WEST = range(4)
OPPOSITE: tuple[int, ...] = (SOUTH, WEST, NORTH, EAST)
_STEP: tuple[tuple[int, int], ...] = ((-1, 0), (0, 1), (1, 0), (0, -1))


def turn_left(space: int) -> int:
    """Where a space of the view goes when the table turns a quarter turn to the left."""
    row, col = divmod(space, TABLE_SIDE)
    return (TABLE_SIDE - 1 - col) * TABLE_SIDE + row


def _view_tables() -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    view_of = [tuple(range(NUM_SPACES))]
    for _ in range(3):
        view_of.append(tuple(turn_left(view_of[-1][s]) for s in range(NUM_SPACES)))
    fixed_of = []
    for views in view_of:
        inverse = [0] * NUM_SPACES
        for fixed, view in enumerate(views):
            inverse[view] = fixed
        fixed_of.append(tuple(inverse))
    return tuple(view_of), tuple(fixed_of)


#: VIEW_OF[o][s]: position (= legible number - 1) of fixed space s in a table turned o times left.
#: FIXED_OF[o][v]: the fixed space seen at position v (reading number v + 1).
VIEW_OF, FIXED_OF = _view_tables()


def number_of_space(orientation: int, space: int) -> int:
    """The number fixed space ``space`` reads in a table turned ``orientation`` times left."""
    return VIEW_OF[orientation % 4][space] + 1


def space_of_number(orientation: int, number: int) -> int:
    """The fixed space that reads ``number`` (1..16) in a table turned ``orientation`` times left."""
    return FIXED_OF[orientation % 4][number - 1]


def rotated_edges(card: int, rotation: int) -> tuple[int, int, int, int]:
    """Sauce halves of ``card`` (N, E, S, W) after ``rotation`` clockwise quarter turns."""
    edges = DISH_CARDS[card].edges
    return edges[-rotation % 4], edges[(1 - rotation) % 4], edges[(2 - rotation) % 4], edges[(3 - rotation) % 4]


#: ROTATED_EDGES[card][r]: the card's edges after r clockwise quarter turns.
ROTATED_EDGES: tuple[tuple[tuple[int, int, int, int], ...], ...] = tuple(
    tuple(rotated_edges(card, r) for r in range(4)) for card in range(len(DISH_CARDS))
)


def _neighbours(space: int) -> tuple[tuple[int, int], ...]:
    row, col = divmod(space, TABLE_SIDE)
    result = []
    for direction, (dr, dc) in enumerate(_STEP):
        r, c = row + dr, col + dc
        if 0 <= r < TABLE_SIDE and 0 <= c < TABLE_SIDE:
            result.append((direction, r * TABLE_SIDE + c))
    return tuple(result)


#: NEIGHBOURS[s]: (direction, neighbouring space) pairs inside the table, fixed frame.
NEIGHBOURS: tuple[tuple[tuple[int, int], ...], ...] = tuple(_neighbours(s) for s in range(NUM_SPACES))

#: Every pair of touching spaces once, as (space, direction towards the other, other space).
TOUCHING_PAIRS: tuple[tuple[int, int, int], ...] = tuple(
    (s, d, n) for s in range(NUM_SPACES) for d, n in NEIGHBOURS[s] if d in (EAST, SOUTH)
)


def _lines(length: int) -> tuple[tuple[int, ...], ...]:
    """Every run of ``length`` consecutive spaces: horizontal, vertical and both diagonals."""
    runs = []
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        for row in range(TABLE_SIDE):
            for col in range(TABLE_SIDE):
                cells = [(row + k * dr, col + k * dc) for k in range(length)]
                if all(0 <= r < TABLE_SIDE and 0 <= c < TABLE_SIDE for r, c in cells):
                    runs.append(tuple(r * TABLE_SIDE + c for r, c in cells))
    return tuple(runs)


LINES_OF_3: tuple[tuple[int, ...], ...] = _lines(3)
LINES_OF_4: tuple[tuple[int, ...], ...] = _lines(4)
SQUARES: tuple[tuple[int, ...], ...] = tuple(
    (r * TABLE_SIDE + c, r * TABLE_SIDE + c + 1, (r + 1) * TABLE_SIDE + c, (r + 1) * TABLE_SIDE + c + 1)
    for r in range(TABLE_SIDE - 1)
    for c in range(TABLE_SIDE - 1)
)
