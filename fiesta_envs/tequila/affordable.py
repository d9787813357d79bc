"""What a hand of held resources can pay for, worked out once per distinct hand.

The legal masks ask this at almost every step and hands repeat a lot, so ``affordable(hand)`` is
cached. The costs themselves are the rules': building costs, tequila costs, market payments (with
the green jimador's discount), the extra free action and the road's resources of choice.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from fiesta_envs.tequila import components

MARKET_PAYMENT_SPACES = components.MARKET_REQUIREMENT_ROW * components.MARKET_COLUMNS  # rows 0 and 1 (row 2 requires)


def market_cost(m: int, green: bool) -> dict[int, int]:
    """What marking market space ``m`` pays (nothing on the requirement row)."""
    row, col = divmod(m, components.MARKET_COLUMNS)
    if row == components.MARKET_REQUIREMENT_ROW:
        return {}
    resource, amount = components.MARKET_PAYMENTS[row][col]
    if green:
        amount = max(0, amount - components.GREEN_MARKET_DISCOUNT)
    return {resource: amount} if amount else {}


@dataclass(frozen=True, slots=True, kw_only=True)
class Affordable:
    """What one hand can pay for (a bit per building kind, tequila, market space or resource)."""

    buildings: int  # kind k can be paid (a road: components.ROAD_COST_OF_CHOICE resources of choice)
    tequilas: int  # tequila t can be paid
    market: int  # market spaces of the payment rows whose payment can be paid
    green_market: int  # the same with the green jimador's discount
    extra: bool  # an extra free action (components.EXTRA_ACTION_COST resources of choice)
    held: int  # resource r is held (what ``pay RES`` may name)


def _needs(costs: list[dict[int, int]], resource: int, held: int) -> int:
    """Bits of the ``costs`` whose need of ``resource`` is at most ``held``."""
    return sum(1 << i for i, cost in enumerate(costs) if cost.get(resource, 0) <= held)


_MARKET_COSTS = [market_cost(m, False) for m in range(MARKET_PAYMENT_SPACES)]
_GREEN_MARKET_COSTS = [market_cost(m, True) for m in range(MARKET_PAYMENT_SPACES)]
#: Building kinds paid with given resources (the road's resources of choice are counted apart).
_BUILDING_COSTS = [{} if kind == components.ROAD else cost for kind, cost in enumerate(components.BUILDING_COSTS)]
_ALL_COSTS = [*_BUILDING_COSTS, *components.TEQUILA_COSTS, *_MARKET_COSTS, *_GREEN_MARKET_COSTS]
#: No cost needs more of one resource than this.
_MOST = max(n for cost in _ALL_COSTS for n in cost.values())
#: ``_WITHIN[r][h]``: (building kinds, tequilas, market spaces, green market spaces) needing at most
#: ``h`` of resource ``r`` (``h`` up to ``_MOST``); a hand pays for what is within reach of every resource.
_WITHIN: tuple[tuple[tuple[int, int, int, int], ...], ...] = tuple(
    tuple(
        (
            _needs(_BUILDING_COSTS, r, h),
            _needs(list(components.TEQUILA_COSTS), r, h),
            _needs(_MARKET_COSTS, r, h),
            _needs(_GREEN_MARKET_COSTS, r, h),
        )
        for h in range(_MOST + 1)
    )
    for r in range(len(components.RESOURCES))
)


@lru_cache(maxsize=1 << 14)
def affordable(hand: tuple[int, ...]) -> Affordable:
    """What ``hand`` (resources held, in ``components.RESOURCES`` order) can pay for."""
    buildings = tequilas = market = green_market = -1
    held = 0
    for r, n in enumerate(hand):
        within = _WITHIN[r][n if n < _MOST else _MOST]
        buildings &= within[0]
        tequilas &= within[1]
        market &= within[2]
        green_market &= within[3]
        if n > 0:
            held |= 1 << r
    total = sum(hand)
    if total < components.ROAD_COST_OF_CHOICE:
        buildings &= ~(1 << components.ROAD)
    return Affordable(
        buildings=buildings,
        tequilas=tequilas,
        market=market,
        green_market=green_market,
        extra=total >= components.EXTRA_ACTION_COST,
        held=held,
    )
