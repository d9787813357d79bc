"""What a seat of Tortilla de Patatas knows, as a float32 vector (every entry in [0, 1]), in two modes.

Pans and served omelettes are listed from the observer's side: its team's pans 0-2 first,
then the other team's; other seats in turn order after the observer (relative seat 0 = the observer).

Both modes start with the same header (38 entries; block names as in ``game.observer.decode``):

====  ====================  ==============================================================
size  block                 what
====  ====================  ==============================================================
4     ``phase``             one-hot: setup, play, steal, after (all zero once the game is over)
3     ``menu``              one-hot: kids, day, gourmet
1     ``four_players``      a 4-player game
1     ``chef``              the observer is a chef (not a kitchen assistant)
4     ``to_act``            seat to act, relative to the observer, one-hot
1     ``served_this_turn``  the player to act has served this turn
7     ``hand``              own hand, count per card type / 5
7     ``door``              fridge door card, one-hot per type (all zero: no door)
1     ``fridge``            cards in the fridge draw pile / 62
3     ``diners_left``       diner cards left of value 1, 2, 3 / 2
6     ``steal_choices``     steal choices now open: mine 0-2, theirs 0-2
====  ====================  ==============================================================

``observation`` (memory is the agent's job: what is on the table now, and what happened on it since the
observer's last decision), then:

- ``pans`` (6 x 8): per pan, pile height min(h, 12) / 12; the top card, one-hot per type (the only
  card of a pile that can be seen: the rulebook forbids looking under it);
- ``served`` (6 x 4): per served omelette slot, in serving order: present, served by the observer's
  team, declared XL, diner card / 3;
- ``events`` (4 n x 27): what every seat saw happen on the table since the observer's last decision
  (its own decision included), oldest first, one slot per event: kind one-hot [4] (play: a card put
  into a pan, a starting card included; steal; serve; door: a card taken from the fridge door), seat
  relative one-hot [4] (all zero: the fridge, when the Kids' menu fills the starting pans), pan
  one-hot [6] (played on, stolen onto, served; none for a door card), card one-hot [7] (played,
  stolen, taken from the door; none for a serve: the cards go face down), the pan stolen from,
  one-hot [6]. Unused slots are 0. Between two decisions of a seat at most 4 n events happen (4 per
  other seat's turn: a serve, a play, a steal, a door card), so none is ever left out.

``information_state`` (everything a player with perfect memory knows), then:

- ``pans`` (6 x 29): pile height min(h, 12) / 12; the top three cards, top first, one-hot per
  type; the count of each card type in the pile / that type's total;
- ``served`` (6 x 11): as above, plus its count per card type / that type's total;
- ``known_in_hands`` (3 x 7): cards known to be in each other seat's hand (count / 3; taken from the
  fridge door);
- ``unseen`` (7): cards not seen by the observer, per type / that type's total (the deck and others'
  unknown cards).

Nothing hidden enters either vector: other hands appear only through cards seen taken from the
door, and the deck only through its size.

``TortillaObserver.encode`` builds a vector from scratch through ``encode_observation`` and
``encode_information_state``, the readable definition. ``TortillaObserver.observe`` keeps each
seat's last vector and rewrites the blocks whose part of the position changed since the seat
last looked: it compares the position with what it wrote (it pulls; the rules never call it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from fiesta_envs.core.observer import ObservationLayout, Observer
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
from fiesta_envs.tortilla.features import action_features, unseen_pool
from fiesta_envs.tortilla.state import EVENT_KINDS, NO_PAN, NO_SEAT, Phase, ServedOmelette, TableEvent

if TYPE_CHECKING:
    from fiesta_envs.tortilla.engine_view import EngineView

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
INFORMATION_STATE_SIZE = (
    HEADER_SIZE
    + NUM_PANS * MEMORY_PAN_SIZE
    + NUM_DINER_CARDS * MEMORY_DISH_SIZE
    + (MAX_SEATS - 1) * NUM_CARD_TYPES
    + NUM_CARD_TYPES
)
_INVERSE_TOTALS: tuple[float, ...] = tuple(1.0 / count for count in CARD_COUNTS)
_PHASE_SLOT = {Phase.SETUP: 0, Phase.PLAY: 1, Phase.STEAL: 2, Phase.AFTER: 3}
#: Global pan indices in each team's view: its own pans first.
_PAN_ORDER: tuple[tuple[int, ...], ...] = tuple(
    tuple(t * PANS_PER_TEAM + p for t in (team, 1 - team) for p in range(PANS_PER_TEAM)) for team in range(NUM_TEAMS)
)


#: The engine version that last changed each mode's layout (``TortillaDePatatas.observation_layout``).
OBSERVATION_LAYOUT_VERSIONS = {"information_state": 0, "observation": 1}
#: One table event (``events`` block): kind, seat, pan, card, the pan stolen from.
EVENT_SIZE = len(EVENT_KINDS) + MAX_SEATS + NUM_PANS + NUM_CARD_TYPES + NUM_PANS
_EVENT_SEAT = len(EVENT_KINDS)
_EVENT_PAN = _EVENT_SEAT + MAX_SEATS
_EVENT_CARD = _EVENT_PAN + NUM_PANS
_EVENT_SOURCE = _EVENT_CARD + NUM_CARD_TYPES
#: Events per seat between two of its decisions, at most: 4 per turn of each seat (see the docstring).
EVENTS_PER_SEAT = 4


def max_events(num_players: int) -> int:
    return EVENTS_PER_SEAT * num_players


def observation_size(mode: str, num_players: int = 2) -> int:
    """Entries of the plain observation (without action features)."""
    return observation_layout(mode, num_players).size


HEADER_BLOCKS: tuple[tuple[str, int], ...] = (
    ("phase", PHASES_SHOWN),
    ("menu", len(MENU_ORDER)),
    ("four_players", 1),
    ("chef", 1),
    ("to_act", MAX_SEATS),
    ("served_this_turn", 1),
    ("hand", NUM_CARD_TYPES),
    ("door", NUM_CARD_TYPES),
    ("fridge", 1),
    ("diners_left", len(DINER_VALUES)),
    ("steal_choices", NUM_PANS),
)


def observation_layout(mode: str, num_players: int, action_features_size: int = 0) -> ObservationLayout:
    """The named blocks of the observation in ``mode`` (see the module docstring)."""
    blocks: list[tuple[str, int | tuple[int, ...]]]
    if mode == "observation":
        blocks = [
            ("pans", (NUM_PANS, TABLE_PAN_SIZE)),
            ("served", (NUM_DINER_CARDS, TABLE_DISH_SIZE)),
            ("events", (max_events(num_players), EVENT_SIZE)),
        ]
    else:
        blocks = [
            ("pans", (NUM_PANS, MEMORY_PAN_SIZE)),
            ("served", (NUM_DINER_CARDS, MEMORY_DISH_SIZE)),
            ("known_in_hands", (MAX_SEATS - 1, NUM_CARD_TYPES)),
            ("unseen", NUM_CARD_TYPES),
        ]
    if action_features_size:
        blocks.append(("action_features", action_features_size))
    return ObservationLayout([*HEADER_BLOCKS, *blocks])


# The encoders fill one plain list (item writes are cheap) and convert it to float32 once.
def _header(game: EngineView, player: int, size: int) -> list[float]:
    """A zeroed list of ``size`` entries with the header filled in."""
    obs = [0.0] * size
    state = game.state
    phase = state.phase
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
    obs[i] = float(state.served_this_turn)
    i += 1
    for card, count in enumerate(state.hands[player]):
        obs[i + card] = count / MAX_HAND
    i += NUM_CARD_TYPES
    if state.door >= 0:
        obs[i + state.door] = 1.0
    i += NUM_CARD_TYPES
    obs[i] = len(state.deck) / DECK_SIZE
    i += 1
    for k, left in enumerate(state.diners_left):
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


def _pans(game: EngineView, player: int, obs: list[float], memory: bool) -> int:
    """Per pan in the observer's order (see ``pile_entries``)."""
    i = HEADER_SIZE
    size = MEMORY_PAN_SIZE if memory else TABLE_PAN_SIZE
    for pan in _PAN_ORDER[player % NUM_TEAMS]:
        pile = game.state.pans[pan]
        obs[i : i + size] = pile_entries(len(pile), pile, game.pan_counts[pan], memory)
        i += size
    return i


def _served(game: EngineView, player: int, obs: list[float], i: int, memory: bool) -> int:
    """Per diner card, in serving order (see ``dish_entries``)."""
    slot = MEMORY_DISH_SIZE if memory else TABLE_DISH_SIZE
    for k, dish in enumerate(game.state.served):
        obs[i + k * slot : i + (k + 1) * slot] = dish_entries(dish, player % NUM_TEAMS, memory)
    return i + NUM_DINER_CARDS * slot


def event_entries(event: TableEvent, player: int, num_players: int) -> list[float]:
    """One event as ``player`` saw it (EVENT_SIZE entries; see the module docstring)."""
    entries = [0.0] * EVENT_SIZE
    entries[event.kind] = 1.0
    if event.seat != NO_SEAT:
        entries[_EVENT_SEAT + (event.seat - player) % num_players] = 1.0
    order = _PAN_ORDER[player % NUM_TEAMS]
    if event.pan != NO_PAN:
        entries[_EVENT_PAN + order.index(event.pan)] = 1.0
    if event.card >= 0:
        entries[_EVENT_CARD + event.card] = 1.0
    if event.source != NO_PAN:
        entries[_EVENT_SOURCE + order.index(event.source)] = 1.0
    return entries


def encode_observation(game: EngineView, player: int) -> np.ndarray:
    """What is on the table now, the observer's own hand, and what it saw happen since its last decision."""
    n = game.num_players
    obs = _header(game, player, observation_size("observation", n))
    i = _pans(game, player, obs, memory=False)
    i = _served(game, player, obs, i, memory=False)
    for event in game.events_seen(player):
        obs[i : i + EVENT_SIZE] = event_entries(event, player, n)
        i += EVENT_SIZE
    return np.array(obs, dtype=np.float32)


def unseen_counts(game: EngineView, player: int) -> list[int]:
    """Cards per type that ``player`` has not seen: the deck plus others' unknown hand cards."""
    state = game.state
    seen = [state.hands[player], *game.pan_counts, *(dish.counts for dish in state.served)]
    seen += [state.known[seat] for seat in range(game.num_players) if seat != player]
    unseen = [total - sum(column) for total, column in zip(CARD_COUNTS, zip(*seen, strict=True), strict=True)]
    if state.door >= 0:
        unseen[state.door] -= 1
    return unseen


def encode_information_state(game: EngineView, player: int) -> np.ndarray:
    """Everything ``player`` knows with perfect memory of the public events and its own hand."""
    obs = _header(game, player, INFORMATION_STATE_SIZE)
    i = _pans(game, player, obs, memory=True)
    i = _served(game, player, obs, i, memory=True)
    for k in range(game.num_players - 1):
        known = game.state.known[(player + 1 + k) % game.num_players]
        for card, count in enumerate(known):
            if count:
                obs[i + k * NUM_CARD_TYPES + card] = min(count / HAND_SIZE, 1.0)
    i += (MAX_SEATS - 1) * NUM_CARD_TYPES
    for card, count in enumerate(unseen_counts(game, player)):
        obs[i + card] = count * _INVERSE_TOTALS[card]
    return np.array(obs, dtype=np.float32)


# ---------------------------------------------------------------- the observer
#: ``pile_entries`` as float32 blocks by (memory, the pile): games see few distinct piles. Emptied when full.
_PILE_BLOCKS: dict[tuple[bool, tuple[int, ...]], np.ndarray] = {}
_PILE_BLOCKS_LIMIT = 1 << 15


def _pile_block(pile: tuple[int, ...], memory: bool) -> np.ndarray:
    block = _PILE_BLOCKS.get((memory, pile))
    if block is None:
        if len(_PILE_BLOCKS) >= _PILE_BLOCKS_LIMIT:
            _PILE_BLOCKS.clear()
        counts = [pile.count(card) for card in range(NUM_CARD_TYPES)]
        block = _PILE_BLOCKS[memory, pile] = np.array(pile_entries(len(pile), pile, counts, memory), dtype=np.float32)
    return block


_ONE_HOT_4 = np.eye(MAX_SEATS + 1, MAX_SEATS, dtype=np.float32)  # row MAX_SEATS: all zero
_PHASE_ROWS = {phase: np.eye(PHASES_SHOWN, dtype=np.float32)[slot] for phase, slot in _PHASE_SLOT.items()}
_PHASE_ROWS[Phase.OVER] = np.zeros(PHASES_SHOWN, dtype=np.float32)
_DOOR_ROWS = np.eye(NUM_CARD_TYPES + 1, NUM_CARD_TYPES, dtype=np.float32)  # row NUM_CARD_TYPES (door -1): none


@dataclass
class _SeatMemory:
    """One seat's last vector, its blocks, and the parts of the position they were written from."""

    values: np.ndarray
    blocks: dict[str, np.ndarray]
    piles: list[Any] = field(default_factory=lambda: [None] * NUM_PANS)
    turn: Any = None
    hand: Any = None
    door: Any = None
    deck: Any = None
    diners: Any = None
    steals: Any = None
    served: int = 0
    unseen: Any = None
    events: Any = None


class TortillaObserver(Observer):
    """The observation of every seat of one game, in the game's mode (see the module docstring)."""

    def __init__(self, mode: str, num_players: int, menu: str, action_features_size: int = 0) -> None:
        super().__init__(observation_layout(mode, num_players, action_features_size))
        self.memory = mode == "information_state"
        self.num_players = num_players
        self.menu = menu
        self.with_action_features = action_features_size > 0
        self._template = np.zeros(self.layout.size, dtype=np.float32)
        template = self.layout.views(self._template)
        template["menu"][MENU_ORDER.index(menu)] = 1.0
        template["four_players"][0] = float(num_players == 4)
        self._pan_order = [_PAN_ORDER[seat % NUM_TEAMS] for seat in range(num_players)]
        self.reset()

    def reset(self) -> None:
        self._seats: list[_SeatMemory | None] = [None] * self.num_players

    # ------------------------------------------------------------------ the reference
    def encode(self, game: EngineView, seat: int, out: np.ndarray) -> None:
        plain = encode_information_state(game, seat) if self.memory else encode_observation(game, seat)
        out[: len(plain)] = plain
        if self.with_action_features:
            self.layout.views(out)["action_features"][:] = action_features(game, seat)

    # ------------------------------------------------------------------ incremental
    def _memory(self, seat: int) -> _SeatMemory:
        values = self._template.copy()
        values[self.layout.slice("chef")] = float(seat < NUM_TEAMS)
        memory = self._seats[seat] = _SeatMemory(values, self.layout.views(values))
        return memory

    def observe(self, game: EngineView, seat: int) -> np.ndarray:
        memory = self._seats[seat] or self._memory(seat)
        block = memory.blocks
        state = game.state
        n = self.num_players
        current = game.current_player
        turn = (state.phase, current, state.served_this_turn)
        if memory.turn != turn:
            block["phase"][:] = _PHASE_ROWS[state.phase]
            block["to_act"][:] = _ONE_HOT_4[(current - seat) % n if current >= 0 else MAX_SEATS]
            block["served_this_turn"][0] = state.served_this_turn
            memory.turn = turn
        hand = tuple(state.hands[seat])
        if memory.hand != hand:
            block["hand"][:] = [count / MAX_HAND for count in hand]
            memory.hand = hand
        if memory.door != state.door:
            block["door"][:] = _DOOR_ROWS[state.door]
            memory.door = state.door
        deck_size = len(state.deck)
        if memory.deck != deck_size:
            block["fridge"][0] = deck_size / DECK_SIZE
            memory.deck = deck_size
        diners = tuple(state.diners_left)
        if memory.diners != diners:
            block["diners_left"][:] = [left / DINER_COPIES for left in diners]
            memory.diners = diners
        steals = tuple(game.steal_options)
        if memory.steals != steals:
            block["steal_choices"][:] = 0.0
            for pan in steals:
                block["steal_choices"][self._pan_order[seat].index(pan)] = 1.0
            memory.steals = steals
        self._pans(game, seat, memory)
        served = state.served
        if memory.served != len(served):
            size = MEMORY_DISH_SIZE if self.memory else TABLE_DISH_SIZE
            for index in range(memory.served, len(served)):
                entries = dish_entries(served[index], seat % NUM_TEAMS, self.memory)
                block["served"][index * size : (index + 1) * size] = entries
            memory.served = len(served)
        if self.memory:
            self._knowledge(game, seat, memory)
        else:
            self._events(game, seat, memory)
        if self.with_action_features:
            block["action_features"][:] = action_features(game, seat)
        return memory.values.copy()

    def _pans(self, game: EngineView, seat: int, memory: _SeatMemory) -> None:
        size = MEMORY_PAN_SIZE if self.memory else TABLE_PAN_SIZE
        pans = memory.blocks["pans"]
        piles = game.state.pans
        for position, pan in enumerate(self._pan_order[seat]):
            pile = tuple(piles[pan])
            if memory.piles[position] != pile:
                pans[position * size : (position + 1) * size] = _pile_block(pile, self.memory)
                memory.piles[position] = pile

    def _knowledge(self, game: EngineView, seat: int, memory: _SeatMemory) -> None:
        """Cards known in the others' hands, and the cards the seat has not seen (memory mode).

        Both change only when a card is put on the table (``table_counts``), a hand or the door changes
        (a door card taken is replaced from the fridge): the fridge size, the door, the cards on the table
        and the seat's hand say whether to look again.
        """
        state = game.state
        key = (len(state.deck), state.door, sum(game.table_counts), memory.hand)
        if memory.unseen == key:
            return
        n = self.num_players
        entries = memory.blocks["known_in_hands"]
        entries[:] = 0.0
        for k in range(n - 1):
            for card, count in enumerate(state.known[(seat + 1 + k) % n]):
                if count:
                    entries[k * NUM_CARD_TYPES + card] = min(count / HAND_SIZE, 1.0)
        unseen = unseen_pool(game, seat, memory=True)  # ``unseen_counts``, from the kept table counts
        memory.blocks["unseen"][:] = [count * inverse for count, inverse in zip(unseen, _INVERSE_TOTALS, strict=True)]
        memory.unseen = key

    def _events(self, game: EngineView, seat: int, memory: _SeatMemory) -> None:
        """What the seat saw happen since its last decision (observation mode)."""
        key = game.events_key(seat)
        if memory.events != key:
            entries = memory.blocks["events"]
            entries[:] = 0.0
            for index, event in enumerate(game.events_seen(seat)):
                entries[index * EVENT_SIZE : (index + 1) * EVENT_SIZE] = event_entries(event, seat, self.num_players)
            memory.events = key
