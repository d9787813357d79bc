"""The switch between Tequila's speed-ups and the rules computed directly.

Two facts the game asks for at almost every step are kept up to date instead of computed afresh: the legal
mask of the main phase (``tequila.mask_cache``, patched part by part) and what follows from a farm's fences
(``tequila.fencing``, a union-find forest of fence corners). Beside each, ``tequila.reference`` computes
the same answer straight from the rules (every action checked rule by rule; zones by a plain flood fill).
The two give the same games; the reference is far slower and is there to check the speed-ups against, or
to play with them off when in doubt.

The switch:

* ``FIESTA_ENVS_REFERENCE=1`` in the environment when ``fiesta_envs`` is imported turns the speed-ups off
  for the whole process;
* ``with speedups.enabled(False): ...`` turns them off (or, with ``True``, on) inside the block.

It is read at every legal mask, and when a sheet is made or loaded (its fencing): a game made inside the
block and played after it keeps its sheets' flood-fill fencing, with the same answers.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

#: Are the speed-ups on? Read it; change it with ``enabled``.
ENABLED: bool = os.environ.get("FIESTA_ENVS_REFERENCE", "") != "1"


@contextmanager
def enabled(on: bool) -> Iterator[None]:
    """Turn the speed-ups on or off inside a ``with`` block (then back to what they were)."""
    global ENABLED
    before = ENABLED
    ENABLED = on
    try:
        yield
    finally:
        ENABLED = before
