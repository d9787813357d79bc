"""Scripted Tequila players.

``planner`` follows the production chain: an agave field, a kiln next to it, a distiller linked
to the kiln, a cask next to the distiller, a shop linked to the cask, then kilns and fields that
fill whole sections. On the printed sheet it follows ``LAYOUT``, a plan drawn for this farm; when
the plan is done (or on another sheet, where the plan does not fit) it places each missing link
of the chain where it connects to its partner, bridging water with roads. It keeps the resources
the next building needs, produces the most valuable tequila it can, fences the fields that show
the resources it lacks, sells on the market with the free actions left, and buys extra free
actions late in the game when a tequila can be paid on top. It reads only public information
(every sheet is open) through the engine.
"""

from __future__ import annotations

import numpy as np

from fiesta_envs.core.policy import Policy
from fiesta_envs.tequila import actions, components, farm
from fiesta_envs.tequila.game import Tequila
from fiesta_envs.tequila.sheet import TEQUILA_BONUS, Sheet
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
KIND_PLACEMENTS: dict[int, list[int]] = {
    kind: [i for i, p in enumerate(farm.PLACEMENTS) if p.kind == kind] for kind in range(len(components.BUILDINGS))
}
#: The planner's layout for the printed sheet, in building order: a field with two kilns (filling
#: section 0) and a second field, then the chain on (road over water, distiller, cask, roads to
#: the shop), then buildings that fill the other sections. The order was tuned on a few dozen games.
LAYOUT_NAMES: tuple[str, ...] = (
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
_BY_NAME = {p.name: i for i, p in enumerate(farm.PLACEMENTS)}
#: The layout as placement indices (empty when the sheet is not the printed one).
LAYOUT: tuple[int, ...] = tuple(_BY_NAME[n] for n in LAYOUT_NAMES) if all(n in _BY_NAME for n in LAYOUT_NAMES) else ()
#: Layout entries looked at ahead of the first one not yet built.
LOOKAHEAD = 3


def near_spaces(sheet: Sheet, kind: int) -> int:
    """Spaces where a new building would be connected to some building of ``kind``."""
    target = sheet.links.kind_spaces[kind]
    near = farm.grow(target)
    for net in farm.components_of(sheet.links.kind_spaces[components.ROAD]):
        if farm.grow(net) & target:
            near |= farm.grow(net)
    return near


class Planner(Policy):
    """Builds the production chain, fences for the resources it needs, produces and sells greedily."""

    def act(self, observation: np.ndarray, action_mask: np.ndarray, game: Tequila, player: int) -> int:
        legal = np.flatnonzero(action_mask)
        if len(legal) == 1:
            return int(legal[0])
        sheet = game.sheets[player]
        decision = game.decision
        need = self._needs(sheet)
        if decision == Phase.PAY:
            return self._pay(sheet, need, action_mask)
        if decision == Phase.GAIN:
            return self._gain(sheet, need, action_mask)
        if decision == Phase.REROLL:
            return self._reroll(game)
        if decision == Phase.VIRTUAL:
            return actions.VIRTUAL + (1 if self._wants_to_build(sheet) else 0)
        if decision in (Phase.CASK, Phase.SHOP):
            start = actions.CASK if decision == Phase.CASK else actions.SHOP
            return start + actions.YES
        return self._main(game, sheet, need, action_mask)

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

    @staticmethod
    def _plan(sheet: Sheet) -> list[int]:
        """Layout placements still to build (those whose spaces are all free)."""
        return [p for p in LAYOUT if not farm.PLACEMENTS[p].spaces & sheet.occupied]

    def _needs(self, sheet: Sheet) -> np.ndarray:
        """How much the planner wants one more of each resource (higher: more)."""
        need = np.full(len(components.RESOURCES), 0.5)
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
        return need

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
        first, second = (tile[d - 1] is None for d in game.dice)
        return actions.REROLL + (3 if first and second else 1 if first else 2 if second else 0)

    # ------------------------------------------------------------------ main phase
    def _main(self, game: Tequila, sheet: Sheet, need: np.ndarray, mask: np.ndarray) -> int:
        build = self._best_build(sheet, mask)
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
            value = self._tequila_prestige(game, sheet, t) / (0.5 + sum(cost.values()))
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
        first = game.bonus_round[TEQUILA_BONUS + t]
        if count + 1 == components.PRODUCTION_BONUS_SQUARE + 1 and first in (-1, game.round):
            value += components.PRODUCTION_BONUS_PRESTIGE[t] + 1
        return value

    def _reserve(self, game: Tequila, sheet: Sheet) -> dict[int, int]:
        """Resources kept for the next building while the chain is being built."""
        kind = self._next_building(sheet)
        if kind is None or game.round >= components.ROUNDS - 1:
            return {}
        return dict(components.BUILDING_COSTS[kind])

    @staticmethod
    def _affordable_after(sheet: Sheet, cost: dict[int, int], reserve: dict[int, int]) -> bool:
        return all(sheet.held(r) - cost.get(r, 0) >= reserve.get(r, 0) for r in range(len(components.RESOURCES)))

    def _best_build(self, sheet: Sheet, mask: np.ndarray) -> int | None:
        plan = self._plan(sheet)
        if plan:
            for p in plan[:LOOKAHEAD]:
                if mask[actions.BUILD + p]:
                    return actions.BUILD + p
            return None
        for kind in self._wanted_buildings(sheet):
            action = self._build_kind(sheet, kind, mask)
            if action is not None:
                return action
        return None

    def _build_kind(self, sheet: Sheet, kind: int, mask: np.ndarray) -> int | None:
        partner = components.CHAIN_PARTNER[kind]
        near = near_spaces(sheet, partner) if partner is not None else farm.FULL
        legal = mask[actions.BUILD : actions.BUILD + farm.NUM_PLACEMENTS]
        best, best_value = None, 0.0
        for index in KIND_PLACEMENTS[kind]:
            placement = farm.PLACEMENTS[index]
            if not legal[index] or not placement.spaces & near:
                continue
            value = 1.0 + self._placement_value(sheet, index)
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
        for x in np.flatnonzero(mask[actions.FREE_ROAD : actions.FREE_ROAD + farm.SPACES]):
            value = farm.bit_count(farm.grow(1 << int(x)) & sheet.occupied) + (farm.SPACE_RESOURCE[x] is not None)
            if value > best_value:
                best, best_value = actions.FREE_ROAD + int(x), value
        return best

    def _best_fence(self, sheet: Sheet, need: np.ndarray, mask: np.ndarray) -> int | None:
        segments = np.flatnonzero(mask[actions.FENCE : actions.FENCE + farm.NUM_SEGMENTS])
        if len(segments) == 0:
            return None
        best, best_value = None, -1e9
        for s in segments:
            s = int(s)
            value = 0.0
            for zone in farm.closed_zones_by(s, sheet.fences):
                for f in farm.spaces_of(zone & ~sheet.rewarded_fields):
                    value += 3.0 + sum(1.0 + max(0.0, need[r]) for r in components.FIELDS[f][0])
            # progress towards fencing off a single unrewarded field
            after = sheet.fences | 1 << s
            for f in farm.SEGMENT_FIELDS[s]:
                if f >= 0 and not sheet.rewarded_fields >> f & 1:
                    missing = sum(1 for seg in farm.FIELD_SEGMENTS[f] if not after >> seg & 1)
                    value += (4 - missing) * 0.5
            if value > best_value:
                best, best_value = actions.FENCE + s, value
        return best

    def _best_sale(self, game: Tequila, sheet: Sheet, mask: np.ndarray, reserve: dict[int, int]) -> int | None:
        best, best_value = None, -1e9
        for m in np.flatnonzero(mask[actions.SELL : actions.SELL + components.MARKET_ROWS * components.MARKET_COLUMNS]):
            row, col = divmod(int(m), components.MARKET_COLUMNS)
            cost = game.market_cost(game.current_player, int(m))
            if sum(cost.values()) > 1 and not self._affordable_after(sheet, cost, reserve):
                continue  # a one-resource sale gives a resource of choice back
            value = col - 2.0 * sum(cost.values()) + (3.0 if row == components.MARKET_REQUIREMENT_ROW else 0.0)
            if value > best_value:
                best, best_value = actions.SELL + int(m), value
        return best

    def _extra_pays(self, game: Tequila, sheet: Sheet, reserve: dict[int, int]) -> bool:
        """Buy a free action when a linked tequila can be paid on top of 4 resources and the reserve."""
        if game.round < components.ROUNDS - 3:
            return False
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
