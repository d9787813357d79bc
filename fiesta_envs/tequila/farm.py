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
  * fencing: zones (fields joined through unfenced segments), fenced-off zones, the house rule
    (``fence_problem`` rule by rule, ``legal_fence_bits`` from scratch with ``zone_blocked``: what one
    zone forbids);
  * fences drawn one by one (``Fencing``, what a sheet keeps): by planar duality a new fence fences
    something off exactly when its two corners are already joined through fences, so keeping the
    groups of joined corners tells which segments would close a loop, and what each would fence off
    changes only when a fence joins two groups or closes a loop (see the comment above ``Fencing``).
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
SEGMENT_FIELDS: tuple[tuple[int, int], ...] = tuple(
    (*sides, -1)[:2]
    for sides in ([f for f in range(NUM_FIELDS) if s in FIELD_SEGMENTS[f]] for s in range(NUM_SEGMENTS))
)
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
_LINK_OF_SEGMENT: dict[int, tuple[int, int]] = {s: (0 if b == a + 1 else 1, 1 << a) for s, a, b in INTERNAL_SEGMENTS}
#: The segment of each link: joining field f to f + 1 (across) or to f + 4 (down); -1 where none.
_SEGMENT_BETWEEN = {(a, b): s for s, a, b in INTERNAL_SEGMENTS}
_ACROSS_SEGMENT = tuple(_SEGMENT_BETWEEN.get((f, f + 1), -1) for f in range(NUM_FIELDS))
_DOWN_SEGMENT = tuple(_SEGMENT_BETWEEN.get((f, f + FIELDS_PER_SIDE), -1) for f in range(NUM_FIELDS))


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


def _spread(zone: int, across: int, down: int) -> int:
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
    return _spread(1 << field, *open_links(fences))


def zones(fences: int) -> list[int]:
    """The farm's zones under a set of fences, in order of their lowest field."""
    across, down = open_links(fences)
    out = []
    left = (1 << NUM_FIELDS) - 1
    while left:
        zone = _spread(left & -left, across, down)
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
    direction, bit = _LINK_OF_SEGMENT[segment]
    if direction == 0:
        across &= ~bit
    else:
        down &= ~bit
    part = _spread(1 << a, across, down)
    if part >> b & 1:
        return []  # the zone stays whole: its border does not change
    return [z for z in (part, zone_a & ~part) if is_fenced_off(z, after)]


def closed_zones_by(segment: int, fences: int) -> list[int]:
    """The zones that drawing ``segment`` would newly fence off (empty if it closes nothing)."""
    across, down = open_links(fences)
    zone_a = _spread(1 << SEGMENT_FIELDS[segment][0], across, down)
    return _closed_by(segment, fences, zone_a=zone_a, across=across, down=down)


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


def legal_fences(fences: int) -> list[bool]:
    """For every segment: may it be drawn now? (The rule of ``fence_problem``, all at once.)"""
    legal = legal_fence_bits(fences)
    return [bool(legal >> s & 1) for s in range(NUM_SEGMENTS)]


def legal_fence_bits(fences: int) -> int:
    """``legal_fences`` as a mask of segments (from scratch; a sheet keeps it up to date fence by fence)."""
    across, down = open_links(fences)
    blocked = 0
    for zone in zones(fences):
        blocked |= zone_blocked(zone, across & zone, down & zone, ZONE_BORDER[zone] & ~fences)
    return ~fences & ALL_SEGMENTS & ~blocked


def zone_blocked(zone: int, across: int, down: int, border_open: int) -> int:
    """Segments that may not be drawn because they would fence in two houses of ``zone``.

    ``across``/``down`` are the zone's open links and ``border_open`` its unfenced border segments.
    Only zones with two houses or more matter. Such a zone is fenced off by closing its last open
    border segment, or it is cut at a bridge so that a part with no open border segment left is
    closed: that part lies in the fields without an open border segment (``shut``), see
    ``_cuts_closing``, which only reads the links touching them.
    """
    if (zone & HOUSE_FIELDS).bit_count() <= components.MAX_HOUSES_PER_ZONE:
        return 0
    blocked = border_open if border_open & (border_open - 1) == 0 else 0  # the last one (or none left)
    shut = zone & ~_fields_beside(border_open)
    if (shut & HOUSE_FIELDS).bit_count() > components.MAX_HOUSES_PER_ZONE:
        blocked |= _cuts_closing(across & (shut | shut >> 1), down & (shut | shut >> FIELDS_PER_SIDE), shut)
    return blocked


#: ``_BORDER_BYTE_FIELDS[k][b]``: the fields beside the border segments of byte ``b`` at byte ``k`` of a
#: segment mask (every border segment runs along exactly one field).
_BORDER_BYTE_FIELDS: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        sum(1 << SEGMENT_FIELDS[8 * k + i][0] for i in range(8) if b >> i & 1 and BORDER_SEGMENTS >> (8 * k + i) & 1)
        for b in range(256)
    )
    for k in range((NUM_SEGMENTS + 7) // 8)
)


def _fields_beside(border: int) -> int:
    """The fields along a set of border segments."""
    fields = 0
    for table in _BORDER_BYTE_FIELDS:
        fields |= table[border & 0xFF]
        border >>= 8
    return fields


@lru_cache(maxsize=1 << 15)
def _cuts_closing(across: int, down: int, shut: int) -> int:
    """Inner segments of a zone whose fencing would split off and close a part with two houses,
    ``shut`` being its fields without an open border segment and ``across``/``down`` its open links
    that touch them (these decide the answer, so it is cached: fences elsewhere leave it as it was).

    A closed part lies in ``shut`` and is connected, so it lies in one piece of ``shut`` (a part of
    it joined by open links); only pieces with two houses matter, and each is looked at alone.
    """
    inner_across = across & shut & (shut >> 1)  # links between two shut fields
    inner_down = down & shut & (shut >> FIELDS_PER_SIDE)
    blocked = 0
    left = shut & HOUSE_FIELDS
    while left:
        piece = _spread(left & -left, inner_across, inner_down)
        left &= ~piece
        if houses(piece) > components.MAX_HOUSES_PER_ZONE:
            out_across = across & (piece ^ (piece >> 1))  # links from the piece to the rest of the zone
            out_down = down & (piece ^ (piece >> FIELDS_PER_SIDE))
            inside = {"across": inner_across & piece, "down": inner_down & piece}
            blocked |= _piece_cuts(piece, **inside, out_across=out_across, out_down=out_down)
    return blocked


@lru_cache(maxsize=1 << 15)
def _piece_cuts(piece: int, *, across: int, down: int, out_across: int, out_down: int) -> int:
    """Segments closing part of ``piece`` (shut fields with two houses or more, joined by the open links
    ``across``/``down``; ``out_across``/``out_down``: its open links to the rest of its zone).

    The whole piece is closed by cutting its only link out; a part of it by cutting a bridge of the
    piece when that part has no link out. Cached: fences elsewhere leave a piece as it was.
    """
    blocked = 0
    if out_across.bit_count() + out_down.bit_count() == 1:  # its only link out
        if out_across:
            blocked |= 1 << _ACROSS_SEGMENT[out_across.bit_length() - 1]
        else:
            blocked |= 1 << _DOWN_SEGMENT[out_down.bit_length() - 1]
    side = FIELDS_PER_SIDE
    linked_out = piece & (out_across | out_across << 1 | out_down | out_down << side)
    core = piece & ~linked_out  # a closed part lies here, with two houses: it is cut off by a link touching it
    if houses(core) <= components.MAX_HOUSES_PER_ZONE:
        return blocked
    square = across & down & (down >> 1) & (across >> side)  # four open links around the corner below f
    maybe_across = across & ~(square | square << side) & (core | core >> 1)  # a link on such a square is no bridge
    maybe_down = down & ~(square | square << 1) & (core | core >> side)
    for links, step, segment_of in ((maybe_across, 1, _ACROSS_SEGMENT), (maybe_down, side, _DOWN_SEGMENT)):
        for f in spaces_of(links):
            bit = 1 << f
            part = _spread(bit, across & ~bit, down) if step == 1 else _spread(bit, across, down & ~bit)
            if part >> (f + step) & 1:
                continue  # not a bridge: the piece stays whole
            for closed in (part, piece & ~part):
                if not closed & linked_out and houses(closed) > components.MAX_HOUSES_PER_ZONE:
                    blocked |= 1 << segment_of[f]
    return blocked


def cut_link(segment: int, across: int, down: int) -> tuple[int, int]:
    """The open links (``open_links``) once inner ``segment`` is fenced too."""
    direction, bit = _LINK_OF_SEGMENT[segment]
    return (across & ~bit, down) if direction == 0 else (across, down & ~bit)


def _detours(segment: int) -> tuple[tuple[int, int], ...]:
    """The other three links of each square of fields an inner segment lies on, as (across, down) bits."""
    a, b = SEGMENT_FIELDS[segment]
    side = FIELDS_PER_SIDE
    out = []
    if b == a + 1:  # between a and its right neighbour: the squares below and above
        if a + side < NUM_FIELDS:
            out.append((1 << (a + side), 1 << a | 1 << (a + 1)))
        if a >= side:
            out.append((1 << (a - side), 1 << (a - side) | 1 << (a - side + 1)))
    elif b >= 0:  # between a and the field below: the squares right and left
        if a % side + 1 < side:
            out.append((1 << a | 1 << (a + side), 1 << (a + 1)))
        if a % side:
            out.append((1 << (a - 1) | 1 << (a - 1 + side), 1 << (a - 1)))
    return tuple(out)


_DETOURS = tuple(_detours(s) for s in range(NUM_SEGMENTS))


def split_zone(zone: int, segment: int, across: int, down: int) -> list[int]:
    """The zones ``zone`` becomes once ``segment`` is fenced (``across``/``down``: the links after it),
    in order of their lowest field: itself, or two parts when the segment was a bridge inside it."""
    a, b = SEGMENT_FIELDS[segment]
    if b < 0 or not zone >> a & 1 or not zone >> b & 1:
        return [zone]
    for need_across, need_down in _DETOURS[segment]:
        if across & need_across == need_across and down & need_down == need_down:
            return [zone]  # the fields stay joined around a square
    part = _spread(1 << a, across, down)
    if part >> b & 1:
        return [zone]
    rest = zone & ~part
    return [part, rest] if part & -part < rest & -rest else [rest, part]


# ---------------------------------------------------------------- fences drawn one by one
# Corners and duality. The fields' corners form a 5 x 5 grid (corner ``i * 5 + j``: row i, column j)
# and every segment joins two corners. Think of the fields plus the outside of the farm as the nodes of
# a graph whose edges are the unfenced segments (a border segment joins its field to the outside): a
# drawn segment newly fences off part of a zone exactly when it is a bridge of that graph (the part cut
# off from the outside loses its last open way out). By planar duality (cycles of a plane graph are the
# minimal cuts of its dual), a segment is such a bridge exactly when its two corners are already joined
# through drawn fences: with it, those fences form a closed loop around the part. Corners only ever get
# joined as fences are drawn, so ``Fencing`` keeps the groups of joined corners (a union-find forest)
# and the segments that would close a loop (``closing``) with a few bit operations per fence.
CORNERS_PER_SIDE = FIELDS_PER_SIDE + 1
NUM_CORNERS = CORNERS_PER_SIDE * CORNERS_PER_SIDE


def _segment_corners(segment: int) -> tuple[int, int]:
    """The two corners a segment joins (see the numbering of segments in the module docstring)."""
    if segment < NUM_HORIZONTAL:  # the top edge of field (r, c): corners (r, c) and (r, c + 1)
        r, c = divmod(segment, FIELDS_PER_SIDE)
        return r * CORNERS_PER_SIDE + c, r * CORNERS_PER_SIDE + c + 1
    r, c = divmod(segment - NUM_HORIZONTAL, CORNERS_PER_SIDE)  # the left edge of (r, c): (r, c), (r + 1, c)
    return r * CORNERS_PER_SIDE + c, (r + 1) * CORNERS_PER_SIDE + c


SEGMENT_CORNERS: tuple[tuple[int, int], ...] = tuple(_segment_corners(s) for s in range(NUM_SEGMENTS))
#: The segments at each corner.
CORNER_SEGMENTS: tuple[int, ...] = tuple(
    sum(1 << s for s in range(NUM_SEGMENTS) if c in SEGMENT_CORNERS[s]) for c in range(NUM_CORNERS)
)


def _bytes_table(per_bit: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """``table[k][b]``: the union of ``per_bit[8 * k + i]`` over the bits ``i`` set in byte ``b`` (a mask
    is then looked up a byte at a time instead of bit by bit, as in ``_fields_beside``)."""
    tables = []
    for k in range((len(per_bit) + 7) // 8):
        row = []
        for b in range(256):
            union = 0
            for i in range(min(8, len(per_bit) - 8 * k)):
                if b >> i & 1:
                    union |= per_bit[8 * k + i]
            row.append(union)
        tables.append(tuple(row))
    return tuple(tables)


_FIELD_BYTE_SEGMENTS = _bytes_table(tuple(sum(1 << s for s in FIELD_SEGMENTS[f]) for f in range(NUM_FIELDS)))


def zone_segments(zone: int) -> int:
    """The segments around and inside a set of fields. Of a zone, the unfenced ones are its own (the
    inner links and open border segments): an unfenced segment between two fields joins them."""
    return _FIELD_BYTE_SEGMENTS[0][zone & 0xFF] | _FIELD_BYTE_SEGMENTS[1][zone >> 8]


def _keep_links(segment: int) -> tuple[int, int]:
    """The masks of ``across`` and ``down`` links that stay open once ``segment`` is fenced: all but its
    own (a border segment joins no two fields). ``across & keep_across`` is ``cut_link`` without a branch."""
    if segment not in _LINK_OF_SEGMENT:
        return -1, -1
    direction, bit = _LINK_OF_SEGMENT[segment]
    return (~bit, -1) if direction == 0 else (-1, ~bit)


_KEEP_LINKS = tuple(_keep_links(s) for s in range(NUM_SEGMENTS))


def _closed_side(seed: int, across: int, down: int, fences: int) -> int:
    """``_spread(seed, across, down)`` if it has no open border segment; 0 as soon as it reaches one."""
    side = FIELDS_PER_SIDE
    zone = seed
    while not ZONE_BORDER[zone] & ~fences:
        bigger = (
            zone | ((zone & across) << 1) | ((zone >> 1) & across) | ((zone & down) << side) | ((zone >> side) & down)
        )
        if bigger == zone:
            return zone
        zone = bigger
    return 0


def _lowest_first(a: int, b: int) -> list[int]:
    """Two disjoint zones in order of their lowest field."""
    return [a, b] if a & -a < b & -b else [b, a]


class Fencing:
    """What follows from a farm's fences, kept up to date fence by fence (``draw``), with the same
    answers as the functions above (``zones``, ``legal_fence_bits``) give from scratch.

    * ``across``/``down``: the open links (``open_links``); ``zones``: the zones in order of their
      lowest field (``zones``).
    * ``parent``/``corners``/``touching``: the groups of corners joined through fences, as a union-find
      forest: each group is a tree of ``parent`` links whose root ``g`` stands for it, its corners are
      ``corners[g]`` and the segments at them ``touching[g]``.
    * ``closing``: the unfenced segments whose corners are joined: the ones that would fence off
      something (see the duality above); ``region[t]``: for such a segment ``t`` in an open zone, the
      fields it would fence off (kept only while its zone is open and holds two houses or more: the
      only zones where it matters, as zones only ever split and close).
    * ``blocked``: the unfenced segments the house rule forbids (see ``_blocks``).
    """

    __slots__ = ("across", "blocked", "closing", "corners", "down", "fences", "parent", "region", "touching", "zones")

    def __init__(self, fences: int = 0) -> None:
        """The facts of a set of fences, from scratch."""
        self.fences = fences
        self.across, self.down = open_links(fences)
        self.zones = zones(fences)
        self.parent = list(range(NUM_CORNERS))
        self.corners = [1 << c for c in range(NUM_CORNERS)]
        self.touching = list(CORNER_SEGMENTS)
        for s in spaces_of(fences):
            u, v = SEGMENT_CORNERS[s]
            if self._group(u) != self._group(v):
                self._join(u, v)
        self.closing = sum(
            1 << s
            for s in range(NUM_SEGMENTS)
            if not fences >> s & 1 and len({self._group(c) for c in SEGMENT_CORNERS[s]}) == 1
        )
        self.region = [0] * NUM_SEGMENTS
        self.blocked = 0
        for zone in self.zones:
            if self._regions_kept(zone):
                for t in spaces_of(self.closing & zone_segments(zone)):
                    self.region[t] = self._closed_part(t, zone)
            self.blocked |= self._blocks(zone)

    def copy(self) -> Fencing:
        other = Fencing.__new__(Fencing)
        other.fences, other.across, other.down = self.fences, self.across, self.down
        other.zones, other.parent, other.corners = list(self.zones), list(self.parent), list(self.corners)
        other.touching, other.region = list(self.touching), list(self.region)
        other.closing, other.blocked = self.closing, self.blocked
        return other

    @property
    def legal(self) -> int:
        """The segments that may be drawn (``legal_fence_bits``)."""
        return ~self.fences & ALL_SEGMENTS & ~self.blocked

    def _group(self, corner: int) -> int:
        """The group of a corner: follow ``parent`` to the corner that stands for it."""
        parent = self.parent
        while parent[corner] != corner:
            corner = parent[corner]
        return corner

    def _join(self, u: int, v: int) -> int:
        """Join the groups of corners ``u`` and ``v`` (the smaller one hangs under the larger, so the
        paths to the corner standing for a group stay short); returns the segments between the two
        groups (the unfenced ones among them close a loop from now on)."""
        parent, corners, touching = self.parent, self.corners, self.touching
        keep, gone = u, v
        while parent[keep] != keep:  # the roots (as in ``_group``)
            keep = parent[keep]
        while parent[gone] != gone:
            gone = parent[gone]
        if corners[keep].bit_count() < corners[gone].bit_count():
            keep, gone = gone, keep
        parent[gone] = keep
        corners[keep] |= corners[gone]
        between = touching[keep] & touching[gone]
        touching[keep] |= touching[gone]
        return between

    def _regions_kept(self, zone: int) -> bool:
        """Does ``region`` hold the parts its closing segments would fence off (see the class doc)?"""
        return (zone & HOUSE_FIELDS).bit_count() > components.MAX_HOUSES_PER_ZONE and ZONE_BORDER[
            zone
        ] & ~self.fences != 0

    def _closed_part(self, t: int, zone: int) -> int:
        """The fields closing segment ``t`` of the open ``zone`` would fence off: the zone if ``t`` is its
        last open border segment, else the side of ``t`` with no open border segment left."""
        a, b = SEGMENT_FIELDS[t]
        if b < 0:
            return zone
        keep_across, keep_down = _KEEP_LINKS[t]
        across, down = self.across & keep_across, self.down & keep_down
        # one side reaches the open border, the other is closed: look from a, stop if a is the open one
        return _closed_side(1 << a, across, down, self.fences) or _spread(1 << b, across, down)

    def _blocks(self, zone: int) -> int:
        """The unfenced segments of ``zone`` the house rule forbids (``zone_blocked``): in an open zone,
        the closing segments whose region holds two houses or more."""
        if (zone & HOUSE_FIELDS).bit_count() <= components.MAX_HOUSES_PER_ZONE:
            return 0
        if ZONE_BORDER[zone] & ~self.fences == 0:  # a fenced-off zone with two houses: only loaded positions
            return zone_blocked(zone, self.across & zone, self.down & zone, 0)
        blocked = 0
        closing = self.closing & zone_segments(zone)
        region = self.region
        while closing:
            low = closing & -closing
            t = low.bit_length() - 1
            if (region[t] & HOUSE_FIELDS).bit_count() > components.MAX_HOUSES_PER_ZONE:
                blocked |= low
            closing ^= low
        return blocked

    def draw(self, segment: int) -> list[int]:
        """Draw an unfenced segment; returns the zone it touches or its two parts (if it split): the
        only zones whose border changed.

        Only the zone of the segment changes, and of its forbidden segments only these: the ones that
        start to close a loop (the new segment joined two groups of corners), or, when the new segment
        fences off a part, the ones whose region held that part and the ones inside the part. (A fence
        that closes nothing leaves every region as it was: it is no bridge, so any bridge still cuts off
        the same fields.)
        """
        bit = 1 << segment
        fences = self.fences = self.fences | bit
        a, b = SEGMENT_FIELDS[segment]
        zone_list = self.zones
        i = 0
        while not zone_list[i] >> a & 1:
            i += 1
        zone = zone_list[i]
        keep_across, keep_down = _KEEP_LINKS[segment]  # an inner segment cuts a link
        self.across &= keep_across
        self.down &= keep_down
        houses = (zone & HOUSE_FIELDS).bit_count()
        kept = houses > components.MAX_HOUSES_PER_ZONE and ZONE_BORDER[zone] & ~(fences ^ bit)  # regions kept here
        blocked = self.blocked & ~bit
        region = self.region
        if self.closing & bit:  # its corners were joined: it closes a loop and fences off its region
            self.closing ^= bit
            if kept:
                closed = region[segment]
                rest = zone & ~closed
                parts = _lowest_first(closed, rest) if rest else [zone]
                # the closed part is a fenced-off zone now (with two houses only after an illegal fence)
                blocked = blocked & ~zone_segments(closed) | self._blocks(closed)
                around = self.closing & zone_segments(rest)
                while around:  # regions are nested or apart: the closed part leaves those holding it
                    low = around & -around
                    t = low.bit_length() - 1
                    region[t] &= ~closed
                    if (region[t] & HOUSE_FIELDS).bit_count() <= components.MAX_HOUSES_PER_ZONE:
                        blocked &= ~low
                    around ^= low
            else:  # no house rule here, or a fenced-off zone already (then with two houses: loaded)
                parts = split_zone(zone, segment, self.across, self.down)
                if houses > components.MAX_HOUSES_PER_ZONE:
                    blocked &= ~zone_segments(zone)
                    for part in parts:
                        blocked |= self._blocks(part)
        else:  # two groups of corners join: the segments between them close a loop from now on
            newly = self._join(*SEGMENT_CORNERS[segment]) & ~fences
            self.closing |= newly
            parts = split_zone(zone, segment, self.across, self.down) if b >= 0 else [zone]
            if kept:  # the parts are still open (nothing closed): newly closing segments get their region
                for part in parts:
                    if newly and (part & HOUSE_FIELDS).bit_count() > components.MAX_HOUSES_PER_ZONE:
                        for t in spaces_of(newly & zone_segments(part)):
                            region[t] = self._closed_part(t, part)
                            if (region[t] & HOUSE_FIELDS).bit_count() > components.MAX_HOUSES_PER_ZONE:
                                blocked |= 1 << t
            elif houses > components.MAX_HOUSES_PER_ZONE:  # a fenced-off zone with two houses (loaded)
                blocked &= ~zone_segments(zone)
                for part in parts:
                    blocked |= self._blocks(part)
        if len(parts) > 1:  # the first part takes the zone's place, the second goes in order
            zone_list[i] = parts[0]
            low = parts[1] & -parts[1]
            j = i + 1
            while j < len(zone_list) and zone_list[j] & -zone_list[j] < low:
                j += 1
            zone_list.insert(j, parts[1])
        self.blocked = blocked
        return parts
