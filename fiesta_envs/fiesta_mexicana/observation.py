"""The observation vector of Fiesta Mexicana (float32, every entry in [0, 1]).

Seats are *relative*: block k describes seat ``(player + k) % num_players`` (k = 0 is the observer,
k = 1 the next player clockwise...). Layout, in order (n = number of players):

1. n tables of ``TABLE_SIZE = 16 * 26 + 4 = 420`` entries, each in its owner's current view. For each
   view position v = 0..15 (the space reading v + 1, row by row), 26 entries:
   ``[0:6]`` dish one-hot (tostada, elotes, burritos, chilis, salad, tacos), ``[6]`` skulls / 3,
   ``[7:23]`` sauce half on the view's north, east, south, west edge (4 entries each: green, brown,
   white, red; all 0 for no half), ``[23]`` covered, ``[24]`` the legible number / 16 (always
   (v + 1) / 16: positions are in reading order), ``[25]`` variant penalty of the space / 5.
   Then the table's orientation, one-hot over quarter turns left 0..3.
2. The card on offer (the start card being oriented during setup), 24 entries: ``[0]`` present,
   ``[1:7]`` dish one-hot, ``[7]`` skulls / 3, ``[8:24]`` its halves N, E, S, W in the card's own
   frame (``place R`` turns it R quarter turns clockwise), 4 colours each.
3. Auction: high bid / 16 (1), high bidder one-hot (n), passed since the last bid (n); during the
   placement and the turning of tables, what the auction just won left there.
4. Seat to act, one-hot (n).
5. Phase one-hot (6): orient, keep, auction, place, rotate, over.
6. Points so far / 100, clipped to 1 (n).
7. Own objective slots, 5 x 18 one-hot over the objective kinds (``components.OBJECTIVE_KINDS``):
   the 5 cards dealt while keeping, then the kept slots 0..2 (a discarded slot is all 0).
8. Objectives held (or dealt, while keeping) by each seat / 5 (n).
9. Cards left in the deck / 66 (1).

Other players' objectives are never part of it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from fiesta_envs.fiesta_mexicana.board import FIXED_OF
from fiesta_envs.fiesta_mexicana.components import (
    DISH_CARDS,
    DISHES,
    MAX_PENALTY,
    MAX_SKULLS,
    NUM_DISH_CARDS,
    NUM_OBJECTIVE_KINDS,
    NUM_SPACES,
    OBJECTIVES_DEALT,
    SAUCES,
    VARIANT_PENALTIES,
)

if TYPE_CHECKING:
    from fiesta_envs.fiesta_mexicana.game import FiestaMexicana

NUM_DISHES = len(DISHES)
NUM_SAUCES = len(SAUCES)
CARD_SIZE = NUM_DISHES + 1 + 4 * NUM_SAUCES  # dish, skulls, four edges
PER_SPACE = CARD_SIZE + 3  # + covered, legible number, penalty
COVERED, NUMBER, PENALTY = CARD_SIZE, CARD_SIZE + 1, CARD_SIZE + 2
TABLE_SIZE = NUM_SPACES * PER_SPACE + 4
OFFER_SIZE = 1 + CARD_SIZE
NUM_PHASES = 6
SCORE_NORM = 100.0


def observation_size(n: int) -> int:
    return n * TABLE_SIZE + OFFER_SIZE + 1 + 2 * n + n + NUM_PHASES + n + OBJECTIVES_DEALT * NUM_OBJECTIVE_KINDS + n + 1


def _card_features(card: int, rotation: int) -> np.ndarray:
    """Dish one-hot, skulls / 3 and edges of ``card`` turned ``rotation`` quarter turns clockwise."""
    c = DISH_CARDS[card]
    features = np.zeros(CARD_SIZE, dtype=np.float32)
    features[c.dish] = 1.0
    features[NUM_DISHES] = c.skulls / MAX_SKULLS
    for direction in range(4):
        colour = c.edges[(direction - rotation) % 4]
        if colour >= 0:
            features[NUM_DISHES + 1 + NUM_SAUCES * direction + colour] = 1.0
    return features


#: CARD_FEATURES[card, r]: the card as seen turned r quarter turns clockwise.
CARD_FEATURES = np.stack([np.stack([_card_features(c, r) for r in range(4)]) for c in range(NUM_DISH_CARDS)])


def _static_table(orientation: int, variant: bool) -> np.ndarray:
    """The parts of an empty table's block that depend only on its orientation."""
    block = np.zeros((NUM_SPACES, PER_SPACE), dtype=np.float32)
    block[:, NUMBER] = np.arange(1, NUM_SPACES + 1) / NUM_SPACES
    if variant:
        for view in range(NUM_SPACES):
            block[view, PENALTY] = VARIANT_PENALTIES.get(FIXED_OF[orientation][view], 0) / MAX_PENALTY
    return block


_STATIC = {(o, v): _static_table(o, v) for o in range(4) for v in (False, True)}


def table_block(cards: list[int], rotations: list[int], orientation: int, variant: bool) -> np.ndarray:
    """One table's ``TABLE_SIZE`` features, in its owner's current view (see the module docstring)."""
    block = _STATIC[orientation, variant].copy()
    view_of_fixed = FIXED_OF[orientation]
    for view in range(NUM_SPACES):
        space = view_of_fixed[view]
        card = cards[space]
        if card >= 0:
            # a card turned r clockwise in the fixed frame looks turned (r - orientation) in the view
            block[view, :CARD_SIZE] = CARD_FEATURES[card, (rotations[space] - orientation) % 4]
            block[view, COVERED] = 1.0
    result = np.zeros(TABLE_SIZE, dtype=np.float32)
    result[: NUM_SPACES * PER_SPACE] = block.ravel()
    result[NUM_SPACES * PER_SPACE + orientation] = 1.0
    return result


def encode(game: FiestaMexicana, player: int) -> np.ndarray:
    """The observation of ``player`` (see the module docstring for the layout)."""
    n = game.num_players
    seats = [(player + k) % n for k in range(n)]
    out = np.zeros(observation_size(n), dtype=np.float32)
    for k, seat in enumerate(seats):
        out[k * TABLE_SIZE : (k + 1) * TABLE_SIZE] = game.table_features(seat)
    pos = n * TABLE_SIZE
    shown = game.card_shown()
    if shown >= 0:
        out[pos] = 1.0
        out[pos + 1 : pos + OFFER_SIZE] = CARD_FEATURES[shown, 0]
    pos += OFFER_SIZE
    out[pos] = game.high_bid / NUM_SPACES
    pos += 1
    for k, seat in enumerate(seats):
        out[pos + k] = seat == game.high_bidder
        out[pos + n + k] = game.passed[seat]
        out[pos + 2 * n + k] = seat == game.current_player
        out[pos + 3 * n + NUM_PHASES + k] = min(game.points[seat] / SCORE_NORM, 1.0)
    out[pos + 3 * n + game.phase] = 1.0
    pos += 4 * n + NUM_PHASES
    slots = game.hands[player] or game.objectives[player]
    for slot, code in enumerate(slots):
        if code >= 0:
            out[pos + slot * NUM_OBJECTIVE_KINDS + code] = 1.0
    pos += OBJECTIVES_DEALT * NUM_OBJECTIVE_KINDS
    for k, seat in enumerate(seats):
        held = len(game.hands[seat]) or sum(code >= 0 for code in game.objectives[seat])
        out[pos + k] = held / OBJECTIVES_DEALT
    pos += n
    out[pos] = len(game.deck) / NUM_DISH_CARDS
    return out
