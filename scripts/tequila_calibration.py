"""Measure how solo Tequila scores with the sheet's prestige values: the calibration behind the ruling.

    python scripts/tequila_calibration.py --agent planner --deals 1000
    python scripts/tequila_calibration.py --agent planner --deals 300 --cask-tile B
    python scripts/tequila_calibration.py --agent ppo --deals 1000 --seed 1

Plays ``--deals`` solo games (deal seeds ``seed .. seed + deals - 1``) with one agent and writes a row to
results/tequila_calibration.json (replacing the row of the same agent, cask tile and seed): the score's mean,
standard deviation, minimum, quartiles and maximum, the solo ranks reached, and the mean points of each scoring
source. ``python scripts/make_results_pages.py`` then writes the page the Tequila ruling links to.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import shlex
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

import fiesta_envs
from fiesta_envs.files.atomic import write_atomically
from fiesta_envs.registry import game_spec, make_policy

RESULTS = Path(__file__).resolve().parents[1] / "results" / "tequila_calibration.json"
GAME = "tequila"


def play_deal(task: tuple[str, str, int]) -> dict[str, Any]:
    """One solo game of ``agent`` on deal ``seed``: its final score, rank and points by source."""
    agent, cask_tile, seed = task
    game = game_spec(GAME).game_class()(num_players=1, cask_tile=cask_tile)
    policy = make_policy(GAME, agent, seed=seed, num_players=1, options=dict(game.config))
    game.reset(seed=seed)
    policy.start_episode(seed)
    while not game.is_over:
        player = game.current_player
        mask = game.legal_mask()
        observation = game.observe(player) if policy.needs_observation else None
        game.step(policy.act(observation, mask, game, player))
    info = game.final_info()
    return {"score": info["scores"][0], "rank": info["solo_rank"], "sources": info["score_breakdown"][0]}


def summary(games: Sequence[dict[str, Any]]) -> dict[str, Any]:
    scores = np.array([g["score"] for g in games], dtype=float)
    quartiles = np.percentile(scores, [25, 50, 75])
    ranks = Counter(g["rank"] for g in games)
    sources = sorted({name for g in games for name in g["sources"]})
    by_source = {name: round(float(np.mean([g["sources"].get(name, 0) for g in games])), 1) for name in sources}
    return {
        "mean": round(float(scores.mean()), 1),
        "sd": round(float(scores.std(ddof=1)), 1) if len(scores) > 1 else 0.0,
        "min": int(scores.min()),
        "quartiles": [round(float(q), 1) for q in quartiles],
        "max": int(scores.max()),
        "ranks": dict(ranks.most_common()),
        "points_by_source": dict(sorted(by_source.items(), key=lambda item: -item[1])),
    }


def record(row: dict[str, Any], path: Path) -> None:
    data = {"table": "tequila_calibration", "rows": []}
    if path.exists():
        data = json.loads(path.read_text(encoding="utf-8"))
    key = ("agent", "cask_tile", "seed")
    rows = [r for r in data["rows"] if tuple(r[k] for k in key) != tuple(row[k] for k in key)]
    rows.append(row)
    rows.sort(key=lambda r: (r["cask_tile"], r["agent"], r["seed"]))
    data["rows"] = rows
    write_atomically(path, json.dumps(data, indent=2) + "\n")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--agent", default="planner", help="agent spec (default: planner)")
    parser.add_argument("--deals", type=int, default=1000, help="solo games, one per deal seed (default: 1000)")
    parser.add_argument("--seed", type=int, default=0, help="first deal seed (default: 0)")
    parser.add_argument("--cask-tile", choices=("A", "B"), default="A", help="cask tile side (default: A)")
    parser.add_argument("--workers", type=int, default=2, help="processes playing the games (default: 2)")
    parser.add_argument("--out", type=Path, default=RESULTS, help="results file (default: %(default)s)")
    args = parser.parse_args(argv)
    if args.deals < 1:
        parser.error(f"--deals must be at least 1, got {args.deals}")
    tasks = [(args.agent, args.cask_tile, seed) for seed in range(args.seed, args.seed + args.deals)]
    if args.workers > 1:
        with multiprocessing.Pool(args.workers) as pool:
            games = pool.map(play_deal, tasks, chunksize=8)
    else:
        games = [play_deal(task) for task in tasks]
    game_class = game_spec(GAME).game_class()
    command = "python scripts/tequila_calibration.py " + shlex.join(sys.argv[1:] if argv is None else list(argv))
    row = {
        "agent": args.agent,
        "cask_tile": args.cask_tile,
        "deals": args.deals,
        "seed": args.seed,
        **summary(games),
        "command": command.strip(),
        "fiesta_envs_version": fiesta_envs.__version__,
        "game_versions": {GAME: f"v{game_class.version}"},
    }
    record(row, args.out)
    print(json.dumps(row, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
