"""The rules engine of Tortilla de Patatas (Kids', Day's and Gourmet menus; 2 or 4 players).

Seats: player_0 chef of team A, player_1 chef of team B and, with 4 players, player_2 kitchen
assistant of team A and player_3 kitchen assistant of team B (team = seat % 2); turns go
0, 1, 2, 3, so they alternate between the teams. A team shares its chef's 3 pans and its score.

A turn, in the order the engine asks for decisions:

1. PLAY: ``play TYPE on P`` puts a card from hand onto pan P of the team (covering its top
   card, or into an empty pan). Before that, ``serve`` is also allowed.
2. STEAL (Day's and Gourmet menus): when the card just placed is a plain ingredient equal to
   the plain top card of another pan, that top card is taken and put on the card just placed
   (an opponent's pan first, then one's own; at most one steal per turn). With one candidate
   the steal is automatic; with several, ``steal from mine P`` / ``steal from theirs P``.
3. AFTER: ``serve`` (if not yet served this turn) or refill the hand to 3 with ``draw deck`` or
   (Day's/Gourmet) ``draw door``. Drawing ends the turn. In the Kids' menu, when no serve is
   legal, the draw is automatic.

Serving (at most once per turn): a non-empty pan of the team, its declared size (M or XL,
public) and an available diner card; in the Gourmet menu the diner card may not exceed the
number of the team's pans holding cards (the served pan included). The game ends at once when
the last diner card is taken or when a refill leaves the fridge empty (the deck and the door).

Day's/Gourmet setup: each chef in turn (player_0 first) places two of the five cards dealt to
them into pans 0 and 1 with ``start TYPE`` (public; setup never steals).

The rulings this engine follows where the rulebook is silent are listed on the game's
documentation page, ``fiesta_envs.tortilla_de_patatas_v1``.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any, cast

import numpy as np

from fiesta_envs.core.determinization import rebuilt
from fiesta_envs.core.game import ACTION_FEATURES_OPTION, REWARD_OPTION, Game
from fiesta_envs.core.options import Option
from fiesta_envs.tortilla import determinization, features
from fiesta_envs.tortilla.actions import (
    ACTION_NAMES,
    DECODED,
    DRAW_DECK,
    DRAW_DOOR,
    NUM_ACTIONS,
    SERVE_BASE,
    START_BASE,
    STEAL_BASE,
    decode_play,
    decode_serve,
    decode_steal,
    play_action,
    serve_action,
    start_action,
)
from fiesta_envs.tortilla.components import (
    CARD_COUNTS,
    CARD_TYPE_INDEX,
    CARD_TYPES,
    DINER_COPIES,
    DINER_VALUES,
    MENUS,
    NUM_CARD_TYPES,
    NUM_TEAMS,
    PANS_PER_TEAM,
    SIZE_NAMES,
    STARTING_PANS,
    Menu,
)
from fiesta_envs.tortilla.observation import OBSERVATION_LAYOUT_VERSIONS, TortillaObserver
from fiesta_envs.tortilla.omelettes import is_perfect, omelette_points
from fiesta_envs.tortilla.state import (
    NO_PAN,
    NO_SEAT,
    PHASE_NAMES,
    EventKind,
    Phase,
    ServedOmelette,
    TableEvent,
    TortillaState,
    card_names,
)
from fiesta_envs.tortilla.steals import steal_sources

NUM_PANS = NUM_TEAMS * PANS_PER_TEAM
NUM_CHEFS = NUM_TEAMS
TEAM_NAMES = ("A", "B")
_ALL_CARDS: tuple[int, ...] = tuple(card for card, count in enumerate(CARD_COUNTS) for _ in range(count))
_ALL_CARDS_ARRAY = np.array(_ALL_CARDS, dtype=np.int64)  # what ``rng.permutation`` shuffles
MENU_TITLES = {"kids": "Kids' menu", "day": "Day's menu", "gourmet": "Gourmet menu"}


def _play_row(cards: int) -> np.ndarray:
    """The play actions open with a hand holding the card types of the bit set ``cards``."""
    row = np.zeros(NUM_ACTIONS, dtype=np.int8)
    for card in range(NUM_CARD_TYPES):
        if cards >> card & 1:
            row[card * PANS_PER_TEAM : (card + 1) * PANS_PER_TEAM] = 1
    return row


def _serve_row(key: int) -> np.ndarray:
    """The serve actions open for a serve key (see ``TortillaDePatatas._serve_key``): the team pans
    holding cards (bit set ``key >> 3``) and the diner cards that may be taken (bit set ``key & 7``,
    bit k = value k + 1): every pair, both sizes."""
    pans, diners = key >> len(DINER_VALUES), key & ((1 << len(DINER_VALUES)) - 1)
    row = np.zeros(NUM_ACTIONS, dtype=np.int8)
    for pan in range(PANS_PER_TEAM):
        for k, value in enumerate(DINER_VALUES):
            if pans >> pan & 1 and diners >> k & 1:
                for size in range(len(SIZE_NAMES)):
                    row[serve_action(pan, size, value)] = 1
    return row


def _draw_row(draws: int) -> np.ndarray:
    """The refills open: bit 0 the fridge draw pile, bit 1 its door."""
    row = np.zeros(NUM_ACTIONS, dtype=np.int8)
    row[DRAW_DECK], row[DRAW_DOOR] = draws & 1, draws >> 1
    return row


def _start_row(cards: int) -> np.ndarray:
    """The setup actions open with a hand holding the card types of the bit set ``cards``."""
    row = np.zeros(NUM_ACTIONS, dtype=np.int8)
    for card in range(NUM_CARD_TYPES):
        row[START_BASE + card] = cards >> card & 1
    return row


def _read_only(table: np.ndarray) -> np.ndarray:
    table.flags.writeable = False
    return table


def _card_bits(counts: Sequence[int]) -> int:
    """The bit set of the card types present in ``counts`` (bit = card type)."""
    return sum(1 << card for card, count in enumerate(counts) if count)


# Every legal mask but a steal choice's, precomputed at import and indexed by bit sets: the card
# types in hand, the serve key (``TortillaDePatatas._serve_key``), the refills open. ``legal_mask``
# hands out rows of these tables, shared by every game: read-only (callers must not write into masks).
assert DINER_VALUES == (1, 2, 3) and PANS_PER_TEAM == 3  # the serve key is two 3-bit sets
_HAND_SETS = range(1 << NUM_CARD_TYPES)
_SERVE_KEYS = range(1 << (PANS_PER_TEAM + len(DINER_VALUES)))
_SERVE_ROWS = np.array([_serve_row(key) for key in _SERVE_KEYS])
_PLAY_MASKS = _read_only(  # [cards in hand, serve key]: play a card or serve
    np.array([_play_row(cards) for cards in _HAND_SETS])[:, None, :] | _SERVE_ROWS[None, :, :]
)
_AFTER_MASKS = _read_only(  # [serve key, refills]: serve or refill
    _SERVE_ROWS[:, None, :] | np.array([_draw_row(draws) for draws in range(4)])[None, :, :]
)
_START_MASKS = _read_only(np.array([_start_row(cards) for cards in _HAND_SETS]))  # [cards in hand]
_NO_ACTIONS = _read_only(np.zeros(NUM_ACTIONS, dtype=np.int8))


def legal_mask_from_rules(game: TortillaDePatatas) -> np.ndarray:
    """The legal actions worked out one by one from the rules: the readable definition.

    ``legal_mask`` reads precomputed tables instead (``_PLAY_MASKS``...); the tests check at every
    step of random games that both give the same mask.
    """
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    if game.is_over:
        return mask
    state = game.state
    seat = state.current
    hand, team = state.hands[seat], game.team_of(seat)
    if state.phase == Phase.SETUP:  # a chef places a card from hand into the next starting pan
        for card in range(NUM_CARD_TYPES):
            mask[start_action(card)] = hand[card] > 0
        return mask
    if state.phase == Phase.STEAL:  # the player chooses among the pans the steal rule allows
        for pan in game.steal_options:
            mask[STEAL_BASE + game._relative_pan(pan, seat)] = 1
        return mask
    if not state.served_this_turn:  # serve any team pan holding cards, either size, an allowed diner card
        for pan in range(PANS_PER_TEAM):
            for diners in DINER_VALUES:
                if state.pans[team * PANS_PER_TEAM + pan] and state.diners_left[diners - 1]:
                    for size in range(len(SIZE_NAMES)):
                        mask[serve_action(pan, size, diners)] = diners <= game.diner_limit(team)
    if state.phase == Phase.PLAY:  # a card from hand onto any team pan
        for card in range(NUM_CARD_TYPES):
            for pan in range(PANS_PER_TEAM):
                mask[play_action(card, pan)] = hand[card] > 0
    else:  # after playing: refill from the fridge or its door
        mask[DRAW_DECK] = len(state.deck) > 0
        mask[DRAW_DOOR] = state.door >= 0
    return mask


class TortillaDePatatas(Game):
    """Tortilla de Patatas. The position is ``state`` (a ``TortillaState``: ``game.state.pans``,
    ``game.state.phase``...); pans are indexed globally as ``team * 3 + pan`` inside the engine."""

    name = "tortilla_de_patatas"
    player_counts = (2, 4)
    default_players = 2
    options = {
        "reward": REWARD_OPTION,
        "menu": Option("day", choices=tuple(MENUS), doc="rules variant: 'kids', 'day' or 'gourmet'"),
        "observation": Option(
            "information_state",
            choices=("information_state", "observation"),
            doc="'information_state' (perfect-memory knowledge) or 'observation' (the table as it is now)",
        ),
        "action_features": ACTION_FEATURES_OPTION,
    }
    score_scale = 10.0
    version = 1

    #: The position: what the state dict's ``state`` entry holds.
    state: TortillaState
    menu: Menu
    observer: TortillaObserver
    # Caches derived from ``state``: the rule handlers keep them up to date, ``_load`` rebuilds them.
    _pan_counts: list[list[int]]  # cards per type in each pan
    _table_counts: list[int]  # cards per type ever put on the table (in the pans or served)
    _steal_options: list[int]  # the pans a steal may take from, while one is chosen
    _events_dropped: int  # events dropped from the front of ``state.events`` since the load (``events_key``)

    # ------------------------------------------------------------------ sizes
    @property
    def num_actions(self) -> int:
        return NUM_ACTIONS

    @property
    def observation_size(self) -> int:
        return self.observer.size

    @property
    def observation_layout(self) -> str:
        """``"tortilla_de_patatas/<mode>/v<n>"``: v1 changed only the ``observation`` mode's layout."""
        mode = self.config["observation"]
        return f"{self.name}/{mode}/v{OBSERVATION_LAYOUT_VERSIONS[mode]}"

    @property
    def observation_is_information_state(self) -> bool:
        """The ``information_state`` mode shows what a perfect memory knows; the ``observation`` mode does not."""
        return self.config["observation"] == "information_state"

    @property
    def action_features_size(self) -> int:
        """Entries ``observe`` appends with the option ``action_features`` (0 when off; ``tortilla.features``)."""
        return features.ACTION_FEATURES_SIZE if self.config["action_features"] else 0

    # ------------------------------------------------------------------ setup
    def _new_game(self) -> None:
        self.menu = MENUS[self.config["menu"]]
        self._new_observer()
        deck: list[int] = self.rng.permutation(_ALL_CARDS_ARRAY).tolist()  # shuffled; top = last
        hands = [[0] * NUM_CARD_TYPES for _ in range(self.num_players)]
        for seat, hand in enumerate(hands):
            deal = self.menu.chef_deal if self.is_chef(seat) else self.menu.assistant_deal
            rest = len(deck) - deal
            for card in deck[rest:]:  # the top ``deal`` cards of the fridge
                hand[card] += 1
            del deck[rest:]
        door = deck.pop() if self.menu.fridge_door else -1
        self._load(
            TortillaState(
                phase=Phase.SETUP,
                current=0,
                turn=0,
                starts_placed=0,
                served_this_turn=False,
                played_pan=-1,
                hands=hands,
                known=[[0] * NUM_CARD_TYPES for _ in range(self.num_players)],
                pans=[[] for _ in range(NUM_PANS)],
                deck=deck,
                door=door,
                diners_left=[DINER_COPIES] * len(DINER_VALUES),
                served=[],
                events=[],
                events_seen_from=[0] * self.num_players,
            )
        )
        if self.menu.starts_from_deck:  # Kids': the starting pans are filled from the fridge
            for team in range(NUM_TEAMS):
                for pan in range(STARTING_PANS):
                    self._put(team * PANS_PER_TEAM + pan, self.state.deck.pop(), NO_SEAT)
            self.state.starts_placed = NUM_CHEFS * STARTING_PANS
            self.state.phase = Phase.PLAY

    def _load(self, state: TortillaState) -> None:
        """Make ``state`` the position, then rebuild the caches that follow from it (the cards per pan
        and on the table, the steal choices open) and forget what the observer wrote."""
        self.state = state
        self._pan_counts = [[pile.count(card) for card in range(NUM_CARD_TYPES)] for pile in state.pans]
        self._table_counts = [
            sum(counts[card] for counts in [*self._pan_counts, *(dish.counts for dish in state.served)])
            for card in range(NUM_CARD_TYPES)
        ]
        self._steal_options = steal_sources(state.pans, state.played_pan) if state.phase == Phase.STEAL else []
        self._events_dropped = 0
        self.observer.reset()

    def saved_state(self) -> TortillaState:
        """A copy of the position (``state``), to change or keep."""
        return self.state.copy()

    def clone(self) -> TortillaDePatatas:
        """An independent copy: the position, the options and the random generator copied, a fresh observer,
        the caches rebuilt (the menu and the action names never change: they are shared)."""
        twin = copy.copy(self)
        twin.config = dict(self.config)
        twin.rng = copy.deepcopy(self.rng)
        twin.observer = self._make_observer()
        twin._mask_cache = None
        twin.actions_applied = 0
        twin._load(self.state.copy())
        return twin

    def _new_observer(self) -> None:
        """The observer of this game's mode (kept across games: ``reset`` forgets what it wrote)."""
        if getattr(self, "observer", None) is None:
            self.observer = self._make_observer()
        self.observer.reset()

    def _make_observer(self) -> TortillaObserver:
        features_size = features.ACTION_FEATURES_SIZE if self.config["action_features"] else 0
        return TortillaObserver(self.config["observation"], self.num_players, self.config["menu"], features_size)

    # ------------------------------------------------------------------ public read-only views
    @staticmethod
    def team_of(seat: int) -> int:
        return seat % NUM_TEAMS

    @staticmethod
    def is_chef(seat: int) -> bool:
        return seat < NUM_CHEFS

    @property
    def current_player(self) -> int:
        return -1 if self.state.phase == Phase.OVER else self.state.current

    @property
    def is_over(self) -> bool:
        return self.state.phase == Phase.OVER

    @property
    def pan_counts(self) -> Sequence[Sequence[int]]:
        """Counts per card type of each of the six piles (same indices as ``state.pans``)."""
        return self._pan_counts

    @property
    def table_counts(self) -> Sequence[int]:
        """Cards per type ever put on the table (in the pans or served): public with perfect memory."""
        return self._table_counts

    @property
    def deck_size(self) -> int:
        return len(self.state.deck)

    @property
    def steal_options(self) -> Sequence[int]:
        """Global pan indices the current player may steal from (``Phase.STEAL`` only)."""
        return self._steal_options

    def diner_limit(self, team: int) -> int:
        """The largest diner card ``team`` may take when serving now (Gourmet restriction).

        Gourmet: 1 pan holding cards allows a 1-diner card, 2 pans up to 2, 3 pans any; the
        pan being served counts, as do pans a steal has not emptied.
        """
        if not self.menu.gourmet_diners:
            return DINER_VALUES[-1]
        return sum(1 for pan in self._team_pans(team) if self.state.pans[pan])

    # ------------------------------------------------------------------ legal actions
    def _compute_mask(self) -> np.ndarray:
        """The legal mask: a read-only row of the tables above (a steal choice: a new array)."""
        state = self.state
        phase, seat = state.phase, state.current
        if phase == Phase.PLAY:  # a card from hand onto any team pan (covering it or starting it), or serve
            return _PLAY_MASKS[_card_bits(state.hands[seat]), self._serve_key(seat % NUM_TEAMS)]
        if phase == Phase.AFTER:  # serve, or refill from the fridge or (Day's/Gourmet) its door
            draws = (1 if state.deck else 0) | (2 if state.door >= 0 else 0)
            return _AFTER_MASKS[self._serve_key(seat % NUM_TEAMS), draws]
        if phase == Phase.SETUP:
            return _START_MASKS[_card_bits(state.hands[seat])]
        if phase == Phase.STEAL:
            mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
            for pan in self._steal_options:
                mask[STEAL_BASE + self._relative_pan(pan, seat)] = 1
            return mask
        return _NO_ACTIONS

    def _serve_key(self, team: int) -> int:
        """The serve actions open now, as a bit set: the team's pans holding cards (bits 3-5) and
        the diner cards that may be taken (bits 0-2); 0 once the player has served this turn.

        One serve per turn, before the play or before the draw: any non-empty team pan, declared
        M or XL, with a diner card still available (Gourmet: within the team's limit).
        """
        state = self.state
        if state.served_this_turn:
            return 0
        first = team * PANS_PER_TEAM
        pans = state.pans
        pan_bits = (1 if pans[first] else 0) | (2 if pans[first + 1] else 0) | (4 if pans[first + 2] else 0)
        left = state.diners_left  # diner cards left of value 1, 2, 3
        if self.menu.gourmet_diners:  # up to as many diners as pans holding cards
            limit = (pan_bits & 1) + (pan_bits >> 1 & 1) + (pan_bits >> 2)
            return (
                pan_bits << 3
                | (1 if left[0] else 0)
                | (2 if left[1] and limit >= 2 else 0)
                | (4 if left[2] and limit >= 3 else 0)
            )
        return pan_bits << 3 | (1 if left[0] else 0) | (2 if left[1] else 0) | (4 if left[2] else 0)

    def _any_serve_legal(self) -> bool:
        key = self._serve_key(self.state.current % NUM_TEAMS)
        return key >> 3 != 0 and key & 7 != 0  # a pan to serve and a diner card to take

    # ------------------------------------------------------------------ applying actions
    def _apply(self, action: int) -> None:
        self._forget_events_seen_by(self.state.current)
        args = DECODED[action]
        if action < SERVE_BASE:
            self._play(*args)
        elif action < DRAW_DECK:
            self._serve(*args)
        elif action == DRAW_DECK:
            self._draw(from_door=False)
        elif action == DRAW_DOOR:
            self._draw(from_door=True)
        elif action < START_BASE:
            theirs, pan = args
            self._steal_from(self._absolute_pan(theirs, pan, self.state.current))
        else:
            self._start(*args)

    def _start(self, card: int) -> None:
        state = self.state
        chef = state.current
        state.hands[chef][card] -= 1
        self._put(chef * PANS_PER_TEAM + state.starts_placed % STARTING_PANS, card, chef)
        state.starts_placed += 1
        if state.starts_placed == NUM_CHEFS * STARTING_PANS:
            state.phase, state.current = Phase.PLAY, 0
        else:
            state.current = state.starts_placed // STARTING_PANS

    def _play(self, card: int, pan: int) -> None:
        state = self.state
        seat = state.current
        state.hands[seat][card] -= 1
        # A card everyone saw taken from the fridge door is known until a card of its type is played.
        if state.known[seat][card]:
            state.known[seat][card] -= 1
        target = (seat % NUM_TEAMS) * PANS_PER_TEAM + pan
        self._put(target, card, seat)
        if self.menu.stealing:  # Day's and Gourmet menus; ``steal_sources`` holds the whole rule
            options = steal_sources(state.pans, target)
            if len(options) == 1:
                self._move_top(options[0], target)
            elif options:
                state.phase, state.played_pan, self._steal_options = Phase.STEAL, target, options
                return
        self._enter_after()

    def steal_candidates(self, target: int) -> list[int]:
        """Pans whose top card the card just placed on ``target`` must steal (highest priority only)."""
        return steal_sources(self.state.pans, target)

    def _steal_from(self, source: int) -> None:
        self._move_top(source, self.state.played_pan)
        self.state.played_pan, self._steal_options = -1, []
        self._enter_after()

    def _move_top(self, source: int, target: int) -> None:
        """A steal: the top card of ``source`` onto ``target`` (the cards on the table stay the same)."""
        state, pan_counts = self.state, self._pan_counts
        card = state.pans[source].pop()
        pan_counts[source][card] -= 1
        state.pans[target].append(card)
        pan_counts[target][card] += 1
        state.events.append(TableEvent(EventKind.STEAL, state.current, target, card, source=source))

    def _put(self, pan: int, card: int, seat: int) -> None:
        """``seat``'s card (-1: the fridge's, Kids' setup) onto the table, in ``pan``."""
        state = self.state
        state.pans[pan].append(card)
        self._pan_counts[pan][card] += 1
        self._table_counts[card] += 1
        state.events.append(TableEvent(EventKind.PLAY, seat, pan, card))

    def _enter_after(self) -> None:
        self.state.phase = Phase.AFTER
        self._draw_if_forced()

    def _draw_if_forced(self) -> None:
        """Kids' menu: with no serve legal, the refill is automatic.

        (Without a fridge door the deck is the only refill, so no decision is left.)
        """
        if not self.menu.fridge_door and not self._any_serve_legal():
            self._draw(from_door=False)

    def _serve(self, pan: int, size: int, diners: int) -> None:
        state = self.state
        seat = state.current
        source = (seat % NUM_TEAMS) * PANS_PER_TEAM + pan
        counts = tuple(self._pan_counts[source])
        state.pans[source] = []
        self._pan_counts[source] = [0] * NUM_CARD_TYPES
        state.served.append(ServedOmelette(seat, size, diners, counts))
        state.diners_left[diners - 1] -= 1
        state.events.append(TableEvent(EventKind.SERVE, seat, source, -1))
        state.served_this_turn = True
        if not any(state.diners_left):
            self._end()
        elif state.phase == Phase.AFTER:
            self._draw_if_forced()

    def _draw(self, from_door: bool) -> None:
        """Refill the hand to 3 (it holds 2 after the card played: one card) and end the turn."""
        state = self.state
        seat = state.current
        if from_door:
            card = state.door
            state.door = state.deck.pop() if state.deck else -1
            state.known[seat][card] += 1
            state.events.append(TableEvent(EventKind.DOOR, seat, NO_PAN, card))
        else:
            card = state.deck.pop()
        state.hands[seat][card] += 1
        if not state.deck and state.door < 0:  # the fridge is empty: the game ends at once
            self._end()
            return
        state.current = (seat + 1) % self.num_players
        state.phase = Phase.PLAY
        state.served_this_turn = False
        state.turn += 1

    def _end(self) -> None:
        self.state.phase = Phase.OVER

    # ------------------------------------------------------------------ pans seen from a seat
    @staticmethod
    def _team_pans(team: int) -> range:
        return range(team * PANS_PER_TEAM, (team + 1) * PANS_PER_TEAM)

    @staticmethod
    def _relative_pan(pan: int, seat: int) -> int:
        """0-2 for the seat's own team's pans, 3-5 for the other team's."""
        theirs = pan // PANS_PER_TEAM != seat % NUM_TEAMS
        return PANS_PER_TEAM * theirs + pan % PANS_PER_TEAM

    @staticmethod
    def _absolute_pan(theirs: bool, pan: int, seat: int) -> int:
        team = seat % NUM_TEAMS
        return ((1 - team) if theirs else team) * PANS_PER_TEAM + pan

    @staticmethod
    def pan_name(relative: int) -> str:
        side = "theirs" if relative >= PANS_PER_TEAM else "mine"
        return f"{side} {relative % PANS_PER_TEAM}"

    # ------------------------------------------------------------------ scores and rewards
    def team_scores(self) -> list[int]:
        """Points per team: served omelettes, and once the game is over -1 per unserved pan (Day's/Gourmet)."""
        totals = [0] * NUM_TEAMS
        for omelette in self.state.served:
            totals[omelette.seat % NUM_TEAMS] += omelette_points(omelette.counts, omelette.size, omelette.diners)
        if self.state.phase == Phase.OVER:
            for team in range(NUM_TEAMS):
                totals[team] += self.menu.unserved_penalty * self.unserved_pans(team)
        return totals

    def unserved_pans(self, team: int) -> int:
        return sum(1 for pan in self._team_pans(team) if self.state.pans[pan])

    def scores(self) -> np.ndarray:
        """Each player's team score (so team-mates share it)."""
        teams = self.team_scores()
        return np.array([teams[seat % NUM_TEAMS] for seat in range(self.num_players)], dtype=float)

    def teams(self) -> list[int]:
        """Team A is seats 0 and 2, team B seats 1 and 3: the ranking reward ranks the two teams."""
        return [seat % NUM_TEAMS for seat in range(self.num_players)]

    def final_info(self) -> dict[str, Any]:
        return {
            "team_scores": self.team_scores(),
            "unserved_pans": [self.unserved_pans(team) for team in range(NUM_TEAMS)],
            "omelettes": [
                {
                    "team": omelette.seat % NUM_TEAMS,
                    "seat": omelette.seat,
                    "size": SIZE_NAMES[omelette.size],
                    "diners": omelette.diners,
                    "cards": card_names(omelette.counts),
                    "perfect": is_perfect(omelette.counts, omelette.size),
                    "points": omelette_points(omelette.counts, omelette.size, omelette.diners),
                }
                for omelette in self.state.served
            ],
        }

    # ------------------------------------------------------------------ observations
    def observe(self, player: int) -> np.ndarray:
        return self.observer.observe(self, player)

    # ------------------------------------------------------------------ what each seat saw happen
    def events_seen(self, seat: int) -> Sequence[TableEvent]:
        """What happened on the table since ``seat``'s last decision (that decision included), oldest first."""
        state = self.state
        return state.events[state.events_seen_from[seat] :]

    def events_key(self, seat: int) -> tuple[int, int]:
        """Changes whenever ``events_seen(seat)`` does (for observers that pull what changed)."""
        state, dropped = self.state, self._events_dropped
        return dropped + state.events_seen_from[seat], dropped + len(state.events)

    def _forget_events_seen_by(self, seat: int) -> None:
        """``seat`` decides now: its events start afresh; drop those every seat has decided after."""
        state = self.state
        state.events_seen_from[seat] = len(state.events)
        oldest = min(state.events_seen_from)
        if oldest:
            del state.events[:oldest]
            state.events_seen_from = [start - oldest for start in state.events_seen_from]
            self._events_dropped += oldest

    def action_features(self, player: int) -> np.ndarray:
        """What each action would bring ``player`` now, as far as it may know (float32 in [0, 1]).

        Works with the option ``action_features`` on or off; the layout is on the game's page
        (``fiesta_envs.tortilla_de_patatas_v1``) and in ``fiesta_envs.tortilla.features``.
        """
        return features.action_features(self, player)

    # ------------------------------------------------------------------ names and explanations
    def _build_action_names(self) -> list[str]:
        return list(ACTION_NAMES)

    def explain_illegal(self, action: int) -> str:
        phase, seat = self.state.phase, self.state.current
        if phase == Phase.OVER:
            return "the game is over"
        if action >= START_BASE:
            if phase != Phase.SETUP:
                return "setup is over: 'start' only places a chef's starting cards"
            return f"you hold no {CARD_TYPES[action - START_BASE]}"
        if phase == Phase.SETUP:
            pan = self.state.starts_placed % STARTING_PANS
            return f"setup first: place a starting card into pan {pan} with 'start TYPE'"
        if STEAL_BASE <= action < START_BASE:
            return self._explain_steal(action)
        if phase == Phase.STEAL:
            options = ", ".join(
                f"'steal from {self.pan_name(self._relative_pan(p, seat))}'" for p in self._steal_options
            )
            return f"first choose which pan to steal from: {options}"
        if action < SERVE_BASE:
            card, _ = decode_play(action)
            if phase == Phase.AFTER:
                return "you have already played a card this turn; serve or refill your hand"
            return f"you hold no {CARD_TYPES[card]}"
        if action < DRAW_DECK:
            return self._explain_serve(*decode_serve(action))
        if action == DRAW_DOOR and not self.menu.fridge_door:
            return "the Kids' menu has no fridge door"
        if phase == Phase.PLAY:
            return "play a card first ('play TYPE on P'); drawing ends the turn"
        if action == DRAW_DOOR:
            return "the fridge door is empty"
        return "the fridge draw pile is empty; take the fridge door card"

    def _explain_serve(self, pan: int, size: int, diners: int) -> str:
        state = self.state
        if state.served_this_turn:
            return "you already served this turn (never more than one omelette per turn)"
        team = state.current % NUM_TEAMS
        if not state.pans[team * PANS_PER_TEAM + pan]:
            return f"pan {pan} is empty"
        if not state.diners_left[diners - 1]:
            return f"no {diners}-diner card is left"
        limit = self.diner_limit(team)
        allowed = {1: "only a 1-diner card", 2: "only a 1- or 2-diner card"}.get(limit, "any diner card")
        plural = "pan holding cards" if limit == 1 else "pans holding cards"
        return f"Gourmet: with {limit} {plural} {allowed} may be taken"

    def _explain_steal(self, action: int) -> str:
        state = self.state
        if state.phase != Phase.STEAL:
            return "there is no steal to resolve now"
        seat = state.current
        theirs, pan = decode_steal(action)
        source = self._absolute_pan(theirs, pan, seat)
        card = CARD_TYPES[state.pans[state.played_pan][-1]]
        if source == state.played_pan:
            return "you cannot steal from the pan you just played on"
        pile = state.pans[source]
        if not pile or pile[-1] != CARD_TYPE_INDEX[card]:
            article = "an" if card[0] in "aeiou" else "a"
            owner = "the other team's" if theirs else "your team's"
            return f"{owner} pan {pan} does not show {article} {card} on top"
        return "an opponent's pan showing the same ingredient must be stolen from first"

    # ------------------------------------------------------------------ state dicts
    def state_dict(self) -> dict[str, Any]:
        """As ``Game.state_dict``, but the option ``action_features`` is only listed when on: it
        changes no rule, and so a position saved with it off is the same as one saved before the
        option existed (``load_state_dict`` reads a missing entry as off)."""
        data = super().state_dict()
        if not self.config["action_features"]:
            del data["options"]["action_features"]
        return data

    def load_state_dict(self, data: Mapping[str, Any], *, check_keys: bool = True) -> None:
        options = data.get("options") if isinstance(data, Mapping) else None
        if isinstance(options, Mapping) and "action_features" not in options:
            data = {**data, "options": {**options, "action_features": ACTION_FEATURES_OPTION.default}}
        super().load_state_dict(data, check_keys=check_keys)

    def _state_to_dict(self) -> dict[str, Any]:
        return self.state.to_dict()

    def _state_from_dict(self, data: Mapping[str, Any]) -> None:
        self._load(TortillaState.from_dict(data, num_players=self.num_players, menu=self.menu, game=self.name))

    # ------------------------------------------------------------------ text
    def determinize(self, seat: int, rng: np.random.Generator) -> TortillaDePatatas:
        """A copy for search: the fridge order and the others' unknown hand cards dealt afresh from ``rng``,
        chance seeded from it (``tortilla.determinization``). The copy is loaded as a state dict is, so a
        resampled position that breaks a rule is refused (``InvalidStateError``) instead of being searched."""
        believed = determinization.believed_state(self, seat, rng)
        return cast(TortillaDePatatas, rebuilt(self, believed.to_dict(), rng))  # ``rebuilt`` makes a ``type(self)``

    def render_text(self) -> str:
        state = self.state
        when = "setup" if state.phase == Phase.SETUP else f"turn {state.turn + 1}"  # ``turn``: the turns done
        lines = [f"Tortilla de Patatas, {MENU_TITLES[self.menu.name]}, {self.num_players} players, {when}"]
        if state.phase == Phase.OVER:
            lines.append(f"game over: team scores A {self.team_scores()[0]}, B {self.team_scores()[1]}")
        else:
            seat = state.current
            role = "chef" if self.is_chef(seat) else "kitchen assistant"
            lines.append(
                f"player_{seat} ({role}, team {TEAM_NAMES[seat % NUM_TEAMS]}) to act: {PHASE_NAMES[state.phase]}"
                + (" (has served this turn)" if state.served_this_turn else "")
            )
        door = CARD_TYPES[state.door] if state.door >= 0 else "-"
        left = " ".join(str(v) for v in DINER_VALUES for _ in range(state.diners_left[v - 1])) or "none"
        fridge = f"fridge: {len(state.deck)} cards"
        lines.append(
            f"{fridge}, door: {door} | diner cards left: {left}"
            if self.menu.fridge_door
            else f"{fridge} | diner cards left: {left}"
        )
        for team in range(NUM_TEAMS):
            members = ", ".join(f"player_{s}" for s in range(self.num_players) if s % NUM_TEAMS == team)
            lines.append(f"team {TEAM_NAMES[team]} ({members}):")
            for pan in range(PANS_PER_TEAM):
                pile = state.pans[team * PANS_PER_TEAM + pan]
                shown = f"{CARD_TYPES[pile[-1]]} on top, {len(pile)} card(s)" if pile else "empty"
                lines.append(f"  pan {pan}: {shown}")
            dishes = [f"{SIZE_NAMES[o.size]} for {o.diners}" for o in state.served if o.seat % NUM_TEAMS == team]
            lines.append(f"  served: {', '.join(dishes) or 'nothing yet'}")
        for seat in range(self.num_players):
            known = card_names(state.known[seat])
            seen = f" (known from the door: {', '.join(known)})" if known else ""
            lines.append(f"player_{seat} holds {sum(state.hands[seat])} cards{seen}")
        return "\n".join(lines)


__all__ = ["PHASE_NAMES", "ServedOmelette", "TortillaDePatatas", "legal_mask_from_rules", "steal_sources"]
