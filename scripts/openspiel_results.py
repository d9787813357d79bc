"""Measure OpenSpiel's IS-MCTS against our agents in Fiesta Mexicana: the table of docs/openspiel.md.

Every pair (IS-MCTS at a budget of simulations per decision, one of our agents) plays ``--deals`` deals of
two-player Fiesta Mexicana twice, seats swapped, through OpenSpiel's ``evaluate_bots``; the same deals for
every pair. The score counts a win 1 and a tie 1/2, with its 95% interval (Wilson's, allowing for ties). Writes
results/openspiel_fiesta_mexicana.json (needs the openspiel extra: bash scripts/openspiel_test.sh makes
.venv-openspiel)::

    .venv-openspiel/bin/python scripts/openspiel_results.py
    .venv-openspiel/bin/python scripts/openspiel_results.py --budgets 8 32 128 --opponents greedy search --deals 5
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from importlib.metadata import version
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import evaluate_bots

from fiesta_envs.core.rng import derive_seed
from fiesta_envs.evaluation.stats import score_interval
from fiesta_envs.openspiel import AgentBot, FiestaGame, ismcts_bot

GAME = "python_fiesta_mexicana(players=2)"
DEFAULT_OUT = Path(__file__).resolve().parent.parent / "results" / "openspiel_fiesta_mexicana.json"


def play_pair(game: FiestaGame, simulations: int, opponent: str, deals: int, seed: int) -> dict[str, Any]:
    """IS-MCTS with ``simulations`` against ``opponent`` on ``deals`` deals, each played from both seats."""
    returns = []
    started = time.process_time()
    for deal in range(deals):
        for seat in (0, 1):
            bot_seed = derive_seed(seed, deal, seat)
            bots = [AgentBot(game, player, opponent, seed=bot_seed) for player in (0, 1)]
            bots[seat] = ismcts_bot(game, simulations, seed=bot_seed)
            state = game.deal(derive_seed(seed, deal))
            result = evaluate_bots.evaluate_bots(state, bots, np.random.RandomState(bot_seed % (1 << 32)))
            returns.append(float(result[seat]))
    wins, ties = sum(r > 0 for r in returns), sum(r == 0 for r in returns)
    score = wins + ties / 2
    low, high = score_interval(score, len(returns), shared=ties / 4)
    return {
        "ismcts_simulations": simulations,
        "opponent": opponent,
        "games": len(returns),
        "ismcts_wins": wins,
        "ties": ties,
        "ismcts_losses": len(returns) - wins - ties,
        "ismcts_score": score / len(returns),
        "ismcts_score_interval95": [low, high],
        "cpu_seconds": round(time.process_time() - started, 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--budgets", type=int, nargs="+", default=[8, 32, 128], help="IS-MCTS simulations per decision")
    parser.add_argument("--opponents", nargs="+", default=["greedy", "search"], help="our agent specs")
    parser.add_argument("--deals", type=int, default=5, help="deals per pair, each played from both seats")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    if args.deals < 1 or any(budget < 1 for budget in args.budgets):
        parser.error("--deals and every --budgets value must be positive")
    game = pyspiel.load_game(GAME)
    pairs = []
    for simulations in args.budgets:
        for opponent in args.opponents:
            pair = play_pair(game, simulations, opponent, args.deals, args.seed)
            pairs.append(pair)
            low, high = pair["ismcts_score_interval95"]
            print(
                f"IS-MCTS {simulations:>4} vs {opponent:<8} {pair['ismcts_wins']:>3}-{pair['ties']}-"
                f"{pair['ismcts_losses']:<3} score {pair['ismcts_score']:.2f} [{low:.2f}, {high:.2f}] "
                f"({pair['cpu_seconds']:.0f} CPU s)",
                flush=True,
            )
    from fiesta_envs.registry import game_spec

    module = game_spec("fiesta_mexicana").aec_module  # fiesta_envs.fiesta_mexicana_vN
    result = {
        "table": "openspiel",
        "game": str(game),
        "command": (
            f"python scripts/openspiel_results.py --budgets {' '.join(map(str, args.budgets))} "
            f"--opponents {' '.join(args.opponents)} --deals {args.deals} --seed {args.seed}"
        ),
        "deals_per_pair": args.deals,
        "seats": "each deal played twice, IS-MCTS in seat 0 then in seat 1",
        "seed": args.seed,
        "ismcts": {
            "algorithm": "open_spiel.python.algorithms.ismcts.ISMCTSBot",
            "uct_c": 2.0,
            "evaluator": "one uniformly random playout per leaf (EngineRolloutEvaluator)",
            "node_key": "observation string",
            "final_policy": "max visit count",
        },
        "score": "win 1, tie 1/2, loss 0, for IS-MCTS; interval: 95% Wilson, allowing for ties",
        "fiesta_envs_version": version("fiesta_envs"),
        "game_versions": {"fiesta_mexicana": module.rpartition("_")[2]},
        "versions": {
            "fiesta_envs": version("fiesta_envs"),
            "open_spiel": version("open_spiel"),
            "python": platform.python_version(),
        },
        "pairs": pairs,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
