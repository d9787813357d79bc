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
readable definition. ``TortillaDePatatas.observe`` uses ``ObservationCache``, which keeps one
vector per seat and rewrites only what changed since that seat last looked; it gives the same
vectors bit for bit (``tests/test_tortilla_observation_cache.py`` compares them).
"""

from __future__ import annotations

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


# ---------------------------------------------------------------- the incremental encoder
# Offsets of the header entries that change during a game (the menu, player count and role do not).
_SEAT_AT = PHASES_SHOWN + len(MENU_ORDER) + 2
_SERVED_AT = _SEAT_AT + MAX_SEATS
_HAND_AT = _SERVED_AT + 1
_DOOR_AT = _HAND_AT + NUM_CARD_TYPES
_DECK_AT = _DOOR_AT + NUM_CARD_TYPES
_DINERS_AT = _DECK_AT + 1
_STEAL_AT = _DINERS_AT + len(DINER_VALUES)
_PHASE_INDEX = (0, 1, 2, 3, -1)  # the engine's phase numbers (setup, play, steal, after, over)
_PAN_POSITION: tuple[tuple[int, ...], ...] = tuple(
    tuple(order.index(pan) for pan in range(NUM_PANS)) for order in _PAN_ORDER
)


@lru_cache(maxsize=4096)
def _scaled(counts: tuple[int, ...], scale: int) -> np.ndarray:
    """``counts / scale`` as float32 (shared: never write into it)."""
    return np.array([count / scale for count in counts], dtype=np.float32)


@lru_cache(maxsize=16384)
def _pile_block(height: int, top: tuple[int, ...], counts: tuple[int, ...], memory: bool) -> np.ndarray:
    """``pile_entries`` as float32, cached: games see few distinct piles (shared: never write into it)."""
    return np.array(pile_entries(height, top, counts, memory), dtype=np.float32)


@lru_cache(maxsize=4096)
def _dish_block(dish: ServedOmelette, team: int, memory: bool) -> np.ndarray:
    """``dish_entries`` as float32, cached (shared: never write into it)."""
    return np.array(dish_entries(dish, team, memory), dtype=np.float32)


class ObservationCache:
    """The observation vectors of one game, one per seat, refreshed incrementally.

    Numpy item writes are the cost of an observation, so each call writes only what changed since
    that seat's previous call:

    - header entries whose source value changed (``shown`` remembers what each vector holds);
    - pans whose ``game._pile_versions`` entry moved (the game bumps it on every pile change;
      pile blocks come from a cache keyed by what they show: few distinct piles occur);
    - dishes served since (the served list only grows);
    - (memory) the known cards when the other seats' ``game._known_versions`` moved, and the
      unseen counts when the door, those known cards, the table size or the hand changed.

    The game drops the cache on a new game and on a loaded position (the versions restart
    there), so a cache lives for one game. It reads the game's private lists directly: property
    calls would cost as much as the work saved.
    """

    def __init__(self, game: TortillaDePatatas, memory: bool) -> None:
        self.memory = memory
        self.size = INFORMATION_STATE_SIZE if memory else OBSERVATION_SIZE
        self.pan_size = MEMORY_PAN_SIZE if memory else TABLE_PAN_SIZE
        self.dish_size = MEMORY_DISH_SIZE if memory else TABLE_DISH_SIZE
        self.dishes_at = HEADER_SIZE + NUM_PANS * self.pan_size
        self.tail_at = self.dishes_at + NUM_DINER_CARDS * self.dish_size  # memory: known cards, unseen
        num_players = game.num_players
        self.vectors: list[np.ndarray] = []
        for player in range(num_players):
            vector = np.zeros(self.size, dtype=np.float32)
            vector[PHASES_SHOWN + MENU_ORDER.index(game.menu.name)] = 1.0
            vector[_SEAT_AT - 2] = float(num_players == 4)
            vector[_SEAT_AT - 1] = float(game.is_chef(player))
            self.vectors.append(vector)
        # per seat, what its vector shows now: the positions of the phase, seat-to-act and door
        # ones (-1: none), served flag, hand, deck size, diner cards, steal positions, unseen counts
        self.shown: list[list] = [[-1, -1, False, None, -1, -1, None, (), None] for _ in range(num_players)]
        # per seat, the version of each pile its vector shows (-1: not written yet), and their sum
        self.piles_shown = [[-1] * NUM_PANS for _ in range(num_players)]
        self.piles_shown_total = [-1] * num_players
        self.dishes_shown = [0] * num_players
        self.known_shown = [-1] * num_players
        self.known_to_others: list[list[int]] = [[0] * NUM_CARD_TYPES for _ in range(num_players)]  # memory

    def observe(self, game: TortillaDePatatas, player: int) -> np.ndarray:
        """``player``'s vector for ``game`` (the game this cache was made for), as a fresh array."""
        vector = self.vectors[player]
        team = player % NUM_TEAMS
        self._header(game, player, vector, self.shown[player])
        versions, shown = game._pile_versions, self.piles_shown[player]
        if sum(versions) != self.piles_shown_total[player]:  # versions only grow: same sum, same piles
            for pan, position in enumerate(_PAN_POSITION[team]):
                version = versions[pan]
                if shown[pan] != version:
                    pile = game._pans[pan]
                    if self.memory:  # the block depends on the top cards and the counts (their sum: the height)
                        block = _pile_block(
                            len(pile), tuple(pile[-TOP_CARDS_REMEMBERED:]), tuple(game._pan_counts[pan]), True
                        )
                    else:
                        block = _pile_block(min(len(pile), HEIGHT_SCALE), tuple(pile[-1:]), (), False)
                    at = HEADER_SIZE + position * self.pan_size
                    vector[at : at + self.pan_size] = block
                    shown[pan] = version
            self.piles_shown_total[player] = sum(versions)
        served = game._served
        if self.dishes_shown[player] < len(served):
            self._dishes(served, team, vector, self.dishes_shown[player])
            self.dishes_shown[player] = len(served)
        if self.memory:
            self._memory_tail(game, player, vector, self.shown[player])
        return vector.copy()

    @staticmethod
    def _header(game: TortillaDePatatas, player: int, vector: np.ndarray, shown: list) -> None:
        phase = _PHASE_INDEX[game._phase]
        _move_flag(vector, shown, 0, phase)
        seat = _SEAT_AT + (game._current - player) % game.num_players if phase >= 0 else -1
        _move_flag(vector, shown, 1, seat)
        if game._served_this_turn != shown[2]:
            vector[_SERVED_AT] = shown[2] = game._served_this_turn
        hand = tuple(game._hands[player])
        if hand != shown[3]:
            vector[_HAND_AT:_DOOR_AT] = _scaled(hand, MAX_HAND)
            shown[3] = hand
        door = _DOOR_AT + game._door if game._door >= 0 else -1
        _move_flag(vector, shown, 4, door)
        if len(game._deck) != shown[5]:
            shown[5] = len(game._deck)
            vector[_DECK_AT] = shown[5] / DECK_SIZE
        diners = tuple(game._diners)
        if diners != shown[6]:
            vector[_DINERS_AT:_STEAL_AT] = _scaled(diners, DINER_COPIES)
            shown[6] = diners
        if game._steal_options or shown[7]:  # steal choices are rare
            position = _PAN_POSITION[player % NUM_TEAMS]
            steals = tuple(_STEAL_AT + position[pan] for pan in game._steal_options)
        else:
            steals = ()
        if steals != shown[7]:
            for at in shown[7]:
                vector[at] = 0.0
            for at in steals:
                vector[at] = 1.0
            shown[7] = steals

    def _dishes(self, served: list[ServedOmelette], team: int, vector: np.ndarray, first: int) -> None:
        for k in range(first, len(served)):
            at = self.dishes_at + k * self.dish_size
            vector[at : at + self.dish_size] = _dish_block(served[k], team, self.memory)

    def _memory_tail(self, game: TortillaDePatatas, player: int, vector: np.ndarray, shown: list) -> None:
        num_players = game.num_players
        known = game._known
        versions = game._known_versions
        others_version = sum(versions) - versions[player]  # versions only grow: same sum, same cards
        if self.known_shown[player] != others_version:
            others = [known[(player + 1 + k) % num_players] for k in range(num_players - 1)]
            entries = [0.0] * ((MAX_SEATS - 1) * NUM_CARD_TYPES)
            for k, counts in enumerate(others):
                for card, count in enumerate(counts):
                    if count:
                        entries[k * NUM_CARD_TYPES + card] = min(count / HAND_SIZE, 1.0)
            vector[self.tail_at : self.tail_at + len(entries)] = entries
            self.known_to_others[player] = [sum(column) for column in zip(*others, strict=True)]
            self.known_shown[player] = others_version
        # unseen = all cards - own hand - the table - the door - what the others are known to hold.
        # The table only grows, so its size tells whether it changed: same hand, door, table size
        # and known cards, same unseen counts.
        key = (game._door, others_version, sum(game._table_counts), shown[3])
        if key == shown[8]:
            return
        shown[8] = key
        unseen = [
            total - held - placed - known_elsewhere
            for total, held, placed, known_elsewhere in zip(
                CARD_COUNTS, game._hands[player], game._table_counts, self.known_to_others[player], strict=True
            )
        ]
        if game._door >= 0:
            unseen[game._door] -= 1
        vector[self.size - NUM_CARD_TYPES :] = [
            count * inverse for count, inverse in zip(unseen, _INVERSE_TOTALS, strict=True)
        ]


def _move_flag(vector: np.ndarray, shown: list, slot: int, position: int) -> None:
    """Move a one-hot flag: clear the entry ``shown[slot]`` last set (-1: none), set ``position`` (-1: none)."""
    if position != shown[slot]:
        if shown[slot] >= 0:
            vector[shown[slot]] = 0.0
        if position >= 0:
            vector[position] = 1.0
        shown[slot] = position
