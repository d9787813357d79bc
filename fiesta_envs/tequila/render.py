"""Text rendering of a Tequila table: each sheet's farm, fields, market, tracks and round.

A sheet is drawn as its farm on the left and what surrounds it on the right::

           0 1    2 3    4 5    6 7     fields (gained when fenced off; H house, * fenced off)
        +======+  1   +  2   +  3   +   *F0 H a      F1 j        F2 H y      F3 w w
      0 || d a || . ~ 22 . . 23 y . 24   F4 H w      F5 b        F6 w        F7 H a
      1 || d d || . ~    . j    ~ ~      ...

Rows and columns are numbered as the actions name them (``build kiln at 1 4 as 0``: row 1,
column 4 is the top left square of the kiln's box). Every fence segment not yet drawn shows its
number, the one ``fence S`` draws; a drawn fence is ``======`` (across) or ``||`` (down). Buildings
are letters (``BUILDING_LETTERS``, upper case when connected to their chain partner); an empty
square shows the resource printed on it (``RESOURCE_LETTERS``: the donkey is ``y``, so that it is
never mistaken for a distiller ``d``), ``~`` water, ``.`` arid land.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import Protocol

import numpy as np

from fiesta_envs.tequila import components, farm
from fiesta_envs.tequila.affordable import market_cost
from fiesta_envs.tequila.sheet import Sheet
from fiesta_envs.tequila.state import Phase, TequilaState


class Table(Protocol):
    """What the text shows of a game (a ``Tequila`` engine provides it; the renderer reads, never plays)."""

    num_players: int
    state: TequilaState[Sheet]
    decision: Phase

    @property
    def is_over(self) -> bool: ...

    @property
    def current_player(self) -> int: ...

    def scores(self) -> np.ndarray: ...


#: Letter drawn for each building kind (upper case: connected to its chain partner).
BUILDING_LETTERS = ("r", "g", "k", "d", "c", "s")
#: Letter drawn for each resource printed on a square or a field, or paid at the market.
RESOURCE_LETTERS = ("a", "w", "j", "y", "b")
#: Letter drawn for an empty square by the resource printed on it (None: none).
ICON_LETTERS: dict[int | None, str] = {None: ".", **dict(enumerate(RESOURCE_LETTERS))}
WATER = "~"
#: Width of a field's two squares (`` a b ``) and of a fence segment drawn down (``20`` or ``||``).
FIELD_WIDTH = 2 * components.FIELD_SIZE + 1
DOWN_WIDTH = 2
ROW_LABEL = 4  # "  0 "
LINE_WIDTH = 100
GAP = "  "  # between the farm and what is drawn beside it

LEGEND = (
    "farm: rows and columns as the actions name them; numbers on field borders are the 'fence N' actions, "
    "'======' and '||' fences drawn. Buildings: "
    + ", ".join(f"{letter} {noun}" for letter, noun in zip(BUILDING_LETTERS, components.BUILDING_NOUNS, strict=True))
    + " (upper case: connected to its chain partner). Printed resources: "
    + ", ".join(f"{letter} {name}" for letter, name in zip(RESOURCE_LETTERS, components.RESOURCES, strict=True))
    + f"; {WATER} water, . arid. Gears are free actions."
)


def _square_letters(sheet: Sheet) -> dict[int, str]:
    """The letter of every square: its building's, else the resource printed on it, water or arid."""
    letters = {}
    for x in range(farm.SPACES):
        if farm.WATER_SPACES >> x & 1:
            letters[x] = WATER
        else:
            letters[x] = ICON_LETTERS[farm.SPACE_RESOURCE[x]]
    for i, (kind, index) in enumerate(sheet.buildings):
        letter = BUILDING_LETTERS[kind].upper() if sheet.links.linked[i] else BUILDING_LETTERS[kind]
        for x in farm.spaces_of(farm.PLACEMENTS[index].spaces):
            letters[x] = letter
    return letters


def _fenced(sheet: Sheet, segment: int) -> bool:
    return bool(sheet.fences >> segment & 1)


def _across(sheet: Sheet, segment: int) -> str:
    """A fence segment across the farm, after its left corner: ``======`` drawn, else its number centred."""
    width = DOWN_WIDTH + FIELD_WIDTH - 1
    return "=" * width if _fenced(sheet, segment) else str(segment).center(width)


def _down(sheet: Sheet, segment: int, first_line: bool) -> str:
    """A fence segment down the farm, on one of its two lines: ``||`` drawn, else its number (first line)."""
    if _fenced(sheet, segment):
        return "|" * DOWN_WIDTH
    return str(segment).rjust(DOWN_WIDTH) if first_line else " " * DOWN_WIDTH


def square_column(col: int) -> int:
    """Where the square of farm column ``col`` is drawn on a line of ``farm_lines``."""
    field, within = divmod(col, components.FIELD_SIZE)
    return ROW_LABEL + (field + 1) * DOWN_WIDTH + field * FIELD_WIDTH + 1 + 2 * within


def down_column(border: int) -> int:
    """Where the fence segments down the farm on field border ``border`` (0 = left edge) are drawn."""
    return ROW_LABEL + border * (DOWN_WIDTH + FIELD_WIDTH)


def farm_lines(sheet: Sheet) -> list[str]:
    """The farm: column numbers, then per field row its fence line and its squares' rows (numbered)."""
    side = farm.FIELDS_PER_SIDE
    letters = _square_letters(sheet)
    columns = " " * ROW_LABEL
    for fc in range(side):
        numbers = " ".join(str(fc * components.FIELD_SIZE + dc) for dc in range(components.FIELD_SIZE))
        columns += " " * DOWN_WIDTH + f" {numbers} "
    lines = [columns.rstrip()]
    for fr in range(side + 1):
        across = "".join("+" + _across(sheet, fr * side + fc) for fc in range(side))
        lines.append(" " * ROW_LABEL + across + "+")
        if fr == side:
            break
        for dr in range(components.FIELD_SIZE):
            r = fr * components.FIELD_SIZE + dr
            line = f"{r:>{ROW_LABEL - 1}} "
            for fc in range(side + 1):
                line += _down(sheet, farm.NUM_HORIZONTAL + fr * (side + 1) + fc, first_line=dr == 0)
                if fc == side:
                    break
                first = fc * components.FIELD_SIZE
                squares = (letters[farm.space(r, first + dc)] for dc in range(components.FIELD_SIZE))
                line += " " + " ".join(squares) + " "
            lines.append(line)
    return lines


def field_lines(sheet: Sheet) -> list[str]:
    """The 16 fields laid out as on the farm: the resources each gives when fenced off, its house, whether
    it is fenced off (``*``)."""
    side = farm.FIELDS_PER_SIDE
    lines = ["fields (gained when fenced off; H house, * fenced off)"]
    for fr in range(side):
        cells = []
        for fc in range(side):
            f = fr * side + fc
            resources, house = components.FIELDS[f]
            mark = "*" if sheet.rewarded_fields >> f & 1 else " "
            text = f"{mark}F{f} {'H ' if house else ''}{' '.join(RESOURCE_LETTERS[r] for r in resources)}"
            cells.append(text.ljust(11))
        lines.append(" ".join(cells).rstrip())
    return lines


def market_lines(sheet: Sheet, green: bool) -> list[str]:
    """The market as 'sell R C' names it: what each space pays (``y2``: 2 donkeys) or, on row 2, the
    buildings it needs (``k2``: 2 kilns); ``##`` marked."""
    lines = ["market ('sell R C'; row 2: buildings needed; ## marked)"]
    lines.append("    " + " ".join(f"{c:>2}" for c in range(components.MARKET_COLUMNS)))
    discount = components.GREEN_MARKET_DISCOUNT if green else 0
    for row in range(components.MARKET_ROWS):
        cells = []
        for col in range(components.MARKET_COLUMNS):
            space = row * components.MARKET_COLUMNS + col
            if sheet.market >> space & 1:
                cells.append("##")
            elif row == components.MARKET_REQUIREMENT_ROW:
                kind, amount = components.MARKET_REQUIREMENTS[col]
                letter = BUILDING_LETTERS[components.BUILDINGS.index(kind)]
                cells.append(f"{letter}{max(0, amount - discount)}")
            else:
                cost = market_cost(space, green)
                cells.append("".join(f"{RESOURCE_LETTERS[r]}{n}" for r, n in cost.items()) or "--")
        lines.append(f"  {row} " + " ".join(cells))
    return lines


def round_line(sheet: Sheet) -> str | None:
    """What is left of the player's own round (None when nothing is): fences, building actions, gears
    (free actions) and free actions bought with resources, a free road (cask tile B)."""
    if not (sheet.fences_left or sheet.builds_left or sheet.gears_left or sheet.credits or sheet.free_road):
        return None
    virtual = f"virtual die on {('fencing', 'building')[sheet.virtual]}; " if sheet.virtual >= 0 else ""
    gears = _count(sheet.gears_left, "gear") + (f" + {sheet.credits} bought" if sheet.credits else "")
    left = [_count(sheet.fences_left, "fence"), _count(sheet.builds_left, "building action"), gears]
    if sheet.free_road:
        left.append("a free road")
    return f"this round: {virtual}left {', '.join(left)}"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def sheet_lines(game: Table, seat: int) -> list[str]:
    sheet = game.state.sheets[seat]
    held = ", ".join(f"{name} {sheet.held(r)}/{sheet.marked[r]}" for r, name in enumerate(components.RESOURCES))
    tequila = ", ".join(f"{t} {n}" for t, n in zip(components.TEQUILAS, sheet.production, strict=True))
    jimador = game.state.jimadores[seat]
    lines = [
        f"player_{seat} ({jimador or 'side A'} jimador), {int(game.scores()[seat])} prestige: coins {sheet.coins}, "
        f"collections {sheet.collections}, extras bought {sheet.extra_bought}, unused gears {sheet.gears_unused}",
        f"  held/marked {held}",
        f"  tequila made: {tequila}",
    ]
    this_round = round_line(sheet)
    if this_round and not game.is_over:
        lines.append("  " + this_round)
    beside = [*field_lines(sheet), "", *market_lines(sheet, green=jimador == "green")]
    drawn = farm_lines(sheet)
    width = max(len(line) for line in drawn)
    for i in range(max(len(drawn), len(beside))):
        left = drawn[i] if i < len(drawn) else ""
        right = beside[i] if i < len(beside) else ""
        lines.append((left.ljust(width) + GAP + right).rstrip())
    return lines


def orientation_lines(kinds: Sequence[int]) -> list[str]:
    """Pictures of every orientation (``as O``) of the building ``kinds`` that have more than one, side by
    side, each drawn from the top left square of its box (the ``at R C`` of the action)::

        kiln:   as 0  as 1
                k k   k
                      k
    """
    lines: list[str] = []
    for kind in kinds:
        shapes = farm.orientations(components.SHAPES[kind])
        if len(shapes) < 2:
            continue
        pictures = [_shape_picture(shape, BUILDING_LETTERS[kind]) for shape in shapes]
        width = max(len(line) for picture in pictures for line in picture) + 2
        width = max(width, len("as 0  "))
        title = f"{components.BUILDING_NOUNS[kind]}:".ljust(13)
        lines.append(title + "".join(f"as {o}".ljust(width) for o in range(len(shapes))).rstrip())
        for row in range(max(len(picture) for picture in pictures)):
            cells = (picture[row] if row < len(picture) else "" for picture in pictures)
            lines.append((" " * len(title) + "".join(cell.ljust(width) for cell in cells)).rstrip())
    return lines


def _shape_picture(shape: Sequence[tuple[int, int]], letter: str) -> list[str]:
    height = 1 + max(r for r, _ in shape)
    width = 1 + max(c for _, c in shape)
    return [" ".join(letter if (r, c) in shape else " " for c in range(width)).rstrip() for r in range(height)]


def render_text(game: Table) -> str:
    if game.is_over:
        head = f"Tequila: game over, scores {[int(s) for s in game.scores()]}"
    else:
        head = (
            f"Tequila: round {game.state.round + 1}/{components.ROUNDS}, "
            f"dice {game.state.dice[0]} {game.state.dice[1]}, "
            f"starting player_{game.state.start_player}, player_{game.current_player} to {game.decision.label}"
        )
    lines = [head]
    for seat in range(game.num_players):
        lines += sheet_lines(game, seat)
    lines.append(textwrap.fill(LEGEND, LINE_WIDTH))
    return "\n".join(lines)
