"""A position of Fiesta Mexicana as one seat may believe it to be (``FiestaMexicana.determinize``).

Hidden from a seat (see the game page's observation): the deck order; the other players' objectives (the
hand dealt while they keep, the cards kept, which slot a reserve gave up); while start cards are oriented,
the other players' start cards, how they turned them and their points; and a table turn another player
chose that is not applied yet. ``resampled`` deals afresh:

- the dish cards the seat has not seen (not on a table it sees, not on offer, not its own start cards)
  into the deck and, while orienting, one card of each piñata pile to every other player (placed cards
  turned at random, points recounted from their skulls);
- the objective cards the seat does not hold to the other players: a hand of 5 with three colours
  to a player still to keep, else three of three colours with as many given up (at random slots) as the
  player reserved. The hands shown at setup are left out of that pile when the deal allows it (they
  return only when fewer than 5 cards remain to deal), so this is the real pile nearly always;
- a random turn (left, right, none) for every table turn another player chose and not applied yet.
"""

from __future__ import annotations

import numpy as np

from fiesta_envs.core.determinization import shuffled, without
from fiesta_envs.fiesta_mexicana.components import (
    DISH_CARDS,
    NUM_DISH_CARDS,
    OBJECTIVE_DECK,
    OBJECTIVE_KINDS,
    OBJECTIVES_DEALT,
    OBJECTIVES_KEPT,
    PINATA_SPACES,
    START_PILES,
)
from fiesta_envs.fiesta_mexicana.state import TURN_CHOICES, FiestaMexicanaState, Phase

#: Deals of objectives tried before giving the hands shown at setup back to the pile (then before failing).
OBJECTIVE_DEAL_TRIES = 200


def resampled(
    position: FiestaMexicanaState, seat: int, num_players: int, rng: np.random.Generator
) -> FiestaMexicanaState:
    """A copy of ``position`` with everything hidden from ``seat`` drawn afresh from ``rng`` (see the module
    docstring); ``position`` is left as it is."""
    state = position.copy()
    others = [p for p in range(num_players) if p != seat]
    orienting = state.phase == Phase.ORIENT
    seen = [card for card in state.cards[seat] if card >= 0] + [card for card in state.start_cards[seat] if card >= 0]
    if orienting:
        dealt = _deal_start_cards(state, seat, others, rng)
    else:
        seen += [card for p in others for card in state.cards[p] if card >= 0]
        dealt = []
    seen += [state.offer] if state.offer >= 0 else []
    deck = shuffled(without(range(NUM_DISH_CARDS), seen + dealt), rng)
    if len(deck) != len(state.deck):
        raise AssertionError(f"{len(deck)} unseen dish cards for a deck of {len(state.deck)}")
    state.deck = deck
    _deal_objectives(state, seat, others, rng)
    for p in others:
        if state.turns_chosen[p] >= 0:
            state.turns_chosen[p] = int(rng.integers(len(TURN_CHOICES)))
    return state


def _deal_start_cards(state: FiestaMexicanaState, seat: int, others: list[int], rng: np.random.Generator) -> list[int]:
    """Orienting: every other player's start cards from the piles (without the seat's own), held or placed;
    returns the cards dealt."""
    dealt = []
    for colour, pile in enumerate(START_PILES):
        space = PINATA_SPACES[colour]
        own = _start_card(state, seat, colour)
        left = shuffled(without(pile, [own]), rng)
        for p in others:
            card = left.pop()
            dealt.append(card)
            if state.start_cards[p] and state.start_cards[p][colour] >= 0:
                state.start_cards[p][colour] = card
            elif state.cards[p][space] >= 0:
                state.cards[p][space] = card
                state.rotations[p][space] = int(rng.integers(4))
            else:
                raise AssertionError(f"player {p} holds no start card of colour {colour}")
    for p in others:
        state.points[p] = sum(
            DISH_CARDS[state.cards[p][space]].skulls for space in PINATA_SPACES if state.cards[p][space] >= 0
        )
    return dealt


def _start_card(state: FiestaMexicanaState, player: int, colour: int) -> int:
    """``player``'s start card of the piñata ``colour``: held, or on its space."""
    held = state.start_cards[player]
    return held[colour] if held and held[colour] >= 0 else state.cards[player][PINATA_SPACES[colour]]


def _colours(cards: list[int]) -> int:
    return len({OBJECTIVE_KINDS[code].colour for code in cards})


def _deal_objectives(state: FiestaMexicanaState, seat: int, others: list[int], rng: np.random.Generator) -> None:
    """The other players' objectives from the cards ``seat`` does not hold (see the module docstring)."""
    wanted = [p for p in others if state.hands[p] or any(code >= 0 for code in state.objectives[p])]
    if not wanted:
        return
    own = state.hands[seat] + [code for code in state.objectives[seat] if code >= 0]
    pile = without(OBJECTIVE_DECK, own)
    shown = [code for hand in state.shown_objectives for code in hand]
    try:
        piles = [without(pile, shown), pile]
    except ValueError:  # a shown card came back and was dealt to the seat
        piles = [pile]
    for pool in piles:
        for _ in range(OBJECTIVE_DEAL_TRIES):
            if _try_deal(state, wanted, shuffled(pool, rng), rng):
                return
    raise AssertionError("no deal of the hidden objectives fits what the seat knows")


def _try_deal(state: FiestaMexicanaState, wanted: list[int], pool: list[int], rng: np.random.Generator) -> bool:
    """Deal from the shuffled ``pool`` to every player in ``wanted``; False when a hand lacks three colours."""
    hands, objectives = {}, {}
    for p in wanted:
        keeping = bool(state.hands[p])
        size = OBJECTIVES_DEALT if keeping else OBJECTIVES_KEPT
        if len(pool) < size:
            return False
        cards = [pool.pop() for _ in range(size)]
        if _colours(cards) < 3:
            return False
        if keeping:
            hands[p] = cards
        else:
            given_up = set(rng.permutation(OBJECTIVES_KEPT)[: state.objectives[p].count(-1)].tolist())
            objectives[p] = [-1 if slot in given_up else code for slot, code in enumerate(cards)]
    for p, cards in hands.items():
        state.hands[p] = cards
    for p, cards in objectives.items():
        state.objectives[p] = cards
    return True
