"""What a seat of Fiesta Mexicana knows, as a float32 vector (every entry in [0, 1]).

The layout (``observation_layout``) is documented block by block on the page
(``fiesta_envs.fiesta_mexicana_v1``); seats are *relative*: entry k of a per-seat block describes seat
``(me + k) % n``. ``FiestaMexicanaObserver.encode`` writes it from scratch from the game's state (the
reference); ``observe`` keeps each seat's last vector and rewrites only the blocks whose part of the
state changed since that seat last looked: it pulls (compares the state with what it wrote), the rules
never call it.

Setup and table turns are simultaneous in the printed game, played here seat by seat; the observation
shows them as printed:

- while start cards are oriented, every seat sees its own table and its own two start cards only (the
  others' tables and points appear when everybody has oriented);
- the table turns chosen after a placement are applied together when the last player has chosen
  (``FiestaMexicana.turns_chosen``): until then every table shows the orientation it had, and each seat
  sees only its own choice (block ``turn_chosen``).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import numpy as np

from fiesta_envs.core.observer import ObservationLayout, Observer
from fiesta_envs.fiesta_mexicana.actions import ROTATIONS
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
    PINATA_SPACES,
    SAUCES,
    VARIANT_PENALTIES,
)
from fiesta_envs.fiesta_mexicana.features import FEATURES_SIZE, action_features
from fiesta_envs.fiesta_mexicana.position import FiestaMexicanaPosition
from fiesta_envs.fiesta_mexicana.state import Phase

NUM_DISHES = len(DISHES)
NUM_SAUCES = len(SAUCES)
CARD_SIZE = NUM_DISHES + 1 + 4 * NUM_SAUCES  # dish, skulls, four edges
PER_SPACE = CARD_SIZE + 3  # + covered, legible number, penalty
COVERED, NUMBER, PENALTY = CARD_SIZE, CARD_SIZE + 1, CARD_SIZE + 2
TABLE_SIZE = NUM_SPACES * PER_SPACE + 4
OFFER_SIZE = 1 + CARD_SIZE  # present, then the card as printed
NUM_PHASES = len(Phase)
SCORE_NORM = 100.0
#: A kind of objective shown at setup counts 1/4 per time shown (a kind can come back after a reshuffle).
SHOWN_NORM = 4.0


def observation_layout(num_players: int, with_action_features: bool = False) -> ObservationLayout:
    """The named blocks of the observation, in order (sizes as on the page)."""
    n = num_players
    blocks: list[tuple[str, int | tuple[int, ...]]] = [
        ("tables", (n, TABLE_SIZE)),
        ("offer", OFFER_SIZE),
        ("start_cards", (len(PINATA_SPACES), OFFER_SIZE)),
        ("high_bid", 1),
        ("high_bidder", n),
        ("passed", n),
        ("to_act", n),
        ("phase", NUM_PHASES),
        ("turn_chosen", len(ROTATIONS)),
        ("bids", (n, NUM_SPACES)),
        ("points", n),
        ("objective_slots", (OBJECTIVES_DEALT, NUM_OBJECTIVE_KINDS)),
        ("objectives_held", n),
        ("shown_objectives", NUM_OBJECTIVE_KINDS),
        ("deck", 1),
    ]
    if with_action_features:
        blocks.append(("action_features", FEATURES_SIZE))
    return ObservationLayout(blocks)


def observation_size(num_players: int) -> int:
    """Entries of the plain observation (without action features)."""
    return observation_layout(num_players).size


# ---------------------------------------------------------------------- cards and tables
def card_features(card: int, clockwise_turns: int) -> np.ndarray:
    """Dish one-hot, skulls / 3 and the halves N, E, S, W of ``card`` turned clockwise (CARD_SIZE entries)."""
    printed = DISH_CARDS[card]
    features = np.zeros(CARD_SIZE, dtype=np.float32)
    features[printed.dish] = 1.0
    features[NUM_DISHES] = printed.skulls / MAX_SKULLS
    for direction in range(4):
        colour = printed.edges[(direction - clockwise_turns) % 4]
        if colour >= 0:
            features[NUM_DISHES + 1 + NUM_SAUCES * direction + colour] = 1.0
    return features


def card_block(card: int) -> np.ndarray:
    """An ``OFFER_SIZE`` block: present, then the card as printed (all 0 for ``card`` -1)."""
    block = np.zeros(OFFER_SIZE, dtype=np.float32)
    if card >= 0:
        block[0] = 1.0
        block[1:] = card_features(card, 0)
    return block


def table_block(cards: list[int], rotations: list[int], orientation: int, variant: bool) -> np.ndarray:
    """One table as its owner sees it now (TABLE_SIZE entries): per view position, then the orientation."""
    block = np.zeros((NUM_SPACES, PER_SPACE), dtype=np.float32)
    for view in range(NUM_SPACES):
        space = FIXED_OF[orientation][view]
        if cards[space] >= 0:  # a dish turned r clockwise on a table turned o left looks turned r - o
            block[view, :CARD_SIZE] = card_features(cards[space], rotations[space] - orientation)
            block[view, COVERED] = 1.0
        block[view, NUMBER] = (view + 1) / NUM_SPACES
        if variant:
            block[view, PENALTY] = VARIANT_PENALTIES.get(space, 0) / MAX_PENALTY
    orientation_one_hot = np.eye(4, dtype=np.float32)[orientation]
    return np.concatenate([block.ravel(), orientation_one_hot])


EMPTY_TABLE = [-1] * NUM_SPACES


def objectives_held(game: FiestaMexicanaPosition, seat: int) -> int:
    """Objective cards in front of ``seat``: its dealt hand while keeping, then its kept slots still held."""
    state = game.state
    return len(state.hands[seat]) or sum(code >= 0 for code in state.objectives[seat])


def others_hidden(game: FiestaMexicanaPosition) -> bool:
    """While start cards are oriented (at once in the printed game) nobody sees the others' tables."""
    return game.state.phase == Phase.ORIENT


# ---------------------------------------------------------------------- tables in all four orientations
def _put_indices(space: int) -> np.ndarray:
    """Where a dish on fixed ``space`` lands in the four orientations: its features, then the covered flag."""
    starts = [o * TABLE_SIZE + VIEW_OF[o][space] * PER_SPACE for o in range(4)]
    return np.array([[start + j for j in range(CARD_SIZE + 1)] for start in starts], dtype=np.intp)


_PUT_INDICES = tuple(_put_indices(space) for space in range(NUM_SPACES))
#: _PLACED[card, r][o]: a dish turned r clockwise in the table's frame as seen in orientation o, covered = 1.
_PLACED = np.ones((NUM_DISH_CARDS, 4, 4, CARD_SIZE + 1), dtype=np.float32)
for _card in range(NUM_DISH_CARDS):
    for _rotation in range(4):
        for _orientation in range(4):
            _PLACED[_card, _rotation, _orientation, :CARD_SIZE] = card_features(_card, _rotation - _orientation)
#: _EMPTY_VIEWS[variant]: an empty table's block in its four orientations, one after the other.
_EMPTY_VIEWS = {
    variant: np.concatenate([table_block(EMPTY_TABLE, EMPTY_TABLE, o, variant) for o in range(4)])
    for variant in (False, True)
}


class TableViews:
    """One table's block in its four orientations (orientation o at ``[o * TABLE_SIZE:(o + 1) * TABLE_SIZE]``),
    kept in step with the table by pulling the dishes put on it since the last look."""

    def __init__(self, variant: bool) -> None:
        self.values = _EMPTY_VIEWS[variant].copy()
        self.cards = list(EMPTY_TABLE)
        self.filled = 0

    def pull(self, cards: list[int], rotations: list[int], filled: int) -> None:
        """Write the dishes put on the table since the last pull (dishes never leave a table)."""
        for space, card in enumerate(cards):
            if card >= 0 and self.cards[space] < 0:
                self.values[_PUT_INDICES[space]] = _PLACED[card, rotations[space]]
                self.cards[space] = card
        self.filled = filled


# ---------------------------------------------------------------------- the observer
@dataclass
class _SeatMemory:
    """One seat's last vector, its blocks, and the parts of the state they were written from."""

    values: np.ndarray
    blocks: dict[str, np.ndarray]
    tables: list[Any]
    offer: int | None = None
    start_cards: tuple[int, ...] | None = None
    bids: tuple[int, ...] | None = None
    points: tuple[Any, ...] | None = None
    objectives: tuple[Any, ...] | None = None
    shown: int | None = None
    deck: int | None = None


class FiestaMexicanaObserver(Observer[FiestaMexicanaPosition]):
    """The observation of every seat of one game (see the module docstring)."""

    def __init__(self, num_players: int, variant: bool, with_action_features: bool) -> None:
        super().__init__(observation_layout(num_players, with_action_features))
        self.num_players = num_players
        self.variant = variant
        self.with_action_features = with_action_features
        # the contiguous blocks from high_bid to turn_chosen, rewritten on every look
        self._turn = slice(self.layout.slice("high_bid").start, self.layout.slice("turn_chosen").stop)
        self.reset()

    def reset(self) -> None:
        self._tables = [TableViews(self.variant) for _ in range(self.num_players)]
        self._seats: list[_SeatMemory | None] = [None] * self.num_players

    # ------------------------------------------------------------------ the reference
    def encode(self, game: FiestaMexicanaPosition, seat: int, out: np.ndarray) -> None:
        block = self.layout.views(out)
        state = game.state
        n = game.num_players
        seats = [(seat + k) % n for k in range(n)]  # me first, then clockwise
        hidden = others_hidden(game)
        for k, owner in enumerate(seats):
            cards = EMPTY_TABLE if hidden and owner != seat else state.cards[owner]
            table = table_block(cards, state.rotations[owner], state.orientation[owner], self.variant)
            block["tables"][k * TABLE_SIZE : (k + 1) * TABLE_SIZE] = table
        block["offer"][:] = card_block(state.offer)
        for i, card in enumerate(state.start_cards[seat]):
            block["start_cards"][i * OFFER_SIZE : (i + 1) * OFFER_SIZE] = card_block(card)
        block["high_bid"][0] = state.high_bid / NUM_SPACES
        for k, owner in enumerate(seats):
            block["high_bidder"][k] = owner == state.high_bidder
            block["passed"][k] = state.passed[owner]
            for number in state.bids[owner]:
                block["bids"][k * NUM_SPACES + number - 1] = 1.0
            block["to_act"][k] = owner == game.current_player
            if not hidden or owner == seat:
                block["points"][k] = min(state.points[owner] / SCORE_NORM, 1.0)
            block["objectives_held"][k] = objectives_held(game, owner) / OBJECTIVES_DEALT
        block["phase"][state.phase] = 1.0
        if state.turns_chosen[seat] >= 0:
            block["turn_chosen"][state.turns_chosen[seat]] = 1.0
        for slot, code in enumerate(state.hands[seat] or state.objectives[seat]):
            if code >= 0:
                block["objective_slots"][slot * NUM_OBJECTIVE_KINDS + code] = 1.0
        for hand in state.shown_objectives:
            for code in hand:
                block["shown_objectives"][code] += 1.0 / SHOWN_NORM
        np.minimum(block["shown_objectives"], 1.0, out=block["shown_objectives"])
        block["deck"][0] = len(state.deck) / NUM_DISH_CARDS
        if self.with_action_features:
            block["action_features"][:] = action_features(game, seat)

    # ------------------------------------------------------------------ incremental
    def observe(self, game: FiestaMexicanaPosition, seat: int) -> np.ndarray:
        memory = self._seats[seat]
        state = game.state
        if memory is None:
            values = np.zeros(self.layout.size, dtype=np.float32)
            memory = _SeatMemory(values, self.layout.views(values), [None] * self.num_players)
            self._seats[seat] = memory
        out, block = memory.values, memory.blocks
        n = self.num_players
        seats = [(seat + k) % n for k in range(n)]
        hidden = state.phase == Phase.ORIENT  # see others_hidden
        for k, owner in enumerate(seats):
            orientation = state.orientation[owner]
            if hidden and owner != seat:
                written: Any = ("hidden", orientation)
                source = _EMPTY_VIEWS[self.variant]
            else:
                written = (game.filled[owner], orientation)
                table = self._tables[owner]
                if table.filled != game.filled[owner]:
                    table.pull(state.cards[owner], state.rotations[owner], game.filled[owner])
                source = table.values
            if memory.tables[k] != written:
                block["tables"][k * TABLE_SIZE : (k + 1) * TABLE_SIZE] = source[
                    orientation * TABLE_SIZE : (orientation + 1) * TABLE_SIZE
                ]
                memory.tables[k] = written
        if memory.offer != state.offer:
            block["offer"][:] = _OFFER_BLOCKS[state.offer + 1]
            memory.offer = state.offer
        start_cards = tuple(state.start_cards[seat])
        if memory.start_cards != start_cards:
            block["start_cards"][:] = 0.0
            for i, card in enumerate(start_cards):
                block["start_cards"][i * OFFER_SIZE : (i + 1) * OFFER_SIZE] = _OFFER_BLOCKS[card + 1]
            memory.start_cards = start_cards
        out[self._turn] = _turn_entries(
            state.high_bid,
            state.high_bidder,
            tuple(state.passed),
            game.current_player,
            state.phase,
            state.turns_chosen[seat],
            tuple(seats),
        )
        bids = (len(state.deck), *map(len, state.bids))  # bids only add up during an auction
        if memory.bids != bids:
            entries = block["bids"]
            entries[:] = 0.0
            for k, owner in enumerate(seats):
                for number in state.bids[owner]:
                    entries[k * NUM_SPACES + number - 1] = 1.0
            memory.bids = bids
        points = (hidden, *state.points)
        if memory.points != points:
            block["points"][:] = [
                min(state.points[owner] / SCORE_NORM, 1.0) if not hidden or owner == seat else 0.0 for owner in seats
            ]
            memory.points = points
        objectives = (tuple(state.hands[seat]), *map(len, state.hands), *map(tuple, state.objectives))
        if memory.objectives != objectives:
            block["objective_slots"][:] = 0.0
            for slot, code in enumerate(state.hands[seat] or state.objectives[seat]):
                if code >= 0:
                    block["objective_slots"][slot * NUM_OBJECTIVE_KINDS + code] = 1.0
            block["objectives_held"][:] = [objectives_held(game, owner) / OBJECTIVES_DEALT for owner in seats]
            memory.objectives = objectives
        if memory.shown != len(state.shown_objectives):  # objective hands are shown once, at the deal
            counts = np.zeros(NUM_OBJECTIVE_KINDS, dtype=np.float32)
            for hand in state.shown_objectives:
                for code in hand:
                    counts[code] += 1.0 / SHOWN_NORM
            block["shown_objectives"][:] = np.minimum(counts, 1.0)
            memory.shown = len(state.shown_objectives)
        if memory.deck != len(state.deck):
            block["deck"][0] = len(state.deck) / NUM_DISH_CARDS
            memory.deck = len(state.deck)
        if self.with_action_features:
            block["action_features"][:] = action_features(game, seat)
        return out.copy()


@functools.lru_cache(maxsize=4096)
def _turn_entries(
    high_bid: int, bidder: int, passed: tuple[bool, ...], acting: int, phase: int, chosen: int, seats: tuple[int, ...]
) -> np.ndarray:
    """The small blocks that change on most steps, as seen by ``seats[0]``: high bid, high bidder, passed, to act,
    phase, turn chosen (float32, read only: the same few recur all game long)."""
    entries = [high_bid / NUM_SPACES]
    entries += [float(owner == bidder) for owner in seats]
    entries += [float(passed[owner]) for owner in seats]
    entries += [float(owner == acting) for owner in seats]
    entries += _PHASE_ONE_HOT[phase] + _CHOICE_ONE_HOT[chosen + 1]
    values = np.array(entries, dtype=np.float32)
    values.flags.writeable = False
    return values


_PHASE_ONE_HOT = [[float(i == phase) for i in range(NUM_PHASES)] for phase in range(NUM_PHASES)]
#: _CHOICE_ONE_HOT[choice + 1]: the ``turn_chosen`` block (row 0: no choice noted).
_CHOICE_ONE_HOT = [[float(i == choice) for i in range(len(ROTATIONS))] for choice in range(-1, len(ROTATIONS))]
#: _OFFER_BLOCKS[card + 1]: ``card_block(card)`` (row 0: no card).
_OFFER_BLOCKS = np.stack([card_block(card) for card in range(-1, NUM_DISH_CARDS)])
