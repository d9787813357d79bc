"""Tequila fences drawn one by one (``fence_facts.Fencing``): the corner groups, the duality behind them, and
the kept facts against the rule-by-rule reference (``farm.fence_problem``, ``farm.zones``)."""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fiesta_envs.tequila import farm, speedups
from fiesta_envs.tequila import fencing as fence_facts
from fiesta_envs.tequila.sheet import Sheet


def fenced(*segments: int) -> int:
    return sum(1 << s for s in segments)


def groups(fencing: fence_facts.Fencing) -> list[int]:
    """The groups of corners joined through fences, as corner masks (however the forest is shaped)."""
    return sorted({fencing.corners[fencing._group(c)] for c in range(fence_facts.NUM_CORNERS)})


def kept_facts(fencing: fence_facts.Fencing) -> tuple:
    return (
        fencing.fences,
        fencing.across,
        fencing.down,
        fencing.zones,
        groups(fencing),
        fencing.closing,
        fencing.blocked,
        fencing.legal,
    )


def assert_matches_reference(fencing: fence_facts.Fencing) -> None:
    """The kept facts equal the from-scratch ones and the rule-by-rule reference, segment by segment."""
    fences = fencing.fences
    assert kept_facts(fencing) == kept_facts(fence_facts.Fencing(fences))
    assert fencing.zones == farm.zones(fences)
    assert fencing.legal == fence_facts.legal_fence_bits(fences)
    for s in range(farm.NUM_SEGMENTS):
        assert (farm.fence_problem(s, fences) is None) == bool(fencing.legal >> s & 1), (s, fences)
        if not fences >> s & 1:  # the duality: corners joined <=> the segment would fence something off
            assert bool(fencing.closing >> s & 1) == bool(farm.closed_zones_by(s, fences)), (s, fences)
    for zone in fencing.zones:  # the regions kept are what the segments would fence off
        if fencing._regions_kept(zone):
            for t in farm.spaces_of(fencing.closing & fence_facts.zone_segments(zone)):
                assert [fencing.region[t]] == farm.closed_zones_by(t, fences), (t, fences)


# ---------------------------------------------------------------- corners
def test_segments_join_the_corners_of_the_field_edges():
    # corner i * 5 + j: row i, column j of the 5 x 5 corners
    assert fence_facts.SEGMENT_CORNERS[0] == (0, 1)  # top edge of F0
    assert fence_facts.SEGMENT_CORNERS[19] == (23, 24)  # bottom edge of F15 (top edge of the row below the farm)
    assert fence_facts.SEGMENT_CORNERS[20] == (0, 5)  # left edge of F0
    assert fence_facts.SEGMENT_CORNERS[39] == (19, 24)  # right edge of F15
    assert [fence_facts.CORNER_SEGMENTS[c].bit_count() for c in (0, 2, 6, 12, 24)] == [2, 3, 4, 4, 2]
    # each group of corners knows the segments at its corners
    fencing = fence_facts.Fencing(fenced(0))
    assert (
        fencing.touching[fencing._group(0)]
        == fence_facts.CORNER_SEGMENTS[0] | fence_facts.CORNER_SEGMENTS[1]
        == fenced(0, 1, 20, 21)
    )
    assert fence_facts.zone_segments(1 << 0) == fenced(0, 4, 20, 21)
    assert fence_facts.zone_segments(0b11) == fenced(0, 1, 4, 5, 20, 21, 22)


def test_a_segment_closes_a_loop_exactly_when_its_corners_are_joined():
    # three sides of F5 (top 5, left 26, bottom 9): its right side 27 joins two joined corners
    fencing = fence_facts.Fencing(fenced(5, 26, 9))
    assert max(groups(fencing), key=int.bit_count) == 1 << 6 | 1 << 7 | 1 << 11 | 1 << 12
    assert fencing.closing == fenced(27)
    assert fencing.region[27] == 1 << 5  # it would fence off F5 alone
    assert farm.closed_zones_by(27, fencing.fences) == [1 << 5]
    # a line across the farm from border to border splits the farm but closes nothing: its ends are
    # apart (the border itself is no fence)
    line = fenced(23, 28, 33, 38)
    assert farm.zones(line) == [0b0111_0111_0111_0111, 0b1000_1000_1000_1000]
    assert fence_facts.Fencing(line).closing == 0


def test_the_last_open_border_segment_closes_the_zone():
    # F0 + F1 + F2 (houses F0 and F2): only 6 is open on their border (see the house rule tests)
    fencing = fence_facts.Fencing(fenced(0, 1, 2, 20, 23, 4, 5))
    assert fencing.closing >> 6 & 1
    assert fencing.region[6] == 0b111
    assert not fencing.legal >> 6 & 1
    assert fencing.blocked == fenced(6)


def test_drawing_a_fence_returns_the_zone_or_its_parts():
    fencing = fence_facts.Fencing(fenced(5, 26, 9))
    assert fencing.draw(27) == [0b1111_1111_1101_1111, 1 << 5]  # F5 fenced off: the farm splits
    assert fencing.zones == [0b1111_1111_1101_1111, 1 << 5]
    assert fencing.draw(0) == [0b1111_1111_1101_1111]  # a border segment: same zone, one fewer open
    assert_matches_reference(fencing)


def test_a_fence_closing_a_loop_shrinks_the_regions_around_it():
    # the block F4 F5 F8 F9 (houses F4, F9) fenced all round but for F8's bottom (12): 12 would close it
    block = 1 << 4 | 1 << 5 | 1 << 8 | 1 << 9
    fencing = fence_facts.Fencing(fenced(4, 5, 25, 30, 27, 32, 13))
    assert fencing.closing == fenced(12) and fencing.region[12] == block
    assert fencing.blocked == fenced(12)
    # F4 | F5 (26) joins corner 11 to the fences: F4 | F8 (8), F5 | F9 (9) and F8 | F9 (31) would now
    # close F4, F5 and F5 + F9: one house at most, legal
    assert fencing.draw(26) == [farm.zone_of(0, fencing.fences)]
    assert fencing.closing == fenced(8, 9, 12, 31)
    assert [fencing.region[t] for t in (8, 9, 31)] == [1 << 4, 1 << 5, 1 << 5 | 1 << 9]
    assert_matches_reference(fencing)
    # 9 fences F5 off: the region of 12 loses F5, still with two houses
    assert fencing.draw(9)[1] == 1 << 5
    assert (fencing.region[12], fencing.region[31]) == (block & ~(1 << 5), 1 << 9)
    assert fencing.blocked == fenced(12)
    assert_matches_reference(fencing)


# ---------------------------------------------------------------- kept = from scratch = reference
def test_fences_drawn_one_by_one_match_the_reference_on_random_games():
    """Whole random sequences (legal fences only, as play draws them, and any fence, as loaded
    positions may hold), checking every fact after every fence."""
    rng = np.random.default_rng(21)
    for game in range(16):
        fencing = fence_facts.Fencing()
        legal_only = game % 2 == 0
        for s in rng.permutation(farm.NUM_SEGMENTS):
            if legal_only and not fencing.legal >> int(s) & 1:
                continue
            fencing.draw(int(s))
            assert_matches_reference(fencing)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    start=st.integers(0, (1 << farm.NUM_SEGMENTS) - 1),
    keep=st.integers(0, 3),
    order=st.permutations(range(farm.NUM_SEGMENTS)),
    legal_only=st.booleans(),
)
def test_kept_fence_facts_equal_the_from_scratch_ones(start, keep, order, legal_only):
    """From any set of fences (a quarter of random ones kept), draw fences in any order: after every
    fence the kept facts are the from-scratch ones, and legal exactly when ``fence_problem`` says so."""
    fences = start & int(np.random.default_rng(keep).integers(0, 1 << farm.NUM_SEGMENTS)) if keep else 0
    fencing = fence_facts.Fencing(fences)
    before = list(fencing.zones)
    for s in order:
        if fencing.fences >> s & 1 or (legal_only and not fencing.legal >> s & 1):
            continue
        parts = fencing.draw(s)
        assert_matches_reference(fencing)
        # the returned zones are the only ones whose border changed: the segment's zone or its two parts
        touched = next(z for z in before if z >> farm.SEGMENT_FIELDS[s][0] & 1)
        new_zones = [z for z in fencing.zones if z not in before]
        assert parts == (new_zones if new_zones else [touched])
        before = list(fencing.zones)


def test_a_sheet_keeps_its_fence_mask_and_rebuilds_it_on_load():
    with speedups.enabled(True):  # the kept fencing, whatever the environment says
        rng = np.random.default_rng(8)
        sheet = Sheet()
        sheet.fences_left = farm.NUM_SEGMENTS
        while sheet.legal_fence_bits:
            sheet.draw_fence(int(rng.choice(farm.spaces_of(sheet.legal_fence_bits))))
            assert sheet.zones == farm.zones(sheet.fences)
            assert sheet.legal_fence_bits == fence_facts.legal_fence_bits(sheet.fences)
            assert sheet.fence_mask.tolist() == [int(ok) for ok in fence_facts.legal_fences(sheet.fences)]
            loaded = Sheet(sheet.saved_state())
            assert kept_facts(loaded.fencing) == kept_facts(sheet.fencing)
            assert loaded.fence_mask.tolist() == sheet.fence_mask.tolist()
