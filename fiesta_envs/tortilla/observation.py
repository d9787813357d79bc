"""The two observation encoders of Tortilla de Patatas (float32 vectors, every entry in [0, 1]).

Pans and served omelettes are listed from the observer's side: its team's pans 0-2 first,
then the other team's; other seats in turn order after the observer.

Both modes start with the same header (38 entries):

====  =========================================================================
4     phase one-hot: setup, play, steal, after (all zero once the game is over)
3     menu one-hot: kids, day, gourmet
1     4-player game
1     the observer is a chef (not a kitchen assistant)
4     seat to act, relative to the observer (0 = the observer), one-hot
1     the player to act has served this turn
7     own hand, count per card type / 5
7     fridge door card, one-hot per type (all zero: no door)
1     cards in the fridge draw pile / 62
3     diner cards left of value 1, 2, 3 / 2
6     steal choices now open: mine 0-2, theirs 0-2
====  =========================================================================

``observation`` (110 entries: what is on the table now; memory is the agent's job), then:

- per pan (6 x 8): pile height min(h, 12) / 12; the top card, one-hot per type (the only card
  of a pile that can be seen: the rulebook forbids looking under it);
- per served omelette slot, in serving order (6 x 4): present, served by the observer's team,
  declared XL, diner card / 3.

``information_state`` (306 entries: everything a player with perfect memory knows), then:

- per pan (6 x 29): pile height min(h, 12) / 12; the top three cards, top first, one-hot per
  type; the count of each card type in the pile / that type's total;
- per served omelette slot (6 x 11): as above, plus its count per card type / that type's total;
- cards known to be in each other seat's hand (3 x 7, count / 3; taken from the fridge door);
- cards not seen by the observer, per type / that type's total (the deck and others' unknown cards).

Nothing hidden enters either vector: other hands appear only through cards seen taken from the
door, and the deck only through its size.

``encode_observation`` and ``encode_information_state`` build a vector from scratch and are the
readable definition. ``TortillaDePatatas.observe`` copies a vector of ``ObservationVectors``,
which keeps one vector per seat and which the game updates wherever the position changes,
writing only the entries that changed; it gives the same vectors bit for bit
(``tests/test_tortilla_observation_cache.py`` compares them at every step).
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

from fiesta_envs.tortilla.components import (
    CARD_COUNTS,
    DECK_SIZE,
    DINER_COPIES,
    DINER_VALUES,
    HAND_SIZE,
    MENUS,
    NUM_CARD_TYPES,
    NUM_DINER_CARDS,
    NUM_TEAMS,
    PANS_PER_TEAM,
)

if TYPE_CHECKING:
    from fiesta_envs.tortilla.game import ServedOmelette, TortillaDePatatas

MENU_ORDER = tuple(MENUS)
MAX_SEATS = 4
MAX_HAND = 5  # a Day's/Gourmet chef during setup
HEIGHT_SCALE = 12
TOP_CARDS_REMEMBERED = 3  # information_state: the top cards of a pile, in order
NUM_PANS = NUM_TEAMS * PANS_PER_TEAM
PHASES_SHOWN = 4  # setup, play, steal, after

HEADER_SIZE = PHASES_SHOWN + len(MENU_ORDER) + 2 + MAX_SEATS + 1 + 2 * NUM_CARD_TYPES + 1 + len(DINER_VALUES) + NUM_PANS
TABLE_PAN_SIZE = 1 + NUM_CARD_TYPES  # height, top card
MEMORY_PAN_SIZE = 1 + TOP_CARDS_REMEMBERED * NUM_CARD_TYPES + NUM_CARD_TYPES  # height, top cards, counts
TABLE_DISH_SIZE = 4
MEMORY_DISH_SIZE = TABLE_DISH_SIZE + NUM_CARD_TYPES
OBSERVATION_SIZE = HEADER_SIZE + NUM_PANS * TABLE_PAN_SIZE + NUM_DINER_CARDS * TABLE_DISH_SIZE
INFORMATION_STATE_SIZE = (
    HEADER_SIZE
    + NUM_PANS * MEMORY_PAN_SIZE
    + NUM_DINER_CARDS * MEMORY_DISH_SIZE
    + (MAX_SEATS - 1) * NUM_CARD_TYPES
    + NUM_CARD_TYPES
)
_INVERSE_TOTALS: tuple[float, ...] = tuple(1.0 / count for count in CARD_COUNTS)
_PHASE_SLOT = {"setup": 0, "play": 1, "steal": 2, "after": 3}
#: Global pan indices in each team's view: its own pans first.
_PAN_ORDER: tuple[tuple[int, ...], ...] = tuple(
    tuple(t * PANS_PER_TEAM + p for t in (team, 1 - team) for p in range(PANS_PER_TEAM)) for team in range(NUM_TEAMS)
)


def observation_size(mode: str) -> int:
    return OBSERVATION_SIZE if mode == "observation" else INFORMATION_STATE_SIZE


# The encoders fill one plain list (item writes are cheap) and convert it to float32 once.
def _header(game: TortillaDePatatas, player: int, size: int) -> list[float]:
    """A zeroed list of ``size`` entries with the header filled in."""
    obs = [0.0] * size
    phase = game.phase
    if phase in _PHASE_SLOT:
        obs[_PHASE_SLOT[phase]] = 1.0
    i = PHASES_SHOWN
    obs[i + MENU_ORDER.index(game.menu.name)] = 1.0
    i += len(MENU_ORDER)
    obs[i] = float(game.num_players == 4)
    obs[i + 1] = float(game.is_chef(player))
    i += 2
    current = game.current_player
    if current >= 0:
        obs[i + (current - player) % game.num_players] = 1.0
    i += MAX_SEATS
    obs[i] = float(game.served_this_turn)
    i += 1
    for card, count in enumerate(game.hand(player)):
        obs[i + card] = count / MAX_HAND
    i += NUM_CARD_TYPES
    if game.door >= 0:
        obs[i + game.door] = 1.0
    i += NUM_CARD_TYPES
    obs[i] = game.deck_size / DECK_SIZE
    i += 1
    for k, left in enumerate(game.diners_left):
        obs[i + k] = left / DINER_COPIES
    i += len(DINER_VALUES)
    if game.steal_options:
        order = _PAN_ORDER[player % NUM_TEAMS]
        for pan in game.steal_options:
            obs[i + order.index(pan)] = 1.0
    return obs


def pile_entries(height: int, top: Sequence[int], counts: Sequence[int], memory: bool) -> list[float]:
    """One pan of ``height`` cards: height and the top card, or (memory) the top three cards and
    the counts per type. ``top`` ends with the pile's top card (the pile itself will do)."""
    depth_shown = TOP_CARDS_REMEMBERED if memory else 1
    entries = [0.0] * (MEMORY_PAN_SIZE if memory else TABLE_PAN_SIZE)
    if height:
        entries[0] = min(height, HEIGHT_SCALE) / HEIGHT_SCALE
        for depth in range(min(depth_shown, height)):
            entries[1 + depth * NUM_CARD_TYPES + top[-1 - depth]] = 1.0
        if memory:
            counts_at = 1 + depth_shown * NUM_CARD_TYPES
            for card, count in enumerate(counts):
                if count:
                    entries[counts_at + card] = count * _INVERSE_TOTALS[card]
    return entries


def dish_entries(dish: ServedOmelette, team: int, memory: bool) -> list[float]:
    """One served omelette seen by ``team``: present, ours, XL, diners / 3, (memory) counts per type."""
    entries = [1.0, float(dish.seat % NUM_TEAMS == team), float(dish.size == 1), dish.diners / DINER_VALUES[-1]]
    if memory:
        entries += [count * _INVERSE_TOTALS[card] if count else 0.0 for card, count in enumerate(dish.counts)]
    return entries


def _pans(game: TortillaDePatatas, player: int, obs: list[float], memory: bool) -> int:
    """Per pan in the observer's order (see ``pile_entries``)."""
    i = HEADER_SIZE
    size = MEMORY_PAN_SIZE if memory else TABLE_PAN_SIZE
    for pan in _PAN_ORDER[player % NUM_TEAMS]:
        pile = game.pans[pan]
        obs[i : i + size] = pile_entries(len(pile), pile, game.pan_counts[pan], memory)
        i += size
    return i


def _served(game: TortillaDePatatas, player: int, obs: list[float], i: int, memory: bool) -> int:
    """Per diner card, in serving order (see ``dish_entries``)."""
    slot = MEMORY_DISH_SIZE if memory else TABLE_DISH_SIZE
    for k, dish in enumerate(game.served):
        obs[i + k * slot : i + (k + 1) * slot] = dish_entries(dish, player % NUM_TEAMS, memory)
    return i + NUM_DINER_CARDS * slot


def encode_observation(game: TortillaDePatatas, player: int) -> np.ndarray:
    """What is on the table now, plus the observer's own hand."""
    obs = _header(game, player, OBSERVATION_SIZE)
    i = _pans(game, player, obs, memory=False)
    _served(game, player, obs, i, memory=False)
    return np.array(obs, dtype=np.float32)


def unseen_counts(game: TortillaDePatatas, player: int) -> list[int]:
    """Cards per type that ``player`` has not seen: the deck plus others' unknown hand cards."""
    seen = [game.hand(player), *game.pan_counts, *(dish.counts for dish in game.served)]
    seen += [game.known_in_hand(seat) for seat in range(game.num_players) if seat != player]
    unseen = [total - sum(column) for total, column in zip(CARD_COUNTS, zip(*seen, strict=True), strict=True)]
    if game.door >= 0:
        unseen[game.door] -= 1
    return unseen


def encode_information_state(game: TortillaDePatatas, player: int) -> np.ndarray:
    """Everything ``player`` knows with perfect memory of the public events and its own hand."""
    obs = _header(game, player, INFORMATION_STATE_SIZE)
    i = _pans(game, player, obs, memory=True)
    i = _served(game, player, obs, i, memory=True)
    for k in range(game.num_players - 1):
        known = game.known_in_hand((player + 1 + k) % game.num_players)
        for card, count in enumerate(known):
            if count:
                obs[i + k * NUM_CARD_TYPES + card] = min(count / HAND_SIZE, 1.0)
    i += (MAX_SEATS - 1) * NUM_CARD_TYPES
    for card, count in enumerate(unseen_counts(game, player)):
        obs[i + card] = count * _INVERSE_TOTALS[card]
    return np.array(obs, dtype=np.float32)


# ---------------------------------------------------------------- the incremental writer
# Offsets of the header entries that change during a game (the menu, player count and role do not).
_SEAT_AT = PHASES_SHOWN + len(MENU_ORDER) + 2
_SERVED_AT = _SEAT_AT + MAX_SEATS
_HAND_AT = _SERVED_AT + 1
_DOOR_AT = _HAND_AT + NUM_CARD_TYPES
_DECK_AT = _DOOR_AT + NUM_CARD_TYPES
_DINERS_AT = _DECK_AT + 1
_STEAL_AT = _DINERS_AT + len(DINER_VALUES)
_PHASE_INDEX = (0, 1, 2, 3, -1)  # the engine's phase numbers (setup, play, steal, after, over)
_TURN_END = _SERVED_AT + 1  # the header up to the served flag: phase, menu, players, role, seat to act, served
_PAN_POSITION: tuple[tuple[int, ...], ...] = tuple(
    tuple(order.index(pan) for pan in range(NUM_PANS)) for order in _PAN_ORDER
)

# The vectors are kept in ``array("f")`` buffers (C floats: float32, converted from Python floats
# exactly as numpy converts them), because writing into them from Python costs a fraction of a
# numpy item or slice write; ``observe`` copies a numpy view of the buffer. The blocks written
# in one go (a pile, a dish, a hand...) are ``array("f")`` too, made once and shared: never
# write into them.
_NO_STEALS = array("f", [0.0] * NUM_PANS)


@lru_cache(maxsize=4096)
def _scaled(counts: tuple[int, ...], scale: int) -> array:
    """``counts / scale`` as a float32 block."""
    return array("f", [count / scale for count in counts])


#: ``pile_entries`` as float32 blocks by what a pile shows (see ``ObservationVectors.pile_changed``),
#: one table per mode: games see few distinct piles. Emptied when full.
_PILE_BLOCKS: dict[bool, dict[tuple, array]] = {True: {}, False: {}}
_PILE_BLOCKS_LIMIT = 1 << 15


def _new_pile_block(key: tuple, pile: Sequence[int], counts: Sequence[int], memory: bool) -> array:
    blocks = _PILE_BLOCKS[memory]
    if len(blocks) >= _PILE_BLOCKS_LIMIT:
        blocks.clear()
    block = blocks[key] = array("f", pile_entries(len(pile), pile, counts, memory))
    return block


@lru_cache(maxsize=4096)
def _dish_blocks(dish: ServedOmelette, memory: bool) -> tuple[array, ...]:
    """``dish_entries`` as a float32 block for each team."""
    return tuple(array("f", dish_entries(dish, team, memory)) for team in range(NUM_TEAMS))


@lru_cache(maxsize=4096)
def _unseen_at_deal(hand: tuple[int, ...], door: int) -> array:
    """The unseen counts of a seat holding ``hand`` when nothing is on the table or known yet, as
    the vectors show them (a float32 block)."""
    counts = [total - held - (card == door) for card, (total, held) in enumerate(zip(CARD_COUNTS, hand, strict=True))]
    return array("f", [count * inverse for count, inverse in zip(counts, _INVERSE_TOTALS, strict=True)])


def _turn_blocks(row: array, player: int, num_players: int) -> list[array | None]:
    """The entries ``[0, _TURN_END)`` of ``player``'s vector (constant ones from ``row``) for every
    turn key ``(engine phase * MAX_SEATS + seat to act) * 2 + served flag`` (None: no such seat)."""
    blocks: list[array | None] = []
    for phase_at in _PHASE_INDEX:  # in the order of the engine phase numbers
        for current in range(MAX_SEATS):
            for served in (False, True):
                if current >= num_players:
                    blocks.append(None)
                    continue
                block = array("f", row[:_TURN_END])
                if phase_at >= 0:  # while the game is on: the phase and the seat to act
                    block[phase_at] = 1.0
                    block[_SEAT_AT + (current - player) % num_players] = 1.0
                block[_SERVED_AT] = served
                blocks.append(block)
    return blocks


class ObservationVectors:
    """The observation vectors of one game, one per seat, kept current as the game changes.

    Writing entries is the cost of an observation, so instead of encoding a position when asked,
    the game calls the methods below wherever it changes something the vectors show, and each
    writes only the entries that changed, in every seat's vector; ``observe`` copies the seat's
    vector. ``sync_turn`` (called after every action) compares the few turn-level values (phase,
    seat to act, served flag, fridge) with what the vectors show; ``rebuild`` writes a whole
    position from the template of constant entries (a loaded position) and ``new_game`` a game
    just dealt.

    The methods read the game's private lists directly: property calls would cost as much as the
    writes. The vectors equal the from-scratch encoders bit for bit
    (``tests/test_tortilla_observation_cache.py`` checks every seat at every step).
    """

    def __init__(self, game: TortillaDePatatas, memory: bool) -> None:
        num_players = game.num_players
        self.memory = memory
        self.num_players = num_players
        self.size = size = INFORMATION_STATE_SIZE if memory else OBSERVATION_SIZE
        self.pan_size = MEMORY_PAN_SIZE if memory else TABLE_PAN_SIZE
        self.dish_size = MEMORY_DISH_SIZE if memory else TABLE_DISH_SIZE
        self.dishes_at = HEADER_SIZE + NUM_PANS * self.pan_size
        self.known_at = self.dishes_at + NUM_DINER_CARDS * self.dish_size  # memory only
        self.unseen_at = size - NUM_CARD_TYPES  # memory only
        # per seat: the entries that never change during a game, and those plus a new game's diner cards
        self.template: list[array] = []
        for player in range(num_players):
            row = array("f", bytes(4 * size))
            row[PHASES_SHOWN + MENU_ORDER.index(game.menu.name)] = 1.0
            row[_SEAT_AT - 2] = float(num_players == 4)
            row[_SEAT_AT - 1] = float(game.is_chef(player))
            self.template.append(row)
        self.fresh = [array("f", row) for row in self.template]
        for row in self.fresh:
            row[_DINERS_AT:_STEAL_AT] = _scaled((DINER_COPIES,) * len(DINER_VALUES), DINER_COPIES)
        self.vectors = [array("f", row) for row in self.template]  # what observe copies, per seat
        self.views = [np.frombuffer(vector, dtype=np.float32) for vector in self.vectors]
        # per global pan, where its block goes in each seat's vector (its team's pans first)
        self.pan_slots: list[list[tuple[array, slice]]] = [
            [
                (vector, slice(at, at + self.pan_size))
                for player, vector in enumerate(self.vectors)
                for at in [HEADER_SIZE + _PAN_POSITION[player % NUM_TEAMS][pan] * self.pan_size]
            ]
            for pan in range(NUM_PANS)
        ]
        self.pile_blocks = _PILE_BLOCKS[memory]
        # per dish slot (serving order), where it goes in each seat's vector and that seat's team
        self.dish_slots: list[list[tuple[array, slice, int]]] = [
            [
                (vector, slice(at, at + self.dish_size), player % NUM_TEAMS)
                for player, vector in enumerate(self.vectors)
                for at in [self.dishes_at + index * self.dish_size]
            ]
            for index in range(NUM_DINER_CARDS)
        ]
        # per seat, its vector and the first entries of it for every turn key (see ``sync_turn``)
        self.turn_slots = [
            (vector, _turn_blocks(row, player, num_players))
            for player, (vector, row) in enumerate(zip(self.vectors, self.template, strict=True))
        ]
        # the door one-hot: per card type, its entry in every vector; the extra last list is -1 (none)
        self.door_slots = [[(vector, _DOOR_AT + card) for vector in self.vectors] for card in range(NUM_CARD_TYPES)]
        self.door_slots.append([])
        # what every vector shows of the turn-level values (-1: not written yet)
        self.turn_shown = self.door_shown = self.deck_shown = -1

    def observe(self, player: int) -> np.ndarray:
        """A fresh float32 copy of ``player``'s vector (callers may write into it)."""
        return self.views[player].copy()

    # A copy (``copy.deepcopy``, pickle) must look at its own buffers: make its views afresh.
    def __getstate__(self) -> dict:
        return {name: value for name, value in self.__dict__.items() if name != "views"}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self.views = [np.frombuffer(vector, dtype=np.float32) for vector in self.vectors]

    # ------------------------------------------------------------------ a whole position
    def new_game(self, game: TortillaDePatatas) -> None:
        """A game just dealt (nothing on the table, served or known yet): the cheap ``rebuild``."""
        self._restart(self.fresh, game)
        if self.memory:
            for hand, vector in zip(game._hands, self.vectors, strict=True):
                vector[self.unseen_at :] = _unseen_at_deal(tuple(hand), game._door)

    def rebuild(self, game: TortillaDePatatas) -> None:
        """Write ``game``'s position from scratch (a loaded position): the template, then every part."""
        self._restart(self.template, game)
        diners = _scaled(tuple(game._diners), DINER_COPIES)
        for vector in self.vectors:
            vector[_DINERS_AT:_STEAL_AT] = diners
        if game._steal_options:
            self.steals_changed(game)
        for pan in range(NUM_PANS):
            if game._pans[pan]:
                self.pile_changed(game, pan)
        for index, dish in enumerate(game._served):
            self._write_dish(dish, index)
        for seat, known in enumerate(game._known):
            for card, count in enumerate(known):
                if count:
                    self.known_changed(game, seat, card)
        for card in range(NUM_CARD_TYPES):
            self.unseen_changed(game, card)

    def _restart(self, rows: list[array], game: TortillaDePatatas) -> None:
        """Start again from ``rows`` (a template), then write the turn-level values and the hands."""
        for vector, row in zip(self.vectors, rows, strict=True):
            vector[:] = row  # same length: the buffers never move (``views`` stay valid)
        self.turn_shown = self.door_shown = self.deck_shown = -1
        self.sync_turn(game)
        for hand, vector in zip(game._hands, self.vectors, strict=True):
            vector[_HAND_AT:_DOOR_AT] = _scaled(tuple(hand), MAX_HAND)

    # ------------------------------------------------------------------ what changes during a game
    def sync_turn(self, game: TortillaDePatatas) -> None:
        """The phase, seat to act, served flag, fridge size and door: rewrite whichever changed."""
        turn = (game._phase * MAX_SEATS + game._current) * 2 + game._served_this_turn
        if turn != self.turn_shown:  # phase, seat to act and served flag in one block per vector
            for vector, blocks in self.turn_slots:
                vector[:_TURN_END] = blocks[turn]
            self.turn_shown = turn
        door = game._door
        if door != self.door_shown:
            _move_flag(self.door_slots[self.door_shown], self.door_slots[door])
            self.door_shown = door
        deck = len(game._deck)
        if deck != self.deck_shown:
            value = deck / DECK_SIZE
            for vector in self.vectors:
                vector[_DECK_AT] = value
            self.deck_shown = deck

    def hand_changed(self, game: TortillaDePatatas, seat: int, card: int) -> None:
        """``seat`` holds a different number of ``card`` (only its own vector shows its hand)."""
        self.vectors[seat][_HAND_AT + card] = game._hands[seat][card] / MAX_HAND

    def card_put(self, game: TortillaDePatatas, pan: int, card: int) -> None:
        """A ``card`` from a hand or the fridge was put into pan ``pan``: now seen by all."""
        self.pile_changed(game, pan)
        self.unseen_changed(game, card)

    def card_drawn(self, game: TortillaDePatatas, seat: int, card: int, from_door: bool) -> None:
        """``seat`` refilled its hand with ``card`` from the fridge or (everyone saw it) its door."""
        self.vectors[seat][_HAND_AT + card] = game._hands[seat][card] / MAX_HAND
        if not from_door:
            self.unseen_changed(game, card, seat)  # seen by the drawer only
            return
        self.known_changed(game, seat, card)
        self.unseen_changed(game, card)  # the door card went into a hand everyone knows of
        if game._door >= 0:
            self.unseen_changed(game, game._door)  # the new door card, seen by all

    def pile_changed(self, game: TortillaDePatatas, pan: int) -> None:
        """Pan ``pan`` (global index) gained or lost cards."""
        pile, counts = game._pans[pan], game._pan_counts[pan]
        if self.memory:  # the counts (their sum: the height) and the top cards
            key = (tuple(counts), tuple(pile[-TOP_CARDS_REMEMBERED:]))
        else:  # the height as shown (capped) and the top card
            key = (min(len(pile), HEIGHT_SCALE), tuple(pile[-1:]))
        block = self.pile_blocks.get(key)
        if block is None:
            block = _new_pile_block(key, pile, counts, self.memory)
        for vector, slot in self.pan_slots[pan]:
            vector[slot] = block

    def dish_served(self, game: TortillaDePatatas) -> None:
        """An omelette was served: its dish slot and the diner cards left."""
        dish = game._served[-1]
        self._write_dish(dish, len(game._served) - 1)
        index = dish.diners - 1
        value = game._diners[index] / DINER_COPIES
        for vector in self.vectors:
            vector[_DINERS_AT + index] = value

    def _write_dish(self, dish: ServedOmelette, index: int) -> None:
        blocks = _dish_blocks(dish, self.memory)
        for vector, slot, team in self.dish_slots[index]:
            vector[slot] = blocks[team]

    def steals_changed(self, game: TortillaDePatatas) -> None:
        """The steal choices open now (set when a steal must be chosen, cleared once it is)."""
        for player, vector in enumerate(self.vectors):
            vector[_STEAL_AT : _STEAL_AT + NUM_PANS] = _NO_STEALS
            position = _PAN_POSITION[player % NUM_TEAMS]
            for pan in game._steal_options:
                vector[_STEAL_AT + position[pan]] = 1.0

    def known_changed(self, game: TortillaDePatatas, seat: int, card: int) -> None:
        """Everyone knows ``seat`` holds a different number of ``card`` (memory: the others' vectors)."""
        if not self.memory:
            return
        value = min(game._known[seat][card] / HAND_SIZE, 1.0)
        n = self.num_players
        for player, vector in enumerate(self.vectors):
            if player != seat:
                vector[self.known_at + (seat - player - 1) % n * NUM_CARD_TYPES + card] = value

    def unseen_changed(self, game: TortillaDePatatas, card: int, seat: int = -1) -> None:
        """Recount the unseen cards of type ``card`` for ``seat`` (-1: every seat; memory only).

        A seat has not seen a card that is in no pan or dish, not in its hand, not the door and
        not known to be in another hand: call this whenever one of those changes for ``card``.
        """
        if not self.memory:
            return
        known, hands = game._known, game._hands
        outside = CARD_COUNTS[card] - game._table_counts[card] - (game._door == card)  # not on the table or the door
        for counts in known:
            outside -= counts[card]  # nor known to be in a hand
        inverse, at = _INVERSE_TOTALS[card], self.unseen_at + card
        if seat >= 0:
            self.vectors[seat][at] = (outside - hands[seat][card] + known[seat][card]) * inverse
            return
        for player, vector in enumerate(self.vectors):
            vector[at] = (outside - hands[player][card] + known[player][card]) * inverse


def _move_flag(before: list[tuple[array, int]], after: list[tuple[array, int]]) -> None:
    """Move a one-hot flag in every vector: clear the entries ``before``, set the entries ``after``."""
    for vector, at in before:
        vector[at] = 0.0
    for vector, at in after:
        vector[at] = 1.0
