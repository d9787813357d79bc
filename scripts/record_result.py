"""Record a measured result into results/*.json, the data the results pages are generated from.

    python scripts/record_result.py results/search.json --setting "2 players" -- \\
        fiesta evaluate --game tequila --players 2 --agents search,planner --games 200 --seed 1
    python scripts/record_result.py results/fuzz.json -- fiesta fuzz --game tortilla_de_patatas --games 10000 --seed 1
    python scripts/record_result.py results/learning.json --setting "2 players" --from out/results.json \\
        --command "fiesta evaluate --game fiesta_mexicana --players 2 --agents ppo,greedy --games 1000 --seed 1"
    python scripts/record_result.py results/ladder.json --setting "2 players" -- \\
        fiesta evaluate --game fiesta_mexicana --players 2 --agents random,greedy,search,ppo --games 200 --seed 1

The command is run with its JSON output switched on (``fiesta evaluate --out DIR``, ``fiesta fuzz --json FILE``)
unless ``--from`` names an output already written. Rows of an evaluation (one per agent against opponent) replace
the rows of the same game, setting, agent, opponent and seed; an evaluation recorded into the ladder
(``results/ladder.json``) is one row of the whole run, its ratings and the duels of agents next to each other in
the order, and replaces the row of the same game and setting; a fuzz report replaces the row of the same command.
Each row keeps the command, the fiesta_envs version and the game version. The file is rewritten atomically; then
run ``python scripts/make_results_pages.py``.
"""

from __future__ import annotations

import argparse
import itertools
import json
import resource
import shlex
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from fiesta_envs.files.atomic import write_atomically

EVALUATION_KEY = ("game", "setting", "agent", "opponent", "seed")


def evaluation_rows(output: Mapping[str, Any], command: str, setting: str) -> list[dict[str, Any]]:
    """The rows of a ``fiesta evaluate`` results.json: every duel (or team comparison) of the run."""
    game = output["game"]
    rows = []
    for match in output["matches"]:
        wins = match["games"] - match["draws"] - match["losses"]  # outright wins; ties count in draws
        rows.append(
            {
                "game": game,
                "setting": setting,
                "players": output["num_players"],
                "options": output["options"],
                "agent": match["agent"],
                "opponent": match["opponent"],
                "games": match["games"],
                "seed": output["seed"],
                "wins": wins,
                "draws": match["draws"],
                "losses": match["losses"],
                "win_rate": round(match["win_rate"], 3),
                "ci": [round(match["ci_low"], 3), round(match["ci_high"], 3)],
                "mean_score": round(match["mean_score"], 2),
                "mean_margin": round(match["mean_margin"], 2),
                "same_deals": bool(output["team_play"]),
                "command": command,
                "fiesta_envs_version": output["fiesta_envs_version"],
                "game_versions": {game: f"v{output['game_version']}"},
                **team_results(output, match["agent"], match["opponent"]),
                **decision_times(output, match["agent"], match["opponent"]),
            }
        )
    return rows


def ladder_row(output: Mapping[str, Any], command: str, setting: str, cpu_seconds: float | None) -> dict[str, Any]:
    """One ladder row of a ``fiesta evaluate`` results.json: every agent's rating, best first, and the duel of each
    agent with the next one down (W / D / L as the run counted them)."""
    game = output["game"]
    ratings = sorted(output["ratings"], key=lambda r: -r["rating"])
    per_pair = output["games_per_table"]
    unit = ("campaigns" if game == "la_catrina" else "deals") if output.get("team_play") else "per pair"
    return {
        "game": game,
        "setting": setting,
        "players": output["num_players"],
        "options": output["options"],
        "games": per_pair,
        "games_label": f"{per_pair:,} {unit}",
        "command": command,
        "seed": output["seed"],
        "commit": _commit(),
        "cpu_seconds": None if cpu_seconds is None else round(cpu_seconds),
        "fiesta_envs_version": output["fiesta_envs_version"],
        "game_versions": {game: f"v{output['game_version']}"},
        "ratings": [
            {"agent": r["agent"], "rating": round(r["rating"]), "ci": [round(r["ci_low"]), round(r["ci_high"])]}
            for r in ratings
        ],
        "duels": [duel(output["matches"], a["agent"], b["agent"]) for a, b in itertools.pairwise(ratings)],
    }


def duel(matches: Sequence[Mapping[str, Any]], first: str, second: str) -> dict[str, Any]:
    """``first`` against ``second`` from the run's matches, whichever way round the run listed them."""
    for match in matches:
        pair = (match["agent"], match["opponent"])
        if pair in ((first, second), (second, first)):
            wins = match["games"] - match["draws"] - match["losses"]
            rate, low, high = match["win_rate"], match["ci_low"], match["ci_high"]
            if pair == (second, first):
                wins, losses = match["losses"], wins
                rate, low, high = 1 - rate, 1 - high, 1 - low
            else:
                losses = match["losses"]
            return {
                "a": first,
                "b": second,
                "games": match["games"],
                "wins": wins,
                "draws": match["draws"],
                "losses": losses,
                "win_rate": round(rate, 3),
                "ci": [round(low, 3), round(high, 3)],
            }
    raise SystemExit(f"the run has no match of {first} against {second}")


def team_results(output: Mapping[str, Any], agent: str, opponent: str) -> dict[str, Any]:
    """A team comparison's mean results with their 95% intervals (skulls, flowers); nothing for games of
    opponents."""
    if not output.get("team_play"):
        return {}
    teams = {team["agent"]: team for team in output["teams"]}
    fields: dict[str, Any] = {}
    for prefix, name in (("", agent), ("opponent_", opponent)):
        team = teams[name]
        fields[f"{prefix}mean_score"] = round(team["mean_score"], 2)
        fields[f"{prefix}mean_score_ci"] = [round(team["ci_low"], 2), round(team["ci_high"], 2)]
    return fields


def decision_times(output: Mapping[str, Any], agent: str, opponent: str) -> dict[str, Any]:
    """The agent's and the opponent's mean milliseconds per decision in the run, where it timed them."""
    times = {entry["agent"]: entry for entry in output.get("decision_times", [])}
    fields: dict[str, Any] = {}
    for field, name in (("ms_per_decision", agent), ("opponent_ms_per_decision", opponent)):
        if name in times:
            mean = times[name]["mean_ms"]
            fields[field] = round(mean, 3 if mean < 1 else 1)
    return fields


def fuzz_rows(output: Mapping[str, Any], command: str, cpu_seconds: float | None) -> list[dict[str, Any]]:
    """One row per game of a ``fiesta fuzz --json`` report (``cpu_seconds``: of the whole command, if known)."""
    import fiesta_envs
    from fiesta_envs.registry import game_spec

    rows = []
    for report in output["fuzz"]:
        counts = sorted({c["num_players"] for c in report["configurations"]})
        configurations = len(report["configurations"])
        rows.append(
            {
                "game": report["game"],
                "players": counts[0] if len(counts) == 1 else None,
                "configurations": f"{configurations} configurations at {', '.join(map(str, counts))} players",
                "configurations_run": configurations,
                "configurations_total": configurations,
                "games_each": report["games"] // max(configurations, 1),
                "steps": report["steps"],
                "checks": report["total_checks"],
                "failures": sum(report["failures"].values()),
                "commit": _commit(),
                "cpu_seconds": None if cpu_seconds is None or len(output["fuzz"]) > 1 else round(cpu_seconds),
                "command": command,
                "fiesta_envs_version": fiesta_envs.__version__,
                "game_versions": {report["game"]: f"v{game_spec(report['game']).game_class().version}"},
            }
        )
    return rows


def _commit() -> str:
    result = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    return result.stdout.strip() or "—"


def merge(existing: Sequence[Mapping[str, Any]], new: Sequence[Mapping[str, Any]], key: Sequence[str]) -> list:
    """``existing`` with every row of the same key as a new row replaced (in place), other new rows appended."""

    def key_of(row: Mapping[str, Any]) -> tuple:
        return tuple(json.dumps(row.get(k), sort_keys=True) for k in key)

    fresh = {key_of(row): dict(row) for row in new}
    merged = [fresh.pop(key_of(row), row) for row in existing]
    return merged + list(fresh.values())


def load_results(results_file: Path) -> dict[str, Any]:
    if not results_file.is_file():
        known = ", ".join(sorted(path.name for path in results_file.parent.glob("*.json"))) or "none"
        raise SystemExit(f"{results_file} does not exist; the results files there: {known}")
    return json.loads(results_file.read_text(encoding="utf-8"))


def record(
    results_file: Path, output: Mapping[str, Any], command: str, setting: str | None, cpu_seconds: float | None = None
) -> int:
    """Add the rows of one command's JSON output to ``results_file``; returns how many rows were written."""
    data = load_results(results_file)
    key: Sequence[str]
    if "fuzz" in output:
        rows, key = fuzz_rows(output, command, cpu_seconds), ("command", "game")
    elif "matches" in output:
        if not setting:
            raise SystemExit("an evaluation needs --setting, the words naming its table row, e.g. '2 players'")
        if data.get("table") == "ladder":
            rows, key = [ladder_row(output, command, setting, cpu_seconds)], ("game", "setting")
        else:
            rows, key = evaluation_rows(output, command, setting), EVALUATION_KEY
    else:
        raise SystemExit("not a fiesta evaluate results.json nor a fiesta fuzz --json report")
    if "rows" not in data:
        raise SystemExit(f"{results_file} has no 'rows' list to add to")
    data["rows"] = merge(data["rows"], rows, key)
    write_atomically(results_file, json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    return len(rows)


def run(command: Sequence[str], folder: Path) -> tuple[Path, float]:
    """Run a ``fiesta evaluate`` or ``fiesta fuzz`` command with its JSON output in ``folder``; returns that
    output's path and the CPU-seconds the command used."""
    if "evaluate" in command:
        extra, output = ["--out", str(folder)], folder / "results.json"
    elif "fuzz" in command:
        extra, output = ["--json", str(folder / "fuzz.json")], folder / "fuzz.json"
    else:
        raise SystemExit("record_result runs 'fiesta evaluate' or 'fiesta fuzz' commands; use --from for others")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([*command, *extra], check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return output, (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("results_file", type=Path, help="a results/*.json file")
    parser.add_argument("--setting", help="the words naming the row's setting, e.g. \"2 players, Kids' menu\"")
    parser.add_argument("--from", dest="source", type=Path, help="a JSON output already written")
    parser.add_argument("--command", help="with --from: the command that wrote it")
    parser.epilog = "-- COMMAND ...: the fiesta evaluate or fiesta fuzz command to run and record"
    argv = list(sys.argv[1:] if argv is None else argv)
    split = argv.index("--") if "--" in argv else len(argv)
    args = parser.parse_args(argv[:split])
    command_line = argv[split + 1 :]
    load_results(args.results_file)  # before a long run, not after it
    cpu_seconds = None
    if args.source:
        if not args.command:
            parser.error("--from needs --command, the command that wrote the file")
        output, command = json.loads(args.source.read_text(encoding="utf-8")), args.command
    elif command_line:
        with tempfile.TemporaryDirectory() as folder:
            path, cpu_seconds = run(command_line, Path(folder))
            output = json.loads(path.read_text(encoding="utf-8"))
        command = shlex.join(command_line)
    else:
        parser.error("give the command after --, or --from FILE --command TEXT")
    written = record(args.results_file, output, command, args.setting, cpu_seconds)
    print(f"{args.results_file}: {written} rows recorded; now run python scripts/make_results_pages.py")
    return 0


if __name__ == "__main__":
    sys.exit(main())
