"""Tequila's invariants, checked by the fuzzer from state dicts only.

An independent second reading of the rules: it uses the component tables of
``fiesta_envs/tequila/components.py`` (the farm drawing, tracks, prices, prestige) and the frozen
state-dict format, and none of the engine's rule code. The farm geometry (sections, fields and
fence segments, the building placements behind ``build`` actions, connections through roads) and
the final scoring are written again here from the rulebook and ``rules/tequila.md``, so a bug in
the engine's geometry or scoring shows up as a disagreement.

A roll-and-write sheet only ever gains marks, and everything on it was paid for and earned:

* ``check_state`` (at any moment):
  - tracks: on every resource track the crossed-out (spent) squares never exceed the marked ones
    and neither goes negative or past the track; coins, this round's fences, builds, gears and
    credits are never negative; the coin track shows ``min(15, coins earned)``;
  - farm: buildings are placements of their kind and never overlap; the filled sections are
    exactly the sections covered by buildings; the fenced-off fields are exactly the fields of
    the zones closed by the fences, and no closed zone holds two houses;
  - tequila: the collections are the smallest of the four counts (6 at most); a tequila was only
    made with a building of its chain connected (kiln to agave field, and so on);
  - market: every marked space is joined to column 0 through marked spaces; a marked
    requirement space (row 2) is still met by the buildings (green: one less);
  - "first to" bonuses: held only when qualified (section filled, 5th tequila of the type, a
    mark in the bonus column); a bonus's first round is set exactly when somebody holds it; a
    qualified player without it means somebody took it first (solo: every bonus reached is held);
  - conservation of what was earned and paid: coins earned lie between the coins the sheet
    proves (resource-track coin squares, collections, filled sections, bonuses, shops' first
    connections) and that plus the shop sales the linked shops allow; every resource track has
    at least the marks the sheet proves (resources on built spaces and fenced-off fields,
    first-connection bonuses), capped by the track; every track has at least the crossings the
    sheet proves (building, tequila and market prices), and all tracks together also the road
    and extra-action payments of choice; the gears handed out so far equal the gears unused,
    left and crossed, and the crossed gears are the free actions taken (tequilas and market
    marks) less at most the extra actions bought.
* ``check_transition`` (one action apart): tracks only move forward (marked and crossed squares,
  coins earned, production, collections, extra actions bought); fences, fenced-off fields,
  market spaces, filled sections and "first to" bonuses are never erased (their bit masks only
  gain bits); buildings are never removed or changed (the list only grows, by one at most); at
  most one fence, one market mark and one tequila per action; the round only moves forward; the
  round a bonus was first gained is never rewritten; jimadores never change; a bonus is gained
  exactly when it is newly reached while nobody had it before this round (solo: always).
* ``check_final``: every player's final score, recomputed category by category from the final
  sheets (``score_breakdowns``: unused gears, coin track, production tracks, collections,
  sections first, first-to bonuses, market spaces, tequila majorities, market majority), equals
  ``Game.scores()``, one per player; the game ended after round 8 with nothing pending and no
  round budget (fences, building actions, gears, bought actions, free road) kept.
  ``tie_breaks`` recomputes the tie-break (resources shown on fenced-off fields).

Scoring rulings the recomputation follows (``rules/tequila.md``): majorities add the values of
the places tied players span (places after the listed ones are worth 0) and split them rounded
down, a count of 0 takes no place; 2 players and 5+ players (against both neighbours) score only
the right value; solo scores it for 6 tequilas of a type or 12 market spaces. Unused gears are
a count the sheet keeps (the state cannot show which gears were crossed), so that category is
read, and held to the gear accounting of ``check_state``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from fiesta_envs.tequila.components import (
    BUILDING_COSTS,
    BUILDINGS,
    BUILDS_ON_WATER,
    CHAIN_PARTNER,
    COIN_TRACK_LENGTH,
    COIN_TRACK_PRESTIGE,
    COLLECTION_COINS,
    COLLECTION_PRESTIGE,
    COLLECTION_TRACK_LENGTH,
    CONNECTION_BONUS,
    EXTRA_ACTION_COST,
    FARM,
    FARM_SYMBOLS,
    FIELD_SIZE,
    FIELDS,
    GEARS_PER_ROUND,
    GREEN_MARKET_DISCOUNT,
    MARKET_COLUMN_BONUSES,
    MARKET_COLUMNS,
    MARKET_MAJORITY,
    MARKET_PAYMENTS,
    MARKET_REQUIREMENT_ROW,
    MARKET_REQUIREMENTS,
    MAX_HOUSES_PER_ZONE,
    ORANGE_CONNECTION_EXTRA,
    PRODUCTION_BONUS_COINS,
    PRODUCTION_BONUS_PRESTIGE,
    PRODUCTION_BONUS_SQUARE,
    PRODUCTION_PRESTIGE,
    RESOURCE_TRACK_COINS,
    RESOURCE_TRACK_LENGTH,
    RESOURCES,
    ROAD_COST_OF_CHOICE,
    ROUNDS,
    SECTION_COINS,
    SECTION_PRESTIGE,
    SOLO_MARKET_MINIMUM,
    SOLO_TEQUILA_MINIMUM,
    TEQUILA_BUILDING,
    TEQUILA_COSTS,
    TEQUILA_MAJORITY,
    TEQUILAS,
)

Cell = tuple[int, int]
Sheet = dict[str, Any]  # one sheet of a state dict

GROWING_COUNTS = ("coins_earned", "collections", "extra_bought")
GROWING_MASKS = ("fences", "rewarded_fields", "market", "sections", "bonuses")
NEVER_NEGATIVE = ("coins", "fences_left", "builds_left", "gears_left", "credits", "gears_unused")
ROAD = BUILDINGS.index("road")
SHOP = BUILDINGS.index("shop")


def bits(mask: int) -> list[int]:
    """The indices of the set bits of ``mask``, lowest first."""
    return [i for i in range(mask.bit_length()) if mask >> i & 1]


# ---------------------------------------------------------------------------- the farm, read again
SIDE = len(FARM)
_GRID = [line.split() for line in FARM]
WATER_CELLS = frozenset((r, c) for r in range(SIDE) for c in range(SIDE) if _GRID[r][c] == "~")
ARID_CELLS = frozenset((r, c) for r in range(SIDE) for c in range(SIDE)) - WATER_CELLS
#: The resource shown on each arid space that shows one.
RESOURCE_AT: dict[Cell, int] = {
    cell: resource for cell in ARID_CELLS if (resource := FARM_SYMBOLS[_GRID[cell[0]][cell[1]]]) is not None
}


def neighbours(cell: Cell) -> list[Cell]:
    r, c = cell
    return [
        (r + dr, c + dc) for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)) if 0 <= r + dr < SIDE and 0 <= c + dc < SIDE
    ]


def regions(cells: Iterable[Cell]) -> list[frozenset[Cell]]:
    """The orthogonally connected parts of ``cells``, in reading order of their first cell."""
    left = set(cells)
    parts = []
    for start in sorted(left):
        if start not in left:
            continue
        part, frontier = {start}, [start]
        while frontier:
            for other in neighbours(frontier.pop()):
                if other in left and other not in part:
                    part.add(other)
                    frontier.append(other)
        left -= part
        parts.append(frozenset(part))
    return parts


#: Sections: the arid areas cut apart by water, numbered as the state's ``sections`` bits.
SECTIONS: tuple[frozenset[Cell], ...] = tuple(regions(ARID_CELLS))
assert len(SECTIONS) == len(SECTION_PRESTIGE), "the farm drawing and the section prestige disagree"

#: Each building's distinct orientations as the action names number them (``... as O``): the
#: kiln and cask across then down; the distiller L, Γ, ꓶ, ⅃; the shop (a T) with its stem
#: down, left, up, right.
ORIENTATIONS: dict[str, tuple[tuple[Cell, ...], ...]] = {
    "road": (((0, 0),),),
    "agave": (((0, 0), (0, 1), (1, 0), (1, 1)),),
    "kiln": (((0, 0), (0, 1)), ((0, 0), (1, 0))),
    "distiller": (
        ((0, 0), (1, 0), (1, 1)),
        ((0, 0), (0, 1), (1, 0)),
        ((0, 0), (0, 1), (1, 1)),
        ((0, 1), (1, 0), (1, 1)),
    ),
    "cask": (((0, 0), (0, 1), (0, 2)), ((0, 0), (1, 0), (2, 0))),
    "shop": (
        ((0, 0), (0, 1), (0, 2), (1, 1)),
        ((0, 1), (1, 0), (1, 1), (2, 1)),
        ((0, 1), (1, 0), (1, 1), (1, 2)),
        ((0, 0), (1, 0), (1, 1), (2, 0)),
    ),
}


def _placements() -> list[tuple[int, frozenset[Cell]]]:
    """Every way to draw every building, in the order of the ``build`` actions (the state's
    placement index): by kind, orientation, then top-left row and column of the bounding box."""
    out = []
    for kind, name in enumerate(BUILDINGS):
        for shape in ORIENTATIONS[name]:
            height = 1 + max(r for r, _ in shape)
            width = 1 + max(c for _, c in shape)
            for row in range(SIDE - height + 1):
                for col in range(SIDE - width + 1):
                    cells = frozenset((row + r, col + c) for r, c in shape)
                    if BUILDS_ON_WATER[kind] or not cells & WATER_CELLS:
                        out.append((kind, cells))
    return out


#: (kind, covered cells) of each placement index.
PLACEMENTS: tuple[tuple[int, frozenset[Cell]], ...] = tuple(_placements())

# ---------------------------------------------------------------------------- fields and fences
FIELDS_PER_SIDE = SIDE // FIELD_SIZE
NUM_FIELDS = FIELDS_PER_SIDE * FIELDS_PER_SIDE
NUM_HORIZONTAL = (FIELDS_PER_SIDE + 1) * FIELDS_PER_SIDE
NUM_SEGMENTS = NUM_HORIZONTAL + FIELDS_PER_SIDE * (FIELDS_PER_SIDE + 1)
HOUSES = frozenset(f for f, (_, house) in enumerate(FIELDS) if house)


def segment_fields(segment: int) -> tuple[int | None, int | None]:
    """The fields on the two sides of a fence segment (None beyond the farm's border).

    Horizontal ``r*4 + c`` is the top edge of field row r, column c (r 0-4); vertical
    ``20 + r*5 + c`` the left edge of field column c (c 0-4) in field row r.
    """
    n = FIELDS_PER_SIDE
    if segment < NUM_HORIZONTAL:
        r, c = divmod(segment, n)
        return ((r - 1) * n + c if r > 0 else None), (r * n + c if r < n else None)
    r, c = divmod(segment - NUM_HORIZONTAL, n + 1)
    return (r * n + c - 1 if c > 0 else None), (r * n + c if c < n else None)


SEGMENT_FIELDS: tuple[tuple[int | None, int | None], ...] = tuple(segment_fields(s) for s in range(NUM_SEGMENTS))


def zones(fences: int) -> list[tuple[frozenset[int], bool]]:
    """Each zone (fields joined through unfenced segments) and whether it is fenced off."""
    joined: dict[int, set[int]] = {f: set() for f in range(NUM_FIELDS)}
    open_border: set[int] = set()  # fields with an unfenced segment on the farm's border
    for segment, (a, b) in enumerate(SEGMENT_FIELDS):
        if fences >> segment & 1:
            continue
        if a is None or b is None:
            inside = b if a is None else a
            if inside is not None:
                open_border.add(inside)
        else:
            joined[a].add(b)
            joined[b].add(a)
    out, seen = [], set()
    for start in range(NUM_FIELDS):
        if start in seen:
            continue
        zone, frontier = {start}, [start]
        while frontier:
            for other in joined[frontier.pop()] - zone:
                zone.add(other)
                frontier.append(other)
        seen |= zone
        out.append((frozenset(zone), not zone & open_border))
    return out


# ---------------------------------------------------------------------------- buildings and roads
def building_cells(sheet: Sheet) -> list[tuple[int, frozenset[Cell]]]:
    return [PLACEMENTS[index] for _, index in sheet["buildings"]]


def linked(sheet: Sheet) -> list[bool]:
    """For each building: is it connected to a building of its chain partner kind?

    Connected: orthogonally adjacent, or through a chain of road spaces (roads pass connections
    on, other buildings do not). Roads have no partner and are never "linked".
    """
    built = building_cells(sheet)
    roads = regions(cell for kind, cells in built if kind == ROAD for cell in cells)
    out = []
    for kind, cells in built:
        partner = CHAIN_PARTNER[kind]
        if partner is None:
            out.append(False)
            continue
        touching = {n for cell in cells for n in neighbours(cell)} - cells
        reach = set(touching)
        for network in roads:
            if network & touching:
                reach |= {n for cell in network for n in neighbours(cell)}
        out.append(any(k == partner and reach & other for k, other in built))
    return out


def filled_sections(sheet: Sheet) -> int:
    """The sections every space of which is covered by a building, as a bit mask."""
    covered = {cell for _, cells in building_cells(sheet) for cell in cells}
    return sum(1 << s for s, section in enumerate(SECTIONS) if section <= covered)


def kind_count(sheet: Sheet, kind: int) -> int:
    """Buildings of ``kind`` on the sheet (a road is one space, so roads count road spaces)."""
    return sum(1 for k, _ in sheet["buildings"] if k == kind)


# ---------------------------------------------------------------------------- tracks and bonuses
MARKET_BONUS_COLUMNS: tuple[int, ...] = tuple(sorted(MARKET_COLUMN_BONUSES))
#: Bit layout of a sheet's ``bonuses`` and of ``bonus_round``: sections, tequilas, bonus columns.
SECTION_BIT = 0
TEQUILA_BIT = SECTION_BIT + len(SECTION_PRESTIGE)
MARKET_BIT = TEQUILA_BIT + len(TEQUILAS)
NUM_BONUSES = MARKET_BIT + len(MARKET_BONUS_COLUMNS)


def market_cells(sheet: Sheet) -> list[Cell]:
    """The marked market spaces as (row, column)."""
    return [divmod(m, MARKET_COLUMNS) for m in bits(sheet["market"])]


def qualified(sheet: Sheet, bonus: int) -> bool:
    """Has this sheet reached what a "first to" bonus asks for?"""
    if bonus < TEQUILA_BIT:
        return bool(sheet["sections"] >> (bonus - SECTION_BIT) & 1)
    if bonus < MARKET_BIT:
        return sheet["production"][bonus - TEQUILA_BIT] > PRODUCTION_BONUS_SQUARE
    column = MARKET_BONUS_COLUMNS[bonus - MARKET_BIT]
    return any(c == column for _, c in market_cells(sheet))


def holds(sheet: Sheet, bonus: int) -> bool:
    return bool(sheet["bonuses"] >> bonus & 1)


def market_price(row: int, col: int, jimador: str | None) -> tuple[int, int]:
    """(resource, amount) paid for a space of rows 0-1; green pays one less (not below 0)."""
    resource, amount = MARKET_PAYMENTS[row][col]
    return resource, max(0, amount - GREEN_MARKET_DISCOUNT) if jimador == "green" else amount


def market_requirement(col: int, jimador: str | None) -> tuple[int, int]:
    """(building kind, how many) a row-2 space requires; green needs one less (not below 0)."""
    name, amount = MARKET_REQUIREMENTS[col]
    return BUILDINGS.index(name), max(0, amount - GREEN_MARKET_DISCOUNT) if jimador == "green" else amount


# ---------------------------------------------------------------------------- final scoring, again
def unused_gears_points(sheet: Sheet) -> int:
    """A point for each uncrossed free action (the sheet keeps the count of finished rounds)."""
    return sheet["gears_unused"]


def coin_track_points(sheet: Sheet) -> int:
    """The highest prestige printed on a marked square of the coin track."""
    return max((points for square, points in COIN_TRACK_PRESTIGE.items() if sheet["coins"] >= square), default=0)


def production_track_points(sheet: Sheet) -> int:
    """For each tequila type, the prestige of the last marked square of its production track."""
    return sum(
        prestige[count - 1] for prestige, count in zip(PRODUCTION_PRESTIGE, sheet["production"], strict=True) if count
    )


def collection_points(sheet: Sheet) -> int:
    """The prestige of the last marked collection; only the first four show prestige."""
    reached = min(sheet["collections"], len(COLLECTION_PRESTIGE))
    return COLLECTION_PRESTIGE[reached - 1] if reached else 0


def sections_first_points(sheet: Sheet) -> int:
    """The prestige of each section this player filled before anyone else (or in the same round)."""
    return sum(points for s, points in enumerate(SECTION_PRESTIGE) if holds(sheet, SECTION_BIT + s))


def first_to_points(sheet: Sheet) -> int:
    """The prestige of the "first to" bonuses of the production tracks and of the market columns."""
    tequila = sum(points for t, points in enumerate(PRODUCTION_BONUS_PRESTIGE) if holds(sheet, TEQUILA_BIT + t))
    market = sum(
        MARKET_COLUMN_BONUSES[column][1]
        for k, column in enumerate(MARKET_BONUS_COLUMNS)
        if holds(sheet, MARKET_BIT + k)
    )
    return tequila + market


def market_space_points(sheet: Sheet) -> int:
    """One point per marked market space."""
    return bin(sheet["market"]).count("1")


def split_places(counts: Sequence[int], values: Sequence[int]) -> list[int]:
    """The rulebook's majority: place k is worth ``values[k]`` (places beyond them nothing).

    Players tied on a count share the places they take together: their values are added and
    divided evenly, rounded down, and the next player takes the place after them. A count of 0
    takes no place.
    """
    points = []
    for mine in counts:
        if mine <= 0:
            points.append(0)
            continue
        place = sum(1 for other in counts if other > mine)
        tied = sum(1 for other in counts if other == mine)
        points.append(sum(values[place : place + tied]) // tied)
    return points


def majority_points(counts: Sequence[int], left: int, right: int, solo_minimum: int) -> list[int]:
    """One majority (a tequila type or the market) under the player-count rules.

    Solo: the right value for reaching ``solo_minimum``. 2 players: the right value for the most.
    3-4 players: the left value for the most, the right one for second. 5 or more: each player
    contests the right value with their left and right neighbours only.
    """
    n = len(counts)
    if n == 1:
        return [right if counts[0] >= solo_minimum else 0]
    if n == 2:
        return split_places(counts, (right,))
    if n <= 4:
        return split_places(counts, (left, right))
    return [split_places([counts[p - 1], counts[p], counts[(p + 1) % n]], (right,))[1] for p in range(n)]


def tequila_majority_points(sheets: Sequence[Sheet]) -> list[int]:
    totals = [0] * len(sheets)
    for t, (left, right) in enumerate(TEQUILA_MAJORITY):
        counts = [sheet["production"][t] for sheet in sheets]
        for p, points in enumerate(majority_points(counts, left, right, SOLO_TEQUILA_MINIMUM)):
            totals[p] += points
    return totals


def market_majority_points(sheets: Sequence[Sheet]) -> list[int]:
    counts = [market_space_points(sheet) for sheet in sheets]
    return majority_points(counts, *MARKET_MAJORITY, SOLO_MARKET_MINIMUM)


#: Each player's own categories, named as in ``Game.score_breakdowns()``.
SHEET_CATEGORIES = {
    "unused_gears": unused_gears_points,
    "coin_track": coin_track_points,
    "production_tracks": production_track_points,
    "collections": collection_points,
    "sections_first": sections_first_points,
    "first_to_bonuses": first_to_points,
    "market_spaces": market_space_points,
}
#: The categories compared across the table.
TABLE_CATEGORIES = {"tequila_majorities": tequila_majority_points, "market_majority": market_majority_points}
CATEGORIES: tuple[str, ...] = (*SHEET_CATEGORIES, *TABLE_CATEGORIES)


def score_breakdowns(data: dict[str, Any]) -> list[dict[str, int]]:
    """Every player's points by category, recomputed from a state dict (the final one)."""
    sheets = data["state"]["sheets"]
    table = {name: category(sheets) for name, category in TABLE_CATEGORIES.items()}
    return [
        {
            **{name: category(sheet) for name, category in SHEET_CATEGORIES.items()},
            **{name: points[p] for name, points in table.items()},
        }
        for p, sheet in enumerate(sheets)
    ]


def final_scores(data: dict[str, Any]) -> list[int]:
    return [sum(breakdown.values()) for breakdown in score_breakdowns(data)]


def tie_breaks(data: dict[str, Any]) -> list[int]:
    """Resources shown on each player's fenced-off fields (the tie-break)."""
    return [sum(len(FIELDS[f][0]) for f in bits(sheet["rewarded_fields"])) for sheet in data["state"]["sheets"]]


# ---------------------------------------------------------------------------- one sheet
def track_problems(p: int, sheet: Sheet) -> list[str]:
    """Tracks stay on the sheet: crossed <= marked <= 24, counts >= 0, coins shown = coins earned."""
    problems = []
    for r, (marked, crossed) in enumerate(zip(sheet["marked"], sheet["crossed"], strict=True)):
        if not 0 <= crossed <= marked <= RESOURCE_TRACK_LENGTH:
            problems.append(f"player {p} resource {r}: {crossed} crossed of {marked} marked")
    for key in NEVER_NEGATIVE:
        if sheet[key] < 0:
            problems.append(f"player {p}: {key} is {sheet[key]}")
    if sheet["coins"] != min(COIN_TRACK_LENGTH, sheet["coins_earned"]):
        problems.append(f"player {p}: {sheet['coins']} coins marked but {sheet['coins_earned']} earned")
    return problems


def buildings_are_placements(sheet: Sheet) -> bool:
    return all(0 <= index < len(PLACEMENTS) and PLACEMENTS[index][0] == kind for kind, index in sheet["buildings"])


def farm_problems(p: int, sheet: Sheet) -> list[str]:
    """Buildings are placements that do not overlap; filled sections and fenced-off fields are
    exactly what the buildings and fences make; no fenced-off zone holds two houses."""
    placements = [index for _, index in sheet["buildings"]]
    problems = []
    if len(placements) != len(set(placements)):
        problems.append(f"player {p}: two buildings on one placement {placements}")
    cells = [cell for _, shape in building_cells(sheet) for cell in shape]
    if len(cells) != len(set(cells)):
        problems.append(f"player {p}: buildings overlap")
    filled = filled_sections(sheet)
    if sheet["sections"] != filled:
        problems.append(
            f"player {p}: sections {bits(sheet['sections'])} marked filled, the buildings fill {bits(filled)}"
        )
    closed = [zone for zone, fenced_off in zones(sheet["fences"]) if fenced_off]
    closed_fields = sum(1 << f for zone in closed for f in zone)
    if sheet["rewarded_fields"] != closed_fields:
        problems.append(
            f"player {p}: fields {bits(sheet['rewarded_fields'])} rewarded, the fences close {bits(closed_fields)}"
        )
    for zone in closed:
        if len(zone & HOUSES) > MAX_HOUSES_PER_ZONE:
            problems.append(f"player {p}: the fenced-off zone {sorted(zone)} holds {len(zone & HOUSES)} houses")
    return problems


def production_problems(p: int, sheet: Sheet, links: Sequence[bool]) -> list[str]:
    """Collections are the smallest tequila count; each tequila made had its building linked."""
    problems = []
    if sheet["collections"] != min(min(sheet["production"]), COLLECTION_TRACK_LENGTH):
        problems.append(f"player {p}: {sheet['collections']} collections for production {sheet['production']}")
    linked_kinds = {kind for (kind, _), link in zip(sheet["buildings"], links, strict=True) if link}
    for t, count in enumerate(sheet["production"]):
        building = TEQUILA_BUILDING[t]
        if count and building not in linked_kinds:
            problems.append(f"player {p} made {TEQUILAS[t]} tequila without a {BUILDINGS[building]} in its chain")
    return problems


def market_reached(marked: set[Cell]) -> set[Cell]:
    """The marked spaces joined to column 0 through marked spaces ((r, c) touches (r', c +- 1)
    with |r - r'| <= 1): the spaces that were open when marked."""
    reached = {cell for cell in marked if cell[1] == 0}
    frontier = list(reached)
    while frontier:
        row, col = frontier.pop()
        for other in ((r, c) for r in range(row - 1, row + 2) for c in (col - 1, col + 1)):
            if other in marked and other not in reached:
                reached.add(other)
                frontier.append(other)
    return reached


def market_problems(p: int, sheet: Sheet, jimador: str | None) -> list[str]:
    """Marked spaces were open when marked; marked requirement spaces are still met."""
    marked = set(market_cells(sheet))
    problems = []
    stray = marked - market_reached(marked)
    if stray:
        problems.append(f"player {p}: market spaces {sorted(stray)} are not joined to column 0")
    for row, col in sorted(marked):
        if row == MARKET_REQUIREMENT_ROW:
            kind, amount = market_requirement(col, jimador)
            if kind_count(sheet, kind) < amount:
                problems.append(
                    f"player {p}: market space {row} {col} marked with {kind_count(sheet, kind)} "
                    f"{BUILDINGS[kind]}, it requires {amount}"
                )
    return problems


# ---------------------------------------------------------------------------- conservation
def earned_coins_bounds(sheet: Sheet, jimador: str | None, rounds: int, links: Sequence[bool]) -> tuple[int, int]:
    """The fewest and most coins this sheet can have earned in ``rounds`` rounds.

    Proven by the sheet: a coin per coin square marked on a resource track, per collection (the
    first four), per filled section, per tequila bonus, the market bonus coins, and each shop's
    first connection to a cask. On top, at most ``rounds`` shop sales of one coin per linked shop.
    """
    squares = sum(1 for marked in sheet["marked"] for square in RESOURCE_TRACK_COINS if marked >= square)
    collections = min(sheet["collections"], len(COLLECTION_PRESTIGE)) * COLLECTION_COINS
    sections = bin(sheet["sections"]).count("1") * SECTION_COINS
    tequila = sum(PRODUCTION_BONUS_COINS for t in range(len(TEQUILAS)) if holds(sheet, TEQUILA_BIT + t))
    market = sum(
        MARKET_COLUMN_BONUSES[column][0]
        for k, column in enumerate(MARKET_BONUS_COLUMNS)
        if holds(sheet, MARKET_BIT + k)
    )
    orange = ORANGE_CONNECTION_EXTRA if jimador == "orange" else 0
    shops = sum(1 for (kind, _), link in zip(sheet["buildings"], links, strict=True) if kind == SHOP and link)
    connections = shops * (CONNECTION_BONUS[SHOP][1] + orange)
    fewest = squares + collections + sections + tequila + market + connections
    return fewest, fewest + rounds * shops


def proven_gains(sheet: Sheet, jimador: str | None, links: Sequence[bool]) -> list[int]:
    """Resources the sheet proves were gained: built-over resource spaces, fenced-off fields'
    resources, first-connection bonuses (orange: one more each)."""
    gains = [0] * len(RESOURCES)
    for _, cells in building_cells(sheet):
        for cell in cells:
            if cell in RESOURCE_AT:
                gains[RESOURCE_AT[cell]] += 1
    for f in bits(sheet["rewarded_fields"]):
        for resource in FIELDS[f][0]:
            gains[resource] += 1
    orange = ORANGE_CONNECTION_EXTRA if jimador == "orange" else 0
    for (kind, _), link in zip(sheet["buildings"], links, strict=True):
        what, amount = CONNECTION_BONUS.get(kind, ("coin", 0))
        if link and what != "coin":
            gains[RESOURCES.index(what)] += amount + orange
    return gains


def proven_payments(sheet: Sheet, jimador: str | None) -> list[int]:
    """Resources the sheet proves were paid at a fixed price: buildings other than roads,
    tequilas, market spaces of rows 0-1."""
    paid = [0] * len(RESOURCES)
    for kind, _ in sheet["buildings"]:
        for resource, amount in BUILDING_COSTS[kind].items():
            paid[resource] += amount
    for cost, count in zip(TEQUILA_COSTS, sheet["production"], strict=True):
        for resource, amount in cost.items():
            paid[resource] += amount * count
    for row, col in market_cells(sheet):
        if row != MARKET_REQUIREMENT_ROW:
            resource, amount = market_price(row, col, jimador)
            paid[resource] += amount
    return paid


def gears_handed_out(state: dict[str, Any], player: int, num_players: int) -> int:
    """Gears this player has received so far: every finished round's, and this round's once
    their turn has begun."""
    if state["round"] >= ROUNDS:
        return sum(GEARS_PER_ROUND)
    place = (player - state["start_player"]) % num_players
    begun = place < state["turn"] or (place == state["turn"] and state["phase"] != "reroll")
    return sum(GEARS_PER_ROUND[: state["round"]]) + (GEARS_PER_ROUND[state["round"]] if begun else 0)


def conservation_problems(p: int, sheet: Sheet, data: dict[str, Any], links: Sequence[bool]) -> list[str]:
    """What the sheet shows was earned and paid for (see the module docstring)."""
    state = data["state"]
    jimador = state["jimadores"][p]
    rounds = min(state["round"] + 1, ROUNDS)  # rounds begun
    problems = []
    fewest, most = earned_coins_bounds(sheet, jimador, rounds, links)
    if not fewest <= sheet["coins_earned"] <= most:
        problems.append(f"player {p}: {sheet['coins_earned']} coins earned, the sheet proves {fewest} to {most}")
    for r, gained in enumerate(proven_gains(sheet, jimador, links)):
        if sheet["marked"][r] < min(gained, RESOURCE_TRACK_LENGTH):
            problems.append(f"player {p}: {sheet['marked'][r]} {RESOURCES[r]} marked, the sheet proves {gained}")
    paid = proven_payments(sheet, jimador)
    for r, amount in enumerate(paid):
        if sheet["crossed"][r] < amount:
            problems.append(f"player {p}: {sheet['crossed'][r]} {RESOURCES[r]} crossed, the sheet proves {amount}")
    roads = kind_count(sheet, ROAD)
    free_roads = min(roads, rounds) if data["options"].get("cask_tile") == "B" else 0  # one per round at most
    of_choice = ROAD_COST_OF_CHOICE * (roads - free_roads) + EXTRA_ACTION_COST * sheet["extra_bought"]
    if sum(sheet["crossed"]) < sum(paid) + of_choice:
        problems.append(
            f"player {p}: {sum(sheet['crossed'])} resources crossed, the sheet proves {sum(paid) + of_choice}"
        )
    crossed_gears = gears_handed_out(state, p, data["num_players"]) - sheet["gears_unused"] - sheet["gears_left"]
    free_actions = sum(sheet["production"]) + bin(sheet["market"]).count("1")
    if not free_actions - sheet["extra_bought"] <= crossed_gears <= free_actions:
        problems.append(
            f"player {p}: {crossed_gears} gears crossed for {free_actions} free actions "
            f"({sheet['extra_bought']} bought)"
        )
    return problems


def bonus_problems(data: dict[str, Any]) -> list[str]:
    """ "First to" bonuses agree with the sheets and with the round each was first gained."""
    state = data["state"]
    sheets = state["sheets"]
    solo = data["num_players"] == 1
    problems = []
    for bonus, first in enumerate(state["bonus_round"]):
        holders = [p for p, sheet in enumerate(sheets) if holds(sheet, bonus)]
        if (first >= 0) != bool(holders) or first > state["round"]:
            problems.append(f"bonus {bonus} first gained in round {first}, held by {holders}")
        for p, sheet in enumerate(sheets):
            if holds(sheet, bonus) and not qualified(sheet, bonus):
                problems.append(f"player {p} holds bonus {bonus} without having reached it")
            elif qualified(sheet, bonus) and not holds(sheet, bonus) and (solo or first < 0):
                problems.append(f"player {p} reached bonus {bonus} but did not gain it (nobody had it)")
    return problems


# ---------------------------------------------------------------------------- the checks
def check_state(data: dict[str, Any]) -> list[str]:
    problems = []
    for p, sheet in enumerate(data["state"]["sheets"]):
        jimador = data["state"]["jimadores"][p]
        problems += track_problems(p, sheet)
        if not buildings_are_placements(sheet):
            problems.append(f"player {p}: buildings {sheet['buildings']} are not placements of their kind")
            continue  # the rest reads the buildings
        problems += farm_problems(p, sheet)
        links = linked(sheet)
        problems += production_problems(p, sheet, links)
        problems += market_problems(p, sheet, jimador)
        problems += conservation_problems(p, sheet, data, links)
    return problems + bonus_problems(data)


def check_transition(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    b, a = before["state"], after["state"]
    solo = before["num_players"] == 1
    problems = []
    if a["round"] < b["round"]:
        problems.append(f"the round went back from {b['round']} to {a['round']}")
    if a["jimadores"] != b["jimadores"]:
        problems.append(f"the jimadores changed from {b['jimadores']} to {a['jimadores']}")
    for i, (old, new) in enumerate(zip(b["bonus_round"], a["bonus_round"], strict=True)):
        if old >= 0 and new != old:
            problems.append(f"bonus {i} first gained in round {old} is now round {new}")
    for p, (old, new) in enumerate(zip(b["sheets"], a["sheets"], strict=True)):
        for key in ("marked", "crossed", "production"):
            if any(y < x for x, y in zip(old[key], new[key], strict=True)):
                problems.append(f"player {p}: {key} went back from {old[key]} to {new[key]}")
        for key in GROWING_COUNTS:
            if new[key] < old[key]:
                problems.append(f"player {p}: {key} went back from {old[key]} to {new[key]}")
        for key in GROWING_MASKS:
            if old[key] & ~new[key]:
                problems.append(f"player {p}: marks erased from {key}")
        for key in ("fences", "market"):
            if bin(new[key] & ~old[key]).count("1") > 1:
                problems.append(f"player {p}: more than one mark added to {key} by one action")
        if sum(new["production"]) > sum(old["production"]) + 1:
            problems.append(f"player {p}: more than one tequila made by one action")
        count = len(old["buildings"])
        if new["buildings"][:count] != old["buildings"] or len(new["buildings"]) > count + 1:
            problems.append(f"player {p}: buildings changed from {old['buildings']} to {new['buildings']}")
        for bonus in range(NUM_BONUSES):
            newly = qualified(new, bonus) and not qualified(old, bonus)
            gained = holds(new, bonus) and not holds(old, bonus)
            free = solo or b["bonus_round"][bonus] in (-1, b["round"])
            if gained != (newly and free):
                problems.append(
                    f"player {p}: bonus {bonus} {'gained' if gained else 'not gained'} on reaching it "
                    f"{'now' if newly else 'before'} (first gained in round {b['bonus_round'][bonus]}, "
                    f"this is round {b['round']})"
                )
    return problems


ROUND_BUDGET = ("fences_left", "builds_left", "gears_left", "credits")


def check_final(data: dict[str, Any], scores: Sequence[float]) -> list[str]:
    if len(scores) != data["num_players"]:
        return [f"{len(scores)} final scores for {data['num_players']} players"]
    problems = []
    state = data["state"]
    if state["round"] != ROUNDS or state["pay_left"] or state["gain_left"]:
        problems.append(f"the game ended in round {state['round']} with payments or gains pending")
    for p, sheet in enumerate(state["sheets"]):
        left = {key: sheet[key] for key in ROUND_BUDGET if sheet[key]}
        if left or sheet["free_road"]:
            problems.append(
                f"player {p} keeps this round's budget after the end: {left}, free road {sheet['free_road']}"
            )
    expected = final_scores(data)
    if [float(x) for x in expected] != [float(s) for s in scores]:
        problems.append(f"final scores {list(scores)} differ from the recomputed {expected}: {score_breakdowns(data)}")
    return problems
