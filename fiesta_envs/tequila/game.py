"""The Tequila rules engine (see ``fiesta_envs.tequila_v2`` for the documentation page).

A round: the starting player rolls both dice and chooses ``reroll none|first|second|both``;
then seat by seat from the starting player, each player takes their whole round: die
resources (automatic), ``virtual fence|build``, the main phase (fences, buildings, free actions,
``end``), and their own end of round (agave and water automatic, ``cask yes|no``, ``shop yes|no``).
Payments and gains "of your choice" are sub-steps (``pay RES``, ``gain RES``) asked before anything
else. "First to" bonuses are paid at once to the first player to qualify and to every player who
qualifies later in the same round.

Kept facts: each sheet keeps its legal fences, zones and connections up to date as it changes (see
``Sheet``, ``fencing``; a load rebuilds them), and the game its legal masks (``mask_cache``). Both have a
reference computed straight from the rules (``flood_fill``, ``reference_mask``) that ``speedups`` switches
to; ``tests/test_tequila_speedups.py`` compares the two at every step of random games.

Simultaneous rounds: at the start of every round (and at the end of the game) the game keeps each
sheet's public facts (``shown_sheets``); the observer shows the others those, so nothing a seat does in
a round is seen by the others before it ends (``fiesta_envs.tequila.observation``).
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import numpy as np

from fiesta_envs.core.game import Game
from fiesta_envs.core.options import Option
from fiesta_envs.policies.policy import Policy
from fiesta_envs.tequila import actions, components, determinization, farm, speedups
from fiesta_envs.tequila.affordable import market_cost
from fiesta_envs.tequila.legality import explain_illegal
from fiesta_envs.tequila.mask_cache import MaskCache
from fiesta_envs.tequila.observation import TequilaObserver
from fiesta_envs.tequila.observation_layout import observation_size
from fiesta_envs.tequila.options import OPTIONS, check_options, jimadores_at_the_start
from fiesta_envs.tequila.reference_mask import reference_mask
from fiesta_envs.tequila.scoring import achievements, score_breakdown, score_totals, solo_rank
from fiesta_envs.tequila.sheet import (
    MARKET_BONUS,
    MARKET_BONUS_COLUMNS,
    MARKET_COLUMN_MASKS,
    MARKET_REQUIREMENTS,
    SECTION_BONUS,
    TEQUILA_BONUS,
    Sheet,
)
from fiesta_envs.tequila.state import Phase, SheetState, TequilaState

#: The fields of a position but its sheets (``Tequila._load`` makes those live).
_POSITION_FIELDS = tuple(field for field in dataclasses.fields(TequilaState) if field.name != "sheets")


class Tequila(Game):
    """Tequila for 1-8 players (1 solo, 5-8 the 5-or-more variant)."""

    name: ClassVar[str] = "tequila"
    player_counts: ClassVar[tuple[int, ...]] = (1, 2, 3, 4, 5, 6, 7, 8)
    default_players: ClassVar[int] = 2
    options: ClassVar[dict[str, Option]] = OPTIONS
    score_scale: ClassVar[float] = 200.0
    #: Solo reward: score divided by this (the Golden rank), clipped to [0, 1].
    solo_scale: ClassVar[float] = 330.0
    version: ClassVar[int] = 2
    #: The position, its sheets live (``Sheet``); what follows from it is kept on the sheets and below.
    state: TequilaState[Sheet]
    decision: Phase  # what the seat to act is asked (``_note_decision``)
    mask_cache: MaskCache  # the kept legal masks (``mask_cache``): rebuilt by every load
    observer: TequilaObserver

    @property
    def observation_layout(self) -> str:
        """The layout is the one version 1 introduced: version 2 changed prestige values, not the encoding."""
        return "tequila/v1"

    def check_options(self) -> None:
        check_options(self.num_players, self.config)

    # ------------------------------------------------------------------ sizes
    @property
    def num_actions(self) -> int:
        return actions.NUM_ACTIONS

    @property
    def observation_size(self) -> int:
        return observation_size(self.num_players)

    def _build_action_names(self) -> list[str]:
        return list(actions.ACTION_NAMES)

    # ------------------------------------------------------------------ setup
    def _new_game(self) -> None:
        self._load(TequilaState.new_game(jimadores_at_the_start(self.num_players, self.config, self.rng)))
        self._begin_round()
        self._note_decision()

    @property
    def solo(self) -> bool:
        return self.num_players == 1

    @property
    def many_players(self) -> bool:
        """The 5-or-more variant: no re-roll, majorities against neighbours."""
        return self.num_players >= 5

    def _begin_round(self) -> None:
        state = self.state
        # two draws of one die: the same numbers as ``integers(1, 7, size=2)``, in less time (tested)
        state.dice = [int(self.rng.integers(1, 7)), int(self.rng.integers(1, 7))]
        state.turn = 0
        self._seat = state.start_player  # to re-roll, then to play first
        state.shown_sheets = [sheet.public_sheet() for sheet in state.sheets]
        if self.many_players:
            self._start_turn()
        else:
            state.phase = Phase.REROLL

    def _start_turn(self) -> None:
        state = self.state
        sheet = state.sheets[self._seat]
        sheet.start_turn(components.GEARS_PER_ROUND[state.round])
        # each die gives the resource its value shows on the cask tile (a double gives it twice)
        tile = components.CASK_TILE_RESOURCES[self.config["cask_tile"]]
        for die in state.dice:
            resource = tile[die - 1]
            if resource is not None:
                state.gain_left += sheet.gain(resource)
        state.phase = Phase.VIRTUAL

    # ------------------------------------------------------------------ whose turn
    @property
    def current_player(self) -> int:
        """The seat that must act now, or -1 once the game is over."""
        return self._seat

    @property
    def is_over(self) -> bool:
        """True once the game has ended."""
        return self._over

    def _seat_to_act(self) -> int:
        """Whose decision it is, from the phase, the starting player and the turn: kept in ``_seat``
        (read at every step) and set anew wherever one of them changes which seat that is."""
        state = self.state
        if state.phase == Phase.OVER:
            return -1
        if state.phase == Phase.REROLL:
            return state.start_player
        return (state.start_player + state.turn) % self.num_players

    def _note_decision(self) -> None:
        """After every change of position (a step, a new game, a load): what the current player is asked
        now: ``decision`` (a phase, or the ``pay``/``gain`` sub-steps: read it, do not set it)."""
        state = self.state
        self.decision = Phase.PAY if state.pay_left else Phase.GAIN if state.gain_left else state.phase

    # ------------------------------------------------------------------ legality
    def _compute_mask(self) -> np.ndarray:
        """The kept masks (``mask_cache``), or with the speed-ups off the rules action by action."""
        if speedups.ENABLED:
            return self.mask_cache.legal_mask(self)
        return reference_mask(self)

    def market_cost(self, player: int, m: int) -> dict[int, int]:
        """What marking market space ``m`` pays (nothing on the requirement row)."""
        return market_cost(m, self.state.jimadores[player] == "green")

    def market_requirement(self, player: int, col: int) -> tuple[int, int]:
        """The standing requirement of market column ``col``'s requirement space: (building kind, how many)."""
        return MARKET_REQUIREMENTS[self.state.jimadores[player] == "green"][col]

    def explain_illegal(self, action: int) -> str:
        return explain_illegal(self, action)

    # ------------------------------------------------------------------ applying actions
    def _apply(self, action: int) -> None:
        state = self.state
        player = self._seat
        sheet = state.sheets[player]
        decision = self.decision
        if decision == Phase.MAIN:
            self._main_action(player, sheet, action)
        elif decision == Phase.PAY:
            self._pay_choice(sheet, action - actions.PAY)
        elif decision == Phase.GAIN:
            state.gain_left -= 1
            state.gain_left += sheet.gain(action - actions.GAIN)
        elif decision == Phase.REROLL:
            self._reroll(action - actions.REROLL)
        elif decision == Phase.VIRTUAL:
            self._assign_virtual(player, action - actions.VIRTUAL)
        elif decision == Phase.CASK:
            if action == actions.CASK + actions.YES:
                sheet.spend(*components.CASK_PRODUCTION_COST)
                state.gain_left += sheet.gain(components.BARREL, sheet.cask_matching())
            state.phase = Phase.SHOP
        else:  # shop
            state.phase = Phase.TURN_DONE
            if action == actions.SHOP + actions.YES:
                self._ask_payment(1, "shop")
        self._advance()
        self._note_decision()

    def _reroll(self, choice: int) -> None:
        """The starting player's one re-roll: none, the first die, the second or both."""
        for die in (0, 1):
            if choice in (1 + die, 3):
                self.state.dice[die] = int(self.rng.integers(1, 7))
        self._start_turn()

    def _assign_virtual(self, player: int, choice: int) -> None:
        state = self.state
        sheet = state.sheets[player]
        fences, builds, free_road = self.dice_actions(player, state.dice, choice)
        sheet.assign_dice(choice, fences, builds, free_road or sheet.free_road)
        state.phase = Phase.MAIN

    def dice_actions(self, player: int, dice: Sequence[int], virtual: int) -> tuple[int, int, bool]:
        """What ``dice`` with the virtual die on fencing (0) or building (1) give ``player`` this round:
        (fences, building actions, a free road)."""
        state = self.state
        # dice showing 1-3 go to fencing, 4-6 to building; the virtual die (no resource) joins one side
        fence_dice = sum(d in components.FENCE_DIE_VALUES for d in dice) + (virtual == 0)
        builds = len(dice) + 1 - fence_dice  # one building action per die
        table = components.PURPLE_FENCES_BY_DICE if state.jimadores[player] == "purple" else components.FENCES_BY_DICE
        fences = table[fence_dice]
        free_road = False
        if state.jimadores[player] == "red":
            builds += components.RED_EXTRA_BUILDS
        if self.config["cask_tile"] == "B":
            if virtual == 0:
                fences += components.CASK_B_VIRTUAL_FENCES
            else:
                free_road = True
        return fences, builds, free_road

    def _main_action(self, player: int, sheet: Sheet, action: int) -> None:
        kind = actions.KINDS[action]
        if kind == "end":
            self._end_main_phase(player, sheet)
        elif kind == "fence":
            self._fence(sheet, action - actions.FENCE)
        elif kind == "build":
            index = action - actions.BUILD
            sheet.use_building_action()
            if farm.PLACEMENTS[index].kind == components.ROAD:
                self._ask_payment(components.ROAD_COST_OF_CHOICE, "road", index)
            else:
                sheet.pay(components.BUILDING_COSTS[farm.PLACEMENTS[index].kind])
                self._build(player, index)
        elif kind == "free_road":
            sheet.use_free_road()
            self._build(player, farm.ROAD_AT[action - actions.FREE_ROAD])
        elif kind == "produce":
            sheet.use_free_action()
            self._produce(player, action - actions.PRODUCE)
        elif kind == "sell":
            sheet.use_free_action()
            self._sell(player, action - actions.SELL)
        elif kind == "extra":
            self._ask_payment(components.EXTRA_ACTION_COST, "extra")

    def _ask_payment(self, amount: int, purpose: str, target: int = -1) -> None:
        state = self.state
        state.pay_left, state.pay_purpose, state.pay_target = amount, purpose, target

    def _pay_choice(self, sheet: Sheet, resource: int) -> None:
        state = self.state
        sheet.spend(resource)
        state.pay_left -= 1
        if state.pay_left:
            return
        player = self._seat
        if state.pay_purpose == "road":
            self._build(player, state.pay_target)
        elif state.pay_purpose == "extra":
            sheet.buy_extra()
        else:  # shop
            state.gain_left += sheet.gain_coins(sheet.linked_shops())
        state.pay_purpose, state.pay_target = "", -1

    # ------------------------------------------------------------------ the farm
    def _fence(self, sheet: Sheet, segment: int) -> None:
        changed = sheet.draw_fence(segment)
        fences = sheet.fences
        for zone in changed:  # only a zone whose border changed can become fenced off
            new_fields = zone & ~sheet.rewarded_fields
            if new_fields and farm.ZONE_BORDER[zone] & ~fences == 0:  # fenced off (farm.is_fenced_off)
                sheet.reward_fields(new_fields)
                for f in farm.spaces_of(new_fields):
                    for resource in components.FIELDS[f][0]:
                        self.state.gain_left += sheet.gain(resource)

    def _build(self, player: int, index: int) -> None:
        """Draw a paid building: resources on its spaces, first connections, filled sections."""
        state = self.state
        sheet = state.sheets[player]
        placement = farm.PLACEMENTS[index]
        newly_linked = sheet.add_building(placement.kind, index)
        for resource in farm.PLACEMENT_RESOURCES[index]:
            state.gain_left += sheet.gain(resource)
        orange = components.ORANGE_CONNECTION_EXTRA if state.jimadores[player] == "orange" else 0
        for i in newly_linked:
            bonus = components.CONNECTION_BONUS.get(sheet.buildings[i][0])
            if bonus is None:
                continue
            what, amount = bonus
            if what == "coin":
                state.gain_left += sheet.gain_coins(amount + orange)
            else:
                state.gain_left += sheet.gain(components.RESOURCES.index(what), amount + orange)
        for s in farm.PLACEMENT_SECTIONS[index]:
            if not sheet.sections >> s & 1 and farm.SECTIONS[s] & ~sheet.occupied == 0:
                sheet.fill_section(s)
                state.gain_left += sheet.gain_coins(components.SECTION_COINS)
                self._claim(player, SECTION_BONUS + s)

    def _claim(self, player: int, bonus: int) -> bool:
        """Gain a "first to" bonus if nobody had it before this round (solo: always)."""
        state = self.state
        first = state.bonus_round[bonus]
        if not (self.solo or first < 0 or first == state.round):
            return False
        if first < 0:
            state.bonus_round[bonus] = state.round
        state.sheets[player].gain_bonus(bonus)
        return True

    # ------------------------------------------------------------------ free actions
    def _produce(self, player: int, tequila: int) -> None:
        state = self.state
        sheet = state.sheets[player]
        sheet.pay(components.TEQUILA_COSTS[tequila])
        sheet.add_production(tequila)
        if sheet.production[tequila] == components.PRODUCTION_BONUS_SQUARE + 1 and self._claim(
            player, TEQUILA_BONUS + tequila
        ):
            state.gain_left += sheet.gain_coins(components.PRODUCTION_BONUS_COINS)
        collections = min(min(sheet.production), components.COLLECTION_TRACK_LENGTH)
        while sheet.collections < collections:
            sheet.add_collection()
            if sheet.collections <= len(components.COLLECTION_PRESTIGE):
                state.gain_left += sheet.gain_coins(components.COLLECTION_COINS)

    def _sell(self, player: int, m: int) -> None:
        state = self.state
        sheet = state.sheets[player]
        row, col = divmod(m, components.MARKET_COLUMNS)
        first_in_column = not sheet.market & MARKET_COLUMN_MASKS[col]
        gain = components.MARKET_GAIN
        if row == components.MARKET_REQUIREMENT_ROW:
            if state.jimadores[player] == "green":
                gain = components.GREEN_REQUIREMENT_GAIN
        else:
            sheet.pay(self.market_cost(player, m))
        sheet.mark_market(m)
        state.gain_left += gain
        if first_in_column and col in components.MARKET_COLUMN_BONUSES:
            bonus = MARKET_BONUS + MARKET_BONUS_COLUMNS.index(col)
            if self._claim(player, bonus):
                state.gain_left += sheet.gain_coins(components.MARKET_COLUMN_BONUSES[col][0])

    # ------------------------------------------------------------------ end of a turn and round
    def _end_main_phase(self, player: int, sheet: Sheet) -> None:
        state = self.state
        sheet.end_main_phase()
        red = state.jimadores[player] == "red"
        fields = sheet.kind_count[components.AGAVE_FIELD]
        kilns = sheet.kind_count[components.KILN]
        state.gain_left += sheet.gain(components.AGAVE, fields if red else fields // components.AGAVE_FIELDS_PER_AGAVE)
        state.gain_left += sheet.gain(components.WATER, kilns if red else kilns // components.KILNS_PER_WATER)
        state.phase = Phase.CASK

    def _advance(self) -> None:
        """Move on through automatic steps until somebody has a decision to make."""
        state = self.state
        while not state.pay_left:
            if state.gain_left:
                if state.sheets[self._seat].can_gain_any():
                    return
                state.gain_left = 0
            phase = state.phase
            if phase == Phase.CASK:
                if state.sheets[self._seat].cask_worthwhile():
                    return
                state.phase = Phase.SHOP
            elif phase == Phase.SHOP:
                if state.sheets[self._seat].shop_worthwhile():
                    return
                state.phase = Phase.TURN_DONE
            elif phase == Phase.TURN_DONE:
                if self.only_seat is not None:  # a copy playing one seat's round: it waits for the others
                    self._seat = -1
                    return
                state.turn += 1
                self._seat = self._seat_to_act()
                if state.turn < self.num_players:
                    self._start_turn()
                    continue
                state.round += 1
                if state.round == components.ROUNDS:
                    state.phase = Phase.OVER
                    self._over = True
                    self._seat = -1
                    state.shown_sheets = [sheet.public_sheet() for sheet in state.sheets]
                    return
                if not self.solo:
                    state.start_player = (state.start_player + 1) % self.num_players
                self._begin_round()
            else:
                return

    # ------------------------------------------------------------------ simultaneous rounds (Parallel API)
    def split_simultaneous(self) -> dict[int, Tequila] | None:
        """Once a round's dice are final (the starting player is about to choose its virtual die): one copy
        of the game per seat, at that seat's first decision of the round, that plays only that seat's round
        (``only_seat``) and then waits (``current_player`` -1). ``None`` at any other moment. The seats' rounds
        do not touch each other (the "first to" bonuses are settled per round), so any interleaving of
        their decisions gives the game that playing them seat by seat gives."""
        state = self.state
        if self.only_seat is not None or state.phase != Phase.VIRTUAL or state.turn or state.pay_left:
            return None
        parts = {}
        for seat in range(self.num_players):
            part = copy.deepcopy(self)
            part.only_seat = seat
            if seat != state.start_player:  # its turn starts now too: the dice resources of the round
                part.state.gain_left = 0
                part.state.turn = (seat - state.start_player) % self.num_players
                part._seat = seat
                part._start_turn()
                part._advance()
            part._note_decision()
            part._mask_cache = None
            parts[seat] = part
        return parts

    def join_simultaneous(self, parts: Mapping[int, Tequila]) -> None:
        """Take every seat's round back from its copy (all must wait), with the "first to" bonuses first
        gained in this round, then go on as after the last seat's turn."""
        state = self.state
        if sorted(parts) != list(range(self.num_players)) or any(p.current_player != -1 for p in parts.values()):
            raise ValueError("join_simultaneous needs every seat's copy, each done with its round")
        for seat, part in parts.items():
            state.sheets[seat] = part.state.sheets[seat]
            self.mask_cache.forget(seat)
            for bonus, first in enumerate(part.state.bonus_round):
                if first == state.round:
                    state.bonus_round[bonus] = first
        state.turn = self.num_players - 1
        state.phase = Phase.TURN_DONE
        state.pay_left = state.gain_left = 0
        state.pay_purpose, state.pay_target = "", -1
        self._advance()
        self._note_decision()
        self._mask_cache = None

    def determinize(self, seat: int, rng: np.random.Generator, replay: Policy | None = None) -> Tequila:
        """A copy for search: the rounds the others played so far this round played again from its start by
        ``replay`` (random legal actions by default), chance seeded from ``rng`` (``tequila.determinization``)."""
        return determinization.determinize(self, seat, rng, replay)

    # ------------------------------------------------------------------ scores and rewards
    def score_breakdowns(self) -> list[dict[str, int]]:
        return score_breakdown(self.state.sheets)

    def scores(self) -> np.ndarray:
        return np.array(score_totals(self.state.sheets), dtype=float)

    def tie_breaks(self) -> list[int]:
        """Resources shown on fenced-off fields: the tie-break."""
        return [s.fenced_resources() for s in self.state.sheets]

    def ranking_keys(self) -> np.ndarray:
        """Score first, then the tie-break (fenced-off resources: fewer than 1000 on any sheet)."""
        return self.scores() * 1000 + np.array(self.tie_breaks())

    def returns(self) -> np.ndarray:
        """Solo: the score normalised to [0, 1]; otherwise the generic ranking (with tie-break) or margin."""
        if self.solo and self.is_over:
            return np.clip(self.scores() / self.solo_scale, 0.0, 1.0)
        return super().returns()

    @classmethod
    def result_grade(cls, num_players: int, result: float) -> str | None:
        """Solo: the rank the score earns (``components.SOLO_RANKS``); no titles with more players."""
        return solo_rank(int(result)) if num_players == 1 else None

    def final_info(self) -> dict[str, Any]:
        state = self.state
        breakdowns = self.score_breakdowns()
        totals = [sum(b.values()) for b in breakdowns]
        info: dict[str, Any] = {
            "scores": totals,
            "score_breakdown": breakdowns,
            "tie_break": self.tie_breaks(),
            "winners": self.winners(),
            "achievements": [achievements(s, t) for s, t in zip(state.sheets, totals, strict=True)],
            "jimadores": list(state.jimadores),
        }
        if self.solo:
            info["solo_rank"] = solo_rank(totals[0])
        return info

    # ------------------------------------------------------------------ observation and text
    def observe(self, player: int) -> np.ndarray:
        return self.observer.observe(self, player)

    def render_text(self) -> str:
        from fiesta_envs.tequila.render import render_text

        return render_text(self)

    # ------------------------------------------------------------------ state dicts
    def _load(self, state: TequilaState[SheetState]) -> None:
        """Make ``state`` the position (its lists are taken as they are, its sheets become live ``Sheet``
        copies), then rebuild what follows from it: whose decision it is, the kept masks, the observer."""
        self.state = TequilaState(
            **{field.name: getattr(state, field.name) for field in _POSITION_FIELDS},
            sheets=[Sheet(saved) for saved in state.sheets],
        )
        self._over = self.state.phase == Phase.OVER
        self._seat = self._seat_to_act()
        self.mask_cache = MaskCache(self.num_players)
        self.observer = TequilaObserver(self.num_players)
        self.only_seat: int | None = None  # a copy playing one seat's part of a round (``split_simultaneous``)
        self._note_decision()

    def saved_state(self) -> TequilaState[SheetState]:
        """The position with its sheets as saved (copies; the other lists are the engine's: read, do not
        change)."""
        state = self.state
        return TequilaState(
            **{field.name: getattr(state, field.name) for field in _POSITION_FIELDS},
            sheets=[sheet.saved_state() for sheet in state.sheets],
        )

    def clone(self) -> Tequila:
        """An independent copy (for search or look-ahead): the options, the generator and the position
        copied, the facts that follow from it rebuilt (as ``from_state_dict(state_dict())`` gives)."""
        other = copy.copy(self)
        other.rng = copy.deepcopy(self.rng)
        other._mask_cache = None
        other._load(copy.deepcopy(self.saved_state()))
        return other

    def _state_to_dict(self) -> dict[str, Any]:
        return self.state.to_dict()  # (a live sheet is written as the SheetState it is)

    def _state_from_dict(self, data: Mapping[str, Any]) -> None:
        self._load(TequilaState.from_dict(data, num_players=self.num_players, game=self.name))
