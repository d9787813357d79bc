"""Run the Python snippets of the README's Quick start, as a new user would paste them.

    python scripts/readme_snippets.py [README.md]      # from any folder; exit status 1 on the first failure

Which snippets: every ```python block in the section whose heading starts with "Quick start" (any level, e.g.
``## Quick start``), up to the next heading of the same or a higher level; subsections belong to it. They run in
order in one namespace, as in one Python session (a later snippet may use an earlier one's ``env``). A README
without such a section, or with no Python block in it, is an error, not a pass.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
import traceback
from pathlib import Path

HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
FENCE = re.compile(r"^(```|~~~)\s*(\w*)")
SECTION = "quick start"


def quick_start_snippets(text: str) -> list[tuple[int, str]]:
    """(first line number, code) of every Python block in the Quick start section of Markdown ``text``."""
    snippets: list[tuple[int, str]] = []
    level: int | None = None  # the Quick start heading's level while inside the section
    fence: str | None = None
    block: list[str] | None = None
    start = 0
    for number, line in enumerate(text.splitlines(), start=1):
        if fence is not None:  # inside a fenced block: only its closing fence matters
            if line.strip().startswith(fence):
                if block is not None:
                    snippets.append((start, "\n".join(block) + "\n"))
                fence, block = None, None
            elif block is not None:
                block.append(line)
            continue
        opening = FENCE.match(line.strip())
        if opening:
            fence = opening.group(1)
            if level is not None and opening.group(2).lower() in ("python", "py"):
                block, start = [], number + 1
            continue
        heading = HEADING.match(line)
        if heading:
            depth, title = len(heading.group(1)), heading.group(2).strip().lower()
            if level is not None and depth <= level:
                level = None
            if level is None and title.startswith(SECTION):
                level = depth
    return snippets


def run(readme: Path) -> int:
    text = readme.read_text(encoding="utf-8")
    snippets = quick_start_snippets(text)
    if not snippets:
        print(f"{readme}: no ```python block under a 'Quick start' heading", file=sys.stderr)
        return 1
    namespace: dict[str, object] = {"__name__": "__main__"}
    for number, code in snippets:
        began = time.perf_counter()
        print(f"--- {readme.name} line {number}", flush=True)
        try:
            padded = "\n" * (number - 1) + code  # a traceback gives the README's line numbers
            exec(compile(padded, str(readme), "exec"), namespace)
        except Exception:  # a failing snippet is reported with the README's line numbers
            traceback.print_exc()
            print(f"{readme.name}: the snippet at line {number} failed", file=sys.stderr)
            return 1
        print(f"--- ok ({time.perf_counter() - began:.1f} s)", flush=True)
    print(f"{len(snippets)} Quick start snippets of {readme} ran")
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="Run the Python snippets of the README's Quick start.")
    default = Path(__file__).resolve().parent.parent / "README.md"
    parser.add_argument("readme", nargs="?", type=Path, default=default, help="the README (default: the repository's)")
    sys.exit(run(parser.parse_args().readme))
