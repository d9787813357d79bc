"""Regenerate the golden playthroughs under tests/playthroughs/ and pin them (read the diff before committing it).

python scripts/make_playthroughs.py                  # after a change that bumped an environment's version
python scripts/make_playthroughs.py --same-version   # a change that is not one of behaviour (an action's name)

tests/playthroughs/versions.json pins each file to its environment's version: a playthrough that changed while
its game kept its version is not re-pinned (exit status 1) unless --same-version says the behaviour is unchanged.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from playthrough_pins import repin
from playthrough_support import write_all

if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--same-version",
        action="store_true",
        help="re-pin changed playthroughs whose environment kept its version (no change of behaviour)",
    )
    args = parser.parse_args()
    for path in write_all():
        print(path)
    problems = repin(same_version=args.same_version)
    for problem in problems:
        print(problem, file=sys.stderr)
    sys.exit(1 if problems else 0)
