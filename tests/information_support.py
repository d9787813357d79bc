"""The case type of ``tests/test_information.py`` (providers: ``tests/information_of_<game>.py``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class InformationCase:
    """Two positions of ``game`` (state dicts) and the seat whose observation is compared."""

    name: str
    game: str
    seat: int
    first: dict[str, Any]
    second: dict[str, Any]
    options: dict[str, Any] = field(default_factory=dict)
