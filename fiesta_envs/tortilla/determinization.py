"""Tortilla de Patatas as one seat may believe it to be (``TortillaDePatatas.determinize``).

Hidden from a seat: the order of the fridge and the cards in the other hands that nobody saw taken from the
fridge door (the team-mate's too). Everything else is public with perfect memory: the pans card by card, the
served omelettes, the door, the cards each seat took from the door, how many cards each hand and the fridge
hold. The seat's unseen cards (``observation.unseen_counts``) are shuffled and dealt into those places in
those numbers: the other hands get their known door cards plus unseen cards, the fridge the rest.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from fiesta_envs.core.determinization import cards_of_counts, shuffled
from fiesta_envs.tortilla.observation import unseen_counts
from fiesta_envs.tortilla.state import TortillaState

if TYPE_CHECKING:
    from fiesta_envs.tortilla.engine_view import EngineView


def believed_state(game: EngineView, seat: int, rng: np.random.Generator) -> TortillaState:
    """The position with the fridge and the other hands' unknown cards dealt afresh from ``rng``."""
    state = game.saved_state()
    unseen = shuffled(cards_of_counts(unseen_counts(game, seat)), rng)
    for other in range(game.num_players):
        if other == seat:
            continue
        known = list(state.known[other])
        hand = known[:]
        for _ in range(sum(state.hands[other]) - sum(known)):
            hand[unseen.pop()] += 1
        state.hands[other] = hand
    if len(unseen) != len(state.deck):
        raise AssertionError(f"{len(unseen)} unseen cards left for a fridge of {len(state.deck)}")
    state.deck = unseen
    return state
