"""Tequila farm geometry: sections, placements, connections, fences, zones and the house rule."""

from __future__ import annotations

import numpy as np
import pytest
from tequila_positions import placement

from fiesta_envs.tequila import components as C
from fiesta_envs.tequila import farm as F


def spaces(*cells: tuple[int, int]) -> int:
    return sum(1 << F.space(r, c) for r, c in cells)


# ---------------------------------------------------------------- terrain and sections
def test_sections_are_the_arid_areas_cut_by_water_in_reading_order():
    assert [F.bit_count(s) for s in F.SECTIONS] == [8, 8, 2, 4, 7, 8, 4]
    assert F.SECTIONS[2] == spaces((2, 7), (3, 7))
    assert F.SECTIONS[3] == spaces((3, 2), (3, 3), (4, 2), (4, 3))
    assert F.SECTION_OF_SPACE[F.space(0, 3)] == -1  # water
    assert F.SECTION_OF_SPACE[F.space(7, 4)] == 6


def test_resource_icons_read_from_the_grid():
    assert F.SPACE_RESOURCE[F.space(0, 1)] == C.AGAVE
    assert F.SPACE_RESOURCE[F.space(7, 0)] == C.WATER
    assert F.SPACE_RESOURCE[F.space(1, 5)] == C.WORKER
    assert F.SPACE_RESOURCE[F.space(4, 2)] == C.DONKEY
    assert F.SPACE_RESOURCE[F.space(2, 7)] == C.BARREL
    assert F.SPACE_RESOURCE[F.space(0, 0)] is None
    assert F.bit_count(F.WATER_SPACES) == 64 - 41


# ---------------------------------------------------------------- shapes and placements
@pytest.mark.parametrize(
    ("kind", "size", "orientations"),
    [(C.ROAD, 1, 1), (C.AGAVE_FIELD, 4, 1), (C.KILN, 2, 2), (C.DISTILLER, 3, 4), (C.CASK, 3, 2), (C.SHOP, 4, 4)],
)
def test_each_shape_has_its_size_and_distinct_orientations(kind, size, orientations):
    found = F.orientations(C.SHAPES[kind])
    assert len(found) == orientations
    assert all(len(cells) == size for cells in found)
    kinds = [p for p in F.PLACEMENTS if p.kind == kind]
    assert {p.orientation for p in kinds} == set(range(orientations))
    assert all(F.bit_count(p.spaces) == size for p in kinds)


def test_only_roads_are_placed_on_water_and_nothing_spans_sections():
    for p in F.PLACEMENTS:
        if p.kind == C.ROAD:
            continue
        assert p.spaces & F.WATER_SPACES == 0, p.name
        assert len({F.SECTION_OF_SPACE[x] for x in F.spaces_of(p.spaces)}) == 1, p.name
    assert sum(p.kind == C.ROAD for p in F.PLACEMENTS) == 64
    assert F.PLACEMENTS[F.ROAD_AT[F.space(0, 3)]].spaces == spaces((0, 3))


def test_placement_names_are_the_top_left_of_the_bounding_box():
    kiln = F.PLACEMENTS[placement("kiln at 2 7 as 1")]
    assert kiln.spaces == spaces((2, 7), (3, 7))
    shop = F.PLACEMENTS[placement("shop at 4 4 as 2")]
    assert shop.spaces == spaces((4, 5), (5, 4), (5, 5), (5, 6))
    with pytest.raises(StopIteration):
        placement("kiln at 0 2 as 0")  # (0, 3) is water


def test_placement_count_matches_the_rulings():
    assert 185 <= F.NUM_PLACEMENTS <= 195


# ---------------------------------------------------------------- connections
def build_list(*names: str) -> list[tuple[int, int]]:
    return [(F.PLACEMENTS[placement(n)].kind, placement(n)) for n in names]


def test_adjacent_buildings_are_connected():
    links = F.connections(build_list("agave at 0 0 as 0", "kiln at 2 0 as 0"))
    assert links.linked == [False, True]


def test_diagonal_buildings_are_not_connected():
    links = F.connections(build_list("agave at 0 0 as 0", "kiln at 2 0 as 0", "distiller at 4 5 as 0"))
    assert links.linked == [False, True, False]


def test_roads_connect_through_chains_even_on_water():
    # agave field in section 0, kiln at 2 4-5 (section 1): roads on water at 0 3 and 1 3 join them
    names = ["agave at 0 1 as 0", "kiln at 2 4 as 0"]
    assert F.connections(build_list(*names)).linked == [False, False]
    links = F.connections(build_list(*names, "road at 1 3 as 0", "road at 2 3 as 0"))
    assert links.linked[1]
    links = F.connections(build_list(*names, "road at 2 3 as 0"))  # touches the kiln only
    assert not links.linked[1]


def test_non_road_buildings_do_not_pass_a_connection_on():
    # agave field - kiln - kiln: the far kiln touches only the near kiln
    links = F.connections(build_list("agave at 0 0 as 0", "kiln at 2 0 as 0", "kiln at 0 2 as 1"))
    assert links.linked == [False, True, True]  # (0,2) touches the field at (0,1)
    # a distiller joined by roads to the agave field, which touches a kiln: not joined to the kiln
    names = ["agave at 0 0 as 0", "kiln at 2 0 as 0", "distiller at 0 4 as 0", "road at 0 2 as 0", "road at 0 3 as 0"]
    links = F.connections(build_list(*names))
    assert links.linked[1] and not links.linked[2]
    assert links.connected_to_kind(2, C.AGAVE_FIELD) and not links.connected_to_kind(2, C.KILN)


def test_max_matching_counts_different_partners():
    assert F.max_matching([[0], [0]]) == 1
    assert F.max_matching([[0, 1], [0]]) == 2
    assert F.max_matching([[], [1]]) == 1


# ---------------------------------------------------------------- fences and zones
def fenced(*segments: int) -> int:
    return sum(1 << s for s in segments)


def test_segment_numbering_follows_the_rulings():
    assert F.NUM_SEGMENTS == 40
    assert F.SEGMENT_FIELDS[0] == (0, -1)  # top edge of F0
    assert F.SEGMENT_FIELDS[4] == (0, 4)  # between F0 and F4
    assert F.SEGMENT_FIELDS[20] == (0, -1)  # left edge of F0
    assert F.SEGMENT_FIELDS[21] == (0, 1)  # between F0 and F1
    assert F.SEGMENT_FIELDS[39] == (15, -1)  # right edge of F15
    assert F.FIELD_SEGMENTS[5] == (5, 9, 26, 27)


def test_a_zone_is_fenced_off_when_its_border_is_fenced():
    corner = fenced(0, 20, 21, 4)
    assert F.zone_of(0, corner) == 1
    assert F.is_fenced_off(1, corner)
    assert not F.is_fenced_off(F.zone_of(0, fenced(0, 20, 21)), fenced(0, 20, 21))  # open towards F4
    # F0 + F1 as one zone: top 0 1, left 20, right 22, bottom 4 5
    pair = fenced(0, 1, 20, 22, 4, 5)
    assert F.zone_of(0, pair) == 0b11
    assert F.is_fenced_off(0b11, pair)


def test_closing_a_zone_with_two_houses_is_illegal():
    # F0 (house) + F1 + F2 (house), open to F3 only through segment 23: drawing 23 would close them
    fences = fenced(0, 1, 2, 20, 4, 5, 6)
    assert F.zone_of(0, fences) & 0b111 == 0b111 and F.zone_of(0, fences) & 0b1000
    assert F.closed_zones_by(23, fences) == [0b111]
    assert F.fence_problem(23, fences) == "closing this zone would fence in 2 houses (F0, F2); one per zone at most"
    assert not F.legal_fences(fences)[23]
    # with F1|F2 fenced first, the zones F0-F1 and F2 hold one house each: 23 is legal
    assert F.fence_problem(23, fences | fenced(22)) is None


def test_house_rule_checks_both_sides_of_an_internal_segment():
    # zone F0 F1 F2 F3 F7, fenced all round except F0's left edge (segment 20)
    fences = fenced(0, 1, 2, 3, 24, 29, 4, 5, 6, 11, 28)
    assert F.zone_of(0, fences) == 0b10001111
    # 21 splits off F0 (still open): the other side F1 F2 F3 F7 is closed with houses F2 and F7
    assert F.closed_zones_by(21, fences) == [0b10001110]
    assert "2 houses (F2, F7)" in F.fence_problem(21, fences)
    assert "2 houses (F2, F7)" in F.fence_problem(22, fences)
    # 23 closes F3 F7 only: one house, legal
    assert F.closed_zones_by(23, fences) == [0b10001000]
    assert F.fence_problem(23, fences) is None


def test_closing_a_two_house_zone_by_its_border_is_refused_with_a_reason():
    # zone F0 + F1 + F2 (houses in F0, F2): fence its border last segment
    border = fenced(0, 1, 2, 20, 23, 4, 5)
    problem = F.fence_problem(6, border)
    assert problem is not None and "2 houses" in problem and "F0" in problem and "F2" in problem
    # without the house in F2 (a zone F0 + F1 only) the same kind of closure is legal
    assert F.fence_problem(5, fenced(0, 1, 20, 22, 4)) is None


def naive_problem(segment: int, fences: int) -> bool:
    """The house rule straight from its definition: after drawing, any newly closed zone with 2+ houses."""
    if fences >> segment & 1:
        return True
    after = fences | 1 << segment
    before_closed = {z for z in F.zones(fences) if F.is_fenced_off(z, fences)}
    for zone in F.zones(after):
        if F.is_fenced_off(zone, after) and zone not in before_closed and F.houses(zone) >= 2:
            return True
    return False


def test_fence_legality_matches_the_definition_on_random_fences():
    rng = np.random.default_rng(5)
    for _ in range(400):
        fences = 0
        for s in rng.permutation(40)[: rng.integers(0, 40)]:
            if not naive_problem(int(s), fences):
                fences |= 1 << int(s)
        fast = F.legal_fences(fences)
        for s in range(40):
            assert fast[s] == (not naive_problem(s, fences)), (s, fences)
            assert (F.fence_problem(s, fences) is None) == fast[s]


def test_open_links_follow_the_segments_between_fields():
    """A field is joined to its right (lower) neighbour exactly when the segment between them is unfenced."""
    rng = np.random.default_rng(11)
    for fences in [0, (1 << F.NUM_SEGMENTS) - 1, *(int(x) for x in rng.integers(0, 1 << F.NUM_SEGMENTS, 300))]:
        across, down = F.open_links(fences)
        for f in range(F.NUM_FIELDS):
            r, c = divmod(f, F.FIELDS_PER_SIDE)
            right_segment = F.FIELD_SEGMENTS[f][3]
            bottom_segment = F.FIELD_SEGMENTS[f][1]
            assert across >> f & 1 == (c < F.FIELDS_PER_SIDE - 1 and not fences >> right_segment & 1)
            assert down >> f & 1 == (r < F.FIELDS_PER_SIDE - 1 and not fences >> bottom_segment & 1)


def test_fence_legality_matches_the_definition_on_arbitrary_fences():
    """Also on fence sets play cannot reach (zones with two houses already closed), as loaded states may hold."""
    rng = np.random.default_rng(12)
    for _ in range(300):
        fences = int(rng.integers(0, 1 << F.NUM_SEGMENTS))
        fast = F.legal_fences(fences)
        for s in range(F.NUM_SEGMENTS):
            assert (F.fence_problem(s, fences) is None) == fast[s], (s, fences)
