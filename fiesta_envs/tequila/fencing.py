"""The legal fences of a farm, fast: from scratch (``legal_fence_bits``) and kept fence by fence (``Fencing``,
what a sheet keeps).

* from scratch: the house rule zone by zone (``zone_blocked``), reading only the fields and links that can
  matter, with the answers cached by those (fences elsewhere leave them as they were);
* fence by fence: by planar duality a new fence fences something off exactly when its two corners are
  already joined through fences, so keeping the groups of joined corners (a union-find forest) tells which
  segments would close a loop, and what each would fence off changes only when a fence joins two groups or
  closes a loop (see the comment above ``Fencing``).

Both give the answers of the rules as ``farm`` states them (``farm.fence_problem``, ``farm.zones``);
``tequila.flood_fill.FloodFillFencing`` computes the same facts by a plain flood fill, and a sheet uses it
instead of ``Fencing`` when the speed-ups are off (``tequila.speedups``).
"""

from __future__ import annotations

from functools import lru_cache

from fiesta_envs.tequila import components
from fiesta_envs.tequila.farm import (
    ALL_SEGMENTS,
    BORDER_SEGMENTS,
    FIELD_SEGMENTS,
    FIELDS_PER_SIDE,
    HOUSE_FIELDS,
    INTERNAL_SEGMENTS,
    LINK_OF_SEGMENT,
    NUM_FIELDS,
    NUM_HORIZONTAL,
    NUM_SEGMENTS,
    SEGMENT_FIELDS,
    ZONE_BORDER,
    houses,
    open_links,
    spaces_of,
    spread,
    zones,
)

#: The segment of each link: joining field f to f + 1 (across) or to f + 4 (down); -1 where none.
_SEGMENT_BETWEEN = {(a, b): s for s, a, b in INTERNAL_SEGMENTS}
_ACROSS_SEGMENT = tuple(_SEGMENT_BETWEEN.get((f, f + 1), -1) for f in range(NUM_FIELDS))
_DOWN_SEGMENT = tuple(_SEGMENT_BETWEEN.get((f, f + FIELDS_PER_SIDE), -1) for f in range(NUM_FIELDS))


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
        piece = spread(left & -left, inner_across, inner_down)
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
            part = spread(bit, across & ~bit, down) if step == 1 else spread(bit, across, down & ~bit)
            if part >> (f + step) & 1:
                continue  # not a bridge: the piece stays whole
            for closed in (part, piece & ~part):
                if not closed & linked_out and houses(closed) > components.MAX_HOUSES_PER_ZONE:
                    blocked |= 1 << segment_of[f]
    return blocked


def cut_link(segment: int, across: int, down: int) -> tuple[int, int]:
    """The open links (``open_links``) once inner ``segment`` is fenced too."""
    direction, bit = LINK_OF_SEGMENT[segment]
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
    part = spread(1 << a, across, down)
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
    """The two corners a segment joins (see the numbering of segments in ``farm``)."""
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
    if segment not in LINK_OF_SEGMENT:
        return -1, -1
    direction, bit = LINK_OF_SEGMENT[segment]
    return (~bit, -1) if direction == 0 else (-1, ~bit)


_KEEP_LINKS = tuple(_keep_links(s) for s in range(NUM_SEGMENTS))


def _closed_side(seed: int, across: int, down: int, fences: int) -> int:
    """``spread(seed, across, down)`` if it has no open border segment; 0 as soon as it reaches one."""
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
        return _closed_side(1 << a, across, down, self.fences) or spread(1 << b, across, down)

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
