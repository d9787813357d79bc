"""The flat action space of Tortilla de Patatas: index layout and names.

=========  ======================================  =====================================
indices    name                                    meaning
=========  ======================================  =====================================
0-20       ``play TYPE on P``                      a card of TYPE from hand onto pan P (0-2)
21-38      ``serve P M|XL with D``                 serve pan P, declared size, diner card D
39         ``draw deck``                           refill from the top of the fridge
40         ``draw door``                           refill with the fridge door card
41-46      ``steal from mine P`` / ``theirs P``    choose the pan to steal from
47-53      ``start TYPE``                          setup: a card of TYPE into the next starting pan
=========  ======================================  =====================================

Pans are always named from the acting player's side: ``P`` and ``mine P`` are pans of the
player's team (the chef's pans, also for the kitchen assistant), ``theirs P`` the other team's.
"""

from __future__ import annotations

from fiesta_envs.tortilla.components import (
    CARD_TYPES,
    DINER_VALUES,
    NUM_CARD_TYPES,
    PANS_PER_TEAM,
    SIZE_NAMES,
)

PLAY_BASE = 0
NUM_PLAY = NUM_CARD_TYPES * PANS_PER_TEAM
SERVE_BASE = PLAY_BASE + NUM_PLAY
NUM_SERVE = PANS_PER_TEAM * len(SIZE_NAMES) * len(DINER_VALUES)
DRAW_DECK = SERVE_BASE + NUM_SERVE
DRAW_DOOR = DRAW_DECK + 1
STEAL_BASE = DRAW_DOOR + 1
NUM_STEAL = 2 * PANS_PER_TEAM  # mine 0-2, then theirs 0-2
START_BASE = STEAL_BASE + NUM_STEAL
NUM_ACTIONS = START_BASE + NUM_CARD_TYPES


def play_action(card: int, pan: int) -> int:
    return PLAY_BASE + card * PANS_PER_TEAM + pan


def serve_action(pan: int, size: int, diners: int) -> int:
    return SERVE_BASE + (pan * len(SIZE_NAMES) + size) * len(DINER_VALUES) + (diners - 1)


def steal_action(theirs: bool, pan: int) -> int:
    return STEAL_BASE + (PANS_PER_TEAM if theirs else 0) + pan


def start_action(card: int) -> int:
    return START_BASE + card


def decode_play(action: int) -> tuple[int, int]:
    """(card type, pan) of a play action."""
    return divmod(action - PLAY_BASE, PANS_PER_TEAM)


def decode_serve(action: int) -> tuple[int, int, int]:
    """(pan, size, diners) of a serve action."""
    rest, diner_index = divmod(action - SERVE_BASE, len(DINER_VALUES))
    pan, size = divmod(rest, len(SIZE_NAMES))
    return pan, size, DINER_VALUES[diner_index]


def decode_steal(action: int) -> tuple[bool, int]:
    """(theirs, pan) of a steal action."""
    theirs, pan = divmod(action - STEAL_BASE, PANS_PER_TEAM)
    return bool(theirs), pan


def action_names() -> list[str]:
    names = [""] * NUM_ACTIONS
    for card, card_name in enumerate(CARD_TYPES):
        for pan in range(PANS_PER_TEAM):
            names[play_action(card, pan)] = f"play {card_name} on {pan}"
        names[start_action(card)] = f"start {card_name}"
    for pan in range(PANS_PER_TEAM):
        for size, size_name in enumerate(SIZE_NAMES):
            for diners in DINER_VALUES:
                names[serve_action(pan, size, diners)] = f"serve {pan} {size_name} with {diners}"
        names[steal_action(False, pan)] = f"steal from mine {pan}"
        names[steal_action(True, pan)] = f"steal from theirs {pan}"
    names[DRAW_DECK] = "draw deck"
    names[DRAW_DOOR] = "draw door"
    assert all(names), "every action has a name"
    return names


ACTION_NAMES: tuple[str, ...] = tuple(action_names())


def _decoded(action: int) -> tuple:
    if action < SERVE_BASE:
        return decode_play(action)
    if action < DRAW_DECK:
        return decode_serve(action)
    if STEAL_BASE <= action < START_BASE:
        return decode_steal(action)
    if action >= START_BASE:
        return (action - START_BASE,)
    return ()


#: The arguments of every action, decoded once: (card, pan), (pan, size, diners), (theirs, pan),
#: (card,) for ``start``, () for the draws.
DECODED: tuple[tuple, ...] = tuple(_decoded(action) for action in range(NUM_ACTIONS))
