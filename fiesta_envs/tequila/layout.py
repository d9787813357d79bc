"""Where each fact sits in a Tequila observation (the layout itself is described in ``observation``).

Positions only, no logic: the sheet writes its entries here as it changes (``Sheet.view``,
``Sheet.public``), ``observation`` assembles them and also builds them from scratch.
"""

from __future__ import annotations

from fiesta_envs.tequila import components as C
from fiesta_envs.tequila import farm as F

NUM_BONUSES = len(C.SECTION_PRESTIGE) + len(C.TEQUILAS) + len(C.MARKET_COLUMN_BONUSES)
MARKET_SPACES = C.MARKET_ROWS * C.MARKET_COLUMNS
#: One-hot jimador entries: side A (None), then each side-B jimador.
JIMADOR_CHOICES: tuple[str | None, ...] = (None, *C.JIMADORES)

# ---------------------------------------------------------------- a sheet's own view (blocks 1-3)
PLANES = 16
FARM_SIZE = PLANES * F.SPACES
#: Farm planes written as the game goes (the others, 0-6, show the printed sheet).
FENCED_OFF_PLANE, BUILDING_PLANE, LINKED_PLANE, SECTION_PLANE = 7, 8, 14, 15  # BUILDING_PLANE + kind
FENCES = FARM_SIZE  # one entry per fence segment
TRACKS = FENCES + F.NUM_SEGMENTS
HELD = TRACKS  # 5 resources
MARKED = HELD + len(C.RESOURCES)
COINS = MARKED + len(C.RESOURCES)
PRODUCTION = COINS + 1  # 4 tequilas
COLLECTIONS = PRODUCTION + len(C.TEQUILAS)
MARKET = COLLECTIONS + 1  # 24 spaces
BONUSES = MARKET + MARKET_SPACES  # 14 bonuses
EXTRA_BOUGHT = BONUSES + NUM_BONUSES
GEARS_UNUSED = EXTRA_BOUGHT + 1
FENCES_LEFT = GEARS_UNUSED + 1
BUILDS_LEFT = FENCES_LEFT + 1
GEARS_LEFT = BUILDS_LEFT + 1
CREDITS = GEARS_LEFT + 1
FREE_ROAD = CREDITS + 1
VIRTUAL = FREE_ROAD + 1  # 2: on fence, on build
JIMADOR = VIRTUAL + 2  # 5
OWN_VIEW_SIZE = JIMADOR + len(JIMADOR_CHOICES)
OWN_SIZE = OWN_VIEW_SIZE - TRACKS  # block 3 alone

# ---------------------------------------------------------------- the table (block 4)
TABLE = OWN_VIEW_SIZE
T_ROUND = 0  # 8, one-hot
T_DICE = T_ROUND + C.ROUNDS  # 2 x 6, one-hot
T_DECISION = T_DICE + 12  # 7 decisions, pay left, 3 purposes, gain left
DECISIONS: tuple[str, ...] = ("reroll", "virtual", "main", "cask", "shop", "pay", "gain")
PURPOSES: tuple[str, ...] = ("road", "extra", "shop")
DECISION_SIZE = len(DECISIONS) + 1 + len(PURPOSES) + 1
T_STARTING = T_DECISION + DECISION_SIZE
T_PLACE = T_STARTING + 1
T_TAKEN = T_PLACE + 1  # 14: bonuses taken by anyone
T_THIS_ROUND = T_TAKEN + NUM_BONUSES  # 14: bonuses first taken this round
T_CASK_B = T_THIS_ROUND + NUM_BONUSES
TABLE_SIZE = T_CASK_B + 1

# ---------------------------------------------------------------- what others see of a sheet (block 5)
OTHERS = TABLE + TABLE_SIZE
P_HELD = 0  # 5
P_PRODUCTION = P_HELD + len(C.RESOURCES)  # 4
P_COLLECTIONS = P_PRODUCTION + len(C.TEQUILAS)
P_COINS = P_COLLECTIONS + 1
P_MARKET = P_COINS + 1  # 24
P_BONUSES = P_MARKET + MARKET_SPACES  # 14
P_SECTIONS = P_BONUSES + NUM_BONUSES
P_KINDS = P_SECTIONS + 1  # 6
P_FENCED_OFF = P_KINDS + len(C.BUILDINGS)
P_JIMADOR = P_FENCED_OFF + 1  # 5
OTHER_SIZE = P_JIMADOR + len(JIMADOR_CHOICES)

#: Scales of the counts (a count is written as ``min(count, cap) / cap`` or ``count / length``).
TRACK = float(C.RESOURCE_TRACK_LENGTH)
EXTRA_CAP, GEARS_UNUSED_CAP, FENCES_LEFT_CAP, BUILDS_LEFT_CAP, GEARS_LEFT_CAP, CREDITS_CAP = 12, 15, 10, 5, 3, 4
KIND_CAP = 10
PAY_CAP = GAIN_CAP = 4

assert (OWN_SIZE, TABLE_SIZE, OTHER_SIZE) == (68, 63, 62)


def observation_size(num_players: int) -> int:
    return OTHERS + OTHER_SIZE * (num_players - 1)
