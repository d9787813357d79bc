"""The pan evaluation of ``features`` written out from scratch: every pan valued afresh, every trial position a
copy of the pans. ``features.position_value``, ``after_play`` and ``card_gain`` keep what they compute by the
pan's cards and give the same floats; this is what the tests check them against."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from fiesta_envs.tortilla.components import PANS_PER_TEAM
from fiesta_envs.tortilla.features import _PLAIN, STEAL_RISK, Outlook, pile_value
from fiesta_envs.tortilla.steals import steal_sources


def reference_value(pile: Sequence[int], view: Outlook) -> float:
    return pile_value(pile, view.plays_left, view.dead_pan, view.xl_decay)


def reference_exposure(pile: Sequence[int], view: Outlook) -> float:
    if not view.stealing or not pile or pile[-1] not in _PLAIN:
        return 0.0
    value = reference_value(pile, view) - reference_value(pile[:-1], view)
    return STEAL_RISK * max(0.0, value)


def reference_position_value(piles: Sequence[Sequence[int]], view: Outlook) -> float:
    total = 0.0
    for index, pile in enumerate(piles):
        if index // PANS_PER_TEAM == view.team:
            total += reference_value(pile, view) - reference_exposure(pile, view)
        else:
            total -= reference_value(pile, view)
    return total


def reference_after_play(
    piles: Sequence[Sequence[int]], card: int, target: int, *, view: Outlook, stealing: bool
) -> float:
    trial_piles = [list(pile) for pile in piles]
    trial_piles[target].append(card)
    sources = steal_sources(trial_piles, target) if stealing else []
    if not sources:
        return reference_position_value(trial_piles, view)
    best = -np.inf
    for source in sources:
        trial = [list(pile) for pile in trial_piles]
        trial[target].append(trial[source].pop())
        best = max(best, reference_position_value(trial, view))
    return best


def reference_card_gain(piles: Sequence[Sequence[int]], card: int, view: Outlook) -> float:
    best = 0.0
    for pan in range(view.team * PANS_PER_TEAM, (view.team + 1) * PANS_PER_TEAM):
        pile = piles[pan]
        best = max(best, reference_value([*pile, card], view) - reference_value(pile, view))
    return best
