"""Why an action is illegal now, rule by rule (``Tequila.explain_illegal``), and the checks behind it
(``tequila.reference`` builds the legal mask from the same checks)."""

from __future__ import annotations

from collections.abc import Mapping

from fiesta_envs.tequila import actions, components, farm
from fiesta_envs.tequila.affordable import market_cost
from fiesta_envs.tequila.position import Position
from fiesta_envs.tequila.sheet import MARKET_OPENERS, MARKET_REQUIREMENTS, Sheet
from fiesta_envs.tequila.state import Phase

_ASKED = {
    Phase.PAY: "choose a resource to pay (pay RES)",
    Phase.GAIN: "choose a resource to gain (gain RES)",
    Phase.REROLL: "choose which dice to re-roll (reroll none|first|second|both)",
    Phase.VIRTUAL: "assign your virtual die (virtual fence|build)",
    Phase.CASK: "answer cask yes|no",
    Phase.SHOP: "answer shop yes|no",
    Phase.OVER: "the game is over",
}
_NOT_NOW = "the rules do not allow it now"


def explain_illegal(game: Position, action: int) -> str:
    """Why ``action`` is not legal for the player to act (the rule it breaks)."""
    decision = game.decision
    kind = actions.kind_of(action)
    if decision in _ASKED and kind != decision.label:
        return f"now you must {_ASKED[decision]}"
    player = game.current_player
    sheet = game.state.sheets[player]
    if decision == Phase.PAY:
        return f"you hold no {components.RESOURCES[action - actions.PAY]}"
    if decision == Phase.GAIN:
        return f"your {components.RESOURCES[action - actions.GAIN]} track is full"
    if decision == Phase.CASK:
        return "casks need 1 agave to pay and a cask connected to a distiller, and room on the barrel track"
    if decision == Phase.SHOP:
        return "shops need 1 resource to pay and a shop connected to a cask"
    if decision != Phase.MAIN:
        return _NOT_NOW
    if kind in ("reroll", "virtual", "pay", "gain", "cask", "shop"):
        return "that choice is not asked now (you are in your main phase)"
    if kind == "fence":
        if not sheet.fences_left:
            return "you have no fences left this round"
        return farm.fence_problem(action - actions.FENCE, sheet.fences) or _NOT_NOW
    if kind == "build":
        return building_problem(sheet, action - actions.BUILD) or _NOT_NOW
    if kind == "free_road":
        if not sheet.free_road:
            return "you have no free road this round (cask tile B, virtual die on building)"
        return overlap_text(sheet, farm.ROAD_AT[action - actions.FREE_ROAD], "the road")
    if kind in ("produce", "sell") and not sheet.free_actions():
        return "you have no free action left (gears and bought extras are used up)"
    if kind == "produce":
        return production_problem(sheet, action - actions.PRODUCE) or _NOT_NOW
    if kind == "sell":
        return sale_problem(sheet, game.state.jimadores[player] == "green", action - actions.SELL) or _NOT_NOW
    if kind == "extra":
        return f"an extra free action costs {components.EXTRA_ACTION_COST} resources; you hold {sheet.total_held()}"
    return _NOT_NOW


def can_pay_building(sheet: Sheet, kind: int) -> bool:
    if kind == components.ROAD:
        return sheet.total_held() >= components.ROAD_COST_OF_CHOICE
    return sheet.can_pay(components.BUILDING_COSTS[kind])


def building_problem(sheet: Sheet, index: int) -> str | None:
    """Why placement ``index`` may not be built (no building action, the cost, an overlap), else None."""
    placement = farm.PLACEMENTS[index]
    if not sheet.builds_left:
        return "you have no building actions left this round"
    if not can_pay_building(sheet, placement.kind):
        if placement.kind == components.ROAD:
            return f"a road costs {components.ROAD_COST_OF_CHOICE} resources of your choice"
        return f"{_a(placement.kind)} costs {_cost_text(components.BUILDING_COSTS[placement.kind])}"
    if placement.spaces & sheet.occupied:
        return overlap_text(sheet, index, f"the {components.BUILDING_NOUNS[placement.kind]}")
    return None


def overlap_text(sheet: Sheet, index: int, what: str) -> str:
    """What placement ``index`` (``what``) would overlap."""
    overlap = farm.PLACEMENTS[index].spaces & sheet.occupied
    if not overlap:
        return _NOT_NOW
    x = farm.spaces_of(overlap)[0]
    kind = next(k for k, i in sheet.buildings if farm.PLACEMENTS[i].spaces >> x & 1)
    return f"{what} would overlap your {components.BUILDING_NOUNS[kind]} at {x // farm.SIZE} {x % farm.SIZE}"


def production_problem(sheet: Sheet, tequila: int) -> str | None:
    """Why ``tequila`` may not be produced (track full, building not connected, the cost), else None."""
    name = components.TEQUILAS[tequila]
    if sheet.production[tequila] >= components.PRODUCTION_TRACK_LENGTH:
        return f"the {name} production track is full"
    building = components.TEQUILA_BUILDING[tequila]
    if not sheet.building_linked(building):
        partner = components.CHAIN_PARTNER[building]  # (every tequila's building has one)
        linked_to = _a(partner) if partner is not None else "its partner"
        return f"{name} tequila needs {_a(building)} connected to {linked_to}"
    if not sheet.can_pay(components.TEQUILA_COSTS[tequila]):
        return f"{name} tequila costs {_cost_text(components.TEQUILA_COSTS[tequila])}"
    return None


def sale_problem(sheet: Sheet, green: bool, m: int) -> str | None:
    """Why market space ``m`` may not be marked (the green jimador's if ``green``), else None."""
    row, col = divmod(m, components.MARKET_COLUMNS)
    if sheet.market >> m & 1:
        return f"market space {row} {col} is already marked"
    if col > 0 and not sheet.market & MARKET_OPENERS[m]:
        return f"market space {row} {col} is not open: it must touch a marked space of column {col - 1} or {col + 1}"
    if row == components.MARKET_REQUIREMENT_ROW:
        kind, amount = MARKET_REQUIREMENTS[green][col]
        if not sheet.requirement_met(kind, amount):
            noun = "road space" if kind == components.ROAD else components.BUILDING_NOUNS[kind]
            return f"market space {row} {col} requires {amount} {noun}{'s' if amount != 1 else ''}"
        return None
    cost = market_cost(m, green)
    if not sheet.can_pay(cost):
        return f"market space {row} {col} costs {_cost_text(cost)}"
    return None


def _a(kind: int) -> str:
    """A building kind with its article: "a kiln", "an agave field"."""
    noun = components.BUILDING_NOUNS[kind]
    return f"an {noun}" if noun[0] in "aeiou" else f"a {noun}"


def _cost_text(cost: Mapping[int, int]) -> str:
    return " + ".join(f"{n} {components.RESOURCES[r]}" for r, n in cost.items()) or "nothing"
