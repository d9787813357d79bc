"""Play a shortlist policy against the associative team, deal by deal, at any player count.

    python scripts/evaluate_shortlist.py fiesta_de_los_muertos --shipped 4 --players 6 8 --games 300 --seed 1
    python scripts/evaluate_shortlist.py la_catrina --candidate0 2 --players 4 --games 50 --seed 1

``--shipped N`` plays the network of the shipped N-player agent with the shortlist version its JSON names. The
shortlist (``fiesta_envs/muertos/shortlist.py``) is the same at every player count, so the 4-player network can
play 6 or 8 players; ``fiesta evaluate --agents ppo`` plays it only at the counts its JSON lists in ``also_plays``
(those measured here with 1,000 deals and a win rate of at least 0.5).

``--candidate0 V`` plays candidate 0 of shortlist version V: the choice of the team that version ranks by
(version 1 ranks by ``associative:version=1``, version 2 by ``associative``, version 2) with its random tie-breaks
replaced by the lowest id, so the two teams should score alike (the margin is the candidate-0 team's lead).

``--baseline`` is the team it plays against: ``associative`` (version 2, the team the shipped agents are measured
against) by default, ``associative:version=1`` for the first team.
"""

from __future__ import annotations

import argparse
import json

from fiesta_envs.agents.shipped import PACKAGE_WEIGHTS_DIR
from fiesta_envs.evaluation.evaluate import evaluate_against_baselines, print_results_table
from fiesta_envs.policies.mlp import ActorSnapshot
from fiesta_envs.policies.shortlist import (
    DEFAULT_VERSION,
    ShortlistPolicy,
    first_candidate_policy,
    shortlist_of,
)
from fiesta_envs.registry import game_spec


def shipped_policy(game: str, trained_players: int) -> tuple[ShortlistPolicy, str]:
    """The shipped agent's network behind the shortlist its JSON names, and a title for the table."""
    stem = PACKAGE_WEIGHTS_DIR / f"{game}-{trained_players}p"
    version = json.loads(stem.with_suffix(".json").read_text()).get("shortlist_version", DEFAULT_VERSION)
    shortlist = shortlist_of(game_spec(game).game_class(), version)
    policy = ShortlistPolicy(ActorSnapshot.load(stem.with_suffix(".npz")), shortlist)
    return policy, f"the {trained_players}-player agent"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game")
    policy_choice = parser.add_mutually_exclusive_group(required=True)
    policy_choice.add_argument("--shipped", type=int, metavar="N", help="the shipped N-player agent's network")
    policy_choice.add_argument("--candidate0", type=int, metavar="V", help="candidate 0 of shortlist version V")
    parser.add_argument("--players", type=int, nargs="+", required=True)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--baseline", default="associative", help="the team it plays against")
    args = parser.parse_args()
    if args.shipped is not None:
        policy, title = shipped_policy(args.game, args.shipped)
    else:
        shortlist = shortlist_of(game_spec(args.game).game_class(), args.candidate0)
        policy, title = first_candidate_policy(shortlist), f"candidate 0 of {shortlist.name}"
    for players in args.players:
        results = evaluate_against_baselines(
            args.game,
            players,
            policy,
            [args.baseline],
            games_per_baseline=args.games,
            seed=args.seed,
        )
        print_results_table(results, f"{args.game}, {players} players: {title}")


if __name__ == "__main__":
    main()
