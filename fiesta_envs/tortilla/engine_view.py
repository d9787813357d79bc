"""What the observation, the action features and determinisation read of a Tortilla de Patatas engine.

``TortillaDePatatas`` has all of it; those modules are typed by this protocol instead of the engine class
because the engine imports them (they would make an import circle). Everything here is read-only to them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import numpy as np

from fiesta_envs.tortilla.components import Menu
from fiesta_envs.tortilla.state import TableEvent, TortillaState


class EngineView(Protocol):
    """The position (``state``), the configuration and the values the engine derives from the position."""

    state: TortillaState
    menu: Menu
    num_players: int
    config: dict[str, Any]

    @property
    def current_player(self) -> int: ...

    @property
    def pan_counts(self) -> Sequence[Sequence[int]]: ...

    @property
    def table_counts(self) -> Sequence[int]: ...

    @property
    def deck_size(self) -> int: ...

    @property
    def steal_options(self) -> Sequence[int]: ...

    @staticmethod
    def is_chef(seat: int) -> bool: ...

    def diner_limit(self, team: int) -> int: ...

    def legal_mask(self) -> np.ndarray: ...

    def events_seen(self, seat: int) -> Sequence[TableEvent]: ...

    def events_key(self, seat: int) -> tuple[int, int]: ...

    def saved_state(self) -> TortillaState: ...
