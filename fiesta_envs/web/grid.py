"""Choosing a square by clicking: actions that name a square are offered on a grid of the board.

* Actions whose names say ``at ROW COL`` (Tequila's ``build road at 2 3 as 1``): the grid is the
  farm, labelled with rows and columns.
* Fiesta Mexicana's bids (``bid N``, ``reserve N drop K``): the grid is the person's table, the
  spaces numbered 1-16 as the table reads now (as in the picture); a bid names the space it wins.

Clicking a square keeps only the actions at that square; their buttons then read without the
square (``build road as 1``, ``reserve drop 2``). The grid's size comes from every action name of
the game, so it is the whole board, not only the squares that are legal now.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

AT_SQUARE = re.compile(r" at (\d+) (\d+)(?= |$)")
BID_NUMBER = re.compile(r"^(bid|reserve) (\d+)(?= |$)")
#: Fiesta Mexicana's table: 4 x 4 spaces numbered 1-16 row by row.
TABLE_SIDE = 4


@dataclass
class SquareGrid:
    rows: int
    columns: int
    counts: dict[tuple[int, int], int]  # legal actions at each square that has any
    chosen: tuple[int, int] | None
    numbered: bool  # squares read 1..16 (Fiesta Mexicana's table), not row and column

    def count(self, row: int, column: int) -> int:
        return self.counts.get((row, column), 0)


def square_of(name: str) -> tuple[int, int] | None:
    """The ``(row, column)`` an action name places something at or bids for, or None."""
    match = AT_SQUARE.search(name)
    if match:
        return int(match.group(1)), int(match.group(2))
    bid = BID_NUMBER.match(name)
    if bid:
        return divmod(int(bid.group(2)) - 1, TABLE_SIDE)
    return None


def without_square(name: str) -> str:
    """``build road at 2 3 as 1`` -> ``build road as 1``; ``reserve 9 drop 2`` -> ``reserve drop 2``."""
    if AT_SQUARE.search(name):
        return AT_SQUARE.sub("", name, count=1)
    return BID_NUMBER.sub(lambda match: match.group(1), name, count=1)


def square_label(grid: SquareGrid, row: int, column: int) -> str:
    """What a square of the grid says: its number on a numbered table, else nothing (rows and columns are labelled)."""
    return str(row * TABLE_SIDE + column + 1) if grid.numbered else ""


def square_grid(all_names: Sequence[str], legal: Sequence[tuple[int, str]], chosen: str | None) -> SquareGrid | None:
    """The grid of squares when some legal action names one (else None); ``chosen`` is ``"ROW,COL"``."""
    squares = [square_of(name) for _, name in legal]
    if not any(squares):
        return None
    every = [s for s in map(square_of, all_names) if s is not None]
    counts: dict[tuple[int, int], int] = {}
    for square in squares:
        if square is not None:
            counts[square] = counts.get(square, 0) + 1
    numbered = not any(AT_SQUARE.search(name) for name in all_names)
    rows, columns = max(r for r, _ in every) + 1, max(c for _, c in every) + 1
    return SquareGrid(rows, columns, counts, _parse_square(chosen, counts), numbered)


def _parse_square(text: str | None, counts: dict[tuple[int, int], int]) -> tuple[int, int] | None:
    if not text:
        return None
    row, _, column = text.partition(",")
    try:
        square = (int(row), int(column))
    except ValueError:
        return None
    return square if square in counts else None


def actions_shown(legal: Sequence[tuple[int, str]], grid: SquareGrid | None) -> list[tuple[int, str]]:
    """The actions to show as buttons: all of them, or with a square chosen, those at it (named without it)."""
    if grid is None or grid.chosen is None:
        return list(legal)
    return [(action, without_square(name)) for action, name in legal if square_of(name) == grid.chosen]
