"""Fiesta Mexicana's rules engine (see ``fiesta_envs.fiesta_mexicana_v1`` for the documentation page).

Flow of a game::

    setup   orient (each player in seat order: start card 0, then 1)      [not in the variant]
            keep   (each player in seat order keeps 3 objectives of 3 colours)
    loop    auction (the opener turns a dish over and must bid; clockwise bid / pass / reserve)
            place   (the winner puts the dish on the space reading the winning bid)
            rotate  (every other player, clockwise from the winner's left: left / right / none)
    end     as soon as a table is full (right after the placement), objectives are scored.

Tables are kept in their fixed frame with an orientation (quarter turns left); see ``board``.
"""

from __future__ import annotations

import copy
import textwrap
from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np

from fiesta_envs.core.determinization import rebuilt
from fiesta_envs.core.game import ACTION_FEATURES_OPTION, REWARD_OPTION, Game
from fiesta_envs.core.options import Option
from fiesta_envs.fiesta_mexicana import actions, determinization
from fiesta_envs.fiesta_mexicana.board import FIXED_OF, ROTATED_EDGES, space_of_number
from fiesta_envs.fiesta_mexicana.components import (
    DISH_CARDS,
    DISHES,
    NUM_DISH_CARDS,
    NUM_SPACES,
    OBJECTIVE_COLOURS,
    OBJECTIVE_DECK,
    OBJECTIVE_KINDS,
    OBJECTIVES_DEALT,
    OBJECTIVES_KEPT,
    PINATA_SPACES,
    SAUCES,
    START_PILES,
    VARIANT_PENALTIES,
    describe_card,
)
from fiesta_envs.fiesta_mexicana.features import FEATURES_SIZE, action_features
from fiesta_envs.fiesta_mexicana.observation import FiestaMexicanaObserver
from fiesta_envs.fiesta_mexicana.scoring import objective_points, placement_points
from fiesta_envs.fiesta_mexicana.state import PHASE_LABELS, FiestaMexicanaState, Phase
from fiesta_envs.fiesta_mexicana.valuation import (
    PositionMemo,
    TableMemo,
    facing_of_table,
    forget_position_memo,
    put_facing,
)

#: Columns of ``render_text`` (the terminal game's width).
TEXT_WIDTH = 100

STANDARD, CONFIRMED_WAITERS = "standard", "confirmed_waiters"
NO_EDGES: tuple[int, int, int, int] = (-1, -1, -1, -1)

_FIXED_OF_ARRAY = np.array(FIXED_OF, dtype=np.intp)
#: _ABOVE[h][n - 1]: True when the number n is strictly higher than the high bid h (0: none yet).
_ABOVE = np.array([[n > h for n in range(1, NUM_SPACES + 1)] for h in range(NUM_SPACES + 1)], dtype=bool)

#: Dish cards by role, for dealing: the start-card pile of each piñata space, then the ordinary dishes.
_START_PILES = tuple(np.array(pile, dtype=np.int64) for pile in START_PILES)
_ORDINARY_DISHES = np.array([c.index for c in DISH_CARDS if c.pinata < 0], dtype=np.int64)
_OBJECTIVE_DECK = np.array(OBJECTIVE_DECK, dtype=np.int64)
_DISH_OF = tuple(c.dish for c in DISH_CARDS)


def _mask_gather(orientation: int) -> list[int]:
    """For each action, the fixed space that must be free for it (bids and reserves) in a table turned
    ``orientation`` times left, or ``NUM_SPACES`` (the always-True entry of ``_free``) for the others."""
    gather = [NUM_SPACES] * actions.NUM_ACTIONS
    for number in range(1, NUM_SPACES + 1):
        space = FIXED_OF[orientation][number - 1]
        gather[actions.bid_action(number)] = space
        for slot in range(OBJECTIVES_KEPT):
            gather[actions.reserve_action(number, slot)] = space
    return gather


def _auction_mask(held: int, high_bid: int) -> np.ndarray:
    """The auction's actions allowed by the high bid and the objective slots held (bit k: slot k held),
    before checking which numbers are covered."""
    mask = np.zeros(actions.NUM_ACTIONS, dtype=np.int8)
    for number in range(high_bid + 1, NUM_SPACES + 1):
        mask[actions.bid_action(number)] = 1
        for slot in range(OBJECTIVES_KEPT):
            if held >> slot & 1:
                mask[actions.reserve_action(number, slot)] = 1
    mask[actions.PASS] = high_bid > 0  # the opener must bid
    return mask


# An auction's mask is _free[player].take(_MASK_GATHER[orientation]) & _AUCTION_MASKS[held, high bid].
_MASK_GATHER = np.array([_mask_gather(o) for o in range(4)], dtype=np.intp)
assert OBJECTIVES_KEPT == 3  # _compute_mask reads the three slots into a 3-bit pattern
_AUCTION_MASKS = np.array(
    [[_auction_mask(held, high) for high in range(NUM_SPACES + 1)] for held in range(1 << OBJECTIVES_KEPT)]
)


def _constant_mask(*legal: int) -> np.ndarray:
    mask = np.zeros(actions.NUM_ACTIONS, dtype=np.int8)
    mask[list(legal)] = 1
    return mask


#: Masks of the phases whose choices never depend on the position (copied, never handed out).
_ROTATE_MASK = _constant_mask(*range(actions.ROTATE, actions.NUM_ACTIONS))
_PLACE_MASK = _constant_mask(*range(actions.PLACE, actions.ROTATE))
_ORIENT_MASKS = tuple(
    _constant_mask(*(actions.orient_action(step, r) for r in range(4))) for step in range(len(PINATA_SPACES))
)
#: The phase in which each kind of action is played.
_PHASE_OF_KIND = {
    "orient": Phase.ORIENT,
    "keep": Phase.KEEP,
    "bid": Phase.AUCTION,
    "pass": Phase.AUCTION,
    "reserve": Phase.AUCTION,
    "place": Phase.PLACE,
    "rotate": Phase.ROTATE,
}


def valid_keeps(hand: list[int]) -> list[int]:
    """Indices into ``KEEP_CHOICES`` whose three objectives have three different colours."""
    colours = [OBJECTIVE_KINDS[code].colour for code in hand]
    return [
        i
        for i, (a, b, c) in enumerate(actions.KEEP_CHOICES)
        if len(hand) == OBJECTIVES_DEALT and len({colours[a], colours[b], colours[c]}) == 3
    ]


class FiestaMexicana(Game):
    """Fiesta Mexicana for 2-4 players: auctions on dishes, placed on the space of the winning bid."""

    name: ClassVar[str] = "fiesta_mexicana"
    player_counts: ClassVar[tuple[int, ...]] = (2, 3, 4)
    default_players: ClassVar[int] = 2
    options: ClassVar[dict[str, Option]] = {
        "reward": REWARD_OPTION,
        "action_features": ACTION_FEATURES_OPTION,
        "variant": Option(
            STANDARD,
            choices=(STANDARD, CONFIRMED_WAITERS),
            doc="'standard' (start cards) or 'confirmed_waiters' (back of the tables: empty start, "
            "penalties for uncovered marked spaces)",
        ),
    }
    score_scale: ClassVar[float] = 50.0
    version: ClassVar[int] = 1
    #: The seat this game is shown to (a copy made by ``render.seen_by``), whose own start cards and points
    #: the text and the picture show while start cards are oriented; None: the public table, every one hidden.
    shown_to: int | None = None

    #: The position: what the state dict saves. Rule handlers read and change it; ``_load`` makes a state the
    #: position and rebuilds the tables derived from it (below).
    state: FiestaMexicanaState
    # Derived from ``state`` per player, rebuilt by ``_load`` and kept up to date as dishes are placed (``_put``):
    #: dishes[p][s]: the dish kind on fixed space s of p's table (-1: uncovered).
    dishes: list[list[int]]
    #: edges[p][s]: the sauce halves N, E, S, W (fixed frame) of the card on space s (``NO_EDGES``: uncovered).
    edges: list[list[tuple[int, int, int, int]]]
    #: filled[p]: the covered spaces of p's table.
    filled: list[int]
    #: facing[p][s, d]: the half a card put on fixed space s would touch in direction d (valuation.facing_halves).
    facing: list[np.ndarray]
    # Caches, dropped or rebuilt whenever the position changes:
    #: _free[p][s]: fixed space s of p's table is uncovered; the extra last entry is always True (for the masks).
    _free: list[np.ndarray]
    #: Writes the observations; remembers what it wrote last for each seat and rewrites only what changed.
    observer: FiestaMexicanaObserver
    #: ``final_breakdown`` once the game is over.
    _final: dict[str, list[int]] | None
    #: The valuations of the position held now (``valuation.position_memo``; None: none computed yet).
    valuation_memo: PositionMemo | None
    #: table_memos[p]: what p's table alone decides (``valuation.table_memo``; None: none computed yet).
    table_memos: list[TableMemo | None]

    # ------------------------------------------------------------------ sizes
    @property
    def num_actions(self) -> int:
        return actions.NUM_ACTIONS

    @property
    def observation_size(self) -> int:
        return self.observer.size

    @property
    def action_features_size(self) -> int:
        return FEATURES_SIZE if self.config["action_features"] else 0

    @property
    def confirmed_waiters(self) -> bool:
        """True when playing the variant for confirmed waiters (back of the tables)."""
        return self.config["variant"] == CONFIRMED_WAITERS

    # ------------------------------------------------------------------ setup
    def _new_game(self) -> None:
        n = self.num_players
        state = FiestaMexicanaState.new_game(n)
        if self.confirmed_waiters:
            state.deck = self.rng.permutation(NUM_DISH_CARDS).tolist()
        else:
            piles = [self.rng.permutation(pile) for pile in _START_PILES]
            for player in range(n):  # each player in turn takes the top card of each pile
                state.start_cards[player] = [int(pile[-1 - player]) for pile in piles]
            left = [pile[: len(pile) - n] for pile in piles]
            state.deck = self.rng.permutation(np.concatenate([_ORDINARY_DISHES, *left])).tolist()
        self._load(state)
        if self.confirmed_waiters:  # no start cards to orient: the objectives are dealt at once
            self._deal_objectives()

    def _deal_objectives(self) -> None:
        """Deal 5 objectives to everyone, then let each hand without 3 colours be shown and replaced.

        Replacements go in seat order; shown cards are discarded and shuffled back into the pile only
        when fewer than 5 cards remain in it. If the cards not held by the other players cannot give
        three colours any more (possible with 4 players), the whole deal starts again (our ruling).
        """
        while not self._try_deal_objectives():
            pass
        self.state.phase = Phase.KEEP
        self.state.turn = 0

    def _try_deal_objectives(self) -> bool:
        pile = self.rng.permutation(_OBJECTIVE_DECK).tolist()
        discards: list[int] = []
        shown: list[list[int]] = []
        hands = [[pile.pop() for _ in range(OBJECTIVES_DEALT)] for _ in range(self.num_players)]
        for player in range(self.num_players):
            while not valid_keeps(hands[player]):
                shown.append(hands[player])
                discards += hands[player]
                if len({OBJECTIVE_KINDS[code].colour for code in pile + discards}) < 3:
                    return False
                if len(pile) < OBJECTIVES_DEALT:
                    pile = self.rng.permutation(pile + discards).tolist()
                    discards = []
                hands[player] = [pile.pop() for _ in range(OBJECTIVES_DEALT)]
        self.state.hands = hands
        self.state.shown_objectives = shown
        return True

    # ------------------------------------------------------------------ derived state and caches
    def _load(self, state: FiestaMexicanaState) -> None:
        """Make ``state`` the position (the engine's own from now on), then rebuild what follows from it: dishes,
        edges and free spaces per table, the observer, the final scores."""
        self.state = state
        n = self.num_players
        cards, rotations = state.cards, state.rotations
        self.dishes = [[_DISH_OF[c] if c >= 0 else -1 for c in row] for row in cards]
        self.edges = [
            [ROTATED_EDGES[c][r] if c >= 0 else NO_EDGES for c, r in zip(cards[p], rotations[p], strict=True)]
            for p in range(n)
        ]
        self.filled = [NUM_SPACES - row.count(-1) for row in cards]
        self.facing = [facing_of_table(self.dishes[p], self.edges[p]) for p in range(n)]
        self._free = [np.array([c < 0 for c in row] + [True]) for row in cards]
        self.observer = FiestaMexicanaObserver(n, self.confirmed_waiters, self.config["action_features"])
        self._final = None
        forget_position_memo(self)  # valuations of the position this engine held before
        self.table_memos = [None] * n

    # ------------------------------------------------------------------ whose turn
    @property
    def current_player(self) -> int:
        state = self.state
        return -1 if state.phase == Phase.OVER else state.turn

    @property
    def phase_name(self) -> str:
        """The phase: "orient", "keep", "auction", "place", "rotate" or "over"."""
        return PHASE_LABELS[self.state.phase]

    @property
    def is_over(self) -> bool:
        return self.state.phase == Phase.OVER

    # ------------------------------------------------------------------ legality
    def legal_bids(self, player: int) -> np.ndarray:
        """bool[16]: numbers ``player`` may bid now (legible, uncovered, above the high bid)."""
        state = self.state
        return self._free[player][_FIXED_OF_ARRAY[state.orientation[player]]] & _ABOVE[state.high_bid]

    def _compute_mask(self) -> np.ndarray:
        state = self.state
        player = state.turn
        phase = state.phase
        if phase == Phase.AUCTION:
            objectives = state.objectives[player]
            held = (objectives[0] >= 0) + 2 * (objectives[1] >= 0) + 4 * (objectives[2] >= 0)
            gather = _MASK_GATHER[state.orientation[player]]
            return self._free[player].take(gather) & _AUCTION_MASKS[held, state.high_bid]
        if phase == Phase.ROTATE:
            return _ROTATE_MASK.copy()
        if phase == Phase.PLACE:
            return _PLACE_MASK.copy()
        if phase == Phase.ORIENT:
            return _ORIENT_MASKS[state.orient_step].copy()
        mask = np.zeros(actions.NUM_ACTIONS, dtype=np.int8)
        if phase == Phase.KEEP:
            for choice in valid_keeps(state.hands[player]):
                mask[actions.KEEP + choice] = 1
        return mask

    def explain_illegal(self, action: int) -> str:
        kind, args = actions.DECODED[action]
        phase = _PHASE_OF_KIND[kind]
        if phase != self.state.phase:
            return self._wrong_phase(kind)
        player = self.state.turn
        if kind == "orient":
            return f"the start card for space {PINATA_SPACES[self.state.orient_step] + 1} is oriented now"
        if kind == "keep":
            colours = [OBJECTIVE_COLOURS[OBJECTIVE_KINDS[self.state.hands[player][slot]].colour] for slot in args]
            return f"kept objectives must have three different colours; slots {args} are {', '.join(colours)}"
        if kind == "pass":
            return "the player who turns the dish over must make the opening bid"
        number = args[0]
        if kind == "reserve" and self.state.objectives[player][args[1]] < 0:
            return f"objective slot {args[1]} is empty (to reserve, a player discards an objective held)"
        if self.dishes[player][space_of_number(self.state.orientation[player], number)] >= 0:
            return f"{number} is covered by a dish"
        if number <= self.state.high_bid:
            return f"a bid must be strictly higher than {self.state.high_bid}"
        return "the rules do not allow it now"

    def _wrong_phase(self, kind: str) -> str:
        now = PHASE_LABELS[self.state.phase]
        if kind == "orient":
            return f"start cards are oriented during setup only (now: {now})"
        if kind == "keep":
            return f"objectives are kept during setup only (now: {now})"
        if kind in ("bid", "pass", "reserve"):
            return f"bids, passes and reserves are made during an auction only (now: {now})"
        if kind == "place":
            return f"only the auction winner places, once the auction is over (now: {now})"
        return f"only players who did not win the dish turn their table, after it is placed (now: {now})"

    # ------------------------------------------------------------------ applying actions
    def _apply(self, action: int) -> None:
        kind, args = actions.DECODED[action]
        player = self.state.turn
        if kind == "bid":
            self._bid(player, args[0])
        elif kind == "pass":
            self._pass(player)
        elif kind == "rotate":
            self._rotate(player, args[0])
        elif kind == "place":
            self._place(player, args[0])
        elif kind == "reserve":
            self._reserve(player, args[0], args[1])
        elif kind == "orient":
            self._orient(player, args[0], args[1])
        else:
            self._keep(player, args)

    def _orient(self, player: int, start_card: int, rotation: int) -> None:
        state = self.state
        card = state.start_cards[player][start_card]
        state.start_cards[player][start_card] = -1  # now on the table
        self._put(player, PINATA_SPACES[start_card], card, rotation)
        state.points[player] += DISH_CARDS[card].skulls  # start cards: skulls only, no bowls at setup
        if start_card + 1 < len(PINATA_SPACES):
            state.orient_step = start_card + 1
            return
        state.orient_step = 0
        state.start_cards[player] = []
        if player + 1 < self.num_players:
            state.turn = player + 1
        else:
            self._deal_objectives()

    def _keep(self, player: int, slots: tuple[int, ...]) -> None:
        state = self.state
        hand = state.hands[player]
        state.objectives[player] = [hand[slot] for slot in slots]
        state.hands[player] = []
        if player + 1 < self.num_players:
            state.turn = player + 1
        else:
            self._start_auction(0)

    def _start_auction(self, opener: int) -> None:
        # The deck cannot run out first: before a table is full each holds at most 15 dishes, so at
        # most 4 x 13 + 1 = 53 dishes come from the deck in the standard game (58 in it) and
        # 4 x 15 + 1 = 61 in the variant (66 in it). Should it ever happen, the game ends here.
        state = self.state
        if not state.deck:
            self._end_game()
            return
        state.offer = state.deck.pop()
        state.phase = Phase.AUCTION
        state.opener = state.turn = opener
        state.high_bid, state.high_bidder = 0, -1
        state.passed = [False] * self.num_players
        state.bids = [[] for _ in range(self.num_players)]

    def _bid(self, player: int, number: int) -> None:
        state = self.state
        state.high_bid, state.high_bidder = number, player
        state.bids[player].append(number)
        state.passed = [False] * self.num_players
        state.turn = (player + 1) % self.num_players

    def _pass(self, player: int) -> None:
        state = self.state
        state.passed[player] = True
        following = (player + 1) % self.num_players
        if following == state.high_bidder:  # everybody else passed in a row since the last bid
            self._win_auction(following)
        else:
            state.turn = following

    def _reserve(self, player: int, number: int, slot: int) -> None:
        state = self.state
        state.objectives[player][slot] = -1
        state.reserves[player] += 1
        state.high_bid, state.high_bidder = number, player
        state.bids[player].append(number)
        self._win_auction(player)

    def _win_auction(self, winner: int) -> None:
        state = self.state
        state.phase = Phase.PLACE
        state.turn = winner

    def _place(self, player: int, rotation: int) -> None:
        """Put the dish on the space reading the winning bid, turned ``rotation`` times clockwise as seen."""
        state = self.state
        orientation = state.orientation[player]
        space = FIXED_OF[orientation][state.high_bid - 1]
        card = state.offer
        # the table is turned `orientation` times left: a dish turned R times clockwise in the
        # player's view is turned R + orientation times clockwise in the table's fixed frame
        fixed_rotation = (rotation + orientation) % 4
        gained = placement_points(
            self.dishes[player],
            self.edges[player],
            space=space,
            new_edges=ROTATED_EDGES[card][fixed_rotation],
            skulls=DISH_CARDS[card].skulls,
        )
        state.points[player] = max(0, state.points[player] + gained)  # a score never goes below 0
        self._put(player, space, card, fixed_rotation)
        state.offer = -1
        state.opener = player  # the winner opens the next auction
        if self.filled[player] == NUM_SPACES:  # the game ends at once: nobody turns a table
            self._end_game()
            return
        n = self.num_players
        state.rotation_queue = [(player + k) % n for k in range(1, n)]  # clockwise from the winner's left
        state.phase = Phase.ROTATE
        state.turn = state.rotation_queue[0]

    def _put(self, player: int, space: int, card: int, fixed_rotation: int) -> None:
        state = self.state
        state.cards[player][space] = card
        state.rotations[player][space] = fixed_rotation
        self.dishes[player][space] = DISH_CARDS[card].dish
        self.edges[player][space] = ROTATED_EDGES[card][fixed_rotation]
        put_facing(self.facing[player], space, ROTATED_EDGES[card][fixed_rotation])
        self.filled[player] += 1
        forget_position_memo(self)  # a table changed (and with it the points, put right after)
        self.table_memos[player] = None
        self._free[player][space] = False

    def _rotate(self, player: int, choice: int) -> None:
        """Note ``player``'s choice; the tables turn together once the last player has chosen (the
        printed game turns them at the same time)."""
        state = self.state
        state.turns_chosen[player] = choice
        state.rotation_queue.pop(0)
        if state.rotation_queue:
            state.turn = state.rotation_queue[0]
            return
        for seat, chosen in enumerate(state.turns_chosen):
            if chosen >= 0:
                state.orientation[seat] = (state.orientation[seat] + actions.ROTATION_TURNS[chosen]) % 4
        forget_position_memo(self)  # the tables turned
        state.turns_chosen = [-1] * self.num_players
        self._start_auction(state.opener)

    def _end_game(self) -> None:
        state = self.state
        state.phase = Phase.OVER
        state.turn = -1
        state.offer = -1
        state.rotation_queue = []

    # ------------------------------------------------------------------ scores
    def space_of(self, player: int, number: int) -> int:
        """The fixed space of ``player``'s table that reads ``number`` now."""
        return space_of_number(self.state.orientation[player], number)

    def objective_points(self, player: int) -> list[int]:
        """Points each of ``player``'s objective slots would score now (0 for an empty slot)."""
        return [
            objective_points(code, player, self.dishes, self.edges[player]) if code >= 0 else 0
            for code in self.state.objectives[player]
        ]

    def penalties(self, player: int) -> int:
        """Variant: the points lost for marked spaces still uncovered (0 in the standard game)."""
        if not self.confirmed_waiters:
            return 0
        return sum(value for space, value in VARIANT_PENALTIES.items() if self.state.cards[player][space] < 0)

    def final_breakdown(self) -> dict[str, list[int]]:
        """Points from dishes, objectives and penalties, and the final score of each player.

        Mid-game this is what the scores would be if the game ended now (cached once it is over).
        """
        if self._final is not None:
            return self._final
        n = self.num_players
        objective = [sum(self.objective_points(p)) for p in range(n)]
        penalty = [self.penalties(p) for p in range(n)]
        breakdown = {
            "placement_points": list(self.state.points),
            "objective_points": objective,
            "penalties": penalty,
            "final_scores": [max(0, self.state.points[p] + objective[p] - penalty[p]) for p in range(n)],
        }
        if self.state.phase == Phase.OVER:
            self._final = breakdown
        return breakdown

    def scores(self) -> np.ndarray:
        if self.state.phase == Phase.OVER:
            return np.array(self.final_breakdown()["final_scores"], dtype=float)
        return np.array(self.state.points, dtype=float)

    def final_info(self) -> dict[str, Any]:
        if self.state.phase != Phase.OVER:
            return {}
        info: dict[str, Any] = {key: list(values) for key, values in self.final_breakdown().items()}
        info["objectives"] = [
            [OBJECTIVE_KINDS[code].label for code in slots if code >= 0] for slots in self.state.objectives
        ]
        info["objective_slot_points"] = [self.objective_points(p) for p in range(self.num_players)]
        return info

    # ------------------------------------------------------------------ observation
    def observe(self, player: int) -> np.ndarray:
        return self.observer.observe(self, player)

    def action_features(self, player: int) -> np.ndarray:
        """What each action would bring ``player`` now (``features.py``; appended with ``action_features=True``)."""
        return action_features(self, player)

    def table_hidden(self, player: int) -> bool:
        """Whether ``player``'s table and points are face down where this game is shown: while start cards are
        oriented (at the same time in the printed game), to everybody but their owner (``shown_to``)."""
        return self.state.phase == Phase.ORIENT and player != self.shown_to

    def orienting_note(self) -> str:
        """What the table says while start cards are oriented (the text and the picture)."""
        tables = "the other tables and points" if self.shown_to is not None else "tables and points"
        return f"start cards are oriented at the same time: {tables} are shown when all are done"

    def card_shown(self) -> int:
        """The dish on offer, or during setup the start card being oriented (-1 for none)."""
        if self.state.phase == Phase.ORIENT:
            return self.state.start_cards[self.state.turn][self.state.orient_step]
        return self.state.offer

    # ------------------------------------------------------------------ names
    def _build_action_names(self) -> list[str]:
        return list(actions.ACTION_NAMES)

    # ------------------------------------------------------------------ state dicts
    def clone(self) -> FiestaMexicana:
        """An independent copy (for search or look-ahead): the position and the generator copied, the derived
        tables rebuilt (what ``from_state_dict`` does without the state dict's conversions and checks: a search
        makes one copy per candidate and rollout, and this takes a fifth of the time). The options, the player
        count and the action names are shared: they never change."""
        other = copy.copy(self)
        other._load(self.state.copy())  # new lists, derived tables and observer
        other.rng = copy.deepcopy(self.rng)
        other._mask_cache = None
        other.actions_applied = 0
        return other

    def determinize(self, seat: int, rng: np.random.Generator) -> FiestaMexicana:
        """A copy for search: the deck order, the others' objectives, their start cards while orienting and
        their table turns not applied yet drawn afresh from ``rng``, chance seeded from it
        (``fiesta_mexicana.determinization``). The copy is loaded as a state dict is, so a drawn position
        that breaks a rule is refused (``InvalidStateError``) instead of being searched."""
        state = determinization.resampled(self.state, seat, self.num_players, rng)
        believed = rebuilt(self, state.to_dict(), rng)
        assert isinstance(believed, FiestaMexicana)  # rebuilt by type(self)
        return believed

    def saved_state(self) -> FiestaMexicanaState:
        """The position (the engine's own ``state``: read, do not change; ``state.copy()`` to keep it)."""
        return self.state

    def _state_to_dict(self) -> dict[str, Any]:
        return self.state.to_dict()

    def _state_from_dict(self, data: Mapping[str, Any]) -> None:
        self._load(FiestaMexicanaState.from_dict(data, num_players=self.num_players, game=self.name))

    # ------------------------------------------------------------------ text
    def render_text(self) -> str:
        """The public table: what every player sees (no objective, no start card while they are oriented, no
        table turn chosen before the tables turn; ``render.private_lines`` has what one seat alone knows). A copy
        shown to one seat (``shown_to``) shows that seat's own start cards and points while they are oriented."""
        state = self.state
        lines = [
            f"Fiesta Mexicana ({self.config['variant']}), phase: {PHASE_LABELS[state.phase]}, deck: {len(state.deck)}"
        ]
        if state.offer >= 0:
            lines.append(f"dish on offer: {describe_card(state.offer)}")
        if state.phase == Phase.AUCTION:
            bidder = f"player {state.high_bidder}" if state.high_bidder >= 0 else "nobody"
            passed = ", ".join(f"player {player}" for player, out in enumerate(state.passed) if out) or "nobody"
            lines.append(f"high bid: {state.high_bid or '-'} by {bidder}; passed: {passed}")
        if any(state.bids):  # kept while the dish is placed and the tables are turned
            bids = "; ".join(
                f"player {player} {', '.join(map(str, bids)) or '-'}" for player, bids in enumerate(state.bids)
            )
            lines += textwrap.wrap(f"bids this auction: {bids}", TEXT_WIDTH, subsequent_indent="    ")
        if state.phase == Phase.ROTATE:
            chosen = [f"player {seat}" for seat, choice in enumerate(state.turns_chosen) if choice >= 0]
            waiting = [f"player {seat}" for seat in state.rotation_queue]
            text = (
                f"table turns chosen: {', '.join(chosen) or 'nobody yet'}; still to choose: {', '.join(waiting)} "
                "(secret until the tables turn together)"
            )
            lines += textwrap.wrap(text, TEXT_WIDTH, subsequent_indent="    ")
        if state.phase == Phase.ORIENT:
            lines.append(self.orienting_note())
        for player in range(self.num_players):
            held = sum(code >= 0 for code in state.objectives[player])
            marker = " <- to act" if player == self.current_player else ""
            points = "?" if self.table_hidden(player) else state.points[player]
            lines.append(
                f"player {player}: {points} points, {held} objectives, turned left {state.orientation[player]}x{marker}"
            )
            for row in range(4):
                cells = []
                for col in range(4):
                    view = 4 * row + col
                    space = FIXED_OF[state.orientation[player]][view]
                    cells.append(f"{view + 1:2d} {self._cell_text(player, space)}")
                lines.append("   " + " | ".join(cells))
        if state.phase == Phase.OVER:
            lines.append(f"final scores: {self.final_breakdown()['final_scores']}; winners: {self.winners()}")
        return "\n".join(lines)

    def _cell_text(self, player: int, space: int) -> str:
        state = self.state
        card = state.cards[player][space]
        if card < 0:
            return "-" * 9
        if self.table_hidden(player):  # only start cards are on the tables, each seen by its owner only
            return "?" * 9
        orientation = state.orientation[player]
        # the edges as the owner sees them: view direction d shows fixed direction (d + orientation)
        edges = self.edges[player][space]
        halves = "".join(
            SAUCES[edges[(d + orientation) % 4]][0] if edges[(d + orientation) % 4] >= 0 else "." for d in range(4)
        )
        return f"{DISHES[DISH_CARDS[card].dish][:3]}{DISH_CARDS[card].skulls} {halves}"
