"""A team always playing candidate 0 of a shortlist version against a baseline team, on the same deals.

    python scripts/shortlist_candidate0.py fiesta_de_los_muertos 4 --version 2 --games 50 --seed 1

Candidate 0 is the choice of the team the shortlist ranks by (``fiesta_envs/muertos/shortlist.py``: version 1
ranks by ``associative:version=1``, version 2 by ``associative``, version 2), its random tie-breaks replaced by
the lowest id: the two teams should score alike (the margin is the candidate-0 team's lead).
"""

from __future__ import annotations

import argparse

from fiesta_envs.core.shortlist import DEFAULT_VERSION, first_candidate_policy, shortlist_of
from fiesta_envs.evaluation.evaluate import evaluate_against_baselines, print_results_table
from fiesta_envs.registry import game_spec


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game")
    parser.add_argument("players", type=int)
    parser.add_argument("--version", type=int, default=DEFAULT_VERSION, help="the shortlist version")
    parser.add_argument("--baseline", default="associative", help="the team to compare with (default: associative)")
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    shortlist = shortlist_of(game_spec(args.game).game_class(), args.version)
    results = evaluate_against_baselines(
        args.game,
        args.players,
        first_candidate_policy(shortlist),
        [args.baseline],
        games_per_baseline=args.games,
        seed=args.seed,
    )
    print_results_table(results, f"{args.game}, {args.players} players: candidate 0 of {shortlist.name}")


if __name__ == "__main__":
    main()
