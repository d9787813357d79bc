"""Identity codes: a fixed binary code for every character and every word of the lexicon.

Tags say what a word *means*; they do not say *which* word it is. 563 of the 1,384 words share their
exact tag set with another word ("clock" and "minute"), and Attila the Hun and Genghis Khan have the
same tags, yet their legal next words and their names differ. So the observation gives every word and
character slot its tags *and* an identity code.

Each code has ``BITS`` = 20 bits with exactly ``WEIGHT`` = 10 ones, and any two codes differ in at least
``MIN_DISTANCE`` = 4 bits. Why this shape:

- a one-hot identity would cost 1,384 + 217 entries per slot (about 40 slots: 60,000 entries); 20 bits
  cost 20 per slot, 740 in all, and 20-bit codes of weight 10 with distance 4 leave room for 4,000
  names (the lexicon can more than double without a longer code);
- a constant weight gives every code the same norm, so no word looks "louder" to a network than another;
- a distance of at least 4 keeps any two codes apart by two swapped ones or more, never one flipped bit;
- the codes are drawn at random (no order of the lexicon leaks into them) but once, and shipped as data
  (``data/identity_codes.json``, keyed by name): the same on every machine and numpy version, and an old
  word keeps its code when words are added (``scripts/make_identity_codes.py``).

This module reads the data file and nothing above it but the lexicon.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

import numpy as np

from fiesta_envs.muertos.lexicon import Lexicon, LexiconError, load_lexicon

#: Bits per code, ones per code, and the least number of bits in which two codes differ.
BITS = 20
WEIGHT = 10
MIN_DISTANCE = 4
CODES_FILE = "identity_codes.json"


class IdentityCodes:
    """The code rows of the lexicon's characters and words (float32 0/1, read-only)."""

    def __init__(self, lexicon: Lexicon, codes: dict[str, str]) -> None:
        names = [f"character:{c.name}" for c in lexicon.characters] + [f"word:{w.text}" for w in lexicon.words]
        self.characters = _rows(names[: len(lexicon.characters)], codes)
        self.words = _rows(names[len(lexicon.characters) :], codes)
        every = np.vstack([self.characters, self.words])
        if not (every.sum(axis=1) == WEIGHT).all():
            raise LexiconError(f"{CODES_FILE}: every identity code needs exactly {WEIGHT} ones")
        # Two codes of equal weight differ in 2 * (WEIGHT - shared ones) bits.
        distances = (2 * (WEIGHT - every @ every.T)).astype(int)
        np.fill_diagonal(distances, BITS)
        if distances.min() < MIN_DISTANCE:
            first, second = np.unravel_index(int(distances.argmin()), distances.shape)
            raise LexiconError(
                f"{CODES_FILE}: the codes of {names[first]!r} and {names[second]!r} differ in {distances.min()} bits; "
                f"at least {MIN_DISTANCE} needed"
            )


def _rows(names: list[str], codes: dict[str, str]) -> np.ndarray:
    rows = np.zeros((len(names), BITS), dtype=np.float32)
    for row, name in enumerate(names):
        bits = codes.get(name)
        if bits is None:
            raise LexiconError(f"{CODES_FILE} has no code for {name!r}: run scripts/make_identity_codes.py")
        if len(bits) != BITS or set(bits) - {"0", "1"}:
            raise LexiconError(f"{CODES_FILE}: the code of {name!r} must be {BITS} characters 0 or 1, got {bits!r}")
        rows[row] = [bit == "1" for bit in bits]
    rows.flags.writeable = False
    return rows


@cache
def load_identity_codes() -> IdentityCodes:
    """The package's codes for the package's lexicon, loaded once and checked."""
    text = resources.files("fiesta_envs.muertos").joinpath("data", CODES_FILE).read_text(encoding="utf-8")
    data = json.loads(text)
    if (data["bits"], data["weight"], data["min_distance"]) != (BITS, WEIGHT, MIN_DISTANCE):
        raise LexiconError(f"{CODES_FILE} was made for another code shape: run scripts/make_identity_codes.py")
    return IdentityCodes(load_lexicon(), data["codes"])
