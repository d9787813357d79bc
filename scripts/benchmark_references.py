"""Make the benchmark ladder's reference games of a game, stored in the package for ``fiesta benchmark``.

    python scripts/benchmark_references.py --game fiesta_mexicana --players 2 --games 20
    python scripts/benchmark_references.py --game tortilla_de_patatas --players 2 --games 20

Plays the round robin of the game's ladder (``fiesta_envs.evaluation.ladder``: random, each baseline version,
search, the shipped agents) in duels with seats rotated, ``--games`` games per pair on the first deals of the deal
set, rates it (random = 0) and writes ``fiesta_envs/evaluation/benchmark_references/<game>-<N>p.json`` (or into
``--out-dir``). The games are fixed by the deal set, so the same command always writes the same file; make it
again whenever the game's engine version, a baseline or the shipped agent changes.
"""

from __future__ import annotations

import argparse
import time

from fiesta_envs.evaluation.ladder import (
    DEAL_SETS,
    DEFAULT_DEAL_SET,
    REFERENCES_DIR,
    make_references,
    save_references,
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", required=True, help="game name, e.g. fiesta_mexicana")
    parser.add_argument("--players", type=int, required=True, help="number of players")
    parser.add_argument("--games", type=int, default=20, help="games per pair of ladder agents (default 20)")
    parser.add_argument("--deal-set", choices=sorted(DEAL_SETS), default=DEFAULT_DEAL_SET, help="published deal set")
    parser.add_argument("--workers", type=int, default=1, help="parallel processes (0: one per CPU core)")
    parser.add_argument("--out-dir", default=str(REFERENCES_DIR), help="where to write <game>-<N>p.json")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error(f"--games must be at least 1, got {args.games}")
    start = time.perf_counter()
    references = make_references(
        args.game, args.players, games_per_pair=args.games, deal_set=args.deal_set, workers=args.workers
    )
    path = save_references(references, args.out_dir)
    print(f"{path}: {len(references.games)} games in {time.perf_counter() - start:.0f} s")
    for rating in sorted(references.ratings, key=lambda r: -r.rating):
        print(f"  {rating.agent:<20} {rating.rating:+6.0f} [{rating.ci_low:+.0f}, {rating.ci_high:+.0f}]")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
