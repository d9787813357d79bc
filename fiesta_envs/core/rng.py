"""Saving and restoring a ``numpy.random.Generator`` as JSON-safe data."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np


def generator_state(rng: np.random.Generator) -> dict[str, Any]:
    """The generator's full state (plain ints and strings: JSON-safe)."""
    return dict(rng.bit_generator.state)


def generator_from_state(state: Mapping[str, Any]) -> np.random.Generator:
    """A generator that continues exactly where the saved one stopped."""
    name = state["bit_generator"]
    bit_generator_class = getattr(np.random, name, None)
    if bit_generator_class is None or not isinstance(bit_generator_class, type):
        raise ValueError(f"unknown bit generator {name!r}")
    bit_generator = bit_generator_class()
    bit_generator.state = dict(state)
    return np.random.Generator(bit_generator)
