"""Progress as plain lines, for long runs whose output goes to a log file instead of a terminal.

``ProgressNotes(total, note, what="games played")`` counts finished units and calls ``note`` with a line such as
``"400 of 2,000 games played (3.2 min, about 13 min to go)"`` at most every ``every_seconds`` and when the last
unit is done. ``fiesta evaluate`` writes these lines to stderr when stderr is not a terminal (a terminal gets a
progress bar); the warm start's data collection notes its games the same way.
"""

from __future__ import annotations

import time
from collections.abc import Callable

#: Seconds between two notes when the caller does not say.
EVERY_SECONDS = 30.0


def duration(seconds: float) -> str:
    """``45 s`` under a minute and a half, else ``3.2 min``."""
    return f"{seconds:.0f} s" if seconds < 90 else f"{seconds / 60:.1f} min"


class ProgressNotes:
    """Counts finished units; notes the count, the time spent and the time left (module docstring)."""

    def __init__(
        self,
        total: int,
        note: Callable[[str], None] | None,
        *,
        what: str = "games played",
        done: int = 0,
        every_seconds: float | None = None,
    ) -> None:
        self.total, self.done, self.note, self.what = total, done, note, what
        self.every_seconds = EVERY_SECONDS if every_seconds is None else every_seconds
        self.started = self.last = time.perf_counter()
        self.done_at_start = done  # units finished before (a resumed run): not in the rate

    def advance(self, units: int = 1) -> None:
        self.done += units
        now = time.perf_counter()
        if self.note is None or (now - self.last < self.every_seconds and self.done < self.total):
            return
        self.last = now
        elapsed = now - self.started
        rate = (self.done - self.done_at_start) / elapsed if elapsed > 0 else 0.0
        left = ""
        if rate > 0 and self.done < self.total:
            left = f", about {duration((self.total - self.done) / rate)} to go"
        self.note(f"{self.done:,} of {self.total:,} {self.what} ({duration(elapsed)}{left})")
