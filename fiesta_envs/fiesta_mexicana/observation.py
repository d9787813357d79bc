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

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from fiesta_envs.fiesta_mexicana.board import FIXED_OF, VIEW_OF
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
    """The parts of a table's block that depend only on its orientation: numbers, penalties, turns."""
    block = np.zeros((NUM_SPACES, PER_SPACE), dtype=np.float32)
    block[:, NUMBER] = np.arange(1, NUM_SPACES + 1) / NUM_SPACES
    if variant:
        for view in range(NUM_SPACES):
            block[view, PENALTY] = VARIANT_PENALTIES.get(FIXED_OF[orientation][view], 0) / MAX_PENALTY
    result = np.zeros(TABLE_SIZE, dtype=np.float32)
    result[: NUM_SPACES * PER_SPACE] = block.ravel()
    result[NUM_SPACES * PER_SPACE + orientation] = 1.0
    return result


#: STATIC[variant][o]: an empty table's block turned o times left (numbers, penalties, orientation).
STATIC = tuple(np.stack([_static_table(o, variant) for o in range(4)]) for variant in (False, True))

#: A table's observation is kept in all four orientations at once, as one flat float32 vector of
#: ``4 * TABLE_SIZE`` entries (orientation o at ``[o * TABLE_SIZE : (o + 1) * TABLE_SIZE]``): placing a
#: dish writes it into the four views, and turning the table only changes which view is read.
VIEWS_SIZE = 4 * TABLE_SIZE


def _put_indices(space: int) -> np.ndarray:
    """Where a card on fixed ``space`` lands in the four views: (4, CARD_SIZE + 1), its features then
    the covered flag (which follows them) in each orientation."""
    starts = [o * TABLE_SIZE + VIEW_OF[o][space] * PER_SPACE for o in range(4)]
    return np.array([[start + j for j in range(CARD_SIZE + 1)] for start in starts], dtype=np.intp)


assert COVERED == CARD_SIZE  # the covered flag follows the card's features
_PUT_INDICES = tuple(_put_indices(space) for space in range(NUM_SPACES))


def _placed() -> np.ndarray:
    """_PLACED[card, r]: what a card turned r clockwise in the fixed frame writes in the four views: for
    each orientation o, its features turned r - o (as its owner sees it then) and covered = 1."""
    placed = np.ones((NUM_DISH_CARDS, 4, 4, CARD_SIZE + 1), dtype=np.float32)
    for rotation in range(4):
        for orientation in range(4):
            placed[:, rotation, orientation, :CARD_SIZE] = CARD_FEATURES[:, (rotation - orientation) % 4]
    return placed


_PLACED = _placed()


def empty_table_views(variant: bool) -> np.ndarray:
    """The ``VIEWS_SIZE`` vector of an empty table."""
    return STATIC[variant].ravel().copy()


def put_card(views: np.ndarray, space: int, card: int, rotation: int) -> None:
    """Write ``card``, turned ``rotation`` clockwise in the fixed frame, on ``space`` of all four views."""
    views[_PUT_INDICES[space]] = _PLACED[card, rotation]


def table_views(cards: list[int], rotations: list[int], variant: bool) -> np.ndarray:
    """The ``VIEWS_SIZE`` vector of a table holding ``cards`` (fixed frame) turned ``rotations``."""
    views = empty_table_views(variant)
    for space, card in enumerate(cards):
        if card >= 0:
            put_card(views, space, card, rotations[space])
    return views


def table_block(cards: list[int], rotations: list[int], orientation: int, variant: bool) -> np.ndarray:
    """One table's ``TABLE_SIZE`` features, in its owner's current view (see the module docstring)."""
    return table_views(cards, rotations, variant)[orientation * TABLE_SIZE : (orientation + 1) * TABLE_SIZE]


#: OFFER_FEATURES[card + 1]: the offer block, present flag then the card unturned (row 0: no card).
OFFER_FEATURES = np.zeros((NUM_DISH_CARDS + 1, OFFER_SIZE), dtype=np.float32)
OFFER_FEATURES[1:, 0] = 1.0
OFFER_FEATURES[1:, 1:] = CARD_FEATURES[:, 0]


def objectives_block(game: FiestaMexicana, player: int) -> np.ndarray:
    """``player``'s objective slots, then the objectives held by each seat (layout items 7 and 8)."""
    n = game.num_players
    block = np.zeros(OBJECTIVES_DEALT * NUM_OBJECTIVE_KINDS + n, dtype=np.float32)
    for slot, code in enumerate(game.hands[player] or game.objectives[player]):
        if code >= 0:
            block[slot * NUM_OBJECTIVE_KINDS + code] = 1.0
    for k in range(n):
        seat = (player + k) % n
        held = len(game.hands[seat]) or sum(code >= 0 for code in game.objectives[seat])
        block[OBJECTIVES_DEALT * NUM_OBJECTIVE_KINDS + k] = held / OBJECTIVES_DEALT
    return block


def _seat_entries(n: int) -> np.ndarray:
    """SEAT_ENTRIES[n][bidder + 1, passed, acting + 1, phase]: the high bidder, passed, seat to act and
    phase entries (layout items 3 to 5 after the high bid: 3 * n + 6 entries) for every combination.

    Seats are relative to the observer (-1: none); bit k of ``passed`` is relative seat k.
    """
    table = np.zeros((n + 1, 1 << n, n + 1, NUM_PHASES, 3 * n + NUM_PHASES), dtype=np.float32)
    for seat in range(n):
        table[seat + 1, :, :, :, seat] = 1.0  # the high bidder
        table[:, :, seat + 1, :, 2 * n + seat] = 1.0  # the seat to act
        for passed in range(1 << n):
            if passed >> seat & 1:
                table[:, passed, :, :, n + seat] = 1.0
    for phase in range(NUM_PHASES):
        table[:, :, :, phase, 3 * n + phase] = 1.0
    return table


SEAT_ENTRIES = {n: _seat_entries(n) for n in range(1, 5)}


@dataclass(slots=True)
class ObservationBuffer:
    """One observer's last observation and the cached parts it was written from (see ``encode``)."""

    values: np.ndarray
    tables_version: int = -1  # the game's ``tables_version`` when the tables were last checked
    table_versions: list[int] = field(default_factory=list)  # the version of each table written
    shown: int = -2  # the card written in the offer block
    objectives: np.ndarray | None = None  # the ``objective_features`` array written
    points: list[int] | None = None  # the points written
    deck: int = -1  # the number of cards left in the deck written

    @classmethod
    def empty(cls, num_players: int) -> ObservationBuffer:
        """A buffer that has written nothing yet: every part differs from any game's."""
        values = np.zeros(observation_size(num_players), dtype=np.float32)
        return cls(values, table_versions=[-1] * num_players)


def encode(game: FiestaMexicana, player: int) -> np.ndarray:
    """The observation of ``player`` (see the module docstring for the layout).

    Each observer has a buffer holding its last observation: the tables, the offer, the points, the
    objectives and the deck are rewritten only when they changed since (tables: ``game.tables_version``
    and ``game.table_versions``; objectives: a new ``game.objective_features`` array), the auction, seat
    and phase entries always; a copy is returned.
    """
    n = game.num_players
    buffer = game.observation_buffers[player]
    out = buffer.values
    if buffer.tables_version != game.tables_version:  # some table changed: rewrite those that did
        versions, written = game.table_versions, buffer.table_versions
        for k in range(n):
            seat = (player + k) % n
            if written[k] != versions[seat]:
                out[k * TABLE_SIZE : (k + 1) * TABLE_SIZE] = game.table_features(seat)
                written[k] = versions[seat]
        buffer.tables_version = game.tables_version
    pos = n * TABLE_SIZE
    shown = game.card_shown()
    if buffer.shown != shown:
        out[pos : pos + OFFER_SIZE] = OFFER_FEATURES[shown + 1]
        buffer.shown = shown
    pos += OFFER_SIZE
    points_start = pos + 1 + 3 * n + NUM_PHASES
    points = game.points
    if buffer.points != points:
        for k in range(n):
            out[points_start + k] = min(points[(player + k) % n] / SCORE_NORM, 1.0)
        buffer.points = list(points)
    objectives = game.objective_features(player)
    if buffer.objectives is not objectives:
        out[points_start + n : -1] = objectives
        buffer.objectives = objectives
    deck = len(game.deck)
    if buffer.deck != deck:
        out[-1] = deck / NUM_DISH_CARDS
        buffer.deck = deck

    out[pos] = game.high_bid / NUM_SPACES
    # seat (player + k) % n is relative seat k (-1 for none)
    bidder = game.high_bidder
    acting = game.current_player
    passed = game.passed
    passed_bits = 0
    for k in range(n):
        if passed[(player + k) % n]:
            passed_bits |= 1 << k
    out[pos + 1 : points_start] = SEAT_ENTRIES[n][
        (bidder - player) % n + 1 if bidder >= 0 else 0,
        passed_bits,
        (acting - player) % n + 1 if acting >= 0 else 0,
        game.phase,
    ]
    return out.copy()
