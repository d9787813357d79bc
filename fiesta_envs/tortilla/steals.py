"""The steal rule of the Day's and Gourmet menus: which pans the card just placed takes a top card from.

Pans are numbered globally, ``team * 3 + pan``. Read by the engine, the action features and the baselines.
"""

from __future__ import annotations

from collections.abc import Sequence

from fiesta_envs.tortilla.components import NUM_TEAMS, PANS_PER_TEAM, PLAIN_TYPES

NUM_PANS = NUM_TEAMS * PANS_PER_TEAM


#: For each pan a card is placed on (global index), the pans it may steal from, by priority:
#: the other team's pans, then the player's own other pans.
_STEAL_PRIORITY: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...] = tuple(
    (
        tuple(range((1 - team) * PANS_PER_TEAM, (2 - team) * PANS_PER_TEAM)),
        tuple(pan for pan in range(team * PANS_PER_TEAM, (team + 1) * PANS_PER_TEAM) if pan != target),
    )
    for target in range(NUM_PANS)
    for team in [target // PANS_PER_TEAM]
)


def steal_sources(piles: Sequence[Sequence[int]], target: int) -> list[int]:
    """The steal rule: the pans whose top card the card just placed on ``target`` must take.

    ``piles`` are the six pans (``team * 3 + pan``, bottom card first). Only a plain ingredient
    steals, and only an equal plain top card; the other team's pans come first, then the
    player's own; several pans of the same priority are a choice. Empty: no steal.
    """
    card = piles[target][-1]
    if card not in PLAIN_TYPES:
        return []
    for side in _STEAL_PRIORITY[target]:
        sources = [pan for pan in side if piles[pan] and piles[pan][-1] == card]
        if sources:
            return sources
    return []
