"""The saved position of a game of Fiesta Mexicana (``FiestaMexicanaState``) and its phases.

Tables are kept in their fixed frame (see ``board``): ``cards[p][s]`` is the dish card on fixed space ``s`` of
player ``p``'s table (-1: uncovered), ``rotations[p][s]`` its quarter turns clockwise in that frame, and
``orientation[p]`` the quarter turns left the table made since the start. Nothing here is rule code but the
checks a loaded position must pass (``FiestaMexicanaState.check``).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Any

from fiesta_envs.core.state_fields import FieldReader, to_json_safe
from fiesta_envs.fiesta_mexicana.board import space_of_number
from fiesta_envs.fiesta_mexicana.components import (
    NUM_DISH_CARDS,
    NUM_OBJECTIVE_KINDS,
    NUM_SPACES,
    OBJECTIVES_DEALT,
    OBJECTIVES_KEPT,
    PINATA_SPACES,
)

#: The table turns a player may choose after a placement (``turns_chosen``), as the actions name them.
TURN_CHOICES: tuple[str, ...] = ("left", "right", "none")


class Phase(IntEnum):
    """What the seat to act decides now (the value is the entry of the observation's phase one-hot)."""

    ORIENT = 0  # setup: turn a start card before it goes on its piñata space
    KEEP = 1  # setup: keep 3 of the 5 objectives dealt
    AUCTION = 2  # bid, pass or reserve on the dish on offer
    PLACE = 3  # the winner places the dish
    ROTATE = 4  # the other players choose whether to turn their table
    OVER = 5

    @property
    def label(self) -> str:
        """The name used in state dicts and messages: "orient", "keep", ..."""
        return self.name.lower()


PHASE_LABELS: tuple[str, ...] = tuple(phase.label for phase in Phase)


@dataclass
class FiestaMexicanaState:
    """The saved position of a game: exactly what its state dict holds (one field per entry)."""

    phase: Phase
    turn: int  # the seat to act, -1 once the game is over
    orientation: list[int]  # per player, quarter turns left of the table
    cards: list[list[int]]  # per player and fixed space, the dish card (-1: uncovered)
    rotations: list[list[int]]  # per player and fixed space, the card's quarter turns clockwise (-1: none)
    points: list[int]  # points scored so far (dishes and start cards)
    deck: list[int]  # dish cards, top card last
    start_cards: list[list[int]]  # per player, the start cards for spaces 6 and 11 (-1 once placed; [] after)
    orient_step: int  # the start card oriented now (0: space 6, 1: space 11)
    hands: list[list[int]]  # per player, the objective cards dealt and not kept yet
    objectives: list[list[int]]  # per player, kept objective slots 0..2 (-1: given up by a reserve)
    shown_objectives: list[list[int]]  # the objective hands shown and replaced at setup, in order
    offer: int  # the dish card on offer (-1: none)
    high_bid: int  # 0: no bid yet
    high_bidder: int  # -1: nobody
    passed: list[bool]  # per player, passed since the last bid
    opener: int  # the player who opens the next auction
    bids: list[list[int]]  # per player, the numbers bid in this auction, rising
    rotation_queue: list[int]  # the players still to choose a table turn, in order
    turns_chosen: list[int]  # per player, the table turn chosen and not applied yet (TURN_CHOICES index, -1)
    reserves: list[int]  # per player, reserves made

    @classmethod
    def new_game(cls, num_players: int) -> FiestaMexicanaState:
        """Empty tables before the start cards are dealt (the engine deals, shuffles and sets the phase)."""
        n = num_players
        return cls(
            phase=Phase.ORIENT,
            turn=0,
            orientation=[0] * n,
            cards=[[-1] * NUM_SPACES for _ in range(n)],
            rotations=[[-1] * NUM_SPACES for _ in range(n)],
            points=[0] * n,
            deck=[],
            start_cards=[[] for _ in range(n)],
            orient_step=0,
            hands=[[] for _ in range(n)],
            objectives=[[-1] * OBJECTIVES_KEPT for _ in range(n)],
            shown_objectives=[],
            offer=-1,
            high_bid=0,
            high_bidder=-1,
            passed=[False] * n,
            opener=0,
            bids=[[] for _ in range(n)],
            rotation_queue=[],
            turns_chosen=[-1] * n,
            reserves=[0] * n,
        )

    def copy(self) -> FiestaMexicanaState:
        """An independent copy: new lists all the way down (what ``copy.deepcopy`` gives, several times faster)."""
        return FiestaMexicanaState(
            phase=self.phase,
            turn=self.turn,
            orientation=list(self.orientation),
            cards=[list(row) for row in self.cards],
            rotations=[list(row) for row in self.rotations],
            points=list(self.points),
            deck=list(self.deck),
            start_cards=[list(pair) for pair in self.start_cards],
            orient_step=self.orient_step,
            hands=[list(hand) for hand in self.hands],
            objectives=[list(slots) for slots in self.objectives],
            shown_objectives=[list(hand) for hand in self.shown_objectives],
            offer=self.offer,
            high_bid=self.high_bid,
            high_bidder=self.high_bidder,
            passed=list(self.passed),
            opener=self.opener,
            bids=[list(numbers) for numbers in self.bids],
            rotation_queue=list(self.rotation_queue),
            turns_chosen=list(self.turns_chosen),
            reserves=list(self.reserves),
        )

    def to_dict(self) -> dict[str, Any]:
        data = to_json_safe(self)
        data["phase"] = self.phase.label
        return data

    @classmethod
    def from_dict(cls, data: Any, *, num_players: int, game: str = "fiesta_mexicana") -> FiestaMexicanaState:
        """Read and check a state dict (``InvalidStateError`` naming the field or the rule it breaks)."""
        read = FieldReader(data, game)
        n = num_players
        state = cls(
            phase=Phase(read.choice_index("phase", PHASE_LABELS)),
            turn=read.int("turn", -1, n - 1),
            orientation=read.int_list("orientation", n, 0, 3),
            cards=read.int_matrix("cards", rows=n, cols=NUM_SPACES, low=-1, high=NUM_DISH_CARDS - 1),
            rotations=read.int_matrix("rotations", rows=n, cols=NUM_SPACES, low=-1, high=3),
            points=read.int_list("points", n, 0),
            deck=read.int_list("deck", None, 0, NUM_DISH_CARDS - 1),
            start_cards=read.int_matrix("start_cards", rows=n, cols=None, low=-1, high=NUM_DISH_CARDS - 1),
            orient_step=read.int("orient_step", 0, len(PINATA_SPACES) - 1),
            hands=read.int_matrix("hands", rows=n, cols=None, low=0, high=NUM_OBJECTIVE_KINDS - 1),
            objectives=read.int_matrix(
                "objectives", rows=n, cols=OBJECTIVES_KEPT, low=-1, high=NUM_OBJECTIVE_KINDS - 1
            ),
            shown_objectives=read.int_matrix(
                "shown_objectives", rows=None, cols=OBJECTIVES_DEALT, low=0, high=NUM_OBJECTIVE_KINDS - 1
            ),
            offer=read.int("offer", -1, NUM_DISH_CARDS - 1),
            high_bid=read.int("high_bid", 0, NUM_SPACES),
            high_bidder=read.int("high_bidder", -1, n - 1),
            passed=read.bool_list("passed", n),
            opener=read.int("opener", 0, n - 1),
            bids=read.int_matrix("bids", rows=n, cols=None, low=1, high=NUM_SPACES),
            rotation_queue=read.int_list("rotation_queue", None, 0, n - 1),
            turns_chosen=read.int_list("turns_chosen", n, -1, len(TURN_CHOICES) - 1),
            reserves=read.int_list("reserves", n, 0, OBJECTIVES_KEPT),
        )
        state.check(read)
        return state

    def check(self, read: FieldReader) -> None:
        """The rules a position must follow across its fields."""
        phase, turn = self.phase, self.turn
        used = [card for row in self.cards for card in row if card >= 0] + self.deck
        used += [card for pair in self.start_cards for card in pair if card >= 0]
        used += [self.offer] if self.offer >= 0 else []
        read.problem_if(len(used) != len(set(used)), "a dish card appears twice")
        read.problem_if(
            any(
                (card < 0) != (rotation < 0)
                for row, turned in zip(self.cards, self.rotations, strict=True)
                for card, rotation in zip(row, turned, strict=True)
            ),
            "every covered space (and only those) needs a rotation",
        )
        read.problem_if((phase == Phase.OVER) != (turn < 0), f"turn {turn} does not fit phase {phase.label!r}")
        read.problem_if(
            phase == Phase.ORIENT
            and (len(self.start_cards[turn]) != len(PINATA_SPACES) or self.start_cards[turn][self.orient_step] < 0),
            "the start card to orient is missing",
        )
        read.problem_if(
            phase == Phase.KEEP and len(self.hands[turn]) != OBJECTIVES_DEALT,
            "the player keeping objectives needs 5 cards dealt",
        )
        if phase in (Phase.AUCTION, Phase.PLACE):
            read.problem_if(self.offer < 0, "an auction needs a dish on offer")
            read.problem_if(
                (self.high_bid == 0) != (self.high_bidder < 0), "a high bid needs its bidder, and a bidder a bid"
            )
        read.problem_if(
            phase == Phase.AUCTION and self.high_bidder == turn,
            "the high bidder does not bid again: the auction would be over",
        )
        read.problem_if(
            phase == Phase.PLACE
            and (
                self.high_bidder != turn
                or self.cards[turn][space_of_number(self.orientation[turn], max(self.high_bid, 1))] >= 0
            ),
            "the winner must place on the free space of the winning bid",
        )
        read.problem_if(
            phase == Phase.ROTATE and (not self.rotation_queue or self.rotation_queue[0] != turn),
            "the player turning a table must head the rotation queue",
        )
        highest = max((max(numbers) for numbers in self.bids if numbers), default=self.high_bid)
        read.problem_if(
            any(numbers != sorted(set(numbers)) for numbers in self.bids) or highest != self.high_bid,
            "each seat's bids this auction rise, and the highest is the high bid",
        )
        read.problem_if(
            any(chosen >= 0 for chosen in self.turns_chosen) and phase != Phase.ROTATE,
            "table turns are chosen only while tables are turned",
        )
        read.problem_if(
            any(self.turns_chosen[seat] >= 0 for seat in self.rotation_queue),
            "a player still to choose a table turn has a choice noted",
        )
