"""Time to beat a baseline: train from a config until a periodic evaluation first beats the baseline with the whole
95% interval of its win rate above 0.5, and record the minutes it took into results/time_to_beat.json.

    python scripts/time_to_beat.py --config configs/fiesta_mexicana/quick.yaml --baseline greedy \\
        --games 400 --every 8192
    python scripts/time_to_beat.py --from-run runs/fiesta_mexicana/ppo-seed0 --baseline greedy   # a finished run

The run evaluates the network PPO starts from (after ``init`` and ``pretrain``) and then every ``--every`` steps,
``--games`` seat-rotated games against ``--baseline`` each time, and stops at the first evaluation that beats it.
Minutes are training minutes: set-up, pretrain and PPO, not the evaluations themselves (their cost is a choice of
the measurement). The row keeps the command, the machine's load average at the start and the end, and every
evaluation on the way. Then run ``python scripts/make_results_pages.py``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shlex
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from fiesta_envs.files.atomic import write_atomically

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "results" / "time_to_beat.json"
KEY = ("game", "players", "config", "baseline")


class Beaten(Exception):
    """Raised from the evaluation callback to end the run at the first evaluation that beats the baseline."""


def evaluations(run_dir: Path, baseline: str) -> list[dict[str, Any]]:
    """Every evaluation of ``baseline`` in a run's ``eval.jsonl``: step, minutes, win rate and interval."""
    rows = []
    for line in (Path(run_dir) / "eval.jsonl").read_text(encoding="utf-8").splitlines():
        entry = json.loads(line)
        if baseline not in entry.get("win_rate", {}):
            continue
        if "interval" not in entry or "train_seconds" not in entry:
            raise SystemExit(f"{run_dir}: its eval.jsonl has no intervals or times; train it with this version")
        rows.append(
            {
                "step": entry["step"],
                "minutes": round(entry["train_seconds"] / 60, 2),
                "win_rate": round(entry["win_rate"][baseline], 3),
                "ci": [round(value, 3) for value in entry["interval"][baseline]],
                "games": entry.get("games"),
            }
        )
    return rows


def first_beating(rows: Sequence[Mapping[str, Any]]) -> Mapping[str, Any] | None:
    """The first evaluation whose whole interval is above 0.5."""
    return next((row for row in rows if row["ci"][0] > 0.5), None)


def result_row(config: Any, config_name: str, baseline: str, rows: Sequence[Mapping[str, Any]], **extra: Any) -> dict:
    from fiesta_envs import __version__
    from fiesta_envs.registry import game_spec

    beating = first_beating(rows)
    return {
        "game": config.game,
        "players": config.num_players,
        "config": config_name,
        "baseline": baseline,
        "beaten": beating is not None,
        "minutes": beating["minutes"] if beating else None,
        "step": beating["step"] if beating else None,
        "win_rate": beating["win_rate"] if beating else None,
        "ci": beating["ci"] if beating else None,
        "evaluations": list(rows),
        "fiesta_envs_version": __version__,
        "game_versions": {config.game: f"v{game_spec(config.game).game_class().version}"},
        **extra,
    }


def record(path: Path, row: Mapping[str, Any]) -> None:
    """Replace the row of the same game, players, config and baseline in ``path`` (atomically)."""
    data = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {"table": "time_to_beat", "rows": []}
    kept = [r for r in data["rows"] if tuple(r.get(k) for k in KEY) != tuple(row[k] for k in KEY)]
    data["rows"] = sorted([*kept, dict(row)], key=lambda r: tuple(str(r[k]) for k in KEY))
    write_atomically(path, json.dumps(data, indent=2) + "\n")


def _load_average() -> float:
    return round(os.getloadavg()[0], 2)


def measure(args: argparse.Namespace) -> dict[str, Any]:
    """Train from ``args.config`` until the first evaluation that beats ``args.baseline``."""
    from fiesta_envs.training.config import load_config
    from fiesta_envs.training.trainer import Trainer

    overrides = [
        *args.overrides,
        f"eval.every={args.every}",
        f"eval.games={args.games}",
        f"eval.baselines=[{args.baseline!r}]",
        "eval.at_start=true",
        "final_eval.games=0",
    ]
    config = load_config(args.config, overrides)
    run_dir = Path(args.run_dir or ROOT / "runs" / "time_to_beat" / f"{config.game}-{Path(args.config).stem}")
    if run_dir.exists() and any(run_dir.iterdir()):
        raise SystemExit(f"{run_dir} is not empty: choose another --run-dir or remove it")
    config.run_dir = str(run_dir)

    def stop_when_beaten(step: int, rates: Mapping[str, float]) -> None:
        if first_beating(evaluations(run_dir, args.baseline)) is not None:
            raise Beaten

    load_at_start = _load_average()
    with contextlib.suppress(Beaten):
        Trainer(config, run_dir, progress=False, on_evaluation=stop_when_beaten).run()
    return result_row(
        config,
        _config_name(args.config),
        args.baseline,
        evaluations(run_dir, args.baseline),
        total_timesteps=config.total_timesteps,
        command=args.command,
        load_average=[load_at_start, _load_average()],
        cpus=os.cpu_count(),
    )


def _config_name(path: Path | str) -> str:
    path = Path(path)
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


def _without_paths_of_this_machine(arguments: Sequence[str]) -> list[str]:
    """The arguments without ``--run-dir`` and ``--json`` (where this machine wrote; the result does not depend on
    them)."""
    kept, skip = [], False
    for argument in arguments:
        if skip:
            skip = False
        elif argument in ("--run-dir", "--json"):
            skip = True
        elif not argument.startswith(("--run-dir=", "--json=")):
            kept.append(argument)
    return kept


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--config", type=Path, help="the training config to time")
    parser.add_argument("--from-run", type=Path, help="read a finished run's eval.jsonl instead of training")
    parser.add_argument("--baseline", required=True, help="the baseline to beat (an agent spec: greedy, careful...)")
    parser.add_argument("--games", type=int, default=400, help="games per evaluation (default 400)")
    parser.add_argument("--every", type=int, default=8192, help="steps between evaluations (default 8192)")
    parser.add_argument("--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--run-dir", type=Path, help="where the run writes (default: runs/time_to_beat/...)")
    parser.add_argument(
        "--json", type=Path, default=RESULTS, help="the results file (default results/time_to_beat.json)"
    )
    given = list(argv) if argv is not None else sys.argv[1:]
    args = parser.parse_args(given)
    args.command = shlex.join(["python", "scripts/time_to_beat.py", *_without_paths_of_this_machine(given)])
    if (args.config is None) == (args.from_run is None):
        parser.error("give --config (train and time it) or --from-run (read a finished run), not both")
    if args.games < 1 or args.every < 1:
        parser.error("--games and --every must be positive")
    from fiesta_envs.core.errors import FiestaError

    try:
        if args.from_run is not None:
            from fiesta_envs.training.train import resume_config

            config, run_dir, _ = resume_config(args.from_run, [], None)
            rows = evaluations(run_dir, args.baseline)
            row = result_row(config, str(args.from_run), args.baseline, rows, command=args.command)
        else:
            row = measure(args)
    except FiestaError as error:  # a bad config, baseline or run directory: the message names it
        print(f"error: {error}", file=sys.stderr)
        return 2
    record(args.json, row)
    if row["beaten"]:
        print(
            f"{row['game']} ({row['config']}): beats {row['baseline']} after {row['minutes']:.1f} training minutes "
            f"(step {row['step']:,}): {row['win_rate']:.3f} [{row['ci'][0]:.3f}, {row['ci'][1]:.3f}]"
        )
    else:
        print(
            f"{row['game']} ({row['config']}): did not beat {row['baseline']} in {len(row['evaluations'])} evaluations"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
