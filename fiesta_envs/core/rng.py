"""Random generators: saving and restoring a ``numpy.random.Generator`` as JSON-safe data, and deriving seeds."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np


def generator_state(rng: np.random.Generator) -> dict[str, Any]:
    """The generator's full state (plain ints and strings: JSON-safe)."""
    return dict(rng.bit_generator.state)


def generator_from_state(state: Mapping[str, Any]) -> np.random.Generator:
    """A generator that continues exactly where the saved one stopped.

    Raises ``ValueError`` naming the field ``rng`` for anything numpy would not take (an unknown bit
    generator, missing or out-of-range numbers: numpy itself raises TypeError, KeyError or OverflowError).
    """
    if not isinstance(state, Mapping):
        raise ValueError(f"field 'rng' must be a mapping, got {type(state).__name__}")
    name = state.get("bit_generator")
    bit_generator_class = getattr(np.random, name, None) if isinstance(name, str) else None
    if not isinstance(bit_generator_class, type) or not issubclass(bit_generator_class, np.random.BitGenerator):
        raise ValueError(f"field 'rng.bit_generator': unknown bit generator {name!r:.40}")
    bit_generator = bit_generator_class()
    try:
        bit_generator.state = dict(state)
    except (TypeError, ValueError, KeyError, OverflowError) as error:
        raise ValueError(f"field 'rng' is not a {name} state: {type(error).__name__}: {error}") from error
    return np.random.Generator(bit_generator)


def derive_seed(*keys: int, bits: int = 63) -> int:
    """A seed for one independent random stream, from non-negative integer keys (a run's seed, a step,
    a purpose, a deal, a seat...): different keys give unrelated seeds (``numpy.random.SeedSequence``).

    ``bits=63`` (the default, tournaments) or ``bits=31`` (training: what every library accepts as a seed).
    """
    words = np.random.SeedSequence([int(key) for key in keys]).generate_state(2, dtype=np.uint32)
    if bits == 63:
        return (int(words[0]) << 31) ^ int(words[1])
    if bits == 31:
        return int(words[0]) & 0x7FFFFFFF
    raise ValueError(f"derive_seed: bits must be 31 or 63, got {bits!r}")
