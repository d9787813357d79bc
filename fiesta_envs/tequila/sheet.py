"""One player's farm sheet: resource, coin, production and collection tracks, market, farm.

The sheet knows its own bookkeeping (what is held, what a gain marks, what a building is
connected to); the game decides when things happen and settles the "first to" bonuses.
Gains return the number of resources of choice they earn (gems on the coin track), which the
game then asks for one ``gain RES`` at a time.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fiesta_envs.tequila import components as C
from fiesta_envs.tequila import farm as F

NUM_RESOURCES = len(C.RESOURCES)
NUM_BONUSES = len(C.SECTION_PRESTIGE) + len(C.TEQUILAS) + len(C.MARKET_COLUMN_BONUSES)
SECTION_BONUS = 0  # bonus index of section s: SECTION_BONUS + s
TEQUILA_BONUS = len(C.SECTION_PRESTIGE)  # bonus index of tequila t: TEQUILA_BONUS + t
MARKET_BONUS = TEQUILA_BONUS + len(C.TEQUILAS)  # then one per bonus column, in column order
MARKET_BONUS_COLUMNS: tuple[int, ...] = tuple(sorted(C.MARKET_COLUMN_BONUSES))
MARKET_SPACES = C.MARKET_ROWS * C.MARKET_COLUMNS


def market_space(row: int, col: int) -> int:
    return row * C.MARKET_COLUMNS + col


#: Market spaces whose marking opens each space: (r', c +- 1) with |r - r'| <= 1.
MARKET_OPENERS: tuple[int, ...] = tuple(
    sum(
        1 << market_space(r2, c2)
        for r2 in range(C.MARKET_ROWS)
        for c2 in (c - 1, c + 1)
        if abs(r2 - r) <= 1 and 0 <= c2 < C.MARKET_COLUMNS
    )
    for r in range(C.MARKET_ROWS)
    for c in range(C.MARKET_COLUMNS)
)
#: Market spaces each marked space opens (the same relation as ``MARKET_OPENERS``).
MARKET_NEIGHBOURS = MARKET_OPENERS
MARKET_COLUMN_MASKS: tuple[int, ...] = tuple(
    sum(1 << market_space(r, c) for r in range(C.MARKET_ROWS)) for c in range(C.MARKET_COLUMNS)
)


def open_market_spaces(marked: int) -> int:
    """Spaces one may mark (if unmarked): column 0, and every space touching a marked one."""
    opened = MARKET_COLUMN_MASKS[0]
    while marked:
        low = marked & -marked
        opened |= MARKET_NEIGHBOURS[low.bit_length() - 1]
        marked ^= low
    return opened


#: The saved integer fields of a sheet (state dicts); lists and buildings are saved apart.
_INT_FIELDS = (
    "coins",
    "coins_earned",
    "collections",
    "market",
    "fences",
    "rewarded_fields",
    "sections",
    "bonuses",
    "extra_bought",
    "gears_unused",
    "virtual",
    "fences_left",
    "builds_left",
    "gears_left",
    "credits",
)

#: Allowed ranges of the integer fields (others: any int >= 0).
_RANGES: dict[str, tuple[int, int]] = {
    "coins": (0, C.COIN_TRACK_LENGTH),
    "collections": (0, C.COLLECTION_TRACK_LENGTH),
    "market": (0, (1 << MARKET_SPACES) - 1),
    "fences": (0, (1 << F.NUM_SEGMENTS) - 1),
    "rewarded_fields": (0, (1 << F.NUM_FIELDS) - 1),
    "sections": (0, (1 << len(F.SECTIONS)) - 1),
    "bonuses": (0, (1 << NUM_BONUSES) - 1),
    "virtual": (-1, 1),
}


class Sheet:
    """The state of one player's sheet (saved) and what follows from it (cached)."""

    def __init__(self) -> None:
        self.marked = [0] * NUM_RESOURCES  # squares marked on each resource track
        self.crossed = [0] * NUM_RESOURCES  # of those, crossed out (spent)
        self.coins = 0  # squares marked on the coin track
        self.coins_earned = 0  # every coin ever earned, lost ones included
        self.production = [0] * len(C.TEQUILAS)
        self.collections = 0
        self.market = 0  # mask of marked market spaces, bit row * 8 + col
        self.fences = 0  # mask of fenced segments
        self.rewarded_fields = 0  # mask of fields whose resources were gained (fenced off)
        self.buildings: list[tuple[int, int]] = []  # (kind, placement index) in building order
        self.sections = 0  # mask of filled sections
        self.bonuses = 0  # mask of "first to" bonuses gained (see *_BONUS)
        self.extra_bought = 0
        self.gears_unused = 0  # gears left uncrossed in finished rounds
        # this round
        self.virtual = -1  # -1 not chosen, 0 fencing, 1 building
        self.fences_left = 0
        self.builds_left = 0
        self.gears_left = 0
        self.credits = 0  # free actions bought with resources this round
        self.free_road = False  # cask tile B: a free road this round
        self.farm_planes_cache: tuple[tuple[int, int, int], Any] | None = None  # for observations
        self.public_obs_cache: tuple[tuple[Any, ...], Any] | None = None  # others' view of this sheet
        self.build_mask_cache: tuple[tuple[Any, ...], Any] | None = None  # legal placements (game)
        self.fence_mask_cache: tuple[int, Any] | None = None  # legal fences (game)
        self.refresh()

    # ------------------------------------------------------------------ cached facts
    def refresh(self) -> None:
        """Recompute what follows from the buildings (after a build or a load)."""
        self.occupied = 0
        self.kind_count = [0] * len(C.BUILDINGS)
        for kind, index in self.buildings:
            self.occupied |= F.PLACEMENTS[index].spaces
            self.kind_count[kind] += 1
        self.links = F.connections(self.buildings)
        self.linked_kinds = {
            kind for (kind, _), linked in zip(self.buildings, self.links.linked, strict=True) if linked
        }
        self.road_spaces = F.bit_count(self.links.kind_spaces[C.ROAD])  # market row 2 counts road spaces

    def held(self, resource: int) -> int:
        return self.marked[resource] - self.crossed[resource]

    def total_held(self) -> int:
        return sum(self.marked) - sum(self.crossed)

    def can_pay(self, cost: Mapping[int, int]) -> bool:
        return all(self.held(r) >= n for r, n in cost.items())

    def free_actions(self) -> int:
        return self.credits + self.gears_left

    # ------------------------------------------------------------------ gains and payments
    def gain(self, resource: int, amount: int = 1) -> int:
        """Mark ``amount`` squares of a resource track; returns resources of choice earned."""
        choices = 0
        for _ in range(amount):
            if self.marked[resource] >= C.RESOURCE_TRACK_LENGTH:
                return choices  # the track is full: the gain is lost
            self.marked[resource] += 1
            if self.marked[resource] in C.RESOURCE_TRACK_COINS:
                choices += self.gain_coins(1)
        return choices

    def gain_coins(self, amount: int) -> int:
        """Mark ``amount`` coins; returns resources of choice earned (gems)."""
        choices = 0
        for _ in range(amount):
            self.coins_earned += 1
            if self.coins < C.COIN_TRACK_LENGTH:
                self.coins += 1
                if self.coins in C.COIN_TRACK_GEMS:
                    choices += 1
        return choices

    def pay(self, cost: Mapping[int, int]) -> None:
        for resource, amount in cost.items():
            if self.held(resource) < amount:
                raise AssertionError(f"cannot pay {amount} {C.RESOURCES[resource]}")
            self.crossed[resource] += amount

    def can_gain_any(self) -> bool:
        return any(m < C.RESOURCE_TRACK_LENGTH for m in self.marked)

    # ------------------------------------------------------------------ buildings
    def building_linked(self, kind: int) -> bool:
        """Some building of ``kind`` is connected to its chain partner."""
        return kind in self.linked_kinds

    def cask_matching(self) -> int:
        """Casks connected to a different distiller each (largest matching)."""
        distillers = [i for i, (k, _) in enumerate(self.buildings) if k == C.DISTILLER]
        edges = [
            [d for d in distillers if self.links.reach[i] & F.PLACEMENTS[self.buildings[d][1]].spaces]
            for i, (k, _) in enumerate(self.buildings)
            if k == C.CASK
        ]
        return F.max_matching(edges)

    def linked_shops(self) -> int:
        return sum(1 for i, (k, _) in enumerate(self.buildings) if k == C.SHOP and self.links.linked[i])

    def requirement_met(self, kind: int, amount: int) -> bool:
        count = self.road_spaces if kind == C.ROAD else self.kind_count[kind]
        return count >= amount

    # ------------------------------------------------------------------ scoring facts
    def coin_prestige(self) -> int:
        return max((v for square, v in C.COIN_TRACK_PRESTIGE.items() if self.coins >= square), default=0)

    def production_prestige(self, tequila: int) -> int:
        count = self.production[tequila]
        return C.PRODUCTION_PRESTIGE[tequila][count - 1] if count else 0

    def collection_prestige(self) -> int:
        reached = min(self.collections, len(C.COLLECTION_PRESTIGE))
        return C.COLLECTION_PRESTIGE[reached - 1] if reached else 0

    def market_count(self) -> int:
        return F.bit_count(self.market)

    def fenced_resources(self) -> int:
        """Resources shown on fenced-off fields (the tie-break), counted even if a track was full."""
        return sum(len(C.FIELDS[f][0]) for f in F.spaces_of(self.rewarded_fields))

    # ------------------------------------------------------------------ state dicts
    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {name: getattr(self, name) for name in _INT_FIELDS}
        data["marked"] = list(self.marked)
        data["crossed"] = list(self.crossed)
        data["production"] = list(self.production)
        data["buildings"] = [[k, i] for k, i in self.buildings]
        data["free_road"] = self.free_road
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Sheet:
        sheet = cls()
        for name in _INT_FIELDS:
            value = data[name]
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"sheet field {name!r} must be an int, got {value!r}")
            low, high = _RANGES.get(name, (0, 1 << 62))
            if not low <= value <= high:
                raise ValueError(f"sheet field {name!r}={value} is out of range [{low}, {high}]")
            setattr(sheet, name, value)
        for name, size in (("marked", NUM_RESOURCES), ("crossed", NUM_RESOURCES), ("production", 4)):
            values = [int(v) for v in data[name]]
            if len(values) != size:
                raise ValueError(f"sheet field {name!r} must have {size} entries")
            setattr(sheet, name, values)
        if not all(0 <= p <= C.PRODUCTION_TRACK_LENGTH for p in sheet.production):
            raise ValueError(f"production {sheet.production} out of range")
        buildings = []
        for kind, index in data["buildings"]:
            if not 0 <= index < F.NUM_PLACEMENTS or F.PLACEMENTS[index].kind != kind:
                raise ValueError(f"bad building {[kind, index]!r}")
            buildings.append((int(kind), int(index)))
        sheet.buildings = buildings
        sheet.free_road = bool(data["free_road"])
        if any(not 0 <= c <= m <= C.RESOURCE_TRACK_LENGTH for c, m in zip(sheet.crossed, sheet.marked, strict=True)):
            raise ValueError("resource tracks out of range")
        sheet.refresh()
        if sum(F.PLACEMENTS[i].spaces.bit_count() for _, i in buildings) != sheet.occupied.bit_count():
            raise ValueError("buildings overlap")
        return sheet
