"""The phases of a game of Fiesta Mexicana, in the order they first come up."""

from __future__ import annotations

from enum import IntEnum


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
