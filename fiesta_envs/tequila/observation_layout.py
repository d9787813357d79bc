"""The Tequila observation layout: its named blocks in order, and the scales of the counts.

Positions only, no logic (``observation`` writes the blocks). A seat's observation is the table as it
sees it, then one block group per sheet: its own sheet first (``sheet 0 ...``), then the others in seat
order after it (``sheet 1 ...`` is the next seat). The documentation page (``fiesta_envs.tequila_v2``)
describes every block; ``tests/test_tequila_observation.py`` decodes each one.
"""

from __future__ import annotations

from fiesta_envs.core.observer import ObservationLayout
from fiesta_envs.tequila import components, farm

NUM_BONUSES = len(components.SECTION_PRESTIGE) + len(components.TEQUILAS) + len(components.MARKET_COLUMN_BONUSES)
MARKET_SPACES = components.MARKET_ROWS * components.MARKET_COLUMNS
#: One-hot jimador entries: side A (None), then each side-B jimador.
JIMADOR_CHOICES: tuple[str | None, ...] = (None, *components.JIMADORES)
#: The decisions a seat can be asked (one-hot in block ``decision``).
DECISIONS: tuple[str, ...] = ("reroll", "virtual", "main", "cask", "shop", "pay", "gain")
#: What a payment of choice is for (one-hot in block ``pending``).
PURPOSES: tuple[str, ...] = ("road", "extra", "shop")

#: The farm planes of a sheet, 8x8 each (row-major): fenced-off fields, the buildings by kind, buildings
#: connected to their chain partner, filled sections. The printed farm (water, resources, houses) is the
#: same on every sheet and is not repeated.
FARM_PLANES: tuple[str, ...] = ("fenced off", *components.BUILDINGS, "linked", "section")
#: A sheet's tracks, in order: held resources (5), marked squares (5), coins, production (4),
#: collections, market spaces (24, row-major), "first to" bonuses gained (14), extra free actions
#: bought, unused gears.
TRACK_PARTS: tuple[tuple[str, int], ...] = (
    ("held", len(components.RESOURCES)),
    ("marked", len(components.RESOURCES)),
    ("coins", 1),
    ("production", len(components.TEQUILAS)),
    ("collections", 1),
    ("market", MARKET_SPACES),
    ("bonuses", NUM_BONUSES),
    ("extra bought", 1),
    ("unused gears", 1),
)
#: The blocks of one sheet (each is prefixed ``sheet K `` in the observation).
SHEET_BLOCKS: tuple[tuple[str, int | tuple[int, ...]], ...] = (
    ("farm", (len(FARM_PLANES), farm.SIZE, farm.SIZE)),
    ("fences", farm.NUM_SEGMENTS),
    ("tracks", sum(size for _, size in TRACK_PARTS)),
    ("jimador", len(JIMADOR_CHOICES)),
)
SHEET_SIZE = ObservationLayout(SHEET_BLOCKS).size
#: The seat's own round (not visible to the others before the round ends): fences left, building
#: actions left, gears left, bought free actions left, free road, virtual die on fencing, on building.
MY_ROUND_PARTS: tuple[str, ...] = (
    "fences left",
    "building actions left",
    "gears left",
    "bought free actions left",
    "free road",
    "virtual die on fencing",
    "virtual die on building",
)
TABLE_BLOCKS: tuple[tuple[str, int | tuple[int, ...]], ...] = (
    ("round", components.ROUNDS),
    ("dice", (2, 6)),
    ("decision", len(DECISIONS)),
    ("pending", 1 + len(PURPOSES) + 1),
    ("seat", 2),
    ("bonuses taken", NUM_BONUSES),
    ("cask tile B", 1),
    ("my round", len(MY_ROUND_PARTS)),
)

#: Scales of the counts (a count is written as ``min(count, cap) / cap`` or ``count / length``).
TRACK = float(components.RESOURCE_TRACK_LENGTH)
EXTRA_CAP, GEARS_UNUSED_CAP, FENCES_LEFT_CAP, BUILDS_LEFT_CAP, GEARS_LEFT_CAP, CREDITS_CAP = 12, 15, 10, 5, 3, 4
PAY_CAP = GAIN_CAP = 4


def sheet_block(k: int, name: str) -> str:
    """The observation block ``name`` of the ``k``-th sheet in the seat's order (0: its own)."""
    return f"sheet {k} {name}"


def observation_layout(num_players: int) -> ObservationLayout:
    """The named blocks of a Tequila observation for ``num_players``."""
    blocks = list(TABLE_BLOCKS)
    for k in range(num_players):
        blocks += [(sheet_block(k, name), size) for name, size in SHEET_BLOCKS]
    return ObservationLayout(blocks)


TABLE_SIZE = ObservationLayout(TABLE_BLOCKS).size
assert (TABLE_SIZE, SHEET_SIZE) == (56, 677)


def observation_size(num_players: int) -> int:
    return TABLE_SIZE + SHEET_SIZE * num_players
