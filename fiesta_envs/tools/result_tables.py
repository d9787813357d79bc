"""Tables of results on the command line (``fiesta evaluate``, ``fuzz``, ``bench``), drawn with ``rich``.

One way to lay a table out -- a column per name, numbers right-aligned and the names of things
left-aligned, one row of strings per result -- and one console to print it on.
"""

from __future__ import annotations

import sys
from collections.abc import Collection, Iterable, Sequence
from typing import Any


def result_table(
    title: str,
    columns: Sequence[str],
    rows: Iterable[Sequence[str]],
    *,
    left: Collection[str] = (),
    caption: str | None = None,
) -> Any:
    """A ``rich`` table: a column per name (right-aligned, but those named in ``left``), a row per entry of ``rows``."""
    from rich.table import Table

    table = Table(title=title, title_justify="left", caption=caption, min_width=len(title) + 4)
    for column in columns:
        table.add_column(column, justify="left" if column in left else "right")
    for row in rows:
        table.add_row(*row)
    return table


def console() -> Any:
    """A ``rich`` console as wide as the terminal (at least 100 columns), or 200 columns into a file or a pipe (a
    table is only as wide as it needs: long titles, such as a checkpoint's path, stay on one line)."""
    from rich.console import Console

    return Console(width=max(100, Console().width) if sys.stdout.isatty() else 200)
