"""What the valuation, the action features and the observer read of a Fiesta Mexicana engine.

``FiestaMexicanaPosition`` is the engine (``game.FiestaMexicana``) as those modules see it: its ``state`` and the
tables derived from it. They sit below the engine (it imports them), so they are typed by this protocol instead
of the engine's class.
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np

from fiesta_envs.fiesta_mexicana.state import FiestaMexicanaState


class FiestaMexicanaPosition(Protocol):
    """A position and its derived tables (each documented on ``FiestaMexicana``)."""

    num_players: int
    state: FiestaMexicanaState
    dishes: list[list[int]]
    edges: list[list[tuple[int, int, int, int]]]
    filled: list[int]
    facing: list[np.ndarray]
    #: ``valuation.PositionMemo`` or None (named there: this module sits below ``valuation``).
    valuation_memo: Any
    #: ``valuation.TableMemo`` or None per player (likewise).
    table_memos: list[Any]

    @property
    def current_player(self) -> int: ...

    @property
    def phase_name(self) -> str: ...
