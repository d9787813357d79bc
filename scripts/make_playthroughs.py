"""Regenerate the golden playthroughs under tests/playthroughs/ (read the diff before committing it).

python scripts/make_playthroughs.py
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from playthrough_support import write_all

if __name__ == "__main__":
    for path in write_all():
        print(path)
