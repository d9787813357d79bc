"""Tequila farm geometry: sections, placements, connections, fences, zones and the house rule."""

from __future__ import annotations

import numpy as np
import pytest
from tequila_positions import placement

from fiesta_envs.tequila import components, farm
from fiesta_envs.tequila import fencing as fence_facts


def spaces(*cells: tuple[int, int]) -> int:
    return sum(1 << farm.space(r, c) for r, c in cells)


# ---------------------------------------------------------------- terrain and sections
def test_sections_are_the_arid_areas_cut_by_water_in_reading_order():
    assert [farm.bit_count(s) for s in farm.SECTIONS] == [8, 8, 2, 4, 7, 8, 4]
    assert farm.SECTIONS[2] == spaces((2, 7), (3, 7))
    assert farm.SECTIONS[3] == spaces((3, 2), (3, 3), (4, 2), (4, 3))
    assert farm.SECTION_OF_SPACE[farm.space(0, 3)] == -1  # water
    assert farm.SECTION_OF_SPACE[farm.space(7, 4)] == 6


def test_resource_icons_read_from_the_grid():
    assert farm.SPACE_RESOURCE[farm.space(0, 1)] == components.AGAVE
    assert farm.SPACE_RESOURCE[farm.space(7, 0)] == components.WATER
    assert farm.SPACE_RESOURCE[farm.space(1, 5)] == components.WORKER
    assert farm.SPACE_RESOURCE[farm.space(4, 2)] == components.DONKEY
    assert farm.SPACE_RESOURCE[farm.space(2, 7)] == components.BARREL
    assert farm.SPACE_RESOURCE[farm.space(0, 0)] is None
    assert farm.bit_count(farm.WATER_SPACES) == 64 - 41


# ---------------------------------------------------------------- shapes and placements
@pytest.mark.parametrize(
    ("kind", "size", "orientations"),
    [
        (components.ROAD, 1, 1),
        (components.AGAVE_FIELD, 4, 1),
        (components.KILN, 2, 2),
        (components.DISTILLER, 3, 4),
        (components.CASK, 3, 2),
        (components.SHOP, 4, 4),
    ],
)
def test_each_shape_has_its_size_and_distinct_orientations(kind, size, orientations):
    found = farm.orientations(components.SHAPES[kind])
    assert len(found) == orientations
    assert all(len(cells) == size for cells in found)
    kinds = [p for p in farm.PLACEMENTS if p.kind == kind]
    assert {p.orientation for p in kinds} == set(range(orientations))
    assert all(farm.bit_count(p.spaces) == size for p in kinds)


def test_only_roads_are_placed_on_water_and_nothing_spans_sections():
    for p in farm.PLACEMENTS:
        if p.kind == components.ROAD:
            continue
        assert p.spaces & farm.WATER_SPACES == 0, p.name
        assert len({farm.SECTION_OF_SPACE[x] for x in farm.spaces_of(p.spaces)}) == 1, p.name
    assert sum(p.kind == components.ROAD for p in farm.PLACEMENTS) == 64
    assert farm.PLACEMENTS[farm.ROAD_AT[farm.space(0, 3)]].spaces == spaces((0, 3))


def test_placement_names_are_the_top_left_of_the_bounding_box():
    kiln = farm.PLACEMENTS[placement("kiln at 2 7 as 1")]
    assert kiln.spaces == spaces((2, 7), (3, 7))
    shop = farm.PLACEMENTS[placement("shop at 4 4 as 2")]
    assert shop.spaces == spaces((4, 5), (5, 4), (5, 5), (5, 6))
    with pytest.raises(StopIteration):
        placement("kiln at 0 2 as 0")  # (0, 3) is water


def test_placement_count_matches_the_rulings():
    assert 185 <= farm.NUM_PLACEMENTS <= 195


# ---------------------------------------------------------------- connections
def build_list(*names: str) -> list[tuple[int, int]]:
    return [(farm.PLACEMENTS[placement(n)].kind, placement(n)) for n in names]


def test_adjacent_buildings_are_connected():
    links = farm.connections(build_list("agave at 0 0 as 0", "kiln at 2 0 as 0"))
    assert links.linked == [False, True]


def test_diagonal_buildings_are_not_connected():
    links = farm.connections(build_list("agave at 0 0 as 0", "kiln at 2 0 as 0", "distiller at 4 5 as 0"))
    assert links.linked == [False, True, False]


def test_roads_connect_through_chains_even_on_water():
    # agave field in section 0, kiln at 2 4-5 (section 1): roads on water at 0 3 and 1 3 join them
    names = ["agave at 0 1 as 0", "kiln at 2 4 as 0"]
    assert farm.connections(build_list(*names)).linked == [False, False]
    links = farm.connections(build_list(*names, "road at 1 3 as 0", "road at 2 3 as 0"))
    assert links.linked[1]
    links = farm.connections(build_list(*names, "road at 2 3 as 0"))  # touches the kiln only
    assert not links.linked[1]


def test_non_road_buildings_do_not_pass_a_connection_on():
    # agave field - kiln - kiln: the far kiln touches only the near kiln
    links = farm.connections(build_list("agave at 0 0 as 0", "kiln at 2 0 as 0", "kiln at 0 2 as 1"))
    assert links.linked == [False, True, True]  # (0,2) touches the field at (0,1)
    # a distiller joined by roads to the agave field, which touches a kiln: not joined to the kiln
    names = ["agave at 0 0 as 0", "kiln at 2 0 as 0", "distiller at 0 4 as 0", "road at 0 2 as 0", "road at 0 3 as 0"]
    links = farm.connections(build_list(*names))
    assert links.linked[1] and not links.linked[2]
    assert links.connected_to_kind(2, components.AGAVE_FIELD) and not links.connected_to_kind(2, components.KILN)


def test_max_matching_counts_different_partners():
    assert farm.max_matching([[0], [0]]) == 1
    assert farm.max_matching([[0, 1], [0]]) == 2
    assert farm.max_matching([[], [1]]) == 1


# ---------------------------------------------------------------- fences and zones
def fenced(*segments: int) -> int:
    return sum(1 << s for s in segments)


def test_segment_numbering_follows_the_rulings():
    assert farm.NUM_SEGMENTS == 40
    assert farm.SEGMENT_FIELDS[0] == (0, -1)  # top edge of F0
    assert farm.SEGMENT_FIELDS[4] == (0, 4)  # between F0 and F4
    assert farm.SEGMENT_FIELDS[20] == (0, -1)  # left edge of F0
    assert farm.SEGMENT_FIELDS[21] == (0, 1)  # between F0 and F1
    assert farm.SEGMENT_FIELDS[39] == (15, -1)  # right edge of F15
    assert farm.FIELD_SEGMENTS[5] == (5, 9, 26, 27)


def test_a_zone_is_fenced_off_when_its_border_is_fenced():
    corner = fenced(0, 20, 21, 4)
    assert farm.zone_of(0, corner) == 1
    assert farm.is_fenced_off(1, corner)
    assert not farm.is_fenced_off(farm.zone_of(0, fenced(0, 20, 21)), fenced(0, 20, 21))  # open towards F4
    # F0 + F1 as one zone: top 0 1, left 20, right 22, bottom 4 5
    pair = fenced(0, 1, 20, 22, 4, 5)
    assert farm.zone_of(0, pair) == 0b11
    assert farm.is_fenced_off(0b11, pair)


def test_closing_a_zone_with_two_houses_is_illegal():
    # F0 (house) + F1 + F2 (house), open to F3 only through segment 23: drawing 23 would close them
    fences = fenced(0, 1, 2, 20, 4, 5, 6)
    assert farm.zone_of(0, fences) & 0b111 == 0b111 and farm.zone_of(0, fences) & 0b1000
    assert farm.closed_zones_by(23, fences) == [0b111]
    assert farm.fence_problem(23, fences) == "closing this zone would fence in 2 houses (F0, F2); one per zone at most"
    assert not fence_facts.legal_fences(fences)[23]
    # with F1|F2 fenced first, the zones F0-F1 and F2 hold one house each: 23 is legal
    assert farm.fence_problem(23, fences | fenced(22)) is None


def test_house_rule_checks_both_sides_of_an_internal_segment():
    # zone F0 F1 F2 F3 F7, fenced all round except F0's left edge (segment 20)
    fences = fenced(0, 1, 2, 3, 24, 29, 4, 5, 6, 11, 28)
    assert farm.zone_of(0, fences) == 0b10001111
    # 21 splits off F0 (still open): the other side F1 F2 F3 F7 is closed with houses F2 and F7
    assert farm.closed_zones_by(21, fences) == [0b10001110]
    assert "2 houses (F2, F7)" in farm.fence_problem(21, fences)
    assert "2 houses (F2, F7)" in farm.fence_problem(22, fences)
    # 23 closes F3 F7 only: one house, legal
    assert farm.closed_zones_by(23, fences) == [0b10001000]
    assert farm.fence_problem(23, fences) is None


def test_closing_a_two_house_zone_by_its_border_is_refused_with_a_reason():
    # zone F0 + F1 + F2 (houses in F0, F2): fence its border last segment
    border = fenced(0, 1, 2, 20, 23, 4, 5)
    problem = farm.fence_problem(6, border)
    assert problem is not None and "2 houses" in problem and "F0" in problem and "F2" in problem
    # without the house in F2 (a zone F0 + F1 only) the same kind of closure is legal
    assert farm.fence_problem(5, fenced(0, 1, 20, 22, 4)) is None


def naive_problem(segment: int, fences: int) -> bool:
    """The house rule straight from its definition: after drawing, any newly closed zone with 2+ houses."""
    if fences >> segment & 1:
        return True
    after = fences | 1 << segment
    before_closed = {z for z in farm.zones(fences) if farm.is_fenced_off(z, fences)}
    for zone in farm.zones(after):
        if farm.is_fenced_off(zone, after) and zone not in before_closed and farm.houses(zone) >= 2:
            return True
    return False


def test_fence_legality_matches_the_definition_on_random_fences():
    rng = np.random.default_rng(5)
    for _ in range(400):
        fences = 0
        for s in rng.permutation(40)[: rng.integers(0, 40)]:
            if not naive_problem(int(s), fences):
                fences |= 1 << int(s)
        fast = fence_facts.legal_fences(fences)
        for s in range(40):
            assert fast[s] == (not naive_problem(s, fences)), (s, fences)
            assert (farm.fence_problem(s, fences) is None) == fast[s]


def test_open_links_follow_the_segments_between_fields():
    """A field is joined to its right (lower) neighbour exactly when the segment between them is unfenced."""
    rng = np.random.default_rng(11)
    for fences in [0, (1 << farm.NUM_SEGMENTS) - 1, *(int(x) for x in rng.integers(0, 1 << farm.NUM_SEGMENTS, 300))]:
        across, down = farm.open_links(fences)
        for f in range(farm.NUM_FIELDS):
            r, c = divmod(f, farm.FIELDS_PER_SIDE)
            right_segment = farm.FIELD_SEGMENTS[f][3]
            bottom_segment = farm.FIELD_SEGMENTS[f][1]
            assert across >> f & 1 == (c < farm.FIELDS_PER_SIDE - 1 and not fences >> right_segment & 1)
            assert down >> f & 1 == (r < farm.FIELDS_PER_SIDE - 1 and not fences >> bottom_segment & 1)


def test_fence_legality_matches_the_definition_on_arbitrary_fences():
    """Also on fence sets play cannot reach (zones with two houses already closed), as loaded states may hold."""
    rng = np.random.default_rng(12)
    for _ in range(300):
        fences = int(rng.integers(0, 1 << farm.NUM_SEGMENTS))
        fast = fence_facts.legal_fences(fences)
        for s in range(farm.NUM_SEGMENTS):
            assert (farm.fence_problem(s, fences) is None) == fast[s], (s, fences)
