"""Write the identity codes of Fiesta de los Muertos (``fiesta_envs/muertos/data/identity_codes.json``).

Every character and every word of the lexicon gets a fixed binary code of ``BITS`` bits with exactly
``WEIGHT`` ones, any two codes differing in at least ``MIN_DISTANCE`` bits (see
``fiesta_envs/muertos/identity.py`` for why). Codes already in the file are kept, so adding words to the
lexicon never changes the code of an old one; new names take the next free codes of one fixed shuffled
list of all weight-``WEIGHT`` codes (Python's ``random.Random(SEED)``: the same list on every machine).

    python scripts/make_identity_codes.py          # add codes for new names, keep the others
    python scripts/make_identity_codes.py --check  # exit 1 if the file is not what this script writes
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import sys
from importlib import resources

from fiesta_envs.muertos.identity import BITS, CODES_FILE, MIN_DISTANCE, WEIGHT
from fiesta_envs.muertos.lexicon import load_lexicon

SEED = 2026


def candidate_codes() -> list[int]:
    """Every ``BITS``-bit code with ``WEIGHT`` ones, in one fixed shuffled order."""
    codes = [sum(1 << bit for bit in ones) for ones in itertools.combinations(range(BITS), WEIGHT)]
    random.Random(SEED).shuffle(codes)
    return codes


def assign(names: list[str], kept: dict[str, int]) -> dict[str, int]:
    """A code for every name: the kept ones, then the first candidates far enough from every code taken."""
    taken = [kept[name] for name in names if name in kept]
    result = {name: kept[name] for name in names if name in kept}
    candidates = iter(candidate_codes())
    for name in names:
        if name in result:
            continue
        for code in candidates:
            if all((code ^ other).bit_count() >= MIN_DISTANCE for other in taken):
                break
        else:
            raise SystemExit(f"no {BITS}-bit code left for {name!r}: raise BITS in fiesta_envs/muertos/identity.py")
        taken.append(code)
        result[name] = code
    return result


def build(existing: dict | None) -> dict:
    lexicon = load_lexicon()
    names = [f"character:{c.name}" for c in lexicon.characters] + [f"word:{w.text}" for w in lexicon.words]
    kept = {}
    if existing and (existing["bits"], existing["weight"], existing["min_distance"]) == (BITS, WEIGHT, MIN_DISTANCE):
        kept = {name: int(bits, 2) for name, bits in existing["codes"].items()}
    codes = assign(names, kept)
    return {
        "bits": BITS,
        "weight": WEIGHT,
        "min_distance": MIN_DISTANCE,
        "codes": {name: format(codes[name], f"0{BITS}b") for name in names},
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--check", action="store_true", help="only check that the file is up to date")
    arguments = parser.parse_args()
    path = resources.files("fiesta_envs.muertos").joinpath("data", CODES_FILE)
    existing = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else None
    text = json.dumps(build(existing), indent=0, ensure_ascii=False) + "\n"
    if arguments.check:
        same = path.is_file() and path.read_text(encoding="utf-8") == text
        print("identity codes are up to date" if same else f"{path} is out of date: run this script")
        return 0 if same else 1
    with open(str(path), "w", encoding="utf-8") as handle:
        handle.write(text)
    print(f"wrote {len(json.loads(text)['codes'])} codes to {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
