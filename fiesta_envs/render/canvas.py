"""Small drawing helpers shared by the game pictures: a canvas, labels, boxes, cards, tracks, dice.

Pillow is an optional dependency (``pip install fiesta_envs[render]``); it is imported the first
time a picture is drawn, so ``import fiesta_envs`` never needs it. Every game's ``draw(game)``
builds a ``Canvas`` of a fixed size for its player count and options (so the frames of one game
make a steady animation) and returns ``canvas.to_array()``: ``uint8`` height x width x 3.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import numpy as np

RGB = tuple[int, int, int]
Box = tuple[float, float, float, float]  # left, top, right, bottom

#: The palette every picture draws from, so the five games look like one library.
COLOURS: dict[str, RGB] = {
    "background": (246, 241, 228),
    "panel": (255, 252, 244),
    "panel_edge": (120, 104, 84),
    "ink": (34, 30, 28),
    "faint": (140, 130, 120),
    "empty": (226, 219, 203),
    "highlight": (230, 60, 40),
    "turn": (255, 214, 90),
    "good": (60, 150, 80),
    "bad": (190, 50, 50),
    "white": (255, 255, 255),
    "black": (20, 20, 20),
}

#: Colours of the players' seats (markers, names), seat by seat.
SEAT_COLOURS: tuple[RGB, ...] = (
    (200, 60, 50),
    (50, 110, 190),
    (60, 150, 80),
    (150, 80, 170),
    (220, 140, 40),
    (40, 150, 160),
    (120, 90, 60),
    (200, 90, 140),
)

_PILLOW_MISSING = "drawing pictures (render_mode='rgb_array') needs Pillow: pip install fiesta_envs[render]"
_PILLOW_TOO_OLD = "drawing pictures needs Pillow >= 10.1 with FreeType: pip install -U 'fiesta_envs[render]'"


def require_pillow() -> Any:
    """The ``PIL`` modules this package draws with; a clear ``ImportError`` when Pillow is missing."""
    try:
        from PIL import Image, ImageDraw, ImageFont
    except ImportError as error:  # pragma: no cover - exercised only without Pillow
        raise ImportError(_PILLOW_MISSING) from error
    return Image, ImageDraw, ImageFont


@functools.lru_cache(maxsize=16)
def font(size: int) -> Any:
    """Pillow's bundled font at ``size`` pixels (needs Pillow >= 10.1 built with FreeType)."""
    _, _, image_font = require_pillow()
    try:
        return image_font.load_default(size=size)
    except (TypeError, OSError, ImportError) as error:  # Pillow 10.0 or no FreeType: no scalable font
        raise ImportError(f"{_PILLOW_TOO_OLD} ({type(error).__name__}: {error})") from error


def seat_colour(seat: int) -> RGB:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def mix(colour: RGB, other: RGB, amount: float) -> RGB:
    """``colour`` moved ``amount`` (0..1) of the way towards ``other``."""
    red, green, blue = (round(a + (b - a) * amount) for a, b in zip(colour, other, strict=True))
    return red, green, blue


def text_colour_on(fill: RGB) -> RGB:
    """Black or white, whichever reads better on ``fill``."""
    luminance = 0.299 * fill[0] + 0.587 * fill[1] + 0.114 * fill[2]
    return COLOURS["ink"] if luminance > 140 else COLOURS["white"]


def panel_body_top(top: float, size: int = 16) -> float:
    """The y under the title bar of a panel whose top is ``top`` (``Canvas.panel``, title size ``size``)."""
    return top + line_height(size) + 12


class Canvas:
    """A picture being drawn: a Pillow image and the few shapes the games need."""

    def __init__(self, width: int, height: int, background: RGB = COLOURS["background"]) -> None:
        image, image_draw, _ = require_pillow()
        self.width, self.height = int(width), int(height)
        self.image = image.new("RGB", (self.width, self.height), background)
        self.draw = image_draw.Draw(self.image)

    # ------------------------------------------------------------------ text
    def text(
        self,
        xy: tuple[float, float],
        text: str,
        size: int = 14,
        fill: RGB = COLOURS["ink"],
        anchor: str = "la",
        max_width: float | None = None,
    ) -> float:
        """Draw ``text`` (shortened with "..." to fit ``max_width``); returns its width in pixels."""
        face = font(size)
        if max_width is not None:
            text = fit_text(text, size, max_width)
        self.draw.text(xy, text, fill=fill, font=face, anchor=anchor)
        return face.getlength(text)

    # ------------------------------------------------------------------ shapes
    def box(
        self,
        box: Box,
        fill: RGB | None = COLOURS["panel"],
        outline: RGB | None = COLOURS["panel_edge"],
        width: int = 1,
        radius: int = 0,
    ) -> None:
        if radius:
            self.draw.rounded_rectangle(box, radius=radius, fill=fill, outline=outline, width=width)
        else:
            self.draw.rectangle(box, fill=fill, outline=outline, width=width)

    def panel(self, box: Box, title: str, colour: RGB | None = None, active: bool = False, size: int = 16) -> float:
        """A framed area with a title bar (highlighted when ``active``); returns the y under the title."""
        left, top, right, _ = box
        self.box(
            box,
            fill=COLOURS["panel"],
            outline=COLOURS["highlight"] if active else COLOURS["panel_edge"],
            width=3 if active else 1,
            radius=6,
        )
        bar = colour or COLOURS["panel_edge"]
        bar_bottom = panel_body_top(top, size) - 6
        self.box((left + 3, top + 3, right - 3, bar_bottom), fill=bar, outline=None, radius=4)
        self.text((left + 10, top + 5), title, size, text_colour_on(bar), max_width=right - left - 20)
        return panel_body_top(top, size)

    def circle(
        self,
        centre: tuple[float, float],
        radius: float,
        fill: RGB | None,
        *,
        outline: RGB | None = None,
        width: int = 1,
    ) -> None:
        x, y = centre
        self.draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=fill, outline=outline, width=width)

    def line(self, points: Sequence[tuple[float, float]], fill: RGB = COLOURS["ink"], width: int = 1) -> None:
        self.draw.line(list(points), fill=fill, width=width)

    def card(
        self,
        box: Box,
        fill: RGB,
        title: str = "",
        lines: Sequence[str] = (),
        size: int = 13,
        outline: RGB = COLOURS["panel_edge"],
        width: int = 1,
    ) -> None:
        """A rounded card with a title and lines of text, in the colour that reads on ``fill``."""
        left, top, right, _ = box
        self.box(box, fill=fill, outline=outline, width=width, radius=5)
        ink = text_colour_on(fill)
        y = top + 4
        room = right - left - 8
        if title:
            self.text((left + 4, y), title, size, ink, max_width=room)
            y += line_height(size)
        for text in lines:
            self.text((left + 4, y), text, size - 2, ink, max_width=room)
            y += line_height(size - 2)

    def track(
        self,
        origin: tuple[float, float],
        length: int,
        filled: int,
        *,
        cell: float = 14,
        colour: RGB = COLOURS["ink"],
        crossed: int = 0,
        special: Sequence[int] = (),
    ) -> None:
        """A row of ``length`` squares: the first ``filled`` coloured, of those the first ``crossed``
        struck through; 1-based squares in ``special`` get a thicker frame (a printed bonus)."""
        x0, y0 = origin
        special_set = set(special)
        for i in range(length):
            box = (x0 + i * cell, y0, x0 + (i + 1) * cell - 2, y0 + cell - 2)
            fill = colour if i < filled else COLOURS["empty"]
            self.box(box, fill=fill, outline=COLOURS["panel_edge"], width=2 if i + 1 in special_set else 1)
            if i < crossed:
                self.line([(box[0] + 1, box[3] - 1), (box[2] - 1, box[1] + 1)], COLOURS["white"], 2)

    def die(self, origin: tuple[float, float], value: int, size: float = 36, fill: RGB = COLOURS["white"]) -> None:
        """A die showing ``value`` (1..6) with pips."""
        x0, y0 = origin
        self.box((x0, y0, x0 + size, y0 + size), fill=fill, outline=COLOURS["ink"], width=2, radius=int(size / 6))
        pips = {
            1: [(1, 1)],
            2: [(0, 0), (2, 2)],
            3: [(0, 0), (1, 1), (2, 2)],
            4: [(0, 0), (0, 2), (2, 0), (2, 2)],
            5: [(0, 0), (0, 2), (1, 1), (2, 0), (2, 2)],
            6: [(0, 0), (0, 1), (0, 2), (2, 0), (2, 1), (2, 2)],
        }.get(int(value), [])
        step = size / 4
        for col, row in pips:
            self.circle((x0 + step * (col + 1), y0 + step * (row + 1)), size / 11, COLOURS["ink"])

    # ------------------------------------------------------------------ result
    def to_array(self) -> np.ndarray:
        """The picture as a ``uint8`` array of shape (height, width, 3)."""
        return np.asarray(self.image, dtype=np.uint8).copy()


def line_height(size: int) -> int:
    return round(size * 1.3)


def text_width(text: str, size: int) -> float:
    return font(size).getlength(text)


def fit_text(text: str, size: int, max_width: float) -> str:
    """``text`` shortened with "..." so that it is at most ``max_width`` pixels wide."""
    if text_width(text, size) <= max_width:
        return text
    while text and text_width(text + "...", size) > max_width:
        text = text[:-1]
    return text + "..."


def status_line(game: Any) -> str:
    """Whose turn it is, or the final scores and winners: the footer every picture shows."""
    if game.is_over:
        scores = ", ".join(f"{s:g}" for s in game.scores())
        winners = ", ".join(f"player_{w}" for w in game.winners())
        if getattr(game, "cooperative", False):
            return f"game over - team result {game.scores()[0]:g}"
        return f"game over - scores {scores} - winner(s): {winners}"
    return f"player_{game.current_player} to act"
