"""Text rendering of a Tequila table: each sheet's farm, fences and tracks."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np

from fiesta_envs.tequila import components, farm
from fiesta_envs.tequila.sheet import Sheet


class Table(Protocol):
    """What the text shows of a game (a ``Tequila`` engine provides it; the renderer reads, never plays)."""

    num_players: int
    round: int
    dice: Sequence[int]
    start_player: int
    decision: str
    sheets: Sequence[Sheet]
    jimadores: Sequence[str | None]

    @property
    def is_over(self) -> bool: ...

    @property
    def current_player(self) -> int: ...

    def scores(self) -> np.ndarray: ...


#: Letter drawn for each building kind (upper case: connected to its chain partner).
BUILDING_LETTERS = ("r", "g", "k", "d", "c", "s")
ICON_LETTERS = {None: ".", 0: "a", 1: "w", 2: "j", 3: "d", 4: "b"}


def farm_lines(sheet: Sheet) -> list[str]:
    """The farm with buildings over the terrain; fences drawn between fields."""
    owner = {}
    for i, (kind, index) in enumerate(sheet.buildings):
        letter = BUILDING_LETTERS[kind]
        if sheet.links.linked[i]:
            letter = letter.upper()
        for x in farm.spaces_of(farm.PLACEMENTS[index].spaces):
            owner[x] = letter
    lines = []
    for fr in range(farm.FIELDS_PER_SIDE + 1):
        top = "+"
        for fc in range(farm.FIELDS_PER_SIDE):
            fenced = sheet.fences >> (fr * farm.FIELDS_PER_SIDE + fc) & 1
            top += ("=====" if fenced else "     ") + "+"
        lines.append(top)
        if fr == farm.FIELDS_PER_SIDE:
            break
        for dr in range(components.FIELD_SIZE):
            r = fr * components.FIELD_SIZE + dr
            line = ""
            for fc in range(farm.FIELDS_PER_SIDE + 1):
                seg = farm.NUM_HORIZONTAL + fr * (farm.FIELDS_PER_SIDE + 1) + fc
                line += "|" if sheet.fences >> seg & 1 else " "
                if fc == farm.FIELDS_PER_SIDE:
                    break
                cells = []
                for dc in range(components.FIELD_SIZE):
                    x = farm.space(r, fc * components.FIELD_SIZE + dc)
                    if x in owner:
                        cells.append(owner[x])
                    elif farm.WATER_SPACES >> x & 1:
                        cells.append("~")
                    else:
                        cells.append(ICON_LETTERS[farm.SPACE_RESOURCE[x]])
                line += " " + " ".join(cells) + " "
            lines.append(line)
    return lines


def sheet_lines(game: Table, seat: int) -> list[str]:
    sheet = game.sheets[seat]
    held = ", ".join(f"{name} {sheet.held(r)}/{sheet.marked[r]}" for r, name in enumerate(components.RESOURCES))
    tequila = ", ".join(f"{t} {n}" for t, n in zip(components.TEQUILAS, sheet.production, strict=True))
    jimador = game.jimadores[seat] or "side A"
    return [
        f"player {seat} ({jimador}): held/marked {held}",
        f"  coins {sheet.coins}, tequila {tequila}, collections {sheet.collections}, "
        f"market {sheet.market_count()}, unused gears {sheet.gears_unused}",
        *("  " + line for line in farm_lines(sheet)),
    ]


def render_text(game: Table) -> str:
    if game.is_over:
        head = f"Tequila: game over, scores {[int(s) for s in game.scores()]}"
    else:
        head = (
            f"Tequila: round {game.round + 1}/{components.ROUNDS}, dice {game.dice[0]} {game.dice[1]}, "
            f"starting player {game.start_player}, player {game.current_player} to {game.decision.label}"
        )
    lines = [head]
    for seat in range(game.num_players):
        lines += sheet_lines(game, seat)
    lines.append("buildings: r road, g agave field, k kiln, d distiller, c cask, s shop (upper case: linked)")
    return "\n".join(lines)
