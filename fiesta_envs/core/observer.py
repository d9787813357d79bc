"""Observers: what one seat knows, written into a float32 vector with named blocks.

Every game documents its observation as an ordered list of named blocks (``ObservationLayout``). Its
``Observer`` reads the game's state and writes that layout; rule code never calls it. Two ways to write:

- ``encode(game, seat, out)`` builds the whole vector from scratch. It is the reference: short, plain,
  written to be read next to the documentation page.
- ``observe(game, seat)`` is what the environments call on every step. By default it is the reference;
  a game whose reference is too slow overrides it with an incremental version that *pulls* what changed
  since the seat last looked (for example by comparing the state's change counters), never through calls
  from the rule handlers. ``tests/test_observers.py`` checks, for every game and configuration, that the
  two agree at every step.

The engine owns one observer (``Game.observer``) and its ``observe(player)`` delegates to it.

Reading an observation: a block may declare its shape (``("pans", (6, 29))``: 6 pans of 29 entries each),
declared once in the layout; ``observation_views(vector)`` (on the observer, on every engine and on every
environment's ``unwrapped``) returns ``{block name: array in that shape}``, as each game's page documents.
"""

from __future__ import annotations

import abc
import math
from collections.abc import Iterable, Mapping
from typing import Any, Generic, TypeVar

import numpy as np

GameT = TypeVar("GameT")


#: A block's size, or its shape (the documented shape; its entries are stored row-major).
BlockShape = int | tuple[int, ...]


class ObservationLayout:
    """Named blocks in order: where each part of an observation lives, and the shape each one is read in.

    >>> layout = ObservationLayout([("phase", 5), ("hand", (3, 4))])
    >>> layout.size, layout.slice("hand"), layout.shapes["hand"]
    (17, slice(5, 17, None), (3, 4))
    """

    def __init__(self, blocks: Iterable[tuple[str, BlockShape]]) -> None:
        self.blocks: dict[str, slice] = {}
        #: Each block's documented shape (``(size,)`` for a flat block).
        self.shapes: dict[str, tuple[int, ...]] = {}
        start = 0
        for name, declared in blocks:
            shape = (declared,) if isinstance(declared, int) else tuple(declared)
            if name in self.blocks:
                raise ValueError(f"observation block {name!r} is listed twice")
            if not shape or any(not isinstance(length, int) or length < 0 for length in shape):
                raise ValueError(f"observation block {name!r} has a bad size or shape {declared!r}")
            size = math.prod(shape)
            self.blocks[name] = slice(start, start + size)
            self.shapes[name] = shape
            start += size
        self.size = start

    def slice(self, name: str) -> slice:
        try:
            return self.blocks[name]
        except KeyError:
            raise KeyError(f"no observation block {name!r}; blocks: {', '.join(self.blocks)}") from None

    def views(self, vector: np.ndarray) -> dict[str, np.ndarray]:
        """Each block of ``vector`` by name (views: writing into one writes into the vector)."""
        return {name: vector[part] for name, part in self.blocks.items()}

    def shaped_views(self, observation: Any) -> dict[str, np.ndarray]:
        """Each block of ``observation`` by name, as a copy in its documented shape. ``observation`` is an
        observation vector, or an environment's observation dict (its ``"observation"`` entry is read)."""
        if isinstance(observation, Mapping):
            if "observation" not in observation:
                raise ValueError(f"an observation dict needs the key 'observation'; got the keys {sorted(observation)}")
            observation = observation["observation"]
        vector = np.asarray(observation)
        if vector.shape != (self.size,):
            raise ValueError(
                f"expected an observation vector of shape ({self.size},) for this layout, got shape {vector.shape}"
            )
        return {name: vector[part].reshape(self.shapes[name]).copy() for name, part in self.blocks.items()}

    def describe(self) -> list[tuple[str, int, int]]:
        """(name, start, size) of every block, for documentation pages and tests."""
        return [(name, part.start, part.stop - part.start) for name, part in self.blocks.items()]


class Observer(abc.ABC, Generic[GameT]):
    """Writes what a seat knows of a game into the documented layout."""

    def __init__(self, layout: ObservationLayout) -> None:
        self.layout = layout

    @property
    def size(self) -> int:
        return self.layout.size

    @abc.abstractmethod
    def encode(self, game: GameT, seat: int, out: np.ndarray) -> None:
        """Write ``seat``'s observation of ``game`` into ``out`` (zeros on entry), from scratch."""

    def reference(self, game: GameT, seat: int) -> np.ndarray:
        """A fresh vector built by ``encode``: the source of truth."""
        out = np.zeros(self.layout.size, dtype=np.float32)
        self.encode(game, seat, out)
        return out

    def observe(self, game: GameT, seat: int) -> np.ndarray:
        """What the environments hand out (a fresh array the caller may keep); incremental observers
        override this and must agree with ``reference`` at every step."""
        return self.reference(game, seat)

    def reset(self) -> None:
        """Forget anything kept between calls (called on a new game and after a state dict is loaded)."""

    def decode(self, vector: np.ndarray) -> dict[str, Any]:
        """The blocks of an observation by name (flat copies), for tests and debugging."""
        return {name: np.array(view) for name, view in self.layout.views(vector).items()}

    def observation_views(self, observation: Any) -> dict[str, np.ndarray]:
        """The blocks of an observation (a vector, or an environment's observation dict) by name, each a copy
        in its documented shape (``ObservationLayout.shaped_views``)."""
        return self.layout.shaped_views(observation)
