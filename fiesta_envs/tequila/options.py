"""Tequila's options (``OPTIONS``: reward, jimador boards, cask tile), the combinations refused together
(``check_options``) and the jimador boards they deal at the start (``jimadores_at_the_start``)."""

from __future__ import annotations

from typing import Any

import numpy as np

from fiesta_envs.core.errors import InvalidOptionError
from fiesta_envs.core.game import REWARD_OPTION
from fiesta_envs.core.options import Option
from fiesta_envs.tequila import components


def _check_jimador_order(value: Any) -> str | None:
    if value is None:
        return None
    names = value.split(",")
    if any(n not in components.JIMADORES for n in names) or len(set(names)) != len(names):
        allowed = ", ".join(components.JIMADORES)
        return f"must list distinct jimadores separated by commas from {allowed} (e.g. 'green,purple')"
    return None


#: The options of ``Tequila`` (``Game.options``).
OPTIONS: dict[str, Option] = {
    "reward": REWARD_OPTION,
    "jimadores": Option(
        "A",
        choices=("A", "B", "dealt"),
        doc="jimador boards: 'A' (side A for all), 'B' (side B, seats take them in jimador_order), "
        "'dealt' (side B, dealt at random from the game's seed)",
    ),
    "jimador_order": Option(
        None,
        kind=(str, type(None)),
        check=_check_jimador_order,
        doc="with jimadores='B': the jimador of each seat, e.g. 'green,purple' (default purple, red, "
        "orange, green in seat order)",
    ),
    "cask_tile": Option("A", choices=("A", "B"), doc="cask tile side: 'A' (base game) or 'B' (cask variant)"),
}


def check_options(num_players: int, config: dict[str, Any]) -> None:
    """Refuse options that do not go together (``InvalidOptionError``)."""
    jimadores = config["jimadores"]
    if num_players >= 5 and (jimadores != "A" or config["cask_tile"] != "A"):
        raise InvalidOptionError(
            f"tequila: with {num_players} players (the 5-or-more variant) only side A is used; "
            f"got jimadores={jimadores!r}, cask_tile={config['cask_tile']!r}"
        )
    order = config["jimador_order"]
    if order is not None:
        if jimadores != "B":
            raise InvalidOptionError(f"tequila: option jimador_order={order!r} needs jimadores='B' (got {jimadores!r})")
        if len(order.split(",")) != num_players:
            raise InvalidOptionError(
                f"tequila: option jimador_order={order!r} must name one jimador per seat ({num_players})"
            )


def jimadores_at_the_start(num_players: int, config: dict[str, Any], rng: np.random.Generator) -> list[str | None]:
    """Each seat's jimador board (None: side A), as the ``jimadores`` option says (dealt: by the seed)."""
    choice = config["jimadores"]
    if choice == "A":
        return [None] * num_players
    if choice == "B":
        order = config["jimador_order"]
        return order.split(",") if order else list(components.JIMADORES[:num_players])
    dealt = rng.permutation(len(components.JIMADORES))
    return [components.JIMADORES[int(i)] for i in dealt[:num_players]]
