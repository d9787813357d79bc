"""The picture of a Tequila game, drawn from the public state (every sheet is public).

The rounds are simultaneous, so a seat is shown ``seen_by(game, seat)``: its own sheet as it is, the
others' as they stood when the round began (their moves of the round are shown when it ends); ``draw(game)``
alone is the spectator's picture, every sheet as it is now.

Top: the round, the two dice, the starting player and what the current player decides, and the
"first to" bonuses already taken. Below, every player's sheet: the 8x8 farm (water, arid land,
the resource printed on a space, buildings by kind, in upper case when connected to their chain
partner; fences as thick lines; fenced-off fields shaded), the resource tracks (marked squares,
crossed when spent), the coin, production and collection tracks, and the market.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from fiesta_envs.render.canvas import (
    COLOURS,
    RGB,
    Canvas,
    line_height,
    mix,
    panel_body_top,
    seat_colour,
    status_line,
)
from fiesta_envs.tequila import components, determinization, farm
from fiesta_envs.tequila.render import round_line

RESOURCE_COLOURS: tuple[RGB, ...] = ((90, 160, 110), (70, 130, 210), (200, 120, 60), (140, 110, 90), (150, 90, 50))
TEQUILA_COLOURS: tuple[RGB, ...] = ((235, 235, 225), (236, 214, 160), (236, 150, 170), (200, 60, 60))
BUILDING_COLOURS: tuple[RGB, ...] = (
    (120, 120, 120),
    (90, 170, 90),
    (200, 110, 70),
    (170, 120, 200),
    (160, 110, 60),
    (230, 180, 50),
)
BUILDING_LETTERS = ("r", "g", "k", "d", "c", "s")
WATER: RGB = (150, 190, 230)
ARID: RGB = (238, 222, 180)
CELL = 22
TRACK = 8
PANEL_WIDTH, PANEL_HEIGHT = 480, 300
MARGIN = 12
HEADER = 96


def _columns(num_players: int) -> int:
    return 1 if num_players == 1 else 2 if num_players <= 4 else 4


def draw(game: Any) -> np.ndarray:
    """The table of ``game`` (a ``Tequila``) as an RGB array."""
    state = game.state_dict()["state"]
    n = game.num_players
    columns = _columns(n)
    rows = -(-n // columns)
    width = max(MARGIN + columns * (PANEL_WIDTH + MARGIN), 700)
    canvas = Canvas(width, HEADER + rows * (PANEL_HEIGHT + MARGIN) + 30)
    _header(canvas, game, state)
    for seat in range(n):
        _sheet(canvas, game, state, seat=seat, box=_panel_box(n, seat))
    canvas.text((MARGIN, canvas.height - 24), status_line(game), 16)
    return canvas.to_array()


def _panel_box(num_players: int, seat: int) -> tuple[float, float, float, float]:
    """Where ``seat``'s sheet is drawn: left, top, right, bottom."""
    row, col = divmod(seat, _columns(num_players))
    left, top = MARGIN + col * (PANEL_WIDTH + MARGIN), HEADER + row * (PANEL_HEIGHT + MARGIN)
    return (left, top, left + PANEL_WIDTH, top + PANEL_HEIGHT)


def _farm_origin(box: tuple[float, float, float, float]) -> tuple[float, float]:
    """The top left corner of the farm in a sheet's panel ``box``."""
    return box[0] + 8, panel_body_top(box[1]) + 4


def _tracks_origin(box: tuple[float, float, float, float]) -> tuple[float, float]:
    """The top left corner of the tracks and the market, right of the farm, in a sheet's panel ``box``."""
    return _farm_origin(box)[0] + farm.SIZE * CELL + 14, panel_body_top(box[1])


#: How far below the tracks' top the market's spaces start: the resource, coin, tequila and collection tracks,
#: then the market's title (as ``_tracks`` draws them).
MARKET_TOP = len(components.RESOURCES) * 14 + 4 + 18 + len(components.TEQUILAS) * 15 + 20 + line_height(11)
MARKET_CELL = 14


def _market_space(origin: tuple[float, float], row: int, col: int) -> tuple[float, float, float, float]:
    """Where market space (``row``, ``col``) is drawn, the market's spaces starting at ``origin``."""
    x0, y0 = origin
    return (
        x0 + col * MARKET_CELL,
        y0 + row * MARKET_CELL,
        x0 + (col + 1) * MARKET_CELL - 2,
        y0 + (row + 1) * MARKET_CELL - 2,
    )


def _fence_line(origin: tuple[float, float], segment: int) -> list[tuple[float, float]]:
    """The two ends of fence ``segment`` on a farm drawn from ``origin``: the horizontal segments
    ``r * 4 + c``, then the vertical ones after them."""
    x0, y0 = origin
    side, span = farm.FIELDS_PER_SIDE, components.FIELD_SIZE * CELL
    if segment < farm.NUM_HORIZONTAL:
        fr, fc = divmod(segment, side)
        return [(x0 + fc * span, y0 + fr * span), (x0 + (fc + 1) * span, y0 + fr * span)]
    fr, fc = divmod(segment - farm.NUM_HORIZONTAL, side + 1)
    return [(x0 + fc * span, y0 + fr * span), (x0 + fc * span, y0 + (fr + 1) * span)]


#: Half the width of a fence segment's clickable strip, and how far short of the corners it stops.
FENCE_REACH, FENCE_INSET = 4, 6


def action_boxes(game: Any, seat: int) -> dict[str, tuple[float, float, float, float]]:
    """Where single actions of ``seat`` are drawn (left, top, right, bottom pixels), by action name: each fence
    segment (``fence S``: a thin strip along it) and each market space (``sell R C``). The web app makes them
    clickable."""
    box = _panel_box(game.num_players, seat)
    boxes = {}
    for segment in range(farm.NUM_SEGMENTS):
        (ax, ay), (bx, by) = _fence_line(_farm_origin(box), segment)
        if ay == by:
            boxes[f"fence {segment}"] = (ax + FENCE_INSET, ay - FENCE_REACH, bx - FENCE_INSET, ay + FENCE_REACH)
        else:
            boxes[f"fence {segment}"] = (ax - FENCE_REACH, ay + FENCE_INSET, ax + FENCE_REACH, by - FENCE_INSET)
    x0, y0 = _tracks_origin(box)
    for row in range(components.MARKET_ROWS):
        for col in range(components.MARKET_COLUMNS):
            boxes[f"sell {row} {col}"] = _market_space((x0, y0 + MARKET_TOP), row, col)
    return boxes


def square_boxes(game: Any, seat: int) -> dict[tuple[int, int], tuple[float, float, float, float]]:
    """Where each square of ``seat``'s farm is drawn (left, top, right, bottom pixels), by ``(row, column)``
    as the actions name them: the web app makes the picture clickable with it."""
    x0, y0 = _farm_origin(_panel_box(game.num_players, seat))
    return {
        (r, c): (x0 + c * CELL, y0 + r * CELL, x0 + (c + 1) * CELL, y0 + (r + 1) * CELL)
        for r in range(farm.SIZE)
        for c in range(farm.SIZE)
    }


def _header(canvas: Canvas, game: Any, state: dict[str, Any]) -> None:
    side = f"cask tile {game.config.get('cask_tile', 'A')}"
    canvas.text(
        (MARGIN, 8), f"Tequila - round {min(state['round'] + 1, components.ROUNDS)}/{components.ROUNDS} - {side}", 20
    )
    canvas.die((MARGIN, 40), state["dice"][0], 34)
    canvas.die((MARGIN + 42, 40), state["dice"][1], 34)
    x = MARGIN + 90
    decision = "game over" if game.is_over else f"player_{game.current_player} decides: {game.decision.label}"
    canvas.text((x, 40), f"starting player: player_{state['start_player']}   {decision}", 15)
    taken = [_bonus_name(b) + f" (r{r + 1})" for b, r in enumerate(state["bonus_round"]) if r >= 0]
    canvas.text(
        (x, 62), "first-to bonuses taken: " + (", ".join(taken) or "none"), 12, max_width=canvas.width - x - MARGIN
    )
    legend = "farm: r road, g agave field, k kiln, d distiller, c cask, s shop (upper case: connected); "
    canvas.text(
        (x, 78), legend + "shaded fields: fenced off", 11, COLOURS["faint"], max_width=canvas.width - x - MARGIN
    )


def _bonus_name(bonus: int) -> str:
    sections = len(components.SECTION_PRESTIGE)
    if bonus < sections:
        return f"section {bonus + 1}"
    if bonus < sections + len(components.TEQUILAS):
        return f"{components.TEQUILAS[bonus - sections]} tequila"
    column = sorted(components.MARKET_COLUMN_BONUSES)[bonus - sections - len(components.TEQUILAS)]
    return f"market column {column + 1}"


def _sheet(
    canvas: Canvas, game: Any, state: dict[str, Any], *, seat: int, box: tuple[float, float, float, float]
) -> None:
    sheet = state["sheets"][seat]
    jimador = state["jimadores"][seat] or "side A"
    active = seat == game.current_player
    title = f"player_{seat} ({jimador}) - {int(game.scores()[seat])} prestige"
    canvas.panel(box, title, seat_colour(seat), active)
    _farm(canvas, sheet, _farm_origin(box))
    _tracks(canvas, sheet, _tracks_origin(box))


def _farm(canvas: Canvas, sheet: dict[str, Any], origin: tuple[float, float]) -> None:
    x0, y0 = origin
    owner: dict[int, tuple[int, bool]] = {}
    buildings = [(kind, index) for kind, index in sheet["buildings"]]
    linked = farm.connections(buildings).linked
    for i, (kind, index) in enumerate(buildings):
        for x in farm.spaces_of(farm.PLACEMENTS[index].spaces):
            owner[x] = (kind, bool(linked[i]))
    fenced_off = set(farm.spaces_of(sheet["rewarded_fields"]))
    for x in range(farm.SPACES):
        r, c = divmod(x, farm.SIZE)
        cell = (x0 + c * CELL, y0 + r * CELL, x0 + (c + 1) * CELL, y0 + (r + 1) * CELL)
        field = (r // components.FIELD_SIZE) * farm.FIELDS_PER_SIDE + c // components.FIELD_SIZE
        ground = WATER if farm.WATER_SPACES >> x & 1 else ARID
        if field in fenced_off:
            ground = mix(ground, COLOURS["faint"], 0.35)
        canvas.box(cell, fill=ground, outline=mix(ground, COLOURS["ink"], 0.25))
        centre = ((cell[0] + cell[2]) / 2, (cell[1] + cell[3]) / 2)
        if x in owner:
            kind, is_linked = owner[x]
            inner = (cell[0] + 2, cell[1] + 2, cell[2] - 2, cell[3] - 2)
            canvas.box(inner, fill=BUILDING_COLOURS[kind], outline=COLOURS["ink"])
            letter = BUILDING_LETTERS[kind].upper() if is_linked else BUILDING_LETTERS[kind]
            canvas.text(centre, letter, 12, COLOURS["white"], anchor="mm")
        elif (resource := farm.SPACE_RESOURCE[x]) is not None:
            canvas.circle(centre, CELL / 3, RESOURCE_COLOURS[resource])
            canvas.text(centre, components.RESOURCES[resource][0], 11, COLOURS["white"], anchor="mm")
    for segment in farm.spaces_of(sheet["fences"]):
        canvas.line(_fence_line(origin, segment), COLOURS["black"], 4)


def _tracks(canvas: Canvas, sheet: dict[str, Any], origin: tuple[float, float]) -> None:
    x0, y = origin
    label_width = 58
    for r, name in enumerate(components.RESOURCES):
        held = sheet["marked"][r] - sheet["crossed"][r]
        canvas.text((x0, y), f"{name} {held}", 11, max_width=label_width - 2)
        canvas.track(
            (x0 + label_width, y + 1),
            components.RESOURCE_TRACK_LENGTH,
            sheet["marked"][r],
            cell=TRACK,
            colour=RESOURCE_COLOURS[r],
            crossed=sheet["crossed"][r],
            special=sorted(components.RESOURCE_TRACK_COINS),
        )
        y += 14
    y += 4
    canvas.text((x0, y), f"coins {sheet['coins']}", 11)
    canvas.track(
        (x0 + label_width, y + 1),
        components.COIN_TRACK_LENGTH,
        sheet["coins"],
        cell=11,
        colour=(220, 180, 40),
        special=sorted(components.COIN_TRACK_GEMS),
    )
    y += 18
    for t, name in enumerate(components.TEQUILAS):
        canvas.text((x0, y), f"{name} {sheet['production'][t]}", 11, max_width=label_width - 2)
        canvas.track(
            (x0 + label_width, y + 1),
            components.PRODUCTION_TRACK_LENGTH,
            sheet["production"][t],
            cell=12,
            colour=mix(TEQUILA_COLOURS[t], COLOURS["ink"], 0.15),
            special=(components.PRODUCTION_BONUS_SQUARE + 1,),
        )
        y += 15
    canvas.text((x0, y), f"collect {sheet['collections']}", 11, max_width=label_width - 2)
    canvas.track(
        (x0 + label_width, y + 1),
        components.COLLECTION_TRACK_LENGTH,
        sheet["collections"],
        cell=12,
        colour=(120, 90, 160),
    )
    y += 20
    canvas.text((x0, y), f"market ({bin(sheet['market']).count('1')} marked)", 11)
    y += line_height(11)
    for row in range(components.MARKET_ROWS):
        for col in range(components.MARKET_COLUMNS):
            marked = sheet["market"] >> (row * components.MARKET_COLUMNS + col) & 1
            bonus = col in components.MARKET_COLUMN_BONUSES
            box = _market_space((x0, y), row, col)
            canvas.box(
                box,
                fill=COLOURS["ink"] if marked else COLOURS["empty"],
                outline=COLOURS["panel_edge"],
                width=2 if bonus else 1,
            )
    y += components.MARKET_ROWS * MARKET_CELL + 6
    canvas.text((x0, y), f"unused gears {sheet['gears_unused']}, extra actions bought {sheet['extra_bought']}", 11)


def seen_by(game: Any, seat: int) -> Any:
    """The game as ``seat`` sees it: the others' sheets as they stood when the round began
    (``tequila.determinization.seen_by``)."""
    return determinization.seen_by(game, seat)


def private_lines(game: Any, seat: int) -> list[str]:
    """Every sheet is public, but a round is played by all at once: that the others' moves of the round under way
    are shown when it ends, and what is left of ``seat``'s own round."""
    if game.is_over:
        return []
    lines = [
        f"round {game.state.round + 1} is played by all at once: the others' moves in it are shown to you when it ends "
        "(their sheets as they stood when it began until then), and yours to them"
    ]
    left = round_line(game.state.sheets[seat])
    if left:
        lines.append(left)
    return lines


__all__ = ["action_boxes", "draw", "private_lines", "seen_by", "square_boxes"]
