"""The position of a game of Tortilla de Patatas (``TortillaState``, the engine's ``state``) and the records in
it: served omelettes and the table events each seat saw since its last decision.

Pans are numbered globally here, ``team * 3 + pan``. Nothing here is rule code but the checks a loaded
position must pass (``TortillaState.check``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import Any, NamedTuple

from fiesta_envs.core.state_fields import FieldReader
from fiesta_envs.tortilla.components import (
    CARD_COUNTS,
    CARD_TYPES,
    DINER_COPIES,
    DINER_VALUES,
    NUM_CARD_TYPES,
    NUM_TEAMS,
    PANS_PER_TEAM,
    SIZE_NAMES,
    STARTING_PANS,
    Menu,
)
from fiesta_envs.tortilla.steals import NUM_PANS, steal_sources


class EventKind(IntEnum):
    """Kinds of table event, in the order of the observation's one-hot."""

    PLAY = 0
    STEAL = 1
    SERVE = 2
    DOOR = 3


EVENT_KINDS: tuple[str, ...] = tuple(kind.name.lower() for kind in EventKind)
NO_SEAT = -1  # the fridge (the Kids' menu fills the starting pans at the deal)
NO_PAN = -1
NO_CARD = -1


class ServedOmelette(NamedTuple):
    """A served omelette: who served it, declared size (0 = M, 1 = XL), diner card, cards by type."""

    seat: int
    size: int
    diners: int
    counts: tuple[int, ...]


class TableEvent(NamedTuple):
    """Something every seat saw happen on the table.

    - ``play``: ``seat`` put ``card`` into ``pan`` (a starting card too; ``seat`` -1: dealt from the fridge);
    - ``steal``: ``card``, the top of pan ``source``, went onto ``pan`` (the player to act, ``seat``, stole it);
    - ``serve``: ``seat`` served ``pan`` (its cards go face down: ``card`` -1);
    - ``door``: ``seat`` took ``card`` from the fridge door.
    """

    kind: int
    seat: int
    pan: int
    card: int
    source: int = NO_PAN


class Phase(IntEnum):
    """What the seat to act decides now."""

    SETUP = 0  # Day's/Gourmet: a chef places a starting card
    PLAY = 1  # play a card (or serve first)
    STEAL = 2  # choose among equal steal candidates
    AFTER = 3  # serve or refill the hand
    OVER = 4

    @property
    def label(self) -> str:
        return self.name.lower()


PHASE_NAMES: tuple[str, ...] = tuple(phase.label for phase in Phase)


@dataclass
class TortillaState:
    """The position of a game (the engine's ``state``): exactly what its state dict holds.

    Cards are card type ids (``components.CARD_TYPES``); pans are numbered ``team * 3 + pan``, piles
    bottom card first. The state dict names cards, lists the pans per team and the fridge top first:
    ``to_dict`` and ``from_dict`` convert. Values the engine derives (cards per pan, cards on the
    table, the steal choices open) are not here: the engine rebuilds them after a load.
    """

    phase: Phase
    current: int  # the seat to act
    turn: int  # turns played
    starts_placed: int  # Day's/Gourmet setup: starting cards placed so far (4 once setup is over)
    served_this_turn: bool
    played_pan: int  # while a steal is chosen: the pan just played on, else -1
    hands: list[list[int]]  # per seat, cards per type
    known: list[list[int]]  # per seat, cards per type everyone saw it take from the fridge door
    pans: list[list[int]]  # the six piles, bottom card first
    deck: list[int]  # the fridge draw pile, top card last
    door: int  # the fridge door card, -1 for none
    diners_left: list[int]  # diner cards left of value 1, 2, 3
    served: list[ServedOmelette]
    events: list[TableEvent]  # since the oldest last decision of a seat
    events_seen_from: list[int]  # per seat, where its events start in ``events``

    def copy(self) -> TortillaState:
        """An independent copy: every list copied (served omelettes and events are immutable tuples)."""
        return TortillaState(
            phase=self.phase,
            current=self.current,
            turn=self.turn,
            starts_placed=self.starts_placed,
            served_this_turn=self.served_this_turn,
            played_pan=self.played_pan,
            hands=[hand[:] for hand in self.hands],
            known=[known[:] for known in self.known],
            pans=[pile[:] for pile in self.pans],
            deck=self.deck[:],
            door=self.door,
            diners_left=self.diners_left[:],
            served=self.served[:],
            events=self.events[:],
            events_seen_from=self.events_seen_from[:],
        )

    # ------------------------------------------------------------------ to a state dict
    def to_dict(self) -> dict[str, Any]:
        return {
            "phase": self.phase.label,
            "current": self.current,
            "turn": self.turn,
            "starts_placed": self.starts_placed,
            "served_this_turn": self.served_this_turn,
            "played_pan": self.played_pan % PANS_PER_TEAM if self.played_pan >= 0 else None,
            "hands": [card_names(hand) for hand in self.hands],
            "known": [card_names(known) for known in self.known],
            "pans": [
                [[CARD_TYPES[card] for card in self.pans[team * PANS_PER_TEAM + pan]] for pan in range(PANS_PER_TEAM)]
                for team in range(NUM_TEAMS)
            ],
            "deck": [CARD_TYPES[card] for card in reversed(self.deck)],
            "door": CARD_TYPES[self.door] if self.door >= 0 else None,
            "diners_left": list(self.diners_left),
            "served": [
                {
                    "seat": omelette.seat,
                    "size": SIZE_NAMES[omelette.size],
                    "diners": omelette.diners,
                    "cards": card_names(omelette.counts),
                }
                for omelette in self.served
            ],
            "events": [_event_to_dict(event) for event in self.events],
            "events_seen_from": list(self.events_seen_from),
        }

    # ------------------------------------------------------------------ from a state dict
    @classmethod
    def from_dict(cls, data: Any, *, num_players: int, menu: Menu, game: str = "tortilla_de_patatas") -> TortillaState:
        """Read and check a state dict (``InvalidStateError`` naming the field or the rule it breaks)."""
        read = FieldReader(data, game)
        n = num_players
        phase = Phase(read.choice_index("phase", PHASE_NAMES))
        current = read.int("current", 0, n - 1)
        turn = read.int("turn", 0)
        starts_placed = read.int("starts_placed", 0, NUM_TEAMS * STARTING_PANS)
        pans = [pile for team_pans in _pans_per_team(read) for pile in team_pans]
        state = cls(
            phase=phase,
            current=current,
            turn=turn,
            starts_placed=starts_placed,
            served_this_turn=read.bool("served_this_turn"),
            played_pan=_played_pan(read, phase, current),
            hands=[_counts(cards) for cards in read.choice_matrix("hands", CARD_TYPES, n)],
            known=[_counts(cards) for cards in read.choice_matrix("known", CARD_TYPES, n)],
            pans=pans,
            deck=read.choice_indices("deck", CARD_TYPES)[::-1],
            door=read.optional_choice_index("door", CARD_TYPES),
            diners_left=read.int_list("diners_left", len(DINER_VALUES), 0, DINER_COPIES),
            served=[_served_from(part, n) for part in read.parts("served")],
            events=[_event_from(part, n) for part in read.parts("events")],
            events_seen_from=read.int_list("events_seen_from", n, 0),
        )
        state.check(read, menu)
        return state

    def check(self, read: FieldReader, menu: Menu) -> None:
        """The rules a position must follow across its fields."""
        totals = [sum(counts[card] for counts in self.hands) for card in range(NUM_CARD_TYPES)]
        for pile in [*self.pans, self.deck, [self.door] if self.door >= 0 else []]:
            for card in pile:
                totals[card] += 1
        for omelette in self.served:
            totals = [a + b for a, b in zip(totals, omelette.counts, strict=True)]
        read.problem_if(
            totals != list(CARD_COUNTS), f"the position holds {totals} cards per type, the game has {list(CARD_COUNTS)}"
        )
        for value in DINER_VALUES:
            used = sum(1 for omelette in self.served if omelette.diners == value)
            read.problem_if(
                self.diners_left[value - 1] + used != DINER_COPIES,
                f"{self.diners_left[value - 1]} {value}-diner cards left but {used} served",
            )
        for seat, (known, hand) in enumerate(zip(self.known, self.hands, strict=True)):
            read.problem_if(
                any(k > h for k, h in zip(known, hand, strict=True)),
                f"seat {seat} is known to hold cards it does not hold",
            )
        read.problem_if(self.door >= 0 and not menu.fridge_door, "the Kids' menu has no fridge door")
        if self.phase == Phase.SETUP:
            read.problem_if(
                menu.starts_from_deck or self.starts_placed >= NUM_TEAMS * STARTING_PANS,
                f"no setup step {self.starts_placed} in the {menu.name} menu",
            )
            read.problem_if(
                self.current != self.starts_placed // STARTING_PANS,
                f"setup step {self.starts_placed} belongs to chef {self.starts_placed // STARTING_PANS}",
            )
        else:
            read.problem_if(
                self.starts_placed != NUM_TEAMS * STARTING_PANS, "starts_placed must be 4 once setup is over"
            )
        if self.phase == Phase.STEAL:
            read.problem_if(not menu.stealing, "a steal needs a stealing menu")
            read.problem_if(not self.pans[self.played_pan], "a steal needs the pan just played on to hold that card")
            read.problem_if(
                len(steal_sources(self.pans, self.played_pan)) < 2, "a steal choice needs at least two candidate pans"
            )
        read.problem_if(
            any(start > len(self.events) for start in self.events_seen_from),
            f"events_seen_from {self.events_seen_from} must index the {len(self.events)} events",
        )


# ---------------------------------------------------------------------- state dict helpers
def card_names(counts: Sequence[int]) -> list[str]:
    """Cards per type as a list of names (``["potato", "potato", "egg"]``)."""
    return [CARD_TYPES[card] for card, count in enumerate(counts) for _ in range(count)]


def _counts(cards: list[int]) -> list[int]:
    return [cards.count(card) for card in range(NUM_CARD_TYPES)]


def _pans_per_team(read: FieldReader) -> list[list[list[int]]]:
    """``pans``: per team, its three piles of card names, bottom first."""
    teams = read.list("pans", NUM_TEAMS)
    return [
        FieldReader({f"pans[{team}]": piles}, read.game).choice_matrix(f"pans[{team}]", CARD_TYPES, PANS_PER_TEAM)
        for team, piles in enumerate(teams)
    ]


def _played_pan(read: FieldReader, phase: Phase, current: int) -> int:
    """The pan just played on (global), while a steal is chosen; the state dict holds it per team."""
    pan = read.optional_int("played_pan", 0, PANS_PER_TEAM - 1)
    read.problem_if((pan is None) == (phase == Phase.STEAL), "played_pan is set exactly while a steal is chosen")
    return -1 if pan is None else (current % NUM_TEAMS) * PANS_PER_TEAM + pan


def _served_from(read: FieldReader, num_players: int) -> ServedOmelette:
    return ServedOmelette(
        read.int("seat", 0, num_players - 1),
        read.choice_index("size", SIZE_NAMES),
        read.int("diners", DINER_VALUES[0], DINER_VALUES[-1]),
        tuple(_counts(read.choice_indices("cards", CARD_TYPES))),
    )


#: Which fields each kind of event has: a pan, a card, a pan stolen from.
_EVENT_FIELDS = {
    EventKind.PLAY: (True, True, False),
    EventKind.STEAL: (True, True, True),
    EventKind.SERVE: (True, False, False),
    EventKind.DOOR: (False, True, False),
}


def _event_to_dict(event: TableEvent) -> dict[str, Any]:
    entry: dict[str, Any] = {"kind": EVENT_KINDS[event.kind], "seat": event.seat if event.seat != NO_SEAT else None}
    if event.pan != NO_PAN:
        entry["pan"] = event.pan
    if event.card != NO_CARD:
        entry["card"] = CARD_TYPES[event.card]
    if event.source != NO_PAN:
        entry["from"] = event.source
    return entry


def _event_from(read: FieldReader, num_players: int) -> TableEvent:
    kind = EventKind(read.choice_index("kind", EVENT_KINDS))
    has_pan, has_card, has_source = _EVENT_FIELDS[kind]
    fields = set(read.data)
    expected = {"kind", "seat"} | {
        name for name, has in (("pan", has_pan), ("card", has_card), ("from", has_source)) if has
    }
    read.problem_if(
        fields != expected, f"a {EVENT_KINDS[kind]} event has the fields {sorted(expected)}, not {sorted(fields)}"
    )
    seat = read.optional_int("seat", 0, num_players - 1)
    read.problem_if(seat is None and kind != EventKind.PLAY, "only a card dealt from the fridge has no seat")
    return TableEvent(
        kind=kind,
        seat=NO_SEAT if seat is None else seat,
        pan=read.int("pan", 0, NUM_PANS - 1) if has_pan else NO_PAN,
        card=read.choice_index("card", CARD_TYPES) if has_card else NO_CARD,
        source=read.int("from", 0, NUM_PANS - 1) if has_source else NO_PAN,
    )
