"""The saved position of a game of Tequila (``TequilaState``), its sheets (``SheetState``) and its phases.

Nothing here is rule code but the checks a loaded position must pass (``TequilaState.check``). The engine
(``game.Tequila``) plays on a ``TequilaState`` (its ``state``) whose sheets are live ``sheet.Sheet`` objects
(a ``SheetState`` with what follows from it kept up to date), and rebuilds those after a load
(``Tequila._load``).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any, Generic, TypeVar

from fiesta_envs.core.state_fields import FieldReader, to_json_safe
from fiesta_envs.tequila import components, farm
from fiesta_envs.tequila.observation_layout import JIMADOR_CHOICES, NUM_BONUSES, PURPOSES
from fiesta_envs.tequila.public_sheet import NUM_RESOURCES, PublicSheet, read_public_facts


class Phase(IntEnum):
    """What the current player is asked. ``PAY`` and ``GAIN`` are sub-steps asked before anything else
    while a payment or gain of choice is pending (``Tequila.decision``): they are never a saved phase. The
    value of each decision is its entry in the observation's ``decision`` one-hot (``layout.DECISIONS``)."""

    REROLL = 0  # the starting player chooses which dice to re-roll
    VIRTUAL = 1  # the virtual die goes to fencing or building
    MAIN = 2  # fences, buildings, free actions, end
    CASK = 3  # end of the player's round: fill casks?
    SHOP = 4  # then: sell in shops?
    PAY = 5  # a payment of choice, one resource at a time
    GAIN = 6  # a gain of choice, one resource at a time
    TURN_DONE = 7  # the seat's turn is done (it answered the shop): saved only while that payment or gain is pending
    OVER = 8

    @property
    def label(self) -> str:
        """The name used in state dicts, actions and messages: "reroll", "main", ... ("next" for ``TURN_DONE``)."""
        return _WRITTEN_LABELS.get(self.name, self.name.lower())

    @classmethod
    def from_label(cls, label: str) -> Phase:
        """The phase whose ``label`` is ``label``."""
        return next(phase for phase in cls if phase.label == label)


#: The phases whose label is not their name in lower case: state dicts write ``TURN_DONE`` as "next".
_WRITTEN_LABELS = {"TURN_DONE": "next"}


#: The phases a state dict may hold (``pay`` and ``gain`` are decisions that follow from pending amounts).
SAVED_PHASE_LABELS: tuple[str, ...] = tuple(p.label for p in Phase if p not in (Phase.PAY, Phase.GAIN))
#: What a payment of choice is for ("" while none is pending).
PAY_PURPOSES: tuple[str, ...] = PURPOSES

#: The ranges of a saved sheet's integer fields of the player's own round (the public ones: ``public_sheet``).
ROUND_INT_RANGES: dict[str, tuple[int, int | None]] = {
    "coins_earned": (0, None),
    "virtual": (-1, 1),
    "fences_left": (0, None),
    "builds_left": (0, None),
    "gears_left": (0, None),
    "credits": (0, None),
}


def _zeros(size: int) -> Any:
    return lambda: [0] * size


@dataclass
class SheetState:
    """One player's sheet as saved (an entry of the state dict's ``sheets``): the tracks and farm everyone
    sees (``PublicSheet`` holds those facts), and what is left of the player's own round."""

    coins: int = 0  # squares marked on the coin track
    coins_earned: int = 0  # every coin ever earned, lost ones included
    collections: int = 0
    market: int = 0  # mask of marked market spaces, bit row * 8 + col
    fences: int = 0  # mask of fenced segments
    rewarded_fields: int = 0  # mask of fields whose resources were gained (fenced off)
    sections: int = 0  # mask of filled sections
    bonuses: int = 0  # mask of "first to" bonuses gained (bit: see ``sheet.SECTION_BONUS`` and after)
    extra_bought: int = 0
    gears_unused: int = 0  # gears left uncrossed in finished rounds
    virtual: int = -1  # this round: -1 not chosen, 0 fencing, 1 building
    fences_left: int = 0
    builds_left: int = 0
    gears_left: int = 0
    credits: int = 0  # free actions bought with resources this round
    marked: list[int] = field(default_factory=_zeros(NUM_RESOURCES))  # squares marked on each resource track
    crossed: list[int] = field(default_factory=_zeros(NUM_RESOURCES))  # of those, crossed out (spent)
    production: list[int] = field(default_factory=_zeros(len(components.TEQUILAS)))
    buildings: list[tuple[int, int]] = field(default_factory=list)  # (kind, placement index) in building order
    free_road: bool = False  # cask tile B: a free road this round

    @classmethod
    def read(cls, read: FieldReader) -> SheetState:
        """Read a saved sheet (errors name ``sheets[1].coins``...)."""
        round_ints: dict[str, Any] = {name: read.int(name, low, high) for name, (low, high) in ROUND_INT_RANGES.items()}
        return cls(**read_public_facts(read), **round_ints, free_road=read.bool("free_road"))

    def total_held(self) -> int:
        """Resources held on all tracks (marked, not crossed out)."""
        return sum(self.marked) - sum(self.crossed)

    def public_sheet(self) -> PublicSheet:
        return PublicSheet.of(self, farm.connections(self.buildings).linked)


#: The saved fields of a sheet, in state-dict order.
SHEET_FIELDS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(SheetState))


#: The sheets of a position: ``SheetState`` as saved, ``sheet.Sheet`` in play.
SheetT = TypeVar("SheetT", bound=SheetState)


@dataclass
class TequilaState(Generic[SheetT]):
    """The position of a game: exactly what its state dict holds (one field per entry). Its sheets are
    ``SheetState`` as saved and read (``TequilaState[SheetState]``), live ``sheet.Sheet`` objects in play
    (``TequilaState[Sheet]``, the engine's ``state``)."""

    round: int  # rounds finished (``components.ROUNDS`` once the game is over)
    start_player: int
    turn: int  # how many players have finished their turn this round
    dice: list[int]  # the two dice of the round
    phase: Phase  # never PAY or GAIN (see ``Phase``)
    pay_left: int  # resources of choice still to pay...
    pay_purpose: str  # ...for this (``PAY_PURPOSES``; "" while nothing is to pay)
    pay_target: int  # the road placement paid for (-1: none)
    gain_left: int  # resources of choice still to gain
    bonus_round: list[int]  # per "first to" bonus, the round it was first gained (-1: not yet)
    jimadores: list[str | None]  # per seat, its side-B jimador board (None: side A)
    sheets: list[SheetT]
    shown_sheets: list[PublicSheet]  # per seat, its sheet's public facts at the start of the round

    @staticmethod
    def new_game(jimadores: list[str | None]) -> TequilaState[SheetState]:
        """Empty sheets before the first round begins (the engine then rolls the dice, which are 1 and 1
        until it does, and shows the sheets)."""
        sheets = [SheetState() for _ in jimadores]
        return TequilaState(
            round=0,
            start_player=0,
            turn=0,
            dice=[1, 1],
            phase=Phase.REROLL,
            pay_left=0,
            pay_purpose="",
            pay_target=-1,
            gain_left=0,
            bonus_round=[-1] * NUM_BONUSES,
            jimadores=list(jimadores),
            sheets=sheets,
            shown_sheets=[sheet.public_sheet() for sheet in sheets],
        )

    def to_dict(self) -> dict[str, Any]:
        data = {name: to_json_safe(getattr(self, name)) for name in _DIRECT_FIELDS}  # (shown_sheets: below)
        data["phase"] = self.phase.label
        data["shown_sheets"] = [sheet.to_dict() for sheet in self.shown_sheets]
        return data

    @staticmethod
    def from_dict(data: Any, *, num_players: int, game: str = "tequila") -> TequilaState[SheetState]:
        """Read and check a state dict (``InvalidStateError`` naming the field or the rule it breaks)."""
        read = FieldReader(data, game)
        n = num_players
        state = TequilaState(
            round=read.int("round", 0, components.ROUNDS),
            start_player=read.int("start_player", 0, n - 1),
            turn=read.int("turn", 0, n),
            dice=read.int_list("dice", 2, 1, 6),
            phase=Phase.from_label(read.choice("phase", SAVED_PHASE_LABELS)),
            pay_left=read.int("pay_left", 0),
            pay_purpose=read.choice("pay_purpose", ("", *PAY_PURPOSES)),
            pay_target=read.int("pay_target", -1, farm.NUM_PLACEMENTS - 1),
            gain_left=read.int("gain_left", 0),
            bonus_round=read.int_list("bonus_round", NUM_BONUSES, -1, components.ROUNDS - 1),
            jimadores=[*read.choice_list("jimadores", JIMADOR_CHOICES, n)],
            sheets=[SheetState.read(part) for part in read.parts("sheets", n)],
            shown_sheets=[PublicSheet.read(part) for part in read.parts("shown_sheets", n)],
        )
        state.check(read)
        return state

    def check(self, read: FieldReader) -> None:
        """The rules a position must follow across its fields."""
        read.problem_if(
            (self.pay_left > 0) != (self.pay_purpose != ""),
            "a payment of choice is pending (pay_left) exactly while pay_purpose says what it is for",
        )
        if self.pay_purpose == "road":
            read.problem_if(
                self.pay_target < 0 or farm.PLACEMENTS[self.pay_target].kind != components.ROAD,
                f"a road is paid for, but pay_target {self.pay_target} is not a road placement",
            )
        else:
            read.problem_if(self.pay_target != -1, "pay_target is -1 unless a road is paid for")
        read.problem_if(
            any(first > self.round for first in self.bonus_round),
            f"bonus_round {self.bonus_round} names a round after round {self.round}",
        )
        read.problem_if(
            self.phase == Phase.TURN_DONE and not (self.pay_left or self.gain_left),
            "phase 'next' only holds while a payment or a gain of choice is pending",
        )
        read.problem_if(
            (self.phase == Phase.OVER) != (self.round == components.ROUNDS),
            f"the game is over exactly after round {components.ROUNDS}",
        )
        if self.phase != Phase.OVER:  # the decision asked must offer a legal action
            seat = (
                self.start_player if self.phase == Phase.REROLL else (self.start_player + self.turn) % len(self.sheets)
            )
            sheet = self.sheets[seat]
            read.problem_if(
                self.pay_left > sheet.total_held(),
                f"player {seat} must pay {self.pay_left} resources but holds fewer",
            )
            full = all(m >= components.RESOURCE_TRACK_LENGTH for m in sheet.marked)
            read.problem_if(
                bool(self.gain_left) and not self.pay_left and full,
                f"player {seat} has a gain of choice pending but every track is full",
            )


#: The fields of a state dict written as they are (``shown_sheets`` leave out what is not saved).
_DIRECT_FIELDS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(TequilaState) if f.name != "shown_sheets")
