"""The records of a Tortilla de Patatas position that more than the engine reads: served omelettes and
the table events each seat saw since its last decision.

Pans are numbered globally here, ``team * 3 + pan``. Nothing here is rule code.
"""

from __future__ import annotations

from enum import IntEnum
from typing import NamedTuple


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
