"""The legal mask written out rule by rule from the saved facts of the position, without any kept fact: the
reference for ``mask_cache`` (the same masks, patched part by part), which the game uses instead when the
speed-ups are off (``tequila.speedups``)."""

from __future__ import annotations

import numpy as np

from fiesta_envs.tequila import actions, components, farm
from fiesta_envs.tequila.legality import sale_problem
from fiesta_envs.tequila.position import Position
from fiesta_envs.tequila.sheet import Sheet
from fiesta_envs.tequila.state import Phase


def reference_mask(game: Position) -> np.ndarray:
    """The legal mask of the decision ``game`` asks now, action by action."""
    mask = np.zeros(actions.NUM_ACTIONS, dtype=np.int8)
    decision = game.decision
    if decision in (Phase.OVER, Phase.TURN_DONE):
        return mask
    player = game.current_player
    sheet = game.state.sheets[player]
    held = [m - c for m, c in zip(sheet.marked, sheet.crossed, strict=True)]
    if decision == Phase.PAY:
        for r in range(len(components.RESOURCES)):
            mask[actions.PAY + r] = held[r] > 0
    elif decision == Phase.GAIN:
        for r in range(len(components.RESOURCES)):
            mask[actions.GAIN + r] = sheet.marked[r] < components.RESOURCE_TRACK_LENGTH
    elif decision == Phase.REROLL:
        mask[actions.REROLL : actions.REROLL + len(actions.REROLL_CHOICES)] = 1
    elif decision == Phase.VIRTUAL:
        mask[actions.VIRTUAL : actions.VIRTUAL + len(actions.VIRTUAL_CHOICES)] = 1
    elif decision == Phase.CASK:
        links = farm.connections(sheet.buildings)
        distillers = [i for i, (kind, _) in enumerate(sheet.buildings) if kind == components.DISTILLER]
        matching = farm.max_matching(
            [
                [d for d in distillers if reach & farm.PLACEMENTS[sheet.buildings[d][1]].spaces]
                for (kind, _), reach in zip(sheet.buildings, links.reach, strict=True)
                if kind == components.CASK
            ]
        )
        resource, amount = components.CASK_PRODUCTION_COST
        room = sheet.marked[components.BARREL] < components.RESOURCE_TRACK_LENGTH
        mask[actions.CASK + actions.YES] = held[resource] >= amount and matching > 0 and room
        mask[actions.CASK + actions.NO] = 1
    elif decision == Phase.SHOP:
        linked = farm.connections(sheet.buildings).linked
        shops = sum(1 for (k, _), ok in zip(sheet.buildings, linked, strict=True) if k == components.SHOP and ok)
        mask[actions.SHOP + actions.YES] = sum(held) >= 1 and shops > 0
        mask[actions.SHOP + actions.NO] = 1
    else:
        _main_phase(mask, sheet, held, game.state.jimadores[player] == "green")
    return mask


def _main_phase(mask: np.ndarray, sheet: Sheet, held: list[int], green: bool) -> None:
    mask[actions.END] = 1
    occupied = 0
    for _, index in sheet.buildings:
        occupied |= farm.PLACEMENTS[index].spaces
    if sheet.fences_left:
        for s in range(farm.NUM_SEGMENTS):
            mask[actions.FENCE + s] = farm.fence_problem(s, sheet.fences) is None
    if sheet.builds_left:
        for i, placement in enumerate(farm.PLACEMENTS):
            if placement.kind == components.ROAD:
                paid = sum(held) >= components.ROAD_COST_OF_CHOICE
            else:
                paid = all(held[r] >= n for r, n in components.BUILDING_COSTS[placement.kind].items())
            mask[actions.BUILD + i] = paid and not placement.spaces & occupied
    if sheet.free_road:
        for x in range(farm.SPACES):
            mask[actions.FREE_ROAD + x] = not occupied >> x & 1
    if sheet.credits + sheet.gears_left:
        links = farm.connections(sheet.buildings)
        linked_kinds = {k for (k, _), ok in zip(sheet.buildings, links.linked, strict=True) if ok}
        for t, cost in enumerate(components.TEQUILA_COSTS):
            mask[actions.PRODUCE + t] = (
                sheet.production[t] < components.PRODUCTION_TRACK_LENGTH
                and components.TEQUILA_BUILDING[t] in linked_kinds
                and all(held[r] >= n for r, n in cost.items())
            )
        for m in range(components.MARKET_ROWS * components.MARKET_COLUMNS):
            mask[actions.SELL + m] = sale_problem(sheet, green, m) is None
    mask[actions.EXTRA] = sum(held) >= components.EXTRA_ACTION_COST
