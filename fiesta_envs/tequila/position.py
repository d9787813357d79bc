"""What the legality code (``mask_cache``, ``reference_mask``, ``legality``) reads of a game in play: a
``game.Tequila`` provides it, typed here without importing the engine (which imports that code)."""

from __future__ import annotations

from typing import Protocol

from fiesta_envs.tequila.sheet import Sheet
from fiesta_envs.tequila.state import Phase, TequilaState


class Position(Protocol):
    """The position (its sheets live), the decision asked and the seat asked it."""

    state: TequilaState[Sheet]
    decision: Phase

    @property
    def current_player(self) -> int: ...
