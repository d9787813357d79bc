"""Scripted Tequila players.

``planner`` follows the production chain: an agave field, a kiln next to it, a distiller linked
to the kiln, a cask next to the distiller, a shop linked to the cask, then kilns and fields that
fill whole sections. On the printed sheet it follows ``LAYOUT``, a plan drawn for this farm; when
the plan is done (or on another sheet, where the plan does not fit) it places each missing link
of the chain where it connects to its partner, bridging water with roads. It keeps the resources
the next building needs, produces the most valuable tequila it can, fences the fields that show
the resources it lacks, sells on the market with the free actions left, and buys extra free
actions late in the game when a tequila can be paid on top. It reads only public information
(every sheet is open, the others' as shown at the start of the round) through the engine.

Two versions (agent option ``version``, ``planner:version=1``):

* **2** (default) decides the dice by what they are worth (``_dice_value``): the building actions
  its hand can pay for among the next buildings, the fences that can still fence something off, a
  free road, the resources; the virtual die goes to the side worth more, and the starting player
  re-rolls for the best expected worth over the new values. Its layout (``LAYOUT``) builds the chain
  to the cask first, then a shop with a cask of its own (red tequila for two buildings, where version
  1's ``LAYOUT_V1`` reached the first cask with three roads over water). It values a tequila by its points per
  barrel (every tequila costs one barrel, the scarce resource; agave and water pile up), majorities
  included as the counts stand (the others' as shown; solo: the 6th of a type), so it makes red
  tequila and races the others for majorities; it counts the market columns' "first to" bonuses
  still to be had; a building it cannot pay yet does not block its tequila (it keeps only what it
  holds towards it). In the last round it draws only buildings that gain something before the end
  (a filled section, a distiller, cask or shop connected at once), skips the cask production and
  buys free actions to spend what is left on the market. Equal choices are broken at random
  (seeded by the episode), so two planners do not play the same game.
* **1** is the planner as first shipped: deterministic, blind to the others, re-rolls only a 6 and
  puts the virtual die on building whenever it can pay for one of the next buildings.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product

import numpy as np

from fiesta_envs.policies.policy import Policy, VersionedPolicy
from fiesta_envs.tequila import actions, components, farm
from fiesta_envs.tequila.game import Tequila
from fiesta_envs.tequila.scoring import majority_awards
from fiesta_envs.tequila.sheet import MARKET_BONUS, MARKET_BONUS_COLUMNS, MARKET_COLUMN_MASKS, TEQUILA_BONUS, Sheet
from fiesta_envs.tequila.state import Phase

#: Buildings in chain order, and the most of each the planner wants.
CHAIN = (components.AGAVE_FIELD, components.KILN, components.DISTILLER, components.CASK, components.SHOP)
WANTED = {
    components.AGAVE_FIELD: 2,
    components.KILN: 3,
    components.DISTILLER: 2,
    components.CASK: 2,
    components.SHOP: 2,
}
TEQUILA_ORDER = (components.RED, components.PINK, components.CREAM, components.WHITE)
#: The next building of the chain after each kind.
FOLLOWER = {CHAIN[i]: CHAIN[i + 1] for i in range(len(CHAIN) - 1)}
#: The four sides of each field, as a mask of segments.
FIELD_SEGMENT_MASKS = tuple(sum(1 << s for s in sides) for sides in farm.FIELD_SEGMENTS)
KIND_PLACEMENTS: dict[int, list[int]] = {
    kind: [i for i, p in enumerate(farm.PLACEMENTS) if p.kind == kind] for kind in range(len(components.BUILDINGS))
}
#: Version 1's layout for the printed sheet, in building order: a field with two kilns (filling
#: section 0) and a second field, then the chain on (road over water, distiller, cask, roads to
#: the shop), then buildings that fill the other sections. The order was tuned on a few dozen games.
LAYOUT_NAMES_V1: tuple[str, ...] = (
    "agave at 0 0 as 0",
    "kiln at 0 2 as 1",
    "kiln at 2 0 as 0",
    "agave at 3 2 as 0",
    "road at 0 3 as 0",
    "distiller at 0 4 as 0",
    "cask at 0 5 as 0",
    "kiln at 2 4 as 0",
    "road at 1 6 as 0",
    "road at 2 6 as 0",
    "road at 3 6 as 0",
    "shop at 4 5 as 2",
    "agave at 5 0 as 0",
    "kiln at 7 0 as 0",
    "road at 4 0 as 0",
    "kiln at 6 7 as 1",
    "road at 4 5 as 0",
    "road at 5 4 as 0",
    "kiln at 2 7 as 1",
)
#: Version 2's layout: the chain from the field to the cask first (a field, two kilns, a road over water, the
#: distiller, the cask), then a shop with a cask of its own in section 5 (a shop needs a cask, not a distiller
#: behind it: red tequila for two buildings where version 1 needed three roads over water and the shop), then
#: the second field and what fills the other sections. Mean solo score 229 against 209 with version 1's
#: layout (300 deals, side A; cask tile B 260 against 252).
LAYOUT_NAMES: tuple[str, ...] = (
    "agave at 0 0 as 0",
    "kiln at 0 2 as 1",
    "kiln at 2 0 as 0",
    "road at 0 3 as 0",
    "distiller at 0 4 as 0",
    "cask at 0 5 as 0",
    "shop at 4 4 as 2",
    "cask at 5 7 as 1",
    "agave at 3 2 as 0",
    "kiln at 2 4 as 0",
    "road at 4 6 as 0",
    "agave at 5 0 as 0",
    "kiln at 7 0 as 0",
    "road at 4 0 as 0",
    "road at 4 5 as 0",
    "road at 5 4 as 0",
    "kiln at 2 7 as 1",
)
_BY_NAME = {p.name: i for i, p in enumerate(farm.PLACEMENTS)}


def _layout(names: tuple[str, ...]) -> tuple[int, ...]:
    """A layout as placement indices (empty when the sheet is not the printed one)."""
    return tuple(_BY_NAME[n] for n in names) if all(n in _BY_NAME for n in names) else ()


LAYOUT: tuple[int, ...] = _layout(LAYOUT_NAMES)
LAYOUT_V1: tuple[int, ...] = _layout(LAYOUT_NAMES_V1)
#: Layout entries looked at ahead of the first one not yet built.
LOOKAHEAD = 3

#: Versions of the planner (agent option ``version``): 1 as first shipped, 2 the default (module docstring).
VERSIONS = (1, 2)
#: Version 2's estimate of what the dice of a round are worth, in points: each building action it can pay
#: for, each fence that can still fence something off, a free road (cask tile B), each resource gained.
BUILD_ACTION_VALUE = 6.0
FENCE_VALUE = 1.5
FREE_ROAD_VALUE = 3.0
RESOURCE_VALUE = 1.0
#: Building kinds whose placements are counted when version 2 asks how many building actions it can use.
USABLE_LOOKAHEAD = 4
#: Version 2 breaks ties between equal choices at random: each action's value gets its own noise below this,
#: drawn once per episode from the episode's seed (so a choice depends on the position and the seed only).
TIE_NOISE = 1e-3
#: Version 2 values a tequila by its points per barrel: each other resource it costs counts this much.
OTHER_RESOURCE_PRICE = 0.25
#: Version 2 buys extra free actions (for a tequila) from this round (0-based) on.
EXTRA_FROM_ROUND = 5


def near_spaces(sheet: Sheet, kind: int) -> int:
    """Spaces where a new building would be connected to some building of ``kind``."""
    target = sheet.links.kind_spaces[kind]
    near = farm.grow(target)
    for net in farm.components_of(sheet.links.kind_spaces[components.ROAD]):
        if farm.grow(net) & target:
            near |= farm.grow(net)
    return near


@lru_cache(maxsize=1 << 12)
def _placements_left(layout: tuple[int, ...], occupied: int) -> tuple[int, ...]:
    """The placements of ``layout`` whose spaces are all free on a farm with ``occupied`` spaces (kept: a player
    asks several times per decision)."""
    return tuple(p for p in layout if not farm.PLACEMENTS[p].spaces & occupied)


class Planner(VersionedPolicy):
    """Builds the production chain, fences for the resources it needs, produces and sells greedily
    (``planner:version=1`` plays as first shipped, see the module docstring)."""

    needs_observation = False  # reads the engine (public facts only)
    versions = VERSIONS

    def __init__(self, seed: int | None = None, version: int | None = None) -> None:
        super().__init__(seed, version)
        self.layout = LAYOUT_V1 if self.version == 1 else LAYOUT
        self._draw_tie_breaks()

    def start_episode(self, seed: int | None) -> None:
        super().start_episode(seed)
        self._draw_tie_breaks()

    def _draw_tie_breaks(self) -> None:
        self.tie_breaks = self.rng.random(actions.NUM_ACTIONS) * TIE_NOISE if self.version >= 2 else None
        self._noise = [0.0] * actions.NUM_ACTIONS if self.tie_breaks is None else self.tie_breaks.tolist()

    def noise(self, action: int) -> float:
        """Version 2's seeded tie-breaker for ``action`` (0 for version 1, which is deterministic)."""
        return self._noise[action]  # the tie-breaks as Python floats

    def act(self, observation: np.ndarray | None, action_mask: np.ndarray, game: Tequila, player: int) -> int:
        legal = np.flatnonzero(action_mask)
        if len(legal) == 1:
            return int(legal[0])
        sheet = game.state.sheets[player]
        decision = game.decision
        need = self._needs(sheet)
        if decision == Phase.PAY:
            return self._pay(sheet, need, action_mask)
        if decision == Phase.GAIN:
            return self._gain(sheet, need, action_mask)
        if decision == Phase.REROLL:
            return self._reroll(game) if self.version == 1 else self._reroll_by_value(game, player, need)
        if decision == Phase.VIRTUAL:
            if self.version == 1:
                return actions.VIRTUAL + (1 if self._wants_to_build(sheet) else 0)
            useful_fences = self._useful_fences(sheet)
            return actions.VIRTUAL + self._best_virtual(game, player, game.state.dice, sheet.hand, useful_fences)[0]
        if decision == Phase.CASK and self.version >= 2 and game.state.round == components.ROUNDS - 1:
            return actions.CASK + actions.NO  # barrels after the last main phase are worth nothing
        if decision in (Phase.CASK, Phase.SHOP):
            start = actions.CASK if decision == Phase.CASK else actions.SHOP
            return start + actions.YES
        return self._main(game, sheet, need, action_mask)

    # ------------------------------------------------------------------ the dice by value (version 2)
    def _reroll_by_value(self, game: Tequila, player: int, need: np.ndarray) -> int:
        """The re-roll with the best expected worth of the dice (``_dice_value``) over the new values."""
        faces = range(1, 7)
        worth: dict[tuple[int, ...], float] = {}  # the dice's worth, by their values in order
        useful_fences = self._useful_fences(game.state.sheets[player])
        best, best_value = 0, -1e9
        for choice in range(len(actions.REROLL_CHOICES)):
            total, outcomes = 0.0, 0
            for new in product(faces if choice in (1, 3) else (0,), faces if choice in (2, 3) else (0,)):
                dice = [new[0] or game.state.dice[0], new[1] or game.state.dice[1]]
                key = tuple(sorted(dice))
                if key not in worth:
                    worth[key] = self._dice_value(game, player, dice, need, useful_fences)
                total += worth[key]
                outcomes += 1
            if total / outcomes > best_value + 1e-9:
                best, best_value = choice, total / outcomes
        return actions.REROLL + best

    def _dice_value(self, game: Tequila, player: int, dice: list[int], need: np.ndarray, useful_fences: int) -> float:
        """Points the dice are worth to ``player``: the resources they give, then the best virtual die."""
        tile = components.CASK_TILE_RESOURCES[game.config["cask_tile"]]
        hand = list(game.state.sheets[player].hand)
        value = 0.0
        for die in dice:
            resource = tile[die - 1]
            if resource is not None:
                hand[resource] += 1
                value += RESOURCE_VALUE * (1.0 + max(0.0, need[resource]))
        return value + self._best_virtual(game, player, dice, hand, useful_fences)[1]

    def _best_virtual(
        self, game: Tequila, player: int, dice: list[int], hand: list[int], useful_fences: int
    ) -> tuple[int, float]:
        """The virtual die's side (0 fencing, 1 building) giving the most: building actions it can pay for,
        fences that can still fence something off, a free road; and what that is worth."""
        usable = self._usable_builds(game.state.sheets[player], hand)
        best, best_value = 0, -1e9
        for virtual in (0, 1):
            fences, builds, free_road = game.dice_actions(player, dice, virtual)
            value = (
                BUILD_ACTION_VALUE * min(builds, usable)
                + FENCE_VALUE * min(fences, useful_fences)
                + FREE_ROAD_VALUE * free_road
            )
            if value > best_value:
                best, best_value = virtual, value
        return best, best_value

    def _usable_builds(self, sheet: Sheet, hand: list[int]) -> int:
        """How many of the next buildings ``hand`` pays for, one after another (roads with the most held)."""
        plan = self._plan(sheet)
        kinds = [farm.PLACEMENTS[p].kind for p in plan[:USABLE_LOOKAHEAD]] if plan else self._wanted_buildings(sheet)
        hand = list(hand)
        count = 0
        for kind in kinds[:USABLE_LOOKAHEAD]:
            if kind == components.ROAD:
                if sum(hand) < components.ROAD_COST_OF_CHOICE:
                    continue
                for _ in range(components.ROAD_COST_OF_CHOICE):
                    hand[hand.index(max(hand))] -= 1  # the first of the most held
            else:
                cost = components.BUILDING_COSTS[kind]
                if any(hand[r] < n for r, n in cost.items()):
                    continue
                for r, n in cost.items():
                    hand[r] -= n
            count += 1
        return count

    @staticmethod
    def _useful_fences(sheet: Sheet) -> int:
        """Segments that may still be drawn and border a field not yet fenced off."""
        count = 0
        for s in farm.spaces_of(sheet.legal_fence_bits):
            if any(f >= 0 and not sheet.rewarded_fields >> f & 1 for f in farm.SEGMENT_FIELDS[s]):
                count += 1
        return count

    # ------------------------------------------------------------------ what to aim for
    def _wanted_buildings(self, sheet: Sheet) -> list[int]:
        """Building kinds worth building, most urgent first: the missing links of the chain, then more."""
        missing = [
            kind
            for kind in CHAIN
            if sheet.kind_count[kind] == 0 or (kind != components.AGAVE_FIELD and not sheet.building_linked(kind))
        ]
        more = [kind for kind in CHAIN if kind not in missing and sheet.kind_count[kind] < WANTED[kind]]
        return missing + more

    def _next_building(self, sheet: Sheet) -> int | None:
        plan = self._plan(sheet)
        if plan:
            return farm.PLACEMENTS[plan[0]].kind
        wanted = self._wanted_buildings(sheet)
        return wanted[0] if wanted else None

    def _plan(self, sheet: Sheet) -> tuple[int, ...]:
        """Layout placements still to build (those whose spaces are all free)."""
        return _placements_left(self.layout, sheet.occupied)

    def _needs(self, sheet: Sheet) -> np.ndarray:
        """How much the planner wants one more of each resource (higher: more)."""
        need = [0.5] * len(components.RESOURCES)  # Python floats: the same doubles as numpy's, sooner
        kind = self._next_building(sheet)
        if kind is not None:
            for r, n in components.BUILDING_COSTS[kind].items():
                need[r] += 2.0 * max(0, n - sheet.held(r) + 1)
        for t in TEQUILA_ORDER:
            if sheet.building_linked(components.TEQUILA_BUILDING[t]):
                for r, n in components.TEQUILA_COSTS[t].items():
                    need[r] += max(0, 2 * n - sheet.held(r)) * (1 + t / 2)
        for r in range(len(components.RESOURCES)):
            if sheet.marked[r] >= components.RESOURCE_TRACK_LENGTH:
                need[r] = -1.0
        return np.array(need)

    def _wants_to_build(self, sheet: Sheet) -> bool:
        plan = self._plan(sheet)
        if plan:
            return any(self._can_afford(sheet, farm.PLACEMENTS[p].kind) for p in plan[:LOOKAHEAD])
        return any(self._can_afford(sheet, kind) for kind in self._wanted_buildings(sheet)[:2])

    @staticmethod
    def _can_afford(sheet: Sheet, kind: int) -> bool:
        if kind == components.ROAD:
            return sheet.total_held() >= components.ROAD_COST_OF_CHOICE
        return sheet.can_pay(components.BUILDING_COSTS[kind])

    # ------------------------------------------------------------------ sub-steps
    def _pay(self, sheet: Sheet, need: np.ndarray, mask: np.ndarray) -> int:
        options = [r for r in range(len(components.RESOURCES)) if mask[actions.PAY + r]]
        return actions.PAY + max(options, key=lambda r: (sheet.held(r) - 2 * need[r], -r))

    def _gain(self, sheet: Sheet, need: np.ndarray, mask: np.ndarray) -> int:
        options = [r for r in range(len(components.RESOURCES)) if mask[actions.GAIN + r]]
        return actions.GAIN + max(options, key=lambda r: (need[r], -r))

    def _reroll(self, game: Tequila) -> int:
        tile = components.CASK_TILE_RESOURCES[game.config["cask_tile"]]
        first, second = (tile[d - 1] is None for d in game.state.dice)
        return actions.REROLL + (3 if first and second else 1 if first else 2 if second else 0)

    # ------------------------------------------------------------------ main phase
    def _main(self, game: Tequila, sheet: Sheet, need: np.ndarray, mask: np.ndarray) -> int:
        build = self._best_build(
            sheet, mask, last_round=self.version >= 2 and game.state.round == components.ROUNDS - 1
        )
        if build is not None:
            return build
        reserve = self._reserve(game, sheet)
        tequila = self._best_tequila(game, sheet, mask, reserve)
        if tequila is not None:
            return tequila
        if sheet.free_road:
            road = self._best_free_road(sheet, mask)
            if road is not None:
                return road
        fence = self._best_fence(sheet, need, mask)
        if fence is not None:
            return fence
        sale = self._best_sale(game, sheet, mask, reserve)
        if sale is not None:
            return sale
        if mask[actions.EXTRA] and self._extra_pays(game, sheet, reserve):
            return actions.EXTRA
        return actions.END

    def _best_tequila(self, game: Tequila, sheet: Sheet, mask: np.ndarray, reserve: dict[int, int]) -> int | None:
        """The tequila adding the most prestige (track, collection, first-to bonus) per resource."""
        best, best_value = None, 0.0
        for t in TEQUILA_ORDER:
            cost = components.TEQUILA_COSTS[t]
            if not mask[actions.PRODUCE + t] or not self._affordable_after(sheet, cost, reserve):
                continue
            if self.version == 1:
                value = self._tequila_prestige(game, sheet, t) / (0.5 + sum(cost.values()))
            else:  # every tequila costs one barrel, the scarce resource: the rest is cheap
                others = sum(cost.values()) - cost.get(components.BARREL, 0)
                gain = self._tequila_prestige(game, sheet, t) + self._majority_gain(game, sheet, t)
                value = gain / (1.0 + OTHER_RESOURCE_PRICE * others) + self.noise(actions.PRODUCE + t)
            if value > best_value:
                best, best_value = actions.PRODUCE + t, value
        return best

    @staticmethod
    def _tequila_prestige(game: Tequila, sheet: Sheet, t: int) -> float:
        count = sheet.production[t]
        track = components.PRODUCTION_PRESTIGE[t]
        value = float(track[count] - (track[count - 1] if count else 0))
        counts = list(sheet.production)
        counts[t] += 1
        collections = min(min(counts), len(components.COLLECTION_PRESTIGE))
        if collections > min(sheet.collections, len(components.COLLECTION_PRESTIGE)):
            value += components.COLLECTION_PRESTIGE[collections - 1] - sheet.collection_prestige() + 1
        first = game.state.bonus_round[TEQUILA_BONUS + t]
        if count + 1 == components.PRODUCTION_BONUS_SQUARE + 1 and first in (-1, game.state.round):
            value += components.PRODUCTION_BONUS_PRESTIGE[t] + 1
        return value

    @staticmethod
    def _majority_gain(game: Tequila, sheet: Sheet, t: int) -> float:
        """Majority points one more tequila ``t`` would win as the counts stand (the others' as shown at the
        start of the round; solo: reaching the minimum count)."""
        player = game.state.sheets.index(sheet)
        counts = [shown.production[t] for shown in game.state.shown_sheets]
        counts[player] = sheet.production[t]
        left, right = components.TEQUILA_MAJORITY[t]
        before = majority_awards(counts, left, right, components.SOLO_TEQUILA_MINIMUM)[player]
        counts[player] += 1
        return float(majority_awards(counts, left, right, components.SOLO_TEQUILA_MINIMUM)[player] - before)

    def _reserve(self, game: Tequila, sheet: Sheet) -> dict[int, int]:
        """Resources kept for the next building while the chain is being built."""
        kind = self._next_building(sheet)
        if kind is None or game.state.round >= components.ROUNDS - 1:
            return {}
        cost = components.BUILDING_COSTS[kind]
        if self.version == 1:  # a resource not held at all blocked every payment
            return dict(cost)
        return {r: min(n, sheet.held(r)) for r, n in cost.items()}  # keep what is held of it

    @staticmethod
    def _affordable_after(sheet: Sheet, cost: dict[int, int], reserve: dict[int, int]) -> bool:
        return all(sheet.held(r) - cost.get(r, 0) >= reserve.get(r, 0) for r in range(len(components.RESOURCES)))

    def _best_build(self, sheet: Sheet, mask: np.ndarray, last_round: bool = False) -> int | None:
        """The next building of the plan (or of the chain) that can be built; in the last round (version 2)
        only one that gains something before the end."""
        if last_round:
            mask = mask.copy()
            for index in np.flatnonzero(mask[actions.BUILD : actions.BUILD + farm.NUM_PLACEMENTS]):
                if not self._pays_now(sheet, int(index)):
                    mask[actions.BUILD + index] = 0
        plan = self._plan(sheet)
        if plan:
            for p in plan[:LOOKAHEAD]:
                if mask[actions.BUILD + p]:
                    return actions.BUILD + p
            if not last_round:
                return None
        for kind in self._wanted_buildings(sheet):
            action = self._build_kind(sheet, kind, mask)
            if action is not None:
                return action
        return None

    @staticmethod
    def _pays_now(sheet: Sheet, index: int) -> bool:
        """A building worth drawing in the last round: it fills a section, or it is connected to its chain
        partner at once and is a distiller (barrels), cask (pink tequila) or shop (coins, red tequila).
        Anything else (an agave field, a kiln, a road) gains only resources, worth nothing at the end."""
        placement = farm.PLACEMENTS[index]
        occupied = sheet.occupied | placement.spaces
        for s in farm.PLACEMENT_SECTIONS[index]:
            if not sheet.sections >> s & 1 and not farm.SECTIONS[s] & ~occupied:
                return True
        if placement.kind not in (components.DISTILLER, components.CASK, components.SHOP):
            return False
        return farm.connect(sheet.links, sheet.buildings, placement.kind, index).linked[-1]

    def _build_kind(self, sheet: Sheet, kind: int, mask: np.ndarray) -> int | None:
        partner = components.CHAIN_PARTNER[kind]
        near = near_spaces(sheet, partner) if partner is not None else farm.FULL
        legal = mask[actions.BUILD : actions.BUILD + farm.NUM_PLACEMENTS]
        best, best_value = None, 0.0
        for index in KIND_PLACEMENTS[kind]:
            placement = farm.PLACEMENTS[index]
            if not legal[index] or not placement.spaces & near:
                continue
            value = 1.0 + self._placement_value(sheet, index) + self.noise(actions.BUILD + index)
            if value > best_value:
                best, best_value = actions.BUILD + index, value
        if best is not None or partner is None:
            return best
        return self._bridge(sheet, kind, near, legal)

    def _placement_value(self, sheet: Sheet, index: int) -> float:
        """Resources on the spaces, sections filled, and room left for the next link of the chain."""
        placement = farm.PLACEMENTS[index]
        value = float(len(farm.placement_resources(index)))
        occupied = sheet.occupied | placement.spaces
        for s in {farm.SECTION_OF_SPACE[x] for x in farm.spaces_of(placement.spaces)}:
            if farm.SECTIONS[s] & ~occupied == 0:
                value += 3.0
        follower = FOLLOWER.get(placement.kind)
        if follower is not None:
            around = farm.grow(placement.spaces)
            room = sum(
                1
                for j in KIND_PLACEMENTS[follower]
                if farm.PLACEMENTS[j].spaces & around and not farm.PLACEMENTS[j].spaces & occupied
            )
            value += min(room, 6)
        return value

    def _bridge(self, sheet: Sheet, kind: int, near: int, legal: np.ndarray) -> int | None:
        """A road touching the partner's network that opens the most placements of ``kind``."""
        best, best_value = None, 0
        for x in farm.spaces_of(near & ~sheet.occupied):
            road = farm.ROAD_AT[x]
            if not legal[road]:
                continue
            reach = farm.grow(1 << x)
            value = sum(
                1
                for j in KIND_PLACEMENTS[kind]
                if farm.PLACEMENTS[j].spaces & reach and not farm.PLACEMENTS[j].spaces & (sheet.occupied | 1 << x)
            )
            if value > best_value:
                best, best_value = actions.BUILD + road, value
        return best

    def _best_free_road(self, sheet: Sheet, mask: np.ndarray) -> int | None:
        for p in self._plan(sheet):
            if farm.PLACEMENTS[p].kind == components.ROAD:
                x = farm.spaces_of(farm.PLACEMENTS[p].spaces)[0]
                if mask[actions.FREE_ROAD + x]:
                    return actions.FREE_ROAD + x
        best, best_value = None, 0.0
        for free in np.flatnonzero(mask[actions.FREE_ROAD : actions.FREE_ROAD + farm.SPACES]):
            x = int(free)
            value = farm.bit_count(farm.grow(1 << x) & sheet.occupied) + (farm.SPACE_RESOURCE[x] is not None)
            if value > best_value:
                best, best_value = actions.FREE_ROAD + x, value
        return best

    def _best_fence(self, sheet: Sheet, need: np.ndarray, mask: np.ndarray) -> int | None:
        """The legal fence worth the most (``fence_values``; the first of equals), None when none is legal."""
        best, best_value = None, -1e9
        for action, value in self.fence_values(sheet, need, mask).items():
            if value > best_value:
                best, best_value = action, value
        return best

    def fence_values(self, sheet: Sheet, need: np.ndarray, mask: np.ndarray) -> dict[int, float]:
        """Each legal fence and its worth: the fields it fences off (3 each and their resources, the needed
        ones more), the progress towards fencing off a field, the tie-breaker."""
        values: dict[int, float] = {}
        resource_worth = [1.0 + max(0.0, float(n)) for n in need]  # one resource shown on a field fenced off
        field_worth: dict[int, float] = {}  # a field fenced off: 3 and its resources
        segments = [int(s) for s in np.flatnonzero(mask[actions.FENCE : actions.FENCE + farm.NUM_SEGMENTS])]
        drawable = 0
        for s in segments:
            drawable |= 1 << s
        for s, closing in zip(segments, farm.closing_zones(sheet.fences, drawable), strict=True):
            value = 0.0
            for zone in closing:
                for f in farm.spaces_of(zone & ~sheet.rewarded_fields):
                    worth = field_worth.get(f)
                    if worth is None:
                        worth = field_worth[f] = 3.0 + sum(resource_worth[r] for r in components.FIELDS[f][0])
                    value += worth
            # progress towards fencing off a single unrewarded field
            after = sheet.fences | 1 << s
            for f in farm.SEGMENT_FIELDS[s]:
                if f >= 0 and not sheet.rewarded_fields >> f & 1:
                    missing = (FIELD_SEGMENT_MASKS[f] & ~after).bit_count()  # its sides still open
                    value += (4 - missing) * 0.5
            values[actions.FENCE + s] = value + self.noise(actions.FENCE + s)
        return values

    def _best_sale(self, game: Tequila, sheet: Sheet, mask: np.ndarray, reserve: dict[int, int]) -> int | None:
        best, best_value = None, -1e9
        for m in np.flatnonzero(mask[actions.SELL : actions.SELL + components.MARKET_ROWS * components.MARKET_COLUMNS]):
            row, col = divmod(int(m), components.MARKET_COLUMNS)
            cost = game.market_cost(game.current_player, int(m))
            if sum(cost.values()) > 1 and not self._affordable_after(sheet, cost, reserve):
                continue  # a one-resource sale gives a resource of choice back
            value = col - 2.0 * sum(cost.values()) + (3.0 if row == components.MARKET_REQUIREMENT_ROW else 0.0)
            if self.version >= 2:
                value += self._column_bonus(game, sheet, col) + self.noise(actions.SELL + int(m))
            if value > best_value:
                best, best_value = actions.SELL + int(m), value
        return best

    @staticmethod
    def _column_bonus(game: Tequila, sheet: Sheet, col: int) -> float:
        """What a first mark in a market column gains (coins counted 2), if its bonus is still to be had."""
        if col not in components.MARKET_COLUMN_BONUSES or sheet.market & MARKET_COLUMN_MASKS[col]:
            return 0.0
        first = game.state.bonus_round[MARKET_BONUS + MARKET_BONUS_COLUMNS.index(col)]
        if not (game.solo or first in (-1, game.state.round)):
            return 0.0
        coins, prestige = components.MARKET_COLUMN_BONUSES[col]
        return prestige + 2.0 * coins

    @staticmethod
    def _sale_after_extra(game: Tequila, sheet: Sheet) -> bool:
        """Some open market space could still be marked after paying 4 resources for a free action (the
        amounts only: which resources are paid is chosen then)."""
        spare = sheet.total_held() - components.EXTRA_ACTION_COST
        player = game.state.sheets.index(sheet)
        for m in farm.spaces_of(sheet.open_market):
            row, col = divmod(m, components.MARKET_COLUMNS)
            if row == components.MARKET_REQUIREMENT_ROW:
                if sheet.requirement_met(*game.market_requirement(player, col)):
                    return True
            elif sum(game.market_cost(player, m).values()) <= spare:
                return True
        return False

    def _extra_pays(self, game: Tequila, sheet: Sheet, reserve: dict[int, int]) -> bool:
        """Buy a free action when a linked tequila can be paid on top of 4 resources and the reserve
        (version 1: from round 6 on; version 2: from ``EXTRA_FROM_ROUND`` on)."""
        if game.state.round < (components.ROUNDS - 3 if self.version == 1 else EXTRA_FROM_ROUND):
            return False
        if self.version >= 2 and game.state.round == components.ROUNDS - 1 and self._sale_after_extra(game, sheet):
            return True  # the last round: resources left are worth nothing, a market space 1 point
        spare = sheet.total_held() - components.EXTRA_ACTION_COST - sum(reserve.values())
        for t in TEQUILA_ORDER:
            cost = components.TEQUILA_COSTS[t]
            if (
                sheet.production[t] < components.PRODUCTION_TRACK_LENGTH
                and sheet.building_linked(components.TEQUILA_BUILDING[t])
                and self._affordable_after(sheet, cost, reserve)
                and spare - sum(cost.values()) >= 0
            ):
                return True
        return False


BASELINES: dict[str, type[Policy]] = {"planner": Planner}
