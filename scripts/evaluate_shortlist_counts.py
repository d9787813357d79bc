"""Play a shipped shortlist agent at player counts it was not shipped for, against the associative team.

    python scripts/evaluate_shortlist_counts.py fiesta_de_los_muertos 4 --players 6 8 --games 300 --seed 1

The shortlist (``fiesta_envs/muertos/shortlist.py``) is the same at every player count, so the network of the
4-player agent can play 6 or 8 players; ``fiesta evaluate --agents ppo`` refuses those counts (nothing is shipped
for them), so this script plays the network directly, deal by deal against the ``associative`` team
(``--baseline``: version 2 by default, the team the shipped agents are measured against since 2026-12-02;
``--baseline associative:version=1`` for the first team). The shortlist version is the one the agent's JSON names.
"""

from __future__ import annotations

import argparse
import json

from fiesta_envs.agents.shipped import PACKAGE_WEIGHTS_DIR
from fiesta_envs.core.mlp import ActorSnapshot
from fiesta_envs.core.shortlist import DEFAULT_VERSION, ShortlistPolicy, shortlist_of
from fiesta_envs.evaluation.evaluate import evaluate_against_baselines, print_results_table
from fiesta_envs.registry import game_spec


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game")
    parser.add_argument("trained_players", type=int, help="the player count of the shipped agent")
    parser.add_argument("--players", type=int, nargs="+", required=True)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--baseline", default="associative", help="the team it plays against")
    args = parser.parse_args()
    stem = PACKAGE_WEIGHTS_DIR / f"{args.game}-{args.trained_players}p"
    version = json.loads(stem.with_suffix(".json").read_text()).get("shortlist_version", DEFAULT_VERSION)
    shortlist = shortlist_of(game_spec(args.game).game_class(), version)
    actor = ActorSnapshot.load(stem.with_suffix(".npz"))
    for players in args.players:
        results = evaluate_against_baselines(
            args.game,
            players,
            ShortlistPolicy(actor, shortlist),
            [args.baseline],
            games_per_baseline=args.games,
            seed=args.seed,
        )
        print_results_table(results, f"{args.game}, {players} players: the {args.trained_players}-player agent")


if __name__ == "__main__":
    main()
