"""Same-run A/B of training speed: ``scripts/train_speed.py`` on two checkouts in turn, written as one JSON file.

    git worktree add --detach /tmp/base <commit>
    python scripts/train_speed_ab.py --base /tmp/base --config configs/fiesta_mexicana/ppo.yaml \\
        --steps 16384 --repeats 3 --json results/perf_fiesta_mexicana_ab.json

Each repeat measures both checkouts, one after the other (which one goes first alternates from repeat to
repeat), each in a fresh process whose ``PYTHONPATH`` is that checkout (the measurement checks that the package
it imported, and its training code, come from there). A busy machine slows both sides of a pair alike, so the
ratio of each pair is reported along with the median and the spread of the frames per second of each side.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shlex
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

SCRIPT = Path(__file__).resolve().parent / "train_speed.py"


def run_side(checkout: Path, config: Path, steps: int) -> dict[str, Any]:
    """One measurement of ``checkout`` (its package first on the path, from a neutral directory)."""
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    command = [sys.executable, str(SCRIPT), "--config", str(config), "--steps", str(steps)]
    done = subprocess.run(command, env=env, cwd="/", capture_output=True, text=True, check=True)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    if Path(result["package"]).resolve() != (checkout / "fiesta_envs").resolve():
        raise RuntimeError(f"measured {result['package']}, not the checkout {checkout}")
    if Path(result["training"]).resolve() != (checkout / "training").resolve():
        raise RuntimeError(f"measured the training code of {result['training']}, not the checkout {checkout}")
    return result


def summary(values: list[float]) -> dict[str, float]:
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", type=Path, required=True, help="checkout measured as A (the code before)")
    parser.add_argument(
        "--new", type=Path, default=SCRIPT.parent.parent, help="checkout measured as B (default: this one)"
    )
    parser.add_argument("--config", type=Path, required=True, help="training config (YAML)")
    parser.add_argument("--steps", type=int, default=16384, help="PPO steps per measurement (default 16384)")
    parser.add_argument("--repeats", type=int, default=3, help="pairs of measurements (default 3)")
    parser.add_argument("--json", type=Path, help="write the results there")
    args = parser.parse_args(argv)
    sides = {"A": args.base.resolve(), "B": args.new.resolve()}
    config = args.config.resolve()
    pairs = []
    for repeat in range(args.repeats):
        order = ["A", "B"] if repeat % 2 == 0 else ["B", "A"]
        pair: dict[str, Any] = {"order": "".join(order)}
        for side in order:
            pair[side] = run_side(sides[side], config, args.steps)
            fps = pair[side]["frames_per_second"]
            print(f"repeat {repeat + 1} {side}: {fps:.0f} frames/s ({pair[side]['cpu_seconds']:.1f} s)", flush=True)
        pair["ratio"] = round(pair["B"]["frames_per_second"] / pair["A"]["frames_per_second"], 3)
        print(f"repeat {repeat + 1}: B/A = {pair['ratio']:.2f}", flush=True)
        pairs.append(pair)
    fps = {side: [pair[side]["frames_per_second"] for pair in pairs] for side in sides}
    ratios = [pair["ratio"] for pair in pairs]
    result = {
        "table": "training_speed_ab",
        "command": "python " + " ".join(shlex.quote(a) for a in [sys.argv[0], *(argv or sys.argv[1:])]),
        "what": "frames per second of MaskablePPO training with the config (no warm start, no evaluations): steps "
        "over the CPU seconds of the process in learn(), both checkouts alternated",
        "config": str(args.config),
        "steps": args.steps,
        "checkouts": {side: str(path) for side, path in sides.items()},
        "commits": {side: _commit(path) for side, path in sides.items()},
        "machine": {"cpus": os.cpu_count(), "platform": platform.platform(), "load_average": os.getloadavg()},
        "finished": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "frames_per_second": {side: summary(values) for side, values in fps.items()},
        "ratio_per_pair": ratios,
        "ratio_median": statistics.median(ratios),
        "pairs": pairs,
        **versions(config),
    }
    text = json.dumps(result, indent=2)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(text + "\n", encoding="utf-8")
    medians = {side: result["frames_per_second"][side]["median"] for side in sides}
    print(
        f"A {medians['A']:.0f} frames/s, B {medians['B']:.0f} frames/s (medians); "
        f"B/A per pair {ratios}, median {result['ratio_median']:.2f}"
    )
    return 0


def versions(config: Path) -> dict[str, Any]:
    """This checkout's package version and the version of the config's game (what the results pages cite)."""
    from fiesta_envs.registry import game_spec
    from fiesta_envs.training.config import load_config
    from fiesta_envs.version import __version__

    game = load_config(config).game
    return {"fiesta_envs_version": __version__, "game_versions": {game: f"v{game_spec(game).game_class().version}"}}


def _commit(checkout: Path) -> str:
    done = subprocess.run(["git", "-C", str(checkout), "rev-parse", "HEAD"], capture_output=True, text=True)
    dirty = subprocess.run(
        ["git", "-C", str(checkout), "status", "--porcelain", "--untracked-files=no"], capture_output=True, text=True
    )
    return done.stdout.strip() + (" (with uncommitted changes)" if dirty.stdout.strip() else "")


if __name__ == "__main__":
    sys.exit(main())
