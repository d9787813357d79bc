"""Tequila's component data against the rulings (``rules/tequila.md``), which fix what the printed
sheet, jimador boards and cask tile only picture. Fields are checked by fencing them off in play."""

from __future__ import annotations

import pytest
from tequila_positions import held, position

from fiesta_envs.tequila import components, farm

#: The farm of the rulings, row by row.
RULINGS_FARM = (
    ". a . ~ . . d .",
    ". . . ~ . j ~ ~",
    "j . ~ ~ . . ~ b",
    "~ ~ . . ~ ~ ~ .",
    ". ~ d . ~ . . ~",
    ". b ~ ~ . . a .",
    ". . ~ . ~ ~ ~ .",
    "w . ~ . j . ~ .",
)

#: The rulings' fields: resources depicted (gained when fenced off) and houses.
RULINGS_FIELDS = (
    ("agave", True),
    ("worker", False),
    ("donkey", True),
    ("water water", False),
    ("water", True),
    ("barrel", False),
    ("water", False),
    ("agave", True),
    ("donkey", False),
    ("agave worker", True),
    ("barrel", False),
    ("worker", True),
    ("agave", True),
    ("water", False),
    ("donkey", True),
    ("barrel agave", False),
)


def test_the_farm_is_the_rulings_grid():
    assert components.FARM == RULINGS_FARM


def test_sections_and_their_first_to_fill_prestige():
    sizes_and_prestige = [(farm.bit_count(s), components.SECTION_PRESTIGE[i]) for i, s in enumerate(farm.SECTIONS)]
    assert sizes_and_prestige == [(8, 18), (8, 18), (2, 6), (4, 9), (7, 15), (8, 18), (4, 9)]
    assert components.SECTION_COINS == 1


@pytest.mark.parametrize("field", range(16))
def test_fencing_off_each_field_gains_what_it_depicts(field):
    game = position(sheets={0: {"fences_left": 4}})
    for segment in farm.FIELD_SEGMENTS[field]:
        game.play(f"fence {segment}")
    depicted, house = RULINGS_FIELDS[field]
    expected = {name: 0 for name in components.RESOURCES}
    for name in depicted.split():
        expected[name] += 1
    assert held(game, 0) == expected
    assert bool(farm.HOUSE_FIELDS >> field & 1) == house


def test_tracks_and_prestige_tables():
    assert components.RESOURCE_TRACK_LENGTH == 24 and sorted(components.RESOURCE_TRACK_COINS) == [6, 12, 18, 24]
    assert components.COIN_TRACK_LENGTH == 15 and sorted(components.COIN_TRACK_GEMS) == [3, 6, 9, 12, 15]
    assert components.COIN_TRACK_PRESTIGE == {2: 3, 4: 8, 6: 14, 8: 21, 10: 30, 12: 41, 14: 53}
    assert components.PRODUCTION_TRACK_LENGTH == 8
    assert components.PRODUCTION_PRESTIGE == (
        (3, 6, 9, 14, 18, 24, 30, 38),
        (5, 9, 14, 18, 24, 30, 38, 45),
        (6, 12, 18, 24, 32, 39, 48, 57),
        (8, 15, 23, 30, 39, 48, 59, 69),
    )
    assert components.PRODUCTION_BONUS_SQUARE == 4 and components.PRODUCTION_BONUS_PRESTIGE == (6, 9, 12, 15)
    assert components.COLLECTION_TRACK_LENGTH == 6 and components.COLLECTION_PRESTIGE == (8, 15, 27, 42)
    assert components.TEQUILA_MAJORITY == ((16, 8), (20, 10), (24, 12), (30, 15)) and components.MARKET_MAJORITY == (
        20,
        14,
    )
    assert components.MARKET_COLUMN_BONUSES == {3: (1, 0), 5: (0, 12), 7: (0, 24)}


#: Our prestige values as first ruled (before the calibration of issue 20).
FIRST_RULED = {
    "SECTION_PRESTIGE": (12, 12, 4, 6, 10, 12, 6),
    "COIN_TRACK_PRESTIGE": (2, 5, 9, 14, 20, 27, 35),
    "PRODUCTION_PRESTIGE": (
        (2, 4, 6, 9, 12, 16, 20, 25),
        (3, 6, 9, 12, 16, 20, 25, 30),
        (4, 8, 12, 16, 21, 26, 32, 38),
        (5, 10, 15, 20, 26, 32, 39, 46),
    ),
    "PRODUCTION_BONUS_PRESTIGE": (4, 6, 8, 10),
    "COLLECTION_PRESTIGE": (5, 10, 18, 28),
    "MARKET_COLUMN_PRESTIGE": (0, 8, 16),
}


def test_the_calibrated_prestige_is_one_and_a_half_times_the_first_ruled_rounded_half_up():
    def scaled(values):
        return (
            tuple(scaled(v) for v in values)
            if isinstance(values[0], tuple)
            else tuple(v * 3 // 2 + v % 2 for v in values)
        )

    now = {
        "SECTION_PRESTIGE": components.SECTION_PRESTIGE,
        "COIN_TRACK_PRESTIGE": tuple(components.COIN_TRACK_PRESTIGE.values()),
        "PRODUCTION_PRESTIGE": components.PRODUCTION_PRESTIGE,
        "PRODUCTION_BONUS_PRESTIGE": components.PRODUCTION_BONUS_PRESTIGE,
        "COLLECTION_PRESTIGE": components.COLLECTION_PRESTIGE,
        "MARKET_COLUMN_PRESTIGE": tuple(p for _, p in components.MARKET_COLUMN_BONUSES.values()),
    }
    assert now == {name: scaled(values) for name, values in FIRST_RULED.items()}


def test_the_rulebooks_printed_numbers_are_not_calibrated():
    assert components.TEQUILA_MAJORITY == ((16, 8), (20, 10), (24, 12), (30, 15))
    assert components.MARKET_MAJORITY == (20, 14)
    assert [low for low, _ in components.SOLO_RANKS] == [330, 230, 180, 120, 0]
    assert components.ACHIEVEMENT_SCORE == 275
    assert components.MARKET_COLUMN_BONUSES[3] == (1, 0) and components.SECTION_COINS == 1


def test_dice_tiles_gears_and_jimadores():
    names = [None if r is None else components.RESOURCES[r] for r in components.CASK_TILE_RESOURCES["A"]]
    assert names == ["agave", "water", "worker", "donkey", "barrel", None]
    names = [components.RESOURCES[r] for r in components.CASK_TILE_RESOURCES["B"]]
    assert names == ["water", "donkey", "agave", "barrel", "worker", "agave"]
    assert sorted(components.FENCE_DIE_VALUES) == [1, 2, 3]
    assert components.FENCES_BY_DICE == (0, 4, 6, 8) and components.PURPLE_FENCES_BY_DICE == (0, 5, 7, 9)
    assert components.GEARS_PER_ROUND == (1, 1, 1, 2, 2, 2, 3, 3) and components.ROUNDS == 8
    assert components.EXTRA_ACTION_COST == 4
    assert components.JIMADORES == ("purple", "red", "orange", "green")
