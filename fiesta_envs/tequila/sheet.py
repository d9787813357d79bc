"""One player's farm sheet: resource, coin, production and collection tracks, market, farm.

The sheet knows its own bookkeeping (what is held, what a gain marks, what a building is
connected to, which fences may be drawn); the game decides
when things happen and settles the "first to" bonuses.
Gains return the number of resources of choice they earn (gems on the coin track), which the
game then asks for one ``gain RES`` at a time.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

import numpy as np

from fiesta_envs.tequila import components, farm, observation_layout, speedups
from fiesta_envs.tequila.affordable import Affordable, affordable
from fiesta_envs.tequila.fencing import Fencing
from fiesta_envs.tequila.flood_fill import FloodFillFencing
from fiesta_envs.tequila.public_sheet import PublicSheet
from fiesta_envs.tequila.state import SHEET_FIELDS, SheetState

NUM_RESOURCES = len(components.RESOURCES)
NUM_BONUSES = observation_layout.NUM_BONUSES
SECTION_BONUS = 0  # bonus index of section s: SECTION_BONUS + s
TEQUILA_BONUS = len(components.SECTION_PRESTIGE)  # bonus index of tequila t: TEQUILA_BONUS + t
MARKET_BONUS = TEQUILA_BONUS + len(components.TEQUILAS)  # then one per bonus column, in column order
MARKET_BONUS_COLUMNS: tuple[int, ...] = tuple(sorted(components.MARKET_COLUMN_BONUSES))
MARKET_SPACES = observation_layout.MARKET_SPACES


def market_space(row: int, col: int) -> int:
    return row * components.MARKET_COLUMNS + col


#: Market spaces whose marking opens each space: (r', c +- 1) with |r - r'| <= 1.
MARKET_OPENERS: tuple[int, ...] = tuple(
    sum(
        1 << market_space(r2, c2)
        for r2 in range(components.MARKET_ROWS)
        for c2 in (c - 1, c + 1)
        if abs(r2 - r) <= 1 and 0 <= c2 < components.MARKET_COLUMNS
    )
    for r in range(components.MARKET_ROWS)
    for c in range(components.MARKET_COLUMNS)
)
#: Market spaces each marked space opens (the same relation as ``MARKET_OPENERS``).
MARKET_NEIGHBOURS = MARKET_OPENERS
MARKET_COLUMN_MASKS: tuple[int, ...] = tuple(
    sum(1 << market_space(r, c) for r in range(components.MARKET_ROWS)) for c in range(components.MARKET_COLUMNS)
)


def _market_requirements(green: bool) -> tuple[tuple[int, int], ...]:
    discount = components.GREEN_MARKET_DISCOUNT if green else 0
    return tuple(
        (components.BUILDINGS.index(kind), max(0, amount - discount)) for kind, amount in components.MARKET_REQUIREMENTS
    )


#: ``MARKET_REQUIREMENTS[green][col]``: the standing requirement of market column ``col``'s requirement space,
#: (building kind, how many), the green jimador's discounted.
MARKET_REQUIREMENTS = (_market_requirements(False), _market_requirements(True))


def open_market_spaces(marked: int) -> int:
    """Spaces one may mark (if unmarked): column 0, and every space touching a marked one."""
    opened = MARKET_COLUMN_MASKS[0]
    while marked:
        low = marked & -marked
        opened |= MARKET_NEIGHBOURS[low.bit_length() - 1]
        marked ^= low
    return opened


def _copied(value: Any) -> Any:
    """A saved fact, its lists copied (the rest are numbers and booleans)."""
    return list(value) if isinstance(value, list) else value


#: What follows from a set of fences (cached: every new sheet has none, loads repeat positions; a sheet
#: keeps a copy).
_fence_facts = lru_cache(maxsize=4096)(Fencing)


#: ``farm.connections``, cached (loads repeat positions); its answers are only ever read.
_connections = lru_cache(maxsize=4096)(farm.connections)


class Sheet(SheetState):
    """One player's sheet in play: its saved facts (the ``SheetState`` it is) and what follows from them
    (kept up to date, or cached).

    Change a sheet only through its methods: they keep the facts that follow (the held resources, the
    farm's connections and zones, the legal fences) up to date.
    """

    def __init__(self, saved: SheetState | None = None) -> None:
        """A sheet continuing ``saved`` (a copy of it; default: an empty sheet)."""
        saved = SheetState() if saved is None else saved
        super().__init__(**{name: _copied(getattr(saved, name)) for name in SHEET_FIELDS})
        self._rebuild()

    def saved_state(self) -> SheetState:
        """The saved facts (a copy)."""
        return SheetState(**{name: _copied(getattr(self, name)) for name in SHEET_FIELDS})

    def _rebuild(self) -> None:
        """Rebuild every cached fact from the saved ones (a new sheet or a load)."""
        self.hand = [m - c for m, c in zip(self.marked, self.crossed, strict=True)]  # held resources
        self.can: Affordable | None = None  # what the hand can pay for (``affordable``), until it changes
        self.refresh()
        self._refresh_market()
        self._refresh_fences()

    # ------------------------------------------------------------------ cached facts
    def _empty_caches(self) -> None:
        """Caches of facts that only change with the buildings: emptied by each new building (and a load)."""
        self.free_placements: np.ndarray | None = None  # placements on free spaces (game)
        self.build_masks: dict[int, np.ndarray] = {}  # of those, the ones of the affordable kinds (game)
        self.road_mask: np.ndarray | None = None  # legal free roads (game)
        self.requirements_met: int | None = None  # market spaces whose requirement is met (game)
        self.matching: int | None = None  # cask_matching
        self.shops: int | None = None  # linked_shops

    def refresh(self) -> None:
        """Recompute what follows from the buildings (a new sheet or a load; ``add_building`` keeps it)."""
        self.occupied = 0
        self.kind_count = [0] * len(components.BUILDINGS)
        for kind, index in self.buildings:
            self.occupied |= farm.PLACEMENTS[index].spaces
            self.kind_count[kind] += 1
        self.links = _connections(tuple(self.buildings))
        self._refresh_links()

    def _refresh_links(self) -> None:
        """What follows from the connections (after ``links`` changed)."""
        self.linked_kinds = {
            kind for (kind, _), linked in zip(self.buildings, self.links.linked, strict=True) if linked
        }
        self.road_spaces = farm.bit_count(self.links.kind_spaces[components.ROAD])  # market row 2 counts road spaces
        self._empty_caches()
        self._refresh_tequilas()

    def _refresh_tequilas(self) -> None:
        """The tequilas whose building is connected to its partner and whose track has room."""
        self.tequilas_ready = 0
        for t, building in enumerate(components.TEQUILA_BUILDING):
            if building in self.linked_kinds and self.production[t] < components.PRODUCTION_TRACK_LENGTH:
                self.tequilas_ready |= 1 << t

    def _refresh_market(self) -> None:
        self.open_market = open_market_spaces(self.market) & ~self.market  # open, unmarked spaces

    def _refresh_fences(self) -> None:
        """Recompute what follows from the fences (new sheet or load); ``draw_fence`` keeps it after."""
        # zones, forbidden segments (and the speed-up's joined corners)
        self.fencing = _fence_facts(self.fences).copy() if speedups.ENABLED else FloodFillFencing(self.fences)
        self.zones = self.fencing.zones  # in order of their lowest field (the same list, kept by fencing)
        self.legal_fence_bits = self.fencing.legal  # the segments that may be drawn now

    @property
    def fence_mask(self) -> np.ndarray:
        """The legal fences as the fence part of a legal-action mask (made when asked: the game patches
        its kept main-phase mask from ``legal_fence_bits`` itself)."""
        return farm.segment_mask(self.legal_fence_bits)

    def public_sheet(self) -> PublicSheet:
        """The sheet's public facts now (what the others see of it at the start of a round)."""
        return PublicSheet.of(self, self.links.linked)

    def held(self, resource: int) -> int:
        return self.hand[resource]

    def affordable(self) -> Affordable:
        """What the hand can pay for (kept until the hand changes: the masks ask at almost every step)."""
        if self.can is None:
            self.can = affordable(tuple(self.hand))
        return self.can

    def total_held(self) -> int:
        return sum(self.hand)

    def can_pay(self, cost: Mapping[int, int]) -> bool:
        hand = self.hand
        return all(hand[r] >= n for r, n in cost.items())

    def free_actions(self) -> int:
        return self.credits + self.gears_left

    # ------------------------------------------------------------------ gains and payments
    def gain(self, resource: int, amount: int = 1) -> int:
        """Mark ``amount`` squares of a resource track; returns resources of choice earned."""
        if not amount:
            return 0
        choices = 0
        marked = self.marked
        for _ in range(amount):
            if marked[resource] >= components.RESOURCE_TRACK_LENGTH:
                break  # the track is full: the gain is lost
            marked[resource] += 1
            self.hand[resource] += 1
            if marked[resource] in components.RESOURCE_TRACK_COINS:
                choices += self.gain_coins(1)
        self.can = None
        return choices

    def gain_coins(self, amount: int) -> int:
        """Mark ``amount`` coins; returns resources of choice earned (gems)."""
        choices = 0
        for _ in range(amount):
            self.coins_earned += 1
            if self.coins < components.COIN_TRACK_LENGTH:
                self.coins += 1
                if self.coins in components.COIN_TRACK_GEMS:
                    choices += 1
        return choices

    def pay(self, cost: Mapping[int, int]) -> None:
        for resource, amount in cost.items():
            self.spend(resource, amount)

    def spend(self, resource: int, amount: int = 1) -> None:
        """Cross out ``amount`` held squares of a resource."""
        if self.hand[resource] < amount:
            raise AssertionError(f"cannot pay {amount} {components.RESOURCES[resource]}")
        self.crossed[resource] += amount
        self.hand[resource] -= amount
        self.can = None

    def can_gain_any(self) -> bool:
        return any(m < components.RESOURCE_TRACK_LENGTH for m in self.marked)

    def cask_worthwhile(self) -> bool:
        """May the end of the round fill casks (the agave to pay, a cask connected to a distiller, room)?"""
        resource, amount = components.CASK_PRODUCTION_COST
        room = self.marked[components.BARREL] < components.RESOURCE_TRACK_LENGTH
        return self.hand[resource] >= amount and self.cask_matching() > 0 and room

    def shop_worthwhile(self) -> bool:
        """May the end of the round sell in shops (a resource to pay, a shop connected to a cask)?"""
        return self.total_held() >= 1 and self.linked_shops() > 0

    # ------------------------------------------------------------------ the round's actions
    def start_turn(self, gears: int) -> None:
        """A new turn: no virtual die, fences, building actions or bought free actions yet; ``gears``."""
        self.virtual = -1
        self.fences_left = self.builds_left = self.credits = 0
        self.free_road = False
        self.gears_left = gears

    def assign_dice(self, virtual: int, fences: int, builds: int, free_road: bool) -> None:
        """The virtual die went to fencing (0) or building (1), giving these fences and actions."""
        self.virtual, self.fences_left, self.builds_left, self.free_road = virtual, fences, builds, free_road

    def use_building_action(self) -> None:
        self.builds_left -= 1

    def use_free_road(self) -> None:
        self.free_road = False

    def use_free_action(self) -> None:
        """A produce or sell: a bought free action if any is left, else a gear."""
        if self.credits:
            self.credits -= 1
        else:
            self.gears_left -= 1

    def buy_extra(self) -> None:
        """Four resources paid: one more free action this round."""
        self.credits += 1
        self.extra_bought += 1

    def end_main_phase(self) -> None:
        """Unused gears are kept for the final score; what is left of the round is lost."""
        self.gears_unused += self.gears_left
        self.gears_left = self.credits = self.fences_left = self.builds_left = 0
        self.free_road = False

    # ------------------------------------------------------------------ tracks, market, bonuses
    def add_production(self, tequila: int) -> None:
        self.production[tequila] += 1
        self._refresh_tequilas()

    def add_collection(self) -> None:
        self.collections += 1

    def mark_market(self, m: int) -> None:
        self.market |= 1 << m
        self.open_market = (self.open_market | MARKET_NEIGHBOURS[m]) & ~self.market

    def gain_bonus(self, bonus: int) -> None:
        """Record a "first to" bonus (the game decides who may have it)."""
        self.bonuses |= 1 << bonus

    # ------------------------------------------------------------------ the farm
    def add_building(self, kind: int, index: int) -> list[int]:
        """Draw a building; returns the buildings that it newly connected to their chain partner."""
        before = self.links.linked
        self.links = farm.connect(self.links, self.buildings, kind, index)
        self.buildings.append((kind, index))
        self.occupied |= farm.PLACEMENTS[index].spaces
        self.kind_count[kind] += 1
        newly = [i for i, linked in enumerate(self.links.linked) if linked and (i >= len(before) or not before[i])]
        for i in newly:  # connections are never lost: the linked kinds only grow
            self.linked_kinds.add(self.buildings[i][0])
        if kind == components.ROAD:
            self.road_spaces = farm.bit_count(self.links.kind_spaces[components.ROAD])
        self._empty_caches()
        self._refresh_tequilas()
        return newly

    def fill_section(self, section: int) -> None:
        self.sections |= 1 << section

    def draw_fence(self, segment: int) -> list[int]:
        """Draw an unfenced segment: the zone it touches (perhaps split in two) and the legal fences follow.
        Returns that zone or its two parts: the only zones whose border changed."""
        self.fences_left -= 1
        fences = self.fences = self.fences | 1 << segment
        parts = self.fencing.draw(segment)
        self.legal_fence_bits = ~fences & farm.ALL_SEGMENTS & ~self.fencing.blocked  # fencing.legal
        return parts

    def reward_fields(self, fields: int) -> None:
        """Fields newly fenced off (their resources are gained by the game)."""
        self.rewarded_fields |= fields

    # ------------------------------------------------------------------ buildings
    def building_linked(self, kind: int) -> bool:
        """Some building of ``kind`` is connected to its chain partner."""
        return kind in self.linked_kinds

    def cask_matching(self) -> int:
        """Casks connected to a different distiller each (largest matching)."""
        if self.matching is None:
            self.matching = self._cask_matching()
        return self.matching

    def _cask_matching(self) -> int:
        distillers = [i for i, (k, _) in enumerate(self.buildings) if k == components.DISTILLER]
        edges = [
            [d for d in distillers if self.links.reach[i] & farm.PLACEMENTS[self.buildings[d][1]].spaces]
            for i, (k, _) in enumerate(self.buildings)
            if k == components.CASK
        ]
        return farm.max_matching(edges)

    def linked_shops(self) -> int:
        if self.shops is None:
            self.shops = sum(
                1 for i, (k, _) in enumerate(self.buildings) if k == components.SHOP and self.links.linked[i]
            )
        return self.shops

    def requirement_met(self, kind: int, amount: int) -> bool:
        count = self.road_spaces if kind == components.ROAD else self.kind_count[kind]
        return count >= amount

    # ------------------------------------------------------------------ scoring facts
    def coin_prestige(self) -> int:
        return max((v for square, v in components.COIN_TRACK_PRESTIGE.items() if self.coins >= square), default=0)

    def production_prestige(self, tequila: int) -> int:
        count = self.production[tequila]
        return components.PRODUCTION_PRESTIGE[tequila][count - 1] if count else 0

    def collection_prestige(self) -> int:
        reached = min(self.collections, len(components.COLLECTION_PRESTIGE))
        return components.COLLECTION_PRESTIGE[reached - 1] if reached else 0

    def market_count(self) -> int:
        return farm.bit_count(self.market)

    def fenced_resources(self) -> int:
        """Resources shown on fenced-off fields (the tie-break), counted even if a track was full."""
        return sum(len(components.FIELDS[f][0]) for f in farm.spaces_of(self.rewarded_fields))
