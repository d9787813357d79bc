"""The picture of a Tortilla de Patatas table, drawn from the public state.

Top: the menu, the fridge (cards left) and its door card, the diner cards still available.
Below, one panel per team: its three pans with their whole piles (bottom card first, as every
player remembers them; the top card at the top), the omelettes served with their points, and
each team member's hand size (and the door cards everyone knows they took). Hands stay hidden.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from fiesta_envs.render.canvas import COLOURS, RGB, Canvas, line_height, mix, seat_colour, status_line
from fiesta_envs.tortilla.components import (
    CARD_INGREDIENTS,
    CARD_TYPE_INDEX,
    CARD_TYPES,
    DINER_VALUES,
    INGREDIENTS,
    NUM_CARD_TYPES,
    PANS_PER_TEAM,
    SIZE_NAMES,
)
from fiesta_envs.tortilla.omelettes import is_perfect, omelette_points

INGREDIENT_COLOURS: dict[str, RGB] = {"potato": (214, 170, 100), "egg": (250, 220, 80), "onion": (170, 110, 180)}
TEAM_NAMES = ("A", "B")
WIDTH, HEIGHT = 780, 560
MARGIN = 12
HEADER = 120
STRIP = 15  # height of one card in a pile
PILE_SHOWN = 14  # cards drawn per pile; a longer pile says how many more lie below


def draw(game: Any) -> np.ndarray:
    """The table of ``game`` (a ``TortillaDePatatas``) as an RGB array."""
    state = game.state_dict()["state"]
    canvas = Canvas(WIDTH, HEIGHT)
    _header(canvas, game, state)
    panel_width = (WIDTH - 3 * MARGIN) / 2
    scores = game.team_scores()
    for team in range(2):
        left = MARGIN + team * (panel_width + MARGIN)
        _team_panel(
            canvas, game, state, team=team, box=(left, HEADER, left + panel_width, HEIGHT - 40), score=scores[team]
        )
    canvas.text((MARGIN, HEIGHT - 30), status_line(game), 16)
    return canvas.to_array()


def _header(canvas: Canvas, game: Any, state: dict[str, Any]) -> None:
    menu = game.config["menu"]
    canvas.text((MARGIN, 8), f"Tortilla de Patatas - {menu} menu - turn {state['turn']}", 20)
    phase = state["phase"] + (" (served this turn)" if state["served_this_turn"] else "")
    canvas.text((MARGIN, 36), f"phase: {phase}", 15)
    # the fridge: a face-down pile, and the door card face up
    canvas.card((MARGIN, 62, MARGIN + 70, 112), (90, 120, 150), "fridge", [f"{len(state['deck'])} cards"])
    if state["door"] is not None:
        canvas.text((MARGIN + 82, 62), "door", 12, COLOURS["faint"])
        _card_strip(canvas, (MARGIN + 82, 80, MARGIN + 182, 100), CARD_TYPE_INDEX[state["door"]], label=True)
    x = MARGIN + 210
    canvas.text((x, 62), "diner cards left", 13, COLOURS["faint"])
    for value, count in zip(DINER_VALUES, state["diners_left"], strict=True):
        for _ in range(count):
            canvas.card((x, 80, x + 30, 112), COLOURS["white"], str(value), size=16)
            x += 36
    if not any(state["diners_left"]):
        canvas.text((x, 86), "none", 14)


def _team_panel(
    canvas: Canvas, game: Any, state: dict[str, Any], *, team: int, box: tuple[float, float, float, float], score: int
) -> None:
    members = [seat for seat in range(game.num_players) if seat % 2 == team]
    active = game.current_player in members
    title = f"team {TEAM_NAMES[team]}: {score} points"
    y = canvas.panel(box, title, seat_colour(team), active)
    left, right = box[0] + 10, box[2] - 10
    for seat in members:
        role = "chef" if seat < 2 else "assistant"
        hand = len(state["hands"][seat])
        known = state["known"][seat]
        text = f"player_{seat} ({role}): {hand} card{'s' if hand != 1 else ''} in hand"
        if known:
            text += f", known: {', '.join(known)}"
        marker = "> " if seat == game.current_player else ""
        canvas.text((left, y), marker + text, 13, max_width=right - left)
        y += line_height(13)
    y += 4
    pan_width = (right - left - 2 * 8) / PANS_PER_TEAM
    for pan, pile in enumerate(state["pans"][team]):
        x0 = left + pan * (pan_width + 8)
        _pan(canvas, (x0, y, x0 + pan_width, y + 20 + PILE_SHOWN * STRIP + 34), pan, pile)
    y += 20 + PILE_SHOWN * STRIP + 42
    canvas.text((left, y), "served:", 13)
    y += line_height(13)
    served = [entry for entry in state["served"] if entry["seat"] % 2 == team]
    for entry in served:
        counts = tuple(entry["cards"].count(name) for name in CARD_TYPES)
        size = SIZE_NAMES.index(entry["size"])
        perfect = "perfect" if is_perfect(counts, size) else "imperfect"
        points = omelette_points(counts, size, entry["diners"])
        text = f"{entry['size']} for {entry['diners']} by player_{entry['seat']}: {perfect}, {points:+d}"
        canvas.text((left, y), text, 12, max_width=right - left)
        y += line_height(12)
    if not served:
        canvas.text((left, y), "nothing yet", 12, COLOURS["faint"])


def _pan(canvas: Canvas, box: tuple[float, float, float, float], pan: int, pile: list[str]) -> None:
    left, top, right, bottom = box
    canvas.box(box, fill=(70, 70, 76), outline=COLOURS["ink"], radius=8)
    canvas.text(((left + right) / 2, top + 3), f"pan {pan}: {len(pile)}", 12, COLOURS["white"], anchor="ma")
    shown = pile[-PILE_SHOWN:]
    for depth, name in enumerate(reversed(shown)):  # the top card first, at the top
        y0 = top + 20 + depth * STRIP
        _card_strip(canvas, (left + 5, y0, right - 5, y0 + STRIP - 2), CARD_TYPE_INDEX[name], label=True)
    if len(pile) > PILE_SHOWN:
        canvas.text(
            ((left + right) / 2, bottom - 30), f"+{len(pile) - PILE_SHOWN} below", 11, COLOURS["white"], anchor="ma"
        )
    counts = tuple(pile.count(name) for name in CARD_TYPES)
    if pile:
        perfect = [SIZE_NAMES[size] for size in range(len(SIZE_NAMES)) if is_perfect(counts, size)]
        text = f"perfect {'/'.join(perfect)}" if perfect else _totals(counts)
        canvas.text(((left + right) / 2, bottom - 16), text, 11, COLOURS["white"], anchor="ma", max_width=right - left)


def _totals(counts: tuple[int, ...]) -> str:
    plain = [f"{counts[i]} {INGREDIENTS[i]}" for i in range(len(INGREDIENTS)) if counts[i]]
    wild = sum(counts[len(INGREDIENTS) : NUM_CARD_TYPES])
    return ", ".join(plain + ([f"{wild} wild"] if wild else []))


def _card_strip(canvas: Canvas, box: tuple[float, float, float, float], card: int, label: bool = False) -> None:
    """One ingredient card seen edge-on: one band per ingredient it can stand for."""
    left, top, right, bottom = box
    ingredients = CARD_INGREDIENTS[card]
    band = (right - left) / len(ingredients)
    for i, ingredient in enumerate(ingredients):
        colour = INGREDIENT_COLOURS[INGREDIENTS[ingredient]]
        canvas.box((left + i * band, top, left + (i + 1) * band, bottom), fill=colour, outline=None)
    canvas.box(box, fill=None, outline=mix(COLOURS["ink"], COLOURS["white"], 0.2))
    if label:
        canvas.text(
            ((left + right) / 2, (top + bottom) / 2),
            CARD_TYPES[card],
            10,
            COLOURS["ink"],
            anchor="mm",
            max_width=right - left - 2,
        )


def private_lines(game: Any, seat: int) -> list[str]:
    """What ``seat`` alone knows: the cards in its hand."""
    hand = game.state_dict()["state"]["hands"][seat]
    return [f"your hand: {', '.join(hand) if hand else 'empty'}"]


__all__ = ["draw", "private_lines"]
