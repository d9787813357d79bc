"""Geometry of the farm sheet, precomputed once at import from the data in ``components``.

Spaces are numbered ``r * 8 + c`` and sets of spaces are Python ints used as 64-bit masks.
Fields are numbered ``r * 4 + c`` (16 of them) and sets of fields are 16-bit masks. Fence
segments follow the rulings: horizontal ``r * 4 + c`` (top edge of field row r, column c, r 0-4),
then vertical ``20 + r * 5 + c`` (left edge of field column c, c 0-4, in field row r).

What lives here:
  * terrain: water, the resource shown on each space, the sections (arid areas cut apart by water);
  * placements: every way to draw every building on the sheet (shape, rotation, reflection);
  * connections: which buildings touch, directly or through chains of road spaces (``connect``
    updates them for one new building);
  * fences and zones: zones (fields joined through unfenced segments), fenced-off zones, and the
    house rule as the rules say it (``fence_problem``, from the zones a new fence would fence off).
    What follows from a farm's fences kept fence by fence (the legal fences above all) is
    ``fencing``'s.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from fiesta_envs.tequila import components

SIZE = len(components.FARM)
SPACES = SIZE * SIZE
FULL = (1 << SPACES) - 1
FIELDS_PER_SIDE = SIZE // components.FIELD_SIZE
NUM_FIELDS = FIELDS_PER_SIDE * FIELDS_PER_SIDE
NUM_HORIZONTAL = (FIELDS_PER_SIDE + 1) * FIELDS_PER_SIDE
NUM_SEGMENTS = NUM_HORIZONTAL + FIELDS_PER_SIDE * (FIELDS_PER_SIDE + 1)


def space(row: int, col: int) -> int:
    return row * SIZE + col


def bit_count(mask: int) -> int:
    return bin(mask).count("1")


def spaces_of(mask: int) -> list[int]:
    """The spaces (or fields) in a mask, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


# ---------------------------------------------------------------- terrain
def _parse_farm() -> tuple[int, list[int | None]]:
    rows = [line.split() for line in components.FARM]
    if len(rows) != SIZE or any(len(r) != SIZE for r in rows):
        raise ValueError("the farm must be a square grid")
    water = 0
    icons: list[int | None] = []
    for r, row in enumerate(rows):
        for c, symbol in enumerate(row):
            if symbol == "~":
                water |= 1 << space(r, c)
                icons.append(None)
            else:
                icons.append(components.FARM_SYMBOLS[symbol])
    return water, icons


WATER_SPACES, SPACE_RESOURCE = _parse_farm()
ARID_SPACES = FULL & ~WATER_SPACES
NOT_COL0 = sum(1 << space(r, c) for r in range(SIZE) for c in range(1, SIZE))
NOT_LAST_COL = sum(1 << space(r, c) for r in range(SIZE) for c in range(SIZE - 1))


def grow(mask: int) -> int:
    """``mask`` plus every space orthogonally adjacent to it."""
    return mask | ((mask << 1) & NOT_COL0) | ((mask >> 1) & NOT_LAST_COL) | ((mask << SIZE) & FULL) | (mask >> SIZE)


def flood(seed: int, allowed: int) -> int:
    """The spaces of ``allowed`` reachable from ``seed`` by orthogonal steps inside ``allowed``."""
    region = seed & allowed
    while True:
        bigger = grow(region) & allowed
        if bigger == region:
            return region
        region = bigger


def components_of(mask: int) -> list[int]:
    """The 4-connected parts of a set of spaces, in reading order of their first space."""
    parts = []
    while mask:
        part = flood(mask & -mask, mask)
        parts.append(part)
        mask &= ~part
    return parts


SECTIONS: tuple[int, ...] = tuple(components_of(ARID_SPACES))
if len(SECTIONS) != len(components.SECTION_PRESTIGE):
    raise ValueError(f"the farm has {len(SECTIONS)} sections but {len(components.SECTION_PRESTIGE)} prestige values")
SECTION_OF_SPACE: tuple[int, ...] = tuple(
    next((i for i, s in enumerate(SECTIONS) if s >> x & 1), -1) for x in range(SPACES)
)


# ---------------------------------------------------------------- placements
def orientations(shape: tuple[tuple[int, int], ...]) -> list[tuple[tuple[int, int], ...]]:
    """The distinct orientations of a shape under rotation and reflection, in a fixed order."""
    found: list[tuple[tuple[int, int], ...]] = []
    cells = list(shape)
    for flip in (False, True):
        current = [(r, -c) for r, c in cells] if flip else cells
        for _ in range(4):
            low_r = min(r for r, _ in current)
            low_c = min(c for _, c in current)
            normal = tuple(sorted((r - low_r, c - low_c) for r, c in current))
            if normal not in found:
                found.append(normal)
            current = [(c, -r) for r, c in current]
    return found


@dataclass(frozen=True, kw_only=True)
class Placement:
    """One way to draw a building: kind, top-left of the bounding box, orientation index."""

    kind: int
    row: int
    col: int
    orientation: int
    spaces: int  # mask of covered spaces
    touching: int  # mask of spaces orthogonally adjacent to it (outside it)

    @property
    def name(self) -> str:
        return f"{components.BUILDINGS[self.kind]} at {self.row} {self.col} as {self.orientation}"


def _placements() -> list[Placement]:
    out = []
    for kind, shape in enumerate(components.SHAPES):
        allowed = FULL if components.BUILDS_ON_WATER[kind] else ARID_SPACES
        for index, cells in enumerate(orientations(shape)):
            height = 1 + max(r for r, _ in cells)
            width = 1 + max(c for _, c in cells)
            for row in range(SIZE - height + 1):
                for col in range(SIZE - width + 1):
                    mask = sum(1 << space(row + r, col + c) for r, c in cells)
                    if mask & ~allowed:
                        continue
                    out.append(
                        Placement(
                            kind=kind, row=row, col=col, orientation=index, spaces=mask, touching=grow(mask) & ~mask
                        )
                    )
    return out


PLACEMENTS: tuple[Placement, ...] = tuple(_placements())
NUM_PLACEMENTS = len(PLACEMENTS)
PLACEMENT_SPACES = np.array([p.spaces for p in PLACEMENTS], dtype=np.uint64)
PLACEMENT_KIND = np.array([p.kind for p in PLACEMENTS], dtype=np.int64)
#: Placement index of the road on each space (roads fit everywhere).
ROAD_AT: tuple[int, ...] = tuple(
    next(i for i, p in enumerate(PLACEMENTS) if p.kind == components.ROAD and p.spaces == 1 << x) for x in range(SPACES)
)


def placement_resources(index: int) -> list[int]:
    """The resources shown on the spaces a placement covers."""
    return list(PLACEMENT_RESOURCES[index])


def _placement_resources(index: int) -> tuple[int, ...]:
    icons = (SPACE_RESOURCE[x] for x in spaces_of(PLACEMENTS[index].spaces))
    return tuple(icon for icon in icons if icon is not None)


PLACEMENT_RESOURCES: tuple[tuple[int, ...], ...] = tuple(_placement_resources(i) for i in range(NUM_PLACEMENTS))
#: The sections a placement lies in (on water: none).
PLACEMENT_SECTIONS: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted({SECTION_OF_SPACE[x] for x in spaces_of(p.spaces)} - {-1})) for p in PLACEMENTS
)


# ---------------------------------------------------------------- connections
@dataclass
class Connections:
    """Which buildings of one farm are connected (adjacent, or through a chain of road spaces).

    ``reach[i]``: spaces building ``i`` is connected to (its neighbours, plus every road network it
    touches with that network's neighbours). Buildings ``i`` and ``j`` are connected when
    ``reach[i]`` meets the spaces of ``j``. Roads get ``reach`` 0: they pass connections on but are
    not buildings with a chain of their own.
    """

    reach: list[int]
    kind_spaces: list[int]  # spaces covered by each building kind
    linked: list[bool]  # building i is connected to its chain partner kind

    def connected_to_kind(self, i: int, kind: int) -> bool:
        return bool(self.reach[i] & self.kind_spaces[kind])


def connections(buildings: list[tuple[int, int]]) -> Connections:
    """Connections of a farm given its buildings as ``(kind, placement index)``."""
    kind_spaces = [0] * len(components.BUILDINGS)
    for kind, index in buildings:
        kind_spaces[kind] |= PLACEMENTS[index].spaces
    networks = [(net, grow(net)) for net in components_of(kind_spaces[components.ROAD])]
    reach = []
    linked = []
    for kind, index in buildings:
        if kind == components.ROAD:
            reach.append(0)
            linked.append(False)
            continue
        touching = PLACEMENTS[index].touching
        span = touching
        for net, around in networks:
            if net & touching:
                span |= around
        span &= ~PLACEMENTS[index].spaces
        reach.append(span)
        partner = components.CHAIN_PARTNER[kind]
        linked.append(partner is not None and bool(span & kind_spaces[partner]))
    return Connections(reach, kind_spaces, linked)


def connect(links: Connections, buildings: list[tuple[int, int]], kind: int, index: int) -> Connections:
    """``connections(buildings + [(kind, index)])``, from ``links = connections(buildings)``: a new road
    widens the reach of the buildings its network touches; a new building reaches what its roads do."""
    placement = PLACEMENTS[index]
    kind_spaces = list(links.kind_spaces)
    kind_spaces[kind] |= placement.spaces
    roads = kind_spaces[components.ROAD]
    reach = list(links.reach)
    linked = list(links.linked)  # a connection is never lost
    if kind == components.ROAD:  # no building is the partner of a road
        network = flood(placement.spaces, roads)
        around = grow(network)
        for i, (k, j) in enumerate(buildings):
            if k != components.ROAD and PLACEMENTS[j].touching & network:
                reach[i] |= around & ~PLACEMENTS[j].spaces
                partner = components.CHAIN_PARTNER[k]
                linked[i] = partner is not None and bool(reach[i] & kind_spaces[partner])
        reach.append(0)
        linked.append(False)
    else:  # the buildings whose partner is of this kind may reach it
        for i, (k, _) in enumerate(buildings):
            if components.CHAIN_PARTNER[k] == kind and not linked[i]:
                linked[i] = bool(reach[i] & placement.spaces)
        touching = placement.touching
        span = (touching | grow(flood(touching & roads, roads))) & ~placement.spaces
        reach.append(span)
        partner = components.CHAIN_PARTNER[kind]
        linked.append(partner is not None and bool(span & kind_spaces[partner]))
    return Connections(reach, kind_spaces, linked)


def max_matching(edges: list[list[int]]) -> int:
    """Size of the largest matching; ``edges[i]`` lists the partners left node ``i`` may take."""
    owner: dict[int, int] = {}

    def augment(i: int, seen: set[int]) -> bool:
        for j in edges[i]:
            if j in seen:
                continue
            seen.add(j)
            if j not in owner or augment(owner[j], seen):
                owner[j] = i
                return True
        return False

    return sum(augment(i, set()) for i in range(len(edges)))


# ---------------------------------------------------------------- fences and zones
def _field_segments(f: int) -> tuple[int, int, int, int]:
    """Segments (top, bottom, left, right) around field ``f``."""
    r, c = divmod(f, FIELDS_PER_SIDE)
    top = r * FIELDS_PER_SIDE + c
    bottom = (r + 1) * FIELDS_PER_SIDE + c
    left = NUM_HORIZONTAL + r * (FIELDS_PER_SIDE + 1) + c
    return top, bottom, left, left + 1


FIELD_SEGMENTS = tuple(_field_segments(f) for f in range(NUM_FIELDS))


#: The fields on each side of each segment: (field, field) inside the farm, (field, -1) on the border.
def _segment_fields(segment: int) -> tuple[int, int]:
    sides = [f for f in range(NUM_FIELDS) if segment in FIELD_SEGMENTS[f]]
    return (sides[0], sides[1]) if len(sides) > 1 else (sides[0], -1)


SEGMENT_FIELDS: tuple[tuple[int, int], ...] = tuple(_segment_fields(s) for s in range(NUM_SEGMENTS))
BORDER_SEGMENTS = sum(1 << s for s in range(NUM_SEGMENTS) if SEGMENT_FIELDS[s][1] < 0)
FIELD_BORDER = tuple(sum(1 << s for s in FIELD_SEGMENTS[f] if BORDER_SEGMENTS >> s & 1) for f in range(NUM_FIELDS))
HOUSE_FIELDS = sum(1 << f for f, (_, house) in enumerate(components.FIELDS) if house)
FIELD_SPACES = tuple(
    sum(
        1
        << space(
            components.FIELD_SIZE * (f // FIELDS_PER_SIDE) + dr, components.FIELD_SIZE * (f % FIELDS_PER_SIDE) + dc
        )
        for dr in range(components.FIELD_SIZE)
        for dc in range(components.FIELD_SIZE)
    )
    for f in range(NUM_FIELDS)
)
#: Internal segments as (segment, lower field, higher field).
INTERNAL_SEGMENTS = tuple((s, a, b) for s, (a, b) in enumerate(SEGMENT_FIELDS) if b >= 0)


def _zone_border_table() -> list[int]:
    index = np.arange(1 << NUM_FIELDS, dtype=np.uint64)
    table = np.zeros(1 << NUM_FIELDS, dtype=np.uint64)
    for f in range(NUM_FIELDS):
        table |= np.where((index >> np.uint64(f)) & np.uint64(1), np.uint64(FIELD_BORDER[f]), np.uint64(0))
    return [int(x) for x in table.tolist()]


#: Border segments around each set of fields (16-bit mask -> segment mask).
ZONE_BORDER: list[int] = _zone_border_table()


#: For each internal segment: which open-link bit it is. Horizontal links join field f and f + 1
#: (bit f of ``across``), vertical links join f and f + 4 (bit f of ``down``).
LINK_OF_SEGMENT: dict[int, tuple[int, int]] = {s: (0 if b == a + 1 else 1, 1 << a) for s, a, b in INTERNAL_SEGMENTS}


_ROW_BITS = (1 << (FIELDS_PER_SIDE - 1)) - 1


def open_links(fences: int) -> tuple[int, int]:
    """Fields joined to their right neighbour, and to the one below, through unfenced segments.

    Horizontal segment ``s`` of rows 1-3 joins field ``s - 4`` to the one below it; in row ``r`` the
    inner vertical segments ``NUM_HORIZONTAL + r * 5 + 1..3`` join fields ``r * 4 + 0..2`` to the right.
    """
    unfenced = ~fences
    down = (unfenced >> FIELDS_PER_SIDE) & ((1 << (NUM_FIELDS - FIELDS_PER_SIDE)) - 1)
    across = 0
    vertical = unfenced >> (NUM_HORIZONTAL + 1)
    for r in range(FIELDS_PER_SIDE):
        across |= (vertical >> (r * (FIELDS_PER_SIDE + 1)) & _ROW_BITS) << (r * FIELDS_PER_SIDE)
    return across, down


def spread(zone: int, across: int, down: int) -> int:
    side = FIELDS_PER_SIDE
    while True:
        bigger = (
            zone | ((zone & across) << 1) | ((zone >> 1) & across) | ((zone & down) << side) | ((zone >> side) & down)
        )
        if bigger == zone:
            return zone
        zone = bigger


def zone_of(field: int, fences: int) -> int:
    """The zone holding ``field``: fields joined to it through unfenced segments."""
    return spread(1 << field, *open_links(fences))


def zones(fences: int) -> list[int]:
    """The farm's zones under a set of fences, in order of their lowest field."""
    across, down = open_links(fences)
    out = []
    left = (1 << NUM_FIELDS) - 1
    while left:
        zone = spread(left & -left, across, down)
        out.append(zone)
        left &= ~zone
    return out


def is_fenced_off(zone: int, fences: int) -> bool:
    """Every segment around a zone is fenced (inner ones are, by definition of a zone)."""
    return ZONE_BORDER[zone] & ~fences == 0


def houses(zone: int) -> int:
    return (zone & HOUSE_FIELDS).bit_count()


def _closed_by(segment: int, fences: int, *, zone_a: int, across: int, down: int) -> list[int]:
    """Zones newly fenced off by drawing ``segment``, knowing the zone of its first field."""
    after = fences | 1 << segment
    a, b = SEGMENT_FIELDS[segment]
    if b < 0:
        return [zone_a] if ZONE_BORDER[zone_a] & ~fences == 1 << segment else []
    if not zone_a >> b & 1:
        return []  # already separated: the zones do not change
    direction, bit = LINK_OF_SEGMENT[segment]
    if direction == 0:
        across &= ~bit
    else:
        down &= ~bit
    part = spread(1 << a, across, down)
    if part >> b & 1:
        return []  # the zone stays whole: its border does not change
    return [z for z in (part, zone_a & ~part) if is_fenced_off(z, after)]


def closed_zones_by(segment: int, fences: int) -> list[int]:
    """The zones that drawing ``segment`` would newly fence off (empty if it closes nothing)."""
    across, down = open_links(fences)
    zone_a = spread(1 << SEGMENT_FIELDS[segment][0], across, down)
    return _closed_by(segment, fences, zone_a=zone_a, across=across, down=down)


@lru_cache(maxsize=1 << 12)
def closing_zones(fences: int, segments: int) -> tuple[tuple[int, ...], ...]:
    """For each segment of the mask ``segments``, lowest first, the zones drawing it would newly fence off
    (``closed_zones_by``), the links and zones of ``fences`` worked out once; kept (a player weighing its fences
    asks again while they stay the same)."""
    across, down = open_links(fences)
    zone_of_field: dict[int, int] = {}
    out = []
    for segment in spaces_of(segments):
        first = SEGMENT_FIELDS[segment][0]
        zone_a = zone_of_field.get(first)
        if zone_a is None:
            zone_a = zone_of_field[first] = spread(1 << first, across, down)
        out.append(tuple(_closed_by(segment, fences, zone_a=zone_a, across=across, down=down)))
    return tuple(out)


def fence_problem(segment: int, fences: int) -> str | None:
    """Why ``segment`` may not be drawn (already fenced; would fence in two houses), else None."""
    if fences >> segment & 1:
        return f"segment {segment} is already fenced"
    for zone in closed_zones_by(segment, fences):
        if houses(zone) > components.MAX_HOUSES_PER_ZONE:
            fields = ", ".join(f"F{f}" for f in spaces_of(zone & HOUSE_FIELDS))
            return f"closing this zone would fence in {houses(zone)} houses ({fields}); one per zone at most"
    return None


ALL_SEGMENTS = (1 << NUM_SEGMENTS) - 1
#: ``_BYTE_BITS[b]``: the 8 bits of byte ``b``, lowest first, as 0/1 entries of a legal-action mask.
_BYTE_BITS = np.unpackbits(np.arange(256, dtype=np.uint8)[:, None], axis=1, bitorder="little").astype(np.int8)


def segment_mask(segments: int) -> np.ndarray:
    """A set of segments as an int8 0/1 array of ``NUM_SEGMENTS`` entries (segment ``s`` at index ``s``)."""
    as_bytes = np.frombuffer(segments.to_bytes((NUM_SEGMENTS + 7) // 8, "little"), dtype=np.uint8)
    return _BYTE_BITS[as_bytes].ravel()[:NUM_SEGMENTS]
