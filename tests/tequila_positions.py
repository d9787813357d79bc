"""Building Tequila positions from state dicts, for scenario tests."""

from __future__ import annotations

from typing import Any

from fiesta_envs.tequila import components, farm
from fiesta_envs.tequila.game import Tequila
from fiesta_envs.tequila.public_sheet import PUBLIC_FIELDS

RES = {name: i for i, name in enumerate(components.RESOURCES)}


def placement(name: str) -> int:
    """Placement index of ``"kiln at 2 7 as 1"``."""
    return next(i for i, p in enumerate(farm.PLACEMENTS) if p.name == name)


def holding(**amounts: int) -> dict[str, list[int]]:
    """Sheet fields for holding the given resources (nothing spent so far)."""
    marked = [0] * len(components.RESOURCES)
    for name, n in amounts.items():
        marked[RES[name]] = n
    return {"marked": marked, "crossed": [0] * len(components.RESOURCES)}


def position(
    num_players: int = 2,
    *,
    phase: str = "main",
    dice: tuple[int, int] = (4, 5),
    round: int = 0,
    start_player: int = 0,
    turn: int = 0,
    sheets: dict[int, dict[str, Any]] | None = None,
    buildings: dict[int, list[str]] | None = None,
    seed: int = 0,
    bonus_round: dict[int, int] | None = None,
    **options: Any,
) -> Tequila:
    """A game in the given position. ``sheets`` edits sheet fields; ``buildings`` lists placements.

    By default it is player 0's main phase in round 1, with 2 building actions, no fences and one
    free action (gear), holding nothing. The sheets shown to the others are the sheets as given (as if
    the round had begun in this position).
    """
    game = Tequila(num_players, seed=seed, **options)
    data = game.state_dict()
    state = data["state"]
    state.update(phase=phase, dice=list(dice), round=round, start_player=start_player, turn=turn)
    for sheet in state["sheets"]:
        sheet.update(marked=[0] * 5, crossed=[0] * 5, builds_left=2, gears_left=components.GEARS_PER_ROUND[round])
        sheet["virtual"] = 1
    for p, fields in (sheets or {}).items():
        state["sheets"][p].update(fields)
    for bonus, claimed in (bonus_round or {}).items():
        state["bonus_round"][bonus] = claimed
    for p, names in (buildings or {}).items():
        state["sheets"][p]["buildings"] = [[farm.PLACEMENTS[placement(n)].kind, placement(n)] for n in names]
    state["shown_sheets"] = [shown_part(sheet) for sheet in state["sheets"]]  # as if the round began here
    game.load_state_dict(data)
    return game


def shown_part(sheet: dict[str, Any]) -> dict[str, Any]:
    """The fields of a saved sheet that the others see (a ``shown_sheets`` entry of the state dict)."""
    return {name: sheet[name] for name in PUBLIC_FIELDS}


def held(game: Tequila, player: int) -> dict[str, int]:
    sheet = game.state.sheets[player]
    return {name: sheet.held(r) for name, r in RES.items()}
