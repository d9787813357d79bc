"""Counts written in words for messages and tables: ``1 player``, ``2 players``."""

from __future__ import annotations


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """``count`` and ``noun``, the noun in the plural (``plural``, or ``noun + "s"``) unless the count is 1.

    >>> counted(1, "player"), counted(3, "player"), counted(2, "tooth", "teeth")
    ('1 player', '3 players', '2 teeth')
    """
    return f"{count} {noun if count == 1 else plural or noun + 's'}"


def players(count: int) -> str:
    """``1 player``, ``2 players``..."""
    return counted(count, "player")
