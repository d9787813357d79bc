"""What follows from a farm's fences, computed straight from the rules by a plain flood fill: the reference
for ``fencing.Fencing`` (the same answers, kept fence by fence), which a sheet uses instead when the
speed-ups are off (``tequila.speedups``).

Zones are found by walking from field to field through unfenced segments; a segment is forbidden when, drawn,
it would leave a newly fenced-off zone (one whose every border segment is fenced) holding two houses or more.
"""

from __future__ import annotations

from fiesta_envs.tequila import components
from fiesta_envs.tequila.farm import (
    ALL_SEGMENTS,
    FIELD_SEGMENTS,
    HOUSE_FIELDS,
    NUM_FIELDS,
    NUM_SEGMENTS,
    SEGMENT_FIELDS,
)


def flood_zones(fences: int) -> list[int]:
    """The zones (fields joined through unfenced segments) as field masks, in order of their lowest field."""
    found: list[int] = []
    seen = 0
    for first in range(NUM_FIELDS):
        if seen >> first & 1:
            continue
        zone, stack = 0, [first]
        while stack:
            f = stack.pop()
            if zone >> f & 1:
                continue
            zone |= 1 << f
            for s in FIELD_SEGMENTS[f]:
                a, b = SEGMENT_FIELDS[s]
                if b >= 0 and not fences >> s & 1:
                    stack.append(b if a == f else a)
        found.append(zone)
        seen |= zone
    return found


def fenced_off(zone: int, fences: int) -> bool:
    """Is every segment around ``zone`` fenced (its border, and every segment to a field outside it)?"""
    for f in range(NUM_FIELDS):
        if zone >> f & 1:
            for s in FIELD_SEGMENTS[f]:
                a, b = SEGMENT_FIELDS[s]
                inside = b >= 0 and zone >> a & 1 and zone >> b & 1
                if not inside and not fences >> s & 1:
                    return False
    return True


def forbidden(fences: int) -> int:
    """The unfenced segments that would fence off a new zone with two houses or more (the house rule)."""
    before = {zone for zone in flood_zones(fences) if fenced_off(zone, fences)}
    blocked = 0
    for s in range(NUM_SEGMENTS):
        if fences >> s & 1:
            continue
        after = fences | 1 << s
        for zone in flood_zones(after):
            houses = (zone & HOUSE_FIELDS).bit_count()
            if houses > components.MAX_HOUSES_PER_ZONE and zone not in before and fenced_off(zone, after):
                blocked |= 1 << s
    return blocked


class FloodFillFencing:
    """The facts ``fencing.Fencing`` keeps that a sheet reads (``fences``, ``zones``, ``blocked``,
    ``legal``, ``draw``), all computed afresh from the fences at every fence."""

    __slots__ = ("blocked", "fences", "zones")

    def __init__(self, fences: int = 0) -> None:
        self.fences = fences
        self.zones = flood_zones(fences)
        self.blocked = forbidden(fences)

    def copy(self) -> FloodFillFencing:
        return FloodFillFencing(self.fences)

    @property
    def legal(self) -> int:
        """The segments that may be drawn."""
        return ~self.fences & ALL_SEGMENTS & ~self.blocked

    def draw(self, segment: int) -> list[int]:
        """Draw an unfenced segment; returns the zones holding a field beside it (its zone, or the two parts
        it was cut into), in order of their lowest field. ``zones`` stays the same list (a sheet shares it)."""
        self.fences |= 1 << segment
        self.zones[:] = flood_zones(self.fences)
        self.blocked = forbidden(self.fences)
        beside = [f for f in SEGMENT_FIELDS[segment] if f >= 0]
        return [zone for zone in self.zones if any(zone >> f & 1 for f in beside)]
