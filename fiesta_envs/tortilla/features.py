"""Action-aligned features of Tortilla de Patatas (option ``action_features``), and the pan
evaluation they share with the scripted ``careful`` chef.

``action_features(game, player)`` is a pure function of the position as ``player`` may know it:
its own hand, the public table and, under ``observation="information_state"``, what a perfect
memory knows (every card in every pan, the cards seen taken from the fridge door, the cards not
seen yet); under ``observation="observation"`` only what the table shows now (the top card and
the height of each pan, the door): a covered card counts as *unknown*, and every pan quantity is
then the optimistic bound over what the unknown cards could be. Nothing depends on another
player's hand or on the fridge order.

The layout (every block, its index range and meaning) is documented on the game's page,
``fiesta_envs.tortilla_de_patatas_v1`` ("Action features"); the constants below give the offsets.
Every entry is a float32 in [0, 1]; signed quantities are mapped affinely and clipped.

The pan evaluation (``pile_value``, ``exposure``, ``position_value``, ``after_play``,
``card_gain``) is the one ``CarefulChef`` plays by (``baselines.py`` imports it from here):

- a pan is worth ``EXPECTED_DINERS x multiplier x PROGRESS_DECAY ** missing`` for its best
  recipe that can still be finished in the plays left (``missing``: fewest cards to add), a
  dead pan ``dead_pan`` (the unserved penalty, or ``DEAD_PAN_KIDS``); an evaluation may decay
  the missing cards of a pan that can only become an XL less (``Outlook.xl_decay``: ``careful``
  does in the Kids' menu);
- a pan of one's own whose top card is a plain ingredient loses ``STEAL_RISK`` x what that top
  card is worth to it (the other team may steal it);
- a position is worth the own pans minus the other team's.

Speed: the quantities of a pan are computed once per (cards, top two cards, plays left, menu)
and kept (``_FACTS``); a call only looks up the six pans and assembles the blocks from their
facts (some 10-30 us in CPython 3.11). The evaluation ``careful`` plays by keeps each pan's worth by its
cards and the outlook (``_PAN_WORTHS``); ``reference_evaluation`` writes it out from scratch, to check against.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from fiesta_envs.tortilla.actions import serve_action
from fiesta_envs.tortilla.components import (
    CARD_COUNTS,
    DINER_VALUES,
    HAND_SIZE,
    NUM_CARD_TYPES,
    NUM_TEAMS,
    PANS_PER_TEAM,
    RECIPES,
    STARTING_PANS,
)
from fiesta_envs.tortilla.omelettes import cards_missing, is_perfect
from fiesta_envs.tortilla.state import Phase
from fiesta_envs.tortilla.steals import steal_sources

if TYPE_CHECKING:
    from fiesta_envs.tortilla.engine_view import EngineView

# ---------------------------------------------------------------- the evaluation (shared with careful)
EXPECTED_DINERS = 2.0  # what a finished pan is worth per recipe multiplier, on average
PROGRESS_DECAY = 0.7  # each missing card makes a pan worth this much less
STEAL_RISK = 0.5  # share of a top card's worth expected to be lost to a steal
DEAD_PAN_KIDS = -0.5  # a pan that cannot be finished blocks a pan (Kids' menu has no penalty)

#: A pseudo card type: a covered card whose type the observer does not know (``observation`` mode).
UNKNOWN = NUM_CARD_TYPES
_PLAIN = (0, 1, 2)  # potato, egg, onion: the card types that steal and can be stolen
_NUM_SIZES = len(RECIPES)
_MOST_CARDS = tuple(r.potatoes[1] + r.eggs + r.onions for r in RECIPES)  # 7 (M), 11 (XL)
_LEAST_CARDS = tuple(r.potatoes[0] + r.eggs + r.onions for r in RECIPES)  # 6 (M), 10 (XL)
MAX_MISSING = _MOST_CARDS[-1]  # scale of the "cards missing" entries


class Outlook(NamedTuple):
    """What the evaluation needs to know of the game besides the pans."""

    team: int  # the evaluating player's team
    plays_left: int  # about how many more cards each team will place: fridge // 2
    stealing: bool  # the menu steals (Day's, Gourmet)
    dead_pan: float  # worth of a pan that cannot be finished
    xl_decay: float = PROGRESS_DECAY  # the decay per missing card of a pan past an M (only an XL left)


def outlook(game: EngineView, player: int) -> Outlook:
    fridge = game.deck_size + (1 if game.state.door >= 0 else 0)
    penalty = game.menu.unserved_penalty
    return Outlook(player % NUM_TEAMS, fridge // 2, game.menu.stealing, float(penalty) if penalty else DEAD_PAN_KIDS)


def pile_counts(pile: Sequence[int]) -> tuple[int, ...]:
    """Counts per card type of a pile (8 entries: the 7 types, then ``UNKNOWN`` cards)."""
    counts = [0] * (NUM_CARD_TYPES + 1)
    for card in pile:
        counts[card] += 1
    return tuple(counts)


@lru_cache(maxsize=1 << 16)
def missing_cards(counts: tuple[int, ...], size: int) -> int:
    """Fewest cards to add for a pile (8 counts, see ``pile_counts``) to be perfect at ``size``;
    -1 if it cannot be. With ``UNKNOWN`` cards: the lower bound over what they could be (an
    unknown card may be whatever helps), -1 only when no reading of them can work."""
    missing = cards_missing(counts[:NUM_CARD_TYPES], size)
    unknown = counts[NUM_CARD_TYPES]
    if not unknown or missing < 0:
        return missing
    total = sum(counts)
    if total > _MOST_CARDS[size]:
        return -1
    return max(missing - unknown, _LEAST_CARDS[size] - total, 0)


@lru_cache(maxsize=1 << 16)
def _counts_value(counts: tuple[int, ...], plays_left: int, dead_pan: float, xl_decay: float = PROGRESS_DECAY) -> float:
    if not any(counts):
        return 0.0
    best: float | None = None
    past_m = missing_cards(counts, 0) < 0  # only an XL is left: ``xl_decay`` applies
    for size, recipe in enumerate(RECIPES):
        missing = missing_cards(counts, size)
        if 0 <= missing <= plays_left:
            decay = xl_decay if past_m else PROGRESS_DECAY
            value = EXPECTED_DINERS * recipe.multiplier * decay**missing
            best = value if best is None else max(best, value)
    return dead_pan if best is None else best


def pile_value(pile: Sequence[int], plays_left: int, dead_pan: float, xl_decay: float = PROGRESS_DECAY) -> float:
    """What a pan is worth: its best recipe still reachable in ``plays_left``, decayed per missing card."""
    return _counts_value(pile_counts(pile), plays_left, dead_pan, xl_decay) if pile else 0.0


def _view_value(pile: Sequence[int], view: Outlook) -> float:
    return pile_value(pile, view.plays_left, view.dead_pan, view.xl_decay)


def exposure(pile: Sequence[int], view: Outlook) -> float:
    """Expected loss from the other team stealing this pile's top card."""
    if not view.stealing or not pile or pile[-1] not in _PLAIN:
        return 0.0
    value = _view_value(pile, view) - _view_value(pile[:-1], view)
    return STEAL_RISK * max(0.0, value)


#: Per outlook, a pan's (worth, worth less its exposure) by its cards: ``careful`` values the same pans over
#: and over while it weighs its plays. Each table is emptied when full, all of them when there are too many.
_PAN_WORTHS: dict[Outlook, dict[tuple[int, ...], tuple[float, float]]] = {}
_PAN_WORTHS_LIMIT = 1 << 14
_OUTLOOKS_LIMIT = 1 << 10


def _worths_table(view: Outlook) -> dict[tuple[int, ...], tuple[float, float]]:
    table = _PAN_WORTHS.get(view)
    if table is None:
        if len(_PAN_WORTHS) >= _OUTLOOKS_LIMIT:
            _PAN_WORTHS.clear()
        table = _PAN_WORTHS[view] = {}
    return table


class PositionEvaluator:
    """The evaluation of one position for ``view`` (``position_value``) and of the positions a play or a new
    card leads to (``after_play``, ``card_gain``): the pans' worths are looked up once, and a play changes only
    the one or two pans it touches. The floats are those of the evaluation written out pan by pan."""

    def __init__(self, piles: Sequence[Sequence[int]], view: Outlook) -> None:
        self.piles = [tuple(pile) for pile in piles]
        self.view = view
        self._table = _worths_table(view)
        worths = [self._worths(pile) for pile in self.piles]
        #: Each pan's worth, and its part of the position value: its worth less its exposure (own team), minus its
        #: worth (the other team).
        self.values = [value for value, _ in worths]
        self.terms = [
            own if index // PANS_PER_TEAM == view.team else -value for index, (value, own) in enumerate(worths)
        ]

    def _worths(self, pile: tuple[int, ...]) -> tuple[float, float]:
        worths = self._table.get(pile)
        if worths is None:
            if len(self._table) >= _PAN_WORTHS_LIMIT:
                self._table.clear()
            value = _view_value(pile, self.view)
            worths = self._table[pile] = (value, value - exposure(pile, self.view))
        return worths

    def _term(self, index: int, pile: tuple[int, ...]) -> float:
        value, own = self._worths(pile)
        return own if index // PANS_PER_TEAM == self.view.team else -value

    @staticmethod
    def _total(terms: list[float]) -> float:
        total = 0.0  # pan by pan, in order: the same float as adding and subtracting the worths
        for term in terms:
            total += term
        return total

    def value(self) -> float:
        """The own team's pans (less their exposure) minus the other team's."""
        return self._total(self.terms)

    def after_play(self, card: int, target: int, stealing: bool) -> float:
        """Value of the position after playing ``card`` on global pan ``target`` (the best steal)."""
        piles = self.piles
        grown = (*piles[target], card)
        trial = list(piles)
        trial[target] = grown
        sources = steal_sources(trial, target) if stealing else []
        terms = list(self.terms)
        if not sources:
            terms[target] = self._term(target, grown)
            return self._total(terms)
        best = -np.inf
        for source in sources:
            robbed = piles[source]
            terms[target] = self._term(target, (*grown, robbed[-1]))
            terms[source] = self._term(source, robbed[:-1])
            best = max(best, self._total(terms))
            terms[source] = self.terms[source]
        return best

    def card_gain(self, card: int) -> float:
        """How much the best pan of the team gains from one more ``card`` (0 at least)."""
        best = 0.0
        for pan in range(self.view.team * PANS_PER_TEAM, (self.view.team + 1) * PANS_PER_TEAM):
            best = max(best, self._worths((*self.piles[pan], card))[0] - self.values[pan])
        return best


def position_value(piles: Sequence[Sequence[int]], view: Outlook) -> float:
    """The own team's pans (less their exposure) minus the other team's."""
    return PositionEvaluator(piles, view).value()


def after_play(piles: Sequence[Sequence[int]], card: int, target: int, *, view: Outlook, stealing: bool) -> float:
    """Value of the position after playing ``card`` on global pan ``target`` (the best steal)."""
    return PositionEvaluator(piles, view).after_play(card, target, stealing)


def card_gain(piles: Sequence[Sequence[int]], card: int, view: Outlook) -> float:
    """How much the best pan of the team gains from one more ``card`` (0 at least)."""
    return PositionEvaluator(piles, view).card_gain(card)


# ---------------------------------------------------------------- the layout
PAN_FEATURES = 15
NUM_PANS = NUM_TEAMS * PANS_PER_TEAM
SERVE_FEATURES = 3
NUM_SERVES = PANS_PER_TEAM * _NUM_SIZES * len(DINER_VALUES)
PLAY_FEATURES = 13
NUM_PLAYS = NUM_CARD_TYPES * PANS_PER_TEAM
STEAL_FEATURES = 2
NUM_STEALS = 2 * PANS_PER_TEAM
START_FEATURES = 2
DRAW_FEATURES = 4

PANS_AT = 0
SERVES_AT = PANS_AT + NUM_PANS * PAN_FEATURES  # 90
PLAYS_AT = SERVES_AT + NUM_SERVES * SERVE_FEATURES  # 144
STEALS_AT = PLAYS_AT + NUM_PLAYS * PLAY_FEATURES  # 417
STARTS_AT = STEALS_AT + NUM_STEALS * STEAL_FEATURES  # 429
DRAWS_AT = STARTS_AT + NUM_CARD_TYPES * START_FEATURES  # 443
ACTION_FEATURES_SIZE = DRAWS_AT + DRAW_FEATURES  # 447

#: The names of the entries of one block, in order (the documentation and the tests read them).
PAN_FEATURE_NAMES = (
    "M possible",
    "M missing",
    "XL possible",
    "XL missing",
    "M surely perfect",
    "XL surely perfect",
    "value",
    "top stealable",
    "top worth",
    "M needs potato",
    "M needs egg",
    "M needs onion",
    "XL needs potato",
    "XL needs egg",
    "XL needs onion",
)
SERVE_FEATURE_NAMES = ("points", "surely perfect", "may be perfect")
PLAY_FEATURE_NAMES = (
    "value",
    "rank",
    "M possible",
    "M missing",
    "XL possible",
    "XL missing",
    "pan value",
    "steals",
    "steals theirs",
    "robbed worth",
    "exposed",
    "exposure",
    "gourmet raise",
)
STEAL_FEATURE_NAMES = ("value", "rank")
START_FEATURE_NAMES = ("value", "rank")
DRAW_FEATURE_NAMES = ("door gain", "deck gain", "door advantage", "door better")
assert len(PAN_FEATURE_NAMES) == PAN_FEATURES and len(PLAY_FEATURE_NAMES) == PLAY_FEATURES

# scales of the mapped entries
VALUE_SPAN = 10.0  # a change of the position value, (delta + 10) / 20
POINTS_SPAN = 6.0  # points of a serve, (points + 6) / 12
PAN_VALUE_LOW, PAN_VALUE_HIGH = -1.0, EXPECTED_DINERS * RECIPES[-1].multiplier  # a pan's worth: [-1, 4]
GAIN_SCALE = PAN_VALUE_HIGH - PAN_VALUE_LOW  # 5
RANK_TIE = 1e-9  # options this close to the best are best too (as ``careful`` breaks its ties)


def _clip(x: float) -> float:
    return 0.0 if x < 0.0 else 1.0 if x > 1.0 else x


def _worth(value: float) -> float:
    return _clip((value - PAN_VALUE_LOW) / (PAN_VALUE_HIGH - PAN_VALUE_LOW))


def _signed_worth(value: float) -> float:
    """A signed change of a pan's worth, (x + 5) / 10."""
    return _clip((value + GAIN_SCALE) / (2 * GAIN_SCALE))


def _missing_entries(counts: tuple[int, ...]) -> tuple[float, float, float, float]:
    """M possible, M missing, XL possible, XL missing (missing / 11; 1 when impossible)."""
    m_possible, m_missing = _missing_pair(missing_cards(counts, 0))
    xl_possible, xl_missing = _missing_pair(missing_cards(counts, 1))
    return m_possible, m_missing, xl_possible, xl_missing


def _missing_pair(missing: int) -> tuple[float, float]:
    """Possible, missing / 11 for one size (``missing`` -1: impossible)."""
    return (1.0, missing / MAX_MISSING) if missing >= 0 else (0.0, 1.0)


def _add(counts: tuple[int, ...], card: int, times: int = 1) -> tuple[int, ...]:
    grown = list(counts)
    grown[card] += times
    return tuple(grown)


class _PanFacts(NamedTuple):
    """What a pan's cards decide, computed once per key (see ``_FACTS`` and ``_new_facts``)."""

    counts: tuple[int, ...]  # 8 counts (``pile_counts``) as the observer knows them
    worth: float  # pile value
    own_worth: float  # pile value less its exposure (a pan of the evaluating team)
    top_worth: float  # what losing the top card costs the pan (0: its top cannot be stolen)
    own_pop: float  # own_worth after losing the top card, minus own_worth
    summary: array  # the pan block, "top stealable" left at 0 (the caller writes it)
    serves: array  # the 6 serve actions of this pan (2 sizes x 3 diner cards) x SERVE_FEATURES
    plays: tuple  # per card type: (own_worth change, a play block with the pan's entries filled in)
    steals: tuple  # per plain type (stealing menus): the same when the card also steals one like it
    gains: tuple  # per card type: pile value change of one more card (``card_gain``)


#: The facts of the pans seen so far, by key: (counts, top, card under it, plays left, stealing,
#: dead pan) with memory, (height, top, plays left, stealing, dead pan) from the table only.
#: Games see few distinct pans; emptied when full.
_FACTS: dict[tuple, _PanFacts] = {}
_FACTS_LIMIT = 1 << 16


def _own_worth(counts: tuple[int, ...], top: int, plays_left: int, stealing: bool, dead_pan: float) -> float:
    worth = _counts_value(counts, plays_left, dead_pan)
    if stealing and top in _PLAIN:
        below = _counts_value(_add(counts, top, -1), plays_left, dead_pan)
        worth -= STEAL_RISK * max(0.0, worth - below)
    return worth


def _new_facts(key: tuple) -> _PanFacts:
    """The facts of a pan (see ``_FACTS`` for the keys); a covered card not remembered is ``UNKNOWN``."""
    if len(key) == 6:  # with memory: every card of the pan is known
        counts7, top, second, plays_left, stealing, dead_pan = key
        counts = (*counts7, 0)
    else:  # the table only: the top card and the height
        height, top, plays_left, stealing, dead_pan = key
        grid = [0] * (NUM_CARD_TYPES + 1)
        if height:
            grid[top] = 1
            grid[UNKNOWN] = height - 1
        counts, second = tuple(grid), (UNKNOWN if height > 1 else -1)
    if len(_FACTS) >= _FACTS_LIMIT:
        _FACTS.clear()
    value = _counts_value(counts, plays_left, dead_pan)
    own = _own_worth(counts, top, plays_left, stealing, dead_pan) if top >= 0 else 0.0
    if stealing and top in _PLAIN:
        popped = _add(counts, top, -1)
        top_worth = value - _counts_value(popped, plays_left, dead_pan)
        own_pop = (_own_worth(popped, second, plays_left, stealing, dead_pan) if second >= 0 else 0.0) - own
    else:
        top_worth = own_pop = 0.0
    summary = array("f", [0.0] * PAN_FEATURES)
    serves = array("f", [0.5, 0.0, 0.0] * (_NUM_SIZES * len(DINER_VALUES)))  # 0 points: an empty pan
    if top >= 0:
        summary[0:4] = array("f", _missing_entries(counts))
        sure = [counts[UNKNOWN] == 0 and is_perfect(counts[:NUM_CARD_TYPES], size) for size in range(_NUM_SIZES)]
        summary[4], summary[5] = float(sure[0]), float(sure[1])
        summary[6] = _worth(value)
        summary[8] = _signed_worth(top_worth)
        for size in range(_NUM_SIZES):
            missing = missing_cards(counts, size)
            for ingredient in _PLAIN:
                after = missing_cards(_add(counts, ingredient), size)
                summary[9 + 3 * size + ingredient] = float(0 <= after < missing)
            maybe = missing == 0
            for k, diners in enumerate(DINER_VALUES):
                points = diners * RECIPES[size].multiplier
                sign = 1 if sure[size] else -1 if not maybe else 0
                at = (size * len(DINER_VALUES) + k) * SERVE_FEATURES
                serves[at : at + 3] = array("f", [(sign * points + POINTS_SPAN) / (2 * POINTS_SPAN), sure[size], maybe])
    plays, steals, gains = [], [], []
    for card in range(NUM_CARD_TYPES):
        grown = _add(counts, card)
        gains.append(_counts_value(grown, plays_left, dead_pan) - value)
        plays.append(_target_entries(grown, card, plays_left, stealing, dead_pan, own, steals=False))
        if card in _PLAIN and stealing:
            steals.append(_target_entries(_add(grown, card), card, plays_left, stealing, dead_pan, own, steals=True))
    facts = _PanFacts(
        counts, value, own, top_worth, own_pop, summary, serves, tuple(plays), tuple(steals), tuple(gains)
    )
    _FACTS[key] = facts
    return facts


def _target_entries(
    grown: tuple[int, ...], top: int, plays_left: int, stealing: bool, dead_pan: float, own: float, steals: bool
) -> tuple[float, array]:
    """(own_worth change, a play block with entries 2-7 and 11 filled in) of a pan grown to
    ``grown`` with ``top`` on top."""
    worth = _counts_value(grown, plays_left, dead_pan)
    own_after = _own_worth(grown, top, plays_left, stealing, dead_pan)
    row = array("f", [0.0] * PLAY_FEATURES)
    row[2:7] = array("f", [*_missing_entries(grown), _worth(worth)])
    row[7] = float(steals)
    row[11] = _clip((worth - own_after) / 2.0)
    return own_after - own, row


@lru_cache(maxsize=1 << 14)
def _holds_chance(unseen: int, of_type: int, cards: int) -> float:
    """The chance that ``cards`` cards drawn from ``unseen`` cards, ``of_type`` of them of a type,
    include that type (hypergeometric)."""
    if cards <= 0 or of_type <= 0:
        return 0.0
    none = 1.0
    for i in range(cards):
        if unseen - i <= 0:
            return 1.0
        none *= max(unseen - of_type - i, 0) / (unseen - i)
    return 1.0 - none


def unseen_pool(game: EngineView, player: int, memory: bool) -> list[int]:
    """Cards per type ``player`` has not seen (memory: the same as ``observation.unseen_counts``),
    or, from the table only, cannot see now (not in its hand, not a top card, not the door)."""
    state = game.state
    hand = state.hands[player]
    if memory:
        table = game.table_counts
        unseen = [CARD_COUNTS[t] - table[t] - hand[t] for t in range(NUM_CARD_TYPES)]
        for seat, known in enumerate(state.known):
            if seat != player and any(known):
                unseen = [u - k for u, k in zip(unseen, known, strict=True)]
    else:
        unseen = [CARD_COUNTS[t] - hand[t] for t in range(NUM_CARD_TYPES)]
        for pile in state.pans:
            if pile:
                unseen[pile[-1]] -= 1
    if state.door >= 0:
        unseen[state.door] -= 1
    return unseen


def _opponent_chances(game: EngineView, player: int, unseen: list[int], memory: bool) -> list[float]:
    """Per plain type, the chance the next opponent to act holds one when it plays (3 cards):
    certain for a card seen taken from the door (memory), else drawn from ``unseen``."""
    known = game.state.known[(player + 1) % game.num_players] if memory else _NO_CARDS
    free = HAND_SIZE - sum(known)
    total = sum(unseen)
    return [1.0 if known[t] else _holds_chance(total, unseen[t], free) for t in _PLAIN]


_FLOAT32 = np.dtype(np.float32)
_NO_CARDS = (0,) * NUM_CARD_TYPES
_NO_CHANCES = (0.0, 0.0, 0.0)
_ZEROS = bytes(4 * ACTION_FEATURES_SIZE)
#: Per team, the global pans in its view: its own 0-2, then the other team's.
_ORDER = tuple(
    tuple(t * PANS_PER_TEAM + p for t in (team, 1 - team) for p in range(PANS_PER_TEAM)) for team in range(NUM_TEAMS)
)


def _ranks(out: array, values: dict[int, float]) -> None:
    """At each block offset of ``values``, its value change and its rank among the options: 1 for
    the best (within 1e-9), the others (value - worst) / (best - worst) / 2, in [0, 0.5)."""
    if not values:
        return
    low, high = min(values.values()), max(values.values())
    spread, tie, span = 2.0 * (high - low), high - RANK_TIE, 2 * VALUE_SPAN
    for at, value in values.items():
        out[at] = min(max((value + VALUE_SPAN) / span, 0.0), 1.0)  # (value + 10) / 20, clipped
        out[at + 1] = 1.0 if value >= tie else (value - low) / spread


def action_features(game: EngineView, player: int) -> np.ndarray:
    """The action-aligned features of ``player`` now (``ACTION_FEATURES_SIZE`` float32 in [0, 1]).

    The pan and serve blocks are always filled in; the blocks of a decision (play, steal, start,
    draw) only while ``player`` is the one to take it.
    """
    out = array("f", _ZEROS)
    memory = game.config["observation"] == "information_state"
    menu = game.menu
    stealing = menu.stealing
    dead_pan = float(menu.unserved_penalty) if menu.unserved_penalty else DEAD_PAN_KIDS
    state = game.state
    plays_left = min((len(state.deck) + (state.door >= 0)) // 2, MAX_MISSING)  # more changes nothing
    team = player % NUM_TEAMS
    order = _ORDER[team]
    pans, pan_counts = state.pans, game.pan_counts
    facts: list[_PanFacts] = []
    tops: list[int] = []
    get = _FACTS.get
    for pan in range(NUM_PANS):
        pile = pans[pan]
        if not pile:
            key: tuple = (0, -1, plays_left, stealing, dead_pan)
            tops.append(-1)
        else:
            top = pile[-1]
            tops.append(top)
            if memory:
                key = (tuple(pan_counts[pan]), top, pile[-2] if len(pile) > 1 else -1, plays_left, stealing, dead_pan)
            else:
                key = (len(pile), top, plays_left, stealing, dead_pan)
        block = get(key)
        facts.append(block if block is not None else _new_facts(key))
    hand = state.hands[player]
    phase = state.phase
    acting = state.current == player and phase != Phase.OVER
    unseen = unseen_pool(game, player, memory) if stealing or (acting and phase == Phase.AFTER) else []
    chances = _opponent_chances(game, player, unseen, memory) if stealing else _NO_CHANCES
    for slot in range(NUM_PANS):
        pan = order[slot]
        block = facts[pan]
        at = PANS_AT + slot * PAN_FEATURES
        out[at : at + PAN_FEATURES] = block.summary
        top = tops[pan]
        if stealing and 0 <= top < 3:
            out[at + 7] = chances[top] if slot < PANS_PER_TEAM else (1.0 if hand[top] else 0.0)
    width = len(facts[0].serves)
    for slot in range(PANS_PER_TEAM):
        out[SERVES_AT + slot * width : SERVES_AT + (slot + 1) * width] = facts[order[slot]].serves
    if not acting:
        return np.frombuffer(out, _FLOAT32)
    if phase == Phase.PLAY:
        _play_block(game, out, facts=facts, tops=tops, order=order, hand=hand, chances=chances, stealing=stealing)
    elif phase == Phase.STEAL:
        target = state.played_pan
        card = tops[target]
        base = facts[target].own_worth
        after = _own_worth(_add(facts[target].counts, card), card, plays_left, stealing, dead_pan) - base
        values = {}
        for source in game.steal_options:
            robbed = facts[source]
            slot = order.index(source)
            values[STEALS_AT + slot * STEAL_FEATURES] = after + (
                robbed.top_worth if slot >= PANS_PER_TEAM else robbed.own_pop
            )
        _ranks(out, values)
    elif phase == Phase.SETUP:
        block = facts[team * PANS_PER_TEAM + state.starts_placed % STARTING_PANS]
        values = {
            STARTS_AT + card * START_FEATURES: block.plays[card][0] for card in range(NUM_CARD_TYPES) if hand[card]
        }
        _ranks(out, values)
    elif phase == Phase.AFTER and state.door >= 0:
        own = [facts[pan].gains for pan in order[:PANS_PER_TEAM]]
        gains = [max(0.0, own[0][card], own[1][card], own[2][card]) for card in range(NUM_CARD_TYPES)]
        total = sum(unseen)
        expected = sum(g * n for g, n in zip(gains, unseen, strict=True)) / total if total else 0.0
        door_gain = gains[state.door]
        out[DRAWS_AT] = _clip(door_gain / GAIN_SCALE)
        out[DRAWS_AT + 1] = _clip(expected / GAIN_SCALE)
        out[DRAWS_AT + 2] = _clip(0.5 + (door_gain - expected) / 2.0)
        out[DRAWS_AT + 3] = float(door_gain > expected)
    return np.frombuffer(out, _FLOAT32)


def _play_block(game, out, *, facts, tops, order, hand, chances, stealing) -> None:
    """The ``play TYPE on P`` blocks of the card types in hand, and their ranks."""
    values: dict[int, float] = {}
    own, theirs = order[:PANS_PER_TEAM], order[PANS_PER_TEAM:]
    own_tops = [tops[pan] for pan in own]
    their_tops = [tops[pan] for pan in theirs]
    raising = _gourmet_raise(game, facts, own) if game.menu.gourmet_diners else None
    for card in range(NUM_CARD_TYPES):
        if not hand[card]:
            continue
        steals = stealing and card < 3
        robbing = [s for s in theirs if tops[s] == card] if steals and card in their_tops else []
        own_sources = steals and not robbing and own_tops.count(card) > 0
        at = PLAYS_AT + card * PANS_PER_TEAM * PLAY_FEATURES
        for target in own:
            block = facts[target]
            sources = robbing or ([s for s in own if s != target and tops[s] == card] if own_sources else robbing)
            if sources:
                change, row = block.steals[card]
                out[at : at + PLAY_FEATURES] = row
                best, robbed = -np.inf, 0.0
                for source in sources:
                    other = facts[source]
                    gain = other.top_worth if robbing else other.own_pop
                    if change + gain > best:
                        best, robbed = change + gain, other.top_worth
                out[at + 8] = 1.0 if robbing else 0.0
                out[at + 9] = _signed_worth(robbed)
            else:
                best, row = block.plays[card]
                out[at : at + PLAY_FEATURES] = row
            if steals:
                out[at + 10] = chances[card]
            values[at] = best
            if raising is not None and tops[target] < 0 and raising[1] and not set(sources) & raising[0]:
                out[at + 12] = 1.0
            at += PLAY_FEATURES
    _ranks(out, values)


def _gourmet_raise(game: EngineView, facts: list[_PanFacts], own: Sequence[int]):
    """Gourmet: (the pans of the best known-perfect serves open now, whether filling an empty pan
    first would allow a bigger diner card for it); None when there is no such serve."""
    mask = game.legal_mask()
    best_points, best_pans, best_diners = 0, set(), 0
    for pan in range(PANS_PER_TEAM):
        block = facts[own[pan]]
        for size in (1, 0):
            if not block.summary[4 + size]:
                continue
            for diners in reversed(DINER_VALUES):
                if mask[serve_action(pan, size, diners)]:
                    points = diners * RECIPES[size].multiplier
                    if points > best_points:
                        best_points, best_pans, best_diners = points, {own[pan]}, diners
                    elif points == best_points:
                        best_pans.add(own[pan])
                    break
    if not best_pans:
        return None
    raised = game.diner_limit(game.current_player % NUM_TEAMS) + 1
    bigger = any(best_diners < d <= raised and game.state.diners_left[d - 1] for d in DINER_VALUES)
    return best_pans, bigger


__all__ = [
    "ACTION_FEATURES_SIZE",
    "Outlook",
    "PositionEvaluator",
    "action_features",
    "after_play",
    "card_gain",
    "exposure",
    "outlook",
    "pile_value",
    "position_value",
    "unseen_pool",
]
