"""The picture of a Fiesta Mexicana table, drawn from the public state.

Top: the dish on offer, the auction (high bid, bidder, who
passed) and the deck. Below, one panel per player: the 4x4 table as its owner sees it now
(small numbers are the numbers each space reads), each dish card in its dish's colour with its
skulls and its half sauce bowls on the edges, the points, how many objectives are held (their
faces stay hidden until the end, when they are shown with the points they scored). While start cards
are oriented (at the same time in the printed game) they are drawn face down and points are not shown,
except to their owner: the picture of the game as one seat sees it (``seen_by(game, seat)``: the web app,
a replay as one seat) shows that seat's own start cards, as it turned them, and its points.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from fiesta_envs.fiesta_mexicana.actions import ROTATION_TURNS, ROTATIONS
from fiesta_envs.fiesta_mexicana.board import FIXED_OF, ROTATED_EDGES, number_of_space
from fiesta_envs.fiesta_mexicana.components import (
    DISH_CARDS,
    DISHES,
    NUM_SPACES,
    OBJECTIVE_COLOURS,
    OBJECTIVE_KINDS,
    PINATA_SPACES,
    SAUCES,
    TABLE_SIDE,
    VARIANT_PENALTIES,
    describe_card,
)
from fiesta_envs.render.canvas import COLOURS, RGB, Canvas, line_height, panel_body_top, seat_colour, status_line

DISH_COLOURS: dict[str, RGB] = {
    "tostada": (236, 178, 92),
    "elotes": (246, 222, 90),
    "burritos": (196, 150, 110),
    "chilis": (214, 72, 56),
    "salad": (130, 190, 100),
    "tacos": (240, 140, 60),
}
SAUCE_COLOURS: dict[str, RGB] = {
    "green": (60, 140, 60),
    "brown": (110, 70, 40),
    "white": (250, 250, 245),
    "red": (200, 30, 30),
}
CELL = 54
PANEL_WIDTH = TABLE_SIDE * CELL + 36
HEADER = 128
PANEL_HEIGHT = 420
MARGIN = 12
#: Pillow's arcs start at 3 o'clock and turn clockwise: the half of a disc inside the card, by edge.
INNER_HALF = {0: (0, 180), 1: (90, 270), 2: (180, 360), 3: (270, 450)}


def draw(game: Any) -> np.ndarray:
    """The table of ``game`` (a ``FiestaMexicana``) as an RGB array."""
    state = game.state_dict()["state"]
    n = game.num_players
    width = max(2 * MARGIN + n * (PANEL_WIDTH + MARGIN) - MARGIN, 620)
    canvas = Canvas(width, HEADER + PANEL_HEIGHT + 40)
    _header(canvas, game, state)
    final = game.final_info() if game.is_over else {}
    for player in range(n):
        _player_panel(canvas, game, state, player=player, box=_panel_box(player), final=final)
    canvas.text((MARGIN, HEADER + PANEL_HEIGHT + 10), status_line(game), 16)
    return canvas.to_array()


def _panel_box(player: int) -> tuple[float, float, float, float]:
    """Where ``player``'s table is drawn: left, top, right, bottom."""
    left = MARGIN + player * (PANEL_WIDTH + MARGIN)
    return (left, HEADER, left + PANEL_WIDTH, HEADER + PANEL_HEIGHT)


def _table_origin(box: tuple[float, float, float, float]) -> tuple[float, float]:
    """The top left corner of the 4 x 4 spaces in a player's panel ``box`` (under two lines of text)."""
    return box[0] + 18, panel_body_top(box[1]) + line_height(14) + line_height(13) + 6


def square_boxes(game: Any, seat: int) -> dict[tuple[int, int], tuple[float, float, float, float]]:
    """Where each space of ``seat``'s table is drawn (left, top, right, bottom pixels), by ``(row, column)`` as
    the table reads now (space number ``row * 4 + column + 1``): the web app makes the picture clickable."""
    x0, y0 = _table_origin(_panel_box(seat))
    return {
        divmod(view, TABLE_SIDE): (
            x0 + view % TABLE_SIDE * CELL,
            y0 + view // TABLE_SIDE * CELL,
            x0 + (view % TABLE_SIDE + 1) * CELL - 2,
            y0 + (view // TABLE_SIDE + 1) * CELL - 2,
        )
        for view in range(NUM_SPACES)
    }


def _header(canvas: Canvas, game: Any, state: dict[str, Any]) -> None:
    variant = "confirmed waiters" if game.config["variant"] != "standard" else "standard game"
    canvas.text((MARGIN, 8), f"Fiesta Mexicana - {variant}", 20)
    canvas.text((MARGIN, 36), f"phase: {state['phase']}   deck: {len(state['deck'])} dish cards", 15)
    card, label = _card_shown(state)
    x = MARGIN
    if card >= 0:
        canvas.text((x, 60), label, 13, COLOURS["faint"])
        _dish(canvas, (x, 78), card, edges=DISH_CARDS[card].edges, size=46)
        info = DISH_CARDS[card]
        canvas.text((x + 56, 82), f"{info.dish_name}, {info.skulls} skull{'s' if info.skulls > 1 else ''}", 14)
        halves = " ".join(f"{d}:{SAUCES[e] if e >= 0 else '-'}" for d, e in zip("NESW", info.edges, strict=True))
        canvas.text((x + 56, 100), halves, 12, COLOURS["faint"])
        x += 330
    if state["phase"] == "auction":
        bidder = f"player_{state['high_bidder']}" if state["high_bidder"] >= 0 else "nobody yet"
        canvas.text((x, 64), f"high bid: {state['high_bid'] or '-'} by {bidder}", 15)
        passed = [f"player_{p}" for p, flag in enumerate(state["passed"]) if flag]
        canvas.text((x, 86), f"passed: {', '.join(passed) or 'nobody'}", 14)
    elif state["phase"] in ("place", "rotate"):
        canvas.text((x, 64), f"dish won with bid {state['high_bid']}", 15)
    elif state["phase"] == "orient":
        first, second = game.orienting_note().split(": ")
        canvas.text((x, 64), f"{first}:", 15)
        canvas.text((x, 86), second, 14)


def _card_shown(state: dict[str, Any]) -> tuple[int, str]:
    """The dish on offer (start cards are each player's own while they are oriented: ``private_lines``)."""
    if state["offer"] >= 0:
        return state["offer"], "dish on offer"
    return -1, ""


def _player_panel(
    canvas: Canvas,
    game: Any,
    state: dict[str, Any],
    *,
    player: int,
    box: tuple[float, float, float, float],
    final: dict[str, Any],
) -> None:
    active = player == game.current_player
    y = canvas.panel(box, f"player_{player}" + ("  (to act)" if active else ""), seat_colour(player), active)
    left = box[0] + 10
    orientation = state["orientation"][player]
    held = sum(code >= 0 for code in state["objectives"][player])
    hidden = game.table_hidden(player)  # while orienting: only start cards on the tables, each seen by its owner
    points = "?" if hidden else state["points"][player]
    canvas.text((left, y), f"{points} points   turned left {orientation}x", 14)
    y += line_height(14)
    canvas.text((left, y), f"objectives held: {held}   reserves used: {state['reserves'][player]}", 13)
    grid_left, y = _table_origin(box)
    variant = game.config["variant"] != "standard"
    _table(canvas, state, player=player, origin=(grid_left, y), orientation=orientation, hidden=hidden, variant=variant)
    y += TABLE_SIDE * CELL + 8
    if final:
        _final_lines(canvas, final, player=player, origin=(left, y), room=box[2] - box[0] - 20)


def _table(
    canvas: Canvas,
    state: dict[str, Any],
    *,
    player: int,
    origin: tuple[float, float],
    orientation: int,
    cell: float = CELL,
    hidden: bool = False,
    variant: bool = False,
    marked: int | None = None,
) -> None:
    """``player``'s 4 x 4 spaces as they read turned ``orientation`` times left, each numbered: dish cards
    (face down when ``hidden``), empty spaces (with the variant's penalty); the fixed space ``marked`` framed."""
    x0, y0 = origin
    for view in range(NUM_SPACES):
        row, col = divmod(view, TABLE_SIDE)
        space = FIXED_OF[orientation][view]
        left, top = x0 + col * cell, y0 + row * cell
        square = (left, top, left + cell - 2, top + cell - 2)
        card = state["cards"][player][space]
        if card >= 0 and hidden:
            canvas.box(square, fill=COLOURS["faint"], outline=COLOURS["ink"])
            canvas.text((left + cell / 2, top + cell / 2), "?", 16, COLOURS["ink"], anchor="mm")
        elif card >= 0:
            fixed = ROTATED_EDGES[card][state["rotations"][player][space]]
            seen = tuple(fixed[(d + orientation) % 4] for d in range(4))
            _dish(canvas, (left, top), card, edges=seen, size=cell - 2)
        else:
            canvas.box(square, fill=COLOURS["empty"], outline=COLOURS["faint"])
            if variant and space in VARIANT_PENALTIES:
                penalty = f"-{VARIANT_PENALTIES[space]}"
                canvas.text((left + cell / 2, top + cell / 2), penalty, 14, COLOURS["bad"], anchor="mm")
        canvas.text((left + 3, top + 2), str(view + 1), 11, COLOURS["ink"] if card < 0 else COLOURS["black"])
        if space == marked:
            canvas.box(square, fill=None, outline=COLOURS["highlight"], width=3)


# ---------------------------------------------------------------------- choices drawn to be clicked
#: The decisions whose choices are drawn one by one (``choice_picture``): the web app makes them buttons.
CHOICE_PICTURES = frozenset({"orient", "place", "rotate"})
CHOICE_CELL = 34
CHOICE_CAPTION = 40


def turned_orientation(orientation: int, choice: str) -> int:
    """A table's orientation (quarter turns left) after the table turn ``choice`` (left, right or none)."""
    return (orientation + ROTATION_TURNS[ROTATIONS.index(choice)]) % 4


def free_numbers(state: dict[str, Any], seat: int, orientation: int) -> list[int]:
    """The numbers ``seat``'s free spaces read when its table is turned ``orientation`` times left."""
    cards = state["cards"][seat]
    return [view + 1 for view in range(NUM_SPACES) if cards[FIXED_OF[orientation][view]] < 0]


@dataclass(frozen=True)
class ChoiceOutcome:
    """What one of a seat's choices does to its own table (``choice_outcome``)."""

    state: dict[str, Any]  # the position whose table is drawn: after the choice (a turn: the same, turned)
    orientation: int  # the table's orientation after the choice
    marked: int | None  # the fixed space the card goes on (None: a table turn)
    points: int | None  # the points the card brings (None: a table turn)
    title: str
    detail: str  # the points it brings and where, or what the turn does


def choice_outcome(game: Any, seat: int, action: int) -> ChoiceOutcome | None:
    """What ``seat``'s legal ``action`` would do to its own table: a start card or the won dish turned that
    way on its space, with the points it brings; a table turn, with the numbers the spaces will read (the
    tables turn together once everybody has chosen). None for other actions. Only ``seat``'s table is read."""
    name = game.action_to_string(action)
    kind = name.split()[0]
    if kind not in CHOICE_PICTURES or game.current_player != seat or not game.legal_mask()[action]:
        return None
    state = game.state_dict()["state"]
    orientation = state["orientation"][seat]
    if kind == "rotate":
        choice = name.split()[1]
        title = {"left": "turn it left", "right": "turn it right", "none": "leave it"}[choice]
        return ChoiceOutcome(state, turned_orientation(orientation, choice), None, None, title, "new space numbers")
    copy = game.clone()  # orient K R / place R, played on a copy
    copy.step(action)
    after = copy.state_dict()["state"]
    marked = next(space for space in range(NUM_SPACES) if after["cards"][seat][space] != state["cards"][seat][space])
    turns = int(name.split()[-1])
    gained = after["points"][seat] - state["points"][seat]
    detail = f"{points_text(gained)} on space {number_of_space(orientation, marked)}"
    title = f"turned {turns}x clockwise" if turns else "as printed"
    return ChoiceOutcome(after, orientation, marked, gained, title, detail)


def points_text(points: int) -> str:
    """``+1 point``, ``-2 points``, ``+0 points``."""
    return f"{points:+d} point{'' if abs(points) == 1 else 's'}"


def choice_picture(game: Any, seat: int, action: int) -> np.ndarray | None:
    """``choice_outcome`` drawn small: the title, the points or what the turn does, the table after the
    choice (the card's space framed). None for actions without a picture."""
    outcome = choice_outcome(game, seat, action)
    if outcome is None:
        return None
    side = TABLE_SIDE * CHOICE_CELL
    canvas = Canvas(side + 12, CHOICE_CAPTION + side + 8, background=COLOURS["panel"])
    canvas.text((6, 4), outcome.title, 14, max_width=side)
    canvas.text((6, 22), outcome.detail, 12, COLOURS["highlight"], max_width=side)
    _table(
        canvas,
        outcome.state,
        player=seat,
        origin=(6, CHOICE_CAPTION),
        orientation=outcome.orientation,
        cell=CHOICE_CELL,
        variant=game.config["variant"] != "standard",
        marked=outcome.marked,
    )
    return canvas.to_array()


def _final_lines(
    canvas: Canvas, final: dict[str, Any], *, player: int, origin: tuple[float, float], room: float
) -> None:
    left, y = origin
    canvas.text((left, y), f"final score {final['final_scores'][player]}", 15, COLOURS["highlight"])
    y += line_height(15)
    extra = f"dishes {final['placement_points'][player]}, objectives {final['objective_points'][player]}"
    if final["penalties"][player]:
        extra += f", penalties -{final['penalties'][player]}"
    canvas.text((left, y), extra, 12, max_width=room)
    y += line_height(12)
    for label, points in zip(final["objectives"][player], final["objective_slot_points"][player], strict=False):
        canvas.text((left, y), f"{label}: {points}", 12, max_width=room)
        y += line_height(12)


def _dish(canvas: Canvas, origin: tuple[float, float], card: int, *, edges: tuple[int, ...], size: float) -> None:
    """A dish card: its dish's colour and name, skulls, and half bowls on ``edges`` (N, E, S, W as seen)."""
    x0, y0 = origin
    info = DISH_CARDS[card]
    canvas.box((x0, y0, x0 + size, y0 + size), fill=DISH_COLOURS[DISHES[info.dish]], outline=COLOURS["ink"])
    canvas.text(
        (x0 + size / 2, y0 + size / 2 - 2), DISHES[info.dish], 10, COLOURS["ink"], anchor="mm", max_width=size - 4
    )
    for k in range(info.skulls):  # skulls: small white tokens under the name
        canvas.circle(
            (x0 + size / 2 + (k - (info.skulls - 1) / 2) * 9, y0 + size / 2 + 11),
            3.5,
            COLOURS["white"],
            outline=COLOURS["ink"],
        )
    radius = size / 7
    centres = ((x0 + size / 2, y0), (x0 + size, y0 + size / 2), (x0 + size / 2, y0 + size), (x0, y0 + size / 2))
    for direction, sauce in enumerate(edges):
        if sauce < 0:
            continue
        cx, cy = centres[direction]
        start, end = INNER_HALF[direction]
        canvas.draw.pieslice(
            (cx - radius, cy - radius, cx + radius, cy + radius),
            start,
            end,
            fill=SAUCE_COLOURS[SAUCES[sauce]],
            outline=COLOURS["ink"],
        )


def seen_by(game: Any, seat: int) -> Any:
    """The game as ``seat`` sees it, to draw or print: while start cards are oriented, a copy shown to ``seat``
    (``FiestaMexicana.shown_to``: its own start cards and points face up, the others' face down); else the
    game itself (the rest of the table is public; objectives and a table turn chosen are never drawn)."""
    if game.phase_name != "orient":
        return game
    view = game.clone()
    view.shown_to = seat
    return view


def hidden_scores(game: Any, seat: int | None) -> set[int]:
    """The players whose points ``seat`` may not see now: while start cards are oriented, everybody else
    (their points count the skulls of their hidden start cards); a spectator (``None``) sees none of them then,
    as the picture shows every start card face down."""
    view = game if seat is None else seen_by(game, seat)
    return {player for player in range(game.num_players) if view.table_hidden(player)}


def private_lines(game: Any, seat: int) -> list[str]:
    """What ``seat`` alone knows: its start cards while they are oriented, the table turn it chose (until the
    tables turn together), its objectives (with the points they would score now) or the hand of five it keeps
    three from."""
    state = game.state_dict()["state"]
    lines = []
    if state["phase"] == "orient":
        lines.append("your start cards: " + "; ".join(_start_card_lines(state, seat)))
    if state["phase"] == "rotate" and state["turns_chosen"][seat] >= 0:
        lines.append(f"your table turn, applied when everybody has chosen: {ROTATIONS[state['turns_chosen'][seat]]}")
    hand = state["hands"][seat]
    if hand:
        lines.append(
            "your objective hand (keep 3 of 3 colours): "
            + "; ".join(
                f"slot {i}: {OBJECTIVE_KINDS[code].label} ({OBJECTIVE_COLOURS[OBJECTIVE_KINDS[code].colour]})"
                for i, code in enumerate(hand)
            )
        )
    slots = state["objectives"][seat]
    if any(code >= 0 for code in slots):
        points = game.objective_points(seat)
        lines.append(
            "your objectives: "
            + "; ".join(
                f"slot {i}: {OBJECTIVE_KINDS[code].label} (now {points[i]})"
                for i, code in enumerate(slots)
                if code >= 0
            )
        )
    return lines


def _start_card_lines(state: dict[str, Any], seat: int) -> list[str]:
    """Each start card of ``seat``: on its space, turned as oriented, or still in hand."""
    lines = []
    for index, space in enumerate(PINATA_SPACES):
        card = state["cards"][seat][space]
        if card >= 0:
            lines.append(
                f"space {space + 1}: {describe_card(card)} (printed), "
                f"turned {state['rotations'][seat][space]}x clockwise"
            )
        elif index < len(state["start_cards"][seat]):
            lines.append(f"space {space + 1}: {describe_card(state['start_cards'][seat][index])}, to orient")
    return lines


#: Actions whose content only their player knows (until the step is over, or until the end): what the other
#: players are told instead.
HIDDEN_ACTIONS = {
    "orient": "orients a start card",
    "keep": "keeps three objectives",
    "rotate": "chooses a table turn",
}


def public_action(name: str) -> str:
    """How an action looks to the other players: a start card's orientation, the objectives kept and a table
    turn stay secret (the tables show them once everybody has decided); a reserve shows its bid, not which
    objective it gave up."""
    kind = name.split(" ", 1)[0]
    if kind == "reserve":  # reserve N drop K
        return f"reserve {name.split()[1]} (gives up an objective)"
    return HIDDEN_ACTIONS.get(kind, name)


__all__ = [
    "choice_outcome",
    "choice_picture",
    "draw",
    "hidden_scores",
    "private_lines",
    "public_action",
    "seen_by",
    "square_boxes",
]
