"""Tequila's components as data: the farm sheet, tracks, market, cask tiles, jimadores, prestige.

The printed sheet, jimador boards and cask tile are only pictured in the rulebook; these tables are
our rulings (``rules/tequila.md``). Rule code reads them and nothing here computes anything, so a
player holding the printed game can swap in the real values. All indices are 0-based.
"""

from __future__ import annotations

#: Resources, in track order. Every resource-of-choice step offers them in this order.
RESOURCES: tuple[str, ...] = ("agave", "water", "worker", "donkey", "barrel")
AGAVE, WATER, WORKER, DONKEY, BARREL = range(5)

#: The farm: ``~`` water (only roads), ``.`` arid, a letter an arid space showing a resource
#: (a agave, w water, j worker/jimador, d donkey, b barrel): building on it gains that resource.
FARM: tuple[str, ...] = (
    ". a . ~ . . d .",
    ". . . ~ . j ~ ~",
    "j . ~ ~ . . ~ b",
    "~ ~ . . ~ ~ ~ .",
    ". ~ d . ~ . . ~",
    ". b ~ ~ . . a .",
    ". . ~ . ~ ~ ~ .",
    "w . ~ . j . ~ .",
)
FARM_SYMBOLS: dict[str, int | None] = {".": None, "a": AGAVE, "w": WATER, "j": WORKER, "d": DONKEY, "b": BARREL}

#: Our prestige values (the rulebook pictures the sheet without printing them) are calibrated: 1.5 times
#: the values first ruled, rounded half up, so that the solo ranks mean something (the game's
#: page, Rulings, says why). The rulebook's printed numbers (majorities, market spaces, gears, solo ranks,
#: achievements) are unchanged.
#: Prestige for being first to fill each section, sections in reading order of their first space.
SECTION_PRESTIGE: tuple[int, ...] = (18, 18, 6, 9, 15, 18, 9)
#: Coins for filling any section (first or not).
SECTION_COINS = 1

#: Fields are the 2x2 blocks of the farm, F0..F15 in reading order: (resources depicted, has a house).
FIELDS: tuple[tuple[tuple[int, ...], bool], ...] = (
    ((AGAVE,), True),
    ((WORKER,), False),
    ((DONKEY,), True),
    ((WATER, WATER), False),
    ((WATER,), True),
    ((BARREL,), False),
    ((WATER,), False),
    ((AGAVE,), True),
    ((DONKEY,), False),
    ((AGAVE, WORKER), True),
    ((BARREL,), False),
    ((WORKER,), True),
    ((AGAVE,), True),
    ((WATER,), False),
    ((DONKEY,), True),
    ((BARREL, AGAVE), False),
)
FIELD_SIZE = 2  # a field is FIELD_SIZE x FIELD_SIZE spaces
#: A zone holding this many houses may not be fenced off.
MAX_HOUSES_PER_ZONE = 1

ROUNDS = 8
#: Free-action gears printed on each round.
GEARS_PER_ROUND: tuple[int, ...] = (1, 1, 1, 2, 2, 2, 3, 3)
#: Resources paid (of your choice) for one extra free action.
EXTRA_ACTION_COST = 4

#: Fences gained for 1, 2 or 3 dice on the fencing action (index = number of dice).
FENCES_BY_DICE: tuple[int, ...] = (0, 4, 6, 8)

# ---------------------------------------------------------------- tracks
RESOURCE_TRACK_LENGTH = 24
#: 1-based squares of a resource track that show a coin.
RESOURCE_TRACK_COINS: frozenset[int] = frozenset({6, 12, 18, 24})
COIN_TRACK_LENGTH = 15
#: 1-based squares of the coin track that show a gem (gain a resource of your choice).
COIN_TRACK_GEMS: frozenset[int] = frozenset({3, 6, 9, 12, 15})
#: Prestige printed on the coin track: {1-based square: prestige}; the highest reached scores.
COIN_TRACK_PRESTIGE: dict[int, int] = {2: 3, 4: 8, 6: 14, 8: 21, 10: 30, 12: 41, 14: 53}

# ---------------------------------------------------------------- tequila
TEQUILAS: tuple[str, ...] = ("white", "cream", "pink", "red")
WHITE, CREAM, PINK, RED = range(4)
#: Cost of each tequila: {resource: amount}.
TEQUILA_COSTS: tuple[dict[int, int], ...] = (
    {BARREL: 1},
    {BARREL: 1},
    {WATER: 1, BARREL: 1},
    {AGAVE: 1, WATER: 1, BARREL: 1},
)
PRODUCTION_TRACK_LENGTH = 8
#: Prestige printed on each square of each production track (the highest reached scores).
PRODUCTION_PRESTIGE: tuple[tuple[int, ...], ...] = (
    (3, 6, 9, 14, 18, 24, 30, 38),
    (5, 9, 14, 18, 24, 30, 38, 45),
    (6, 12, 18, 24, 32, 39, 48, 57),
    (8, 15, 23, 30, 39, 48, 59, 69),
)
#: 0-based square of each production track holding the "first to reach" bonus.
PRODUCTION_BONUS_SQUARE = 4
PRODUCTION_BONUS_COINS = 1
PRODUCTION_BONUS_PRESTIGE: tuple[int, ...] = (6, 9, 12, 15)
COLLECTION_TRACK_LENGTH = 6
#: Prestige of the first collections (each also gives 1 coin); later ones give nothing.
COLLECTION_PRESTIGE: tuple[int, ...] = (8, 15, 27, 42)
COLLECTION_COINS = 1

#: Final majorities per tequila type: (left value: most, right value: second most / 2-player most).
TEQUILA_MAJORITY: tuple[tuple[int, int], ...] = ((16, 8), (20, 10), (24, 12), (30, 15))
MARKET_MAJORITY: tuple[int, int] = (20, 14)
#: Solo: a majority value needs this many tequilas of the type, and the market this many spaces.
SOLO_TEQUILA_MINIMUM = 6
SOLO_MARKET_MINIMUM = 12
#: Solo ranks: (lowest score, title), highest first.
SOLO_RANKS: tuple[tuple[int, str], ...] = (
    (330, "Golden tequilero"),
    (230, "Aged tequilero"),
    (180, "Rested tequilero"),
    (120, "Young tequilero"),
    (0, "Clear tequilero"),
)

# ---------------------------------------------------------------- market
MARKET_ROWS = 3
MARKET_COLUMNS = 8
#: Rows 0 and 1: the resource and amount paid to mark each column's space.
MARKET_PAYMENTS: tuple[tuple[tuple[int, int], ...], ...] = (
    ((AGAVE, 1), (WATER, 1), (WORKER, 1), (DONKEY, 2), (BARREL, 2), (AGAVE, 2), (WATER, 3), (BARREL, 3)),
    ((DONKEY, 1), (BARREL, 1), (AGAVE, 2), (WORKER, 2), (WATER, 2), (DONKEY, 3), (WORKER, 3), (AGAVE, 3)),
)
#: Row 2: the standing requirement of each column: (building kind, how many). Roads count road spaces.
MARKET_REQUIREMENTS: tuple[tuple[str, int], ...] = (
    ("agave", 1),
    ("kiln", 1),
    ("road", 2),
    ("distiller", 1),
    ("kiln", 2),
    ("cask", 1),
    ("shop", 1),
    ("shop", 2),
)
MARKET_REQUIREMENT_ROW = 2
#: Resources of your choice gained for marking a space.
MARKET_GAIN = 1
#: "First to mark a space in this column" bonuses: column -> (coins, prestige).
MARKET_COLUMN_BONUSES: dict[int, tuple[int, int]] = {3: (1, 0), 5: (0, 12), 7: (0, 24)}

# ---------------------------------------------------------------- buildings
BUILDINGS: tuple[str, ...] = ("road", "agave", "kiln", "distiller", "cask", "shop")  # one word: action names
#: Each building's name in messages.
BUILDING_NOUNS: tuple[str, ...] = ("road", "agave field", "kiln", "distiller", "cask", "shop")
ROAD, AGAVE_FIELD, KILN, DISTILLER, CASK, SHOP = range(6)
#: Each building's shape as (row, column) cells before rotation and reflection.
SHAPES: tuple[tuple[tuple[int, int], ...], ...] = (
    ((0, 0),),
    ((0, 0), (0, 1), (1, 0), (1, 1)),
    ((0, 0), (0, 1)),
    ((0, 0), (1, 0), (1, 1)),
    ((0, 0), (0, 1), (0, 2)),
    ((0, 0), (0, 1), (0, 2), (1, 1)),
)
#: Cost of each building (jimador side A): {resource: amount}; the road costs resources of choice.
BUILDING_COSTS: tuple[dict[int, int], ...] = (
    {},
    {AGAVE: 2},
    {DONKEY: 1, WORKER: 1},
    {AGAVE: 1, WATER: 1},
    {AGAVE: 1, DONKEY: 1},
    {AGAVE: 1, WORKER: 1},
)
ROAD_COST_OF_CHOICE = 2
#: Each building may be built on water (only roads).
BUILDS_ON_WATER: tuple[bool, ...] = (True, False, False, False, False, False)
#: The building each kind must be connected to (its chain partner), or None.
CHAIN_PARTNER: tuple[int | None, ...] = (None, None, AGAVE_FIELD, KILN, DISTILLER, CASK)
#: First connection to the chain partner: (resource or "coin", amount), side A.
CONNECTION_BONUS: dict[int, tuple[str, int]] = {
    KILN: ("water", 1),
    DISTILLER: ("barrel", 3),
    SHOP: ("coin", 2),
}
#: The building a tequila requires (connected to its chain partner).
TEQUILA_BUILDING: tuple[int, ...] = (KILN, DISTILLER, CASK, SHOP)
#: End of round: agave fields / kilns needed per agave / water produced (side A).
AGAVE_FIELDS_PER_AGAVE = 2
KILNS_PER_WATER = 2
#: End of round cask production costs 1 agave, the shop sale 1 resource of choice.
CASK_PRODUCTION_COST = (AGAVE, 1)

# ---------------------------------------------------------------- dice and cask tile
#: Die values going to the fencing action; the others go to the building action.
FENCE_DIE_VALUES: frozenset[int] = frozenset({1, 2, 3})
#: Resource gained by every player for each die value (None: nothing), per cask tile side.
CASK_TILE_RESOURCES: dict[str, tuple[int | None, ...]] = {
    "A": (AGAVE, WATER, WORKER, DONKEY, BARREL, None),
    "B": (WATER, DONKEY, AGAVE, BARREL, WORKER, AGAVE),
}
#: Cask tile side B: the virtual die on fencing adds this many fences; on building a free road.
CASK_B_VIRTUAL_FENCES = 1

# ---------------------------------------------------------------- jimadores (side B)
JIMADORES: tuple[str, ...] = ("purple", "red", "orange", "green")
#: Purple: fences for 1, 2, 3 dice.
PURPLE_FENCES_BY_DICE: tuple[int, ...] = (0, 5, 7, 9)
#: Red: building actions added every round (the virtual die also counts as a building die).
RED_EXTRA_BUILDS = 1
#: Orange: added to every first-connection bonus.
ORANGE_CONNECTION_EXTRA = 1
#: Green: subtracted from market payments and requirements; resources gained for a row-2 space.
GREEN_MARKET_DISCOUNT = 1
GREEN_REQUIREMENT_GAIN = 2

# ---------------------------------------------------------------- achievements (reported, not scored)
#: Each achievement and what it takes; "track" ones mean a complete track.
ACHIEVEMENTS: dict[str, str] = {
    "Guadalajara Guadalajara": "complete the tequila collection track",
    "La Bikina": "complete the aged (pink) tequila track",
    "Con dinero y sin dinero": "complete the coin track",
    "Se alegran los corazones": "pay for 12 extra free actions",
    "México lindo y querido": "complete 6 sections of your farm",
    "Viva México": "mark 20 market spaces",
    "El Aventurero": "gain 13 coins in total (lost ones included)",
    "Canta y no llores": "fence off 7 houses",
    "Olor a tierra mojada": "fence off 40 field spaces",
    "Pero sigo siendo el rey": "gain 275 points",
}
ACHIEVEMENT_EXTRA_ACTIONS = 12
ACHIEVEMENT_SECTIONS = 6
ACHIEVEMENT_MARKET_SPACES = 20
ACHIEVEMENT_COINS = 13
ACHIEVEMENT_HOUSES = 7
ACHIEVEMENT_FIELD_SPACES = 40
ACHIEVEMENT_SCORE = 275
