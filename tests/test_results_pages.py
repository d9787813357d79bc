"""The results pages and the README's headline table are generated from results/*.json: the committed pages
match the data, every row names its command and versions, and a recorded command's output lands in the data."""

from __future__ import annotations

import copy
import importlib.util
import itertools
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def load_script(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


pages = load_script("make_results_pages")
recorder = load_script("record_result")


def test_committed_pages_and_readme_headline_are_those_the_data_generates(capsys):
    assert pages.main(["--check"]) == 0, capsys.readouterr().out


def test_check_fails_and_names_the_page_when_a_page_differs(tmp_path, monkeypatch, capsys):
    stale = tmp_path / "learning.md"
    stale.write_text("# Shipped agents\n\n| typed by hand | 0.999 |\n", encoding="utf-8")
    outputs = pages.outputs()
    monkeypatch.setattr(pages, "outputs", lambda: {**outputs, stale: outputs[pages.PAGES / "learning.md"]})
    monkeypatch.setattr(pages, "ROOT", tmp_path)
    assert pages.main(["--check"]) == 1
    assert "learning.md differs from results/*.json" in capsys.readouterr().out


def measured_blocks(data: dict) -> list[dict]:
    """Everything in a results file that carries a command and versions: rows, or whole tables of a run."""
    if data["table"] == "rllib":
        return [data["throughput"], data["shipped_config"]]
    if data["table"] in ("openspiel", "training_speed", "training_speed_ab"):  # one run: its rows share the command
        return [data]
    return [*data["rows"], *data.get("training", []), *([data["main_job"]] if "main_job" in data else [])]


@pytest.mark.parametrize("name", sorted(path.stem for path in (ROOT / "results").glob("*.json")))
def test_every_result_names_its_command_package_version_and_game_versions(name):
    blocks = measured_blocks(pages.load(name))
    assert blocks
    for block in blocks:
        assert block["command"].startswith(("fiesta ", "python scripts/", "bash scripts/")), block
        assert block["fiesta_envs_version"] and block["game_versions"], block


def test_the_headline_follows_the_data():
    learning, search = pages.load("learning"), pages.load("search")
    changed = copy.deepcopy(learning)
    row = next(r for r in changed["rows"] if r["game"] == "tequila" and r["opponent"] == "planner" and r["seed"] == 1)
    row["win_rate"], row["ci"] = 0.123, [0.1, 0.15]
    before, after = pages.headline(learning, search), pages.headline(changed, search)
    assert "0.123 [0.100, 0.150]" in after and "0.123" not in before
    # a line per setting the agents were trained for, against the plain baseline, `search` beside it where measured
    lines = after.splitlines()
    assert len(lines) == 2 + 7
    assert lines[2].startswith("| Fiesta Mexicana, 2 players | `greedy` | 0.582 [0.552, 0.611] | 0.608 [")


def test_record_result_adds_an_evaluation_and_replaces_the_same_row(tmp_path):
    out = tmp_path / "out"
    command = [
        sys.executable,
        "-m",
        "fiesta_envs.cli",
        "evaluate",
        "--game",
        "tortilla_de_patatas",
        "--players",
        "2",
        "--agents",
        "careful,random",
        "--games",
        "4",
        "--seed",
        "3",
        "--workers",
        "1",
        "--out",
        str(out),
    ]
    subprocess.run(command, check=True, capture_output=True, cwd=ROOT)
    results = tmp_path / "search.json"
    results.write_text(json.dumps({"table": "search", "rows": [{"game": "tequila", "setting": "2 players"}]}))
    text = "fiesta evaluate --game tortilla_de_patatas --players 2 --agents careful,random --games 4 --seed 3"
    argv = [str(results), "--setting", "2 players, Day's menu", "--from", str(out / "results.json"), "--command", text]
    assert recorder.main(argv) == 0
    assert recorder.main(argv) == 0  # the same run again replaces its row
    rows = json.loads(results.read_text())["rows"]
    assert [r["game"] for r in rows] == ["tequila", "tortilla_de_patatas"]
    row = rows[1]
    assert (row["agent"], row["opponent"], row["games"], row["seed"]) == ("careful", "random", 4, 3)
    assert row["wins"] + row["draws"] + row["losses"] == 4 and row["command"] == text
    assert row["game_versions"] == {"tortilla_de_patatas": "v1"} and row["fiesta_envs_version"]
    assert row["ci"][0] <= row["win_rate"] <= row["ci"][1]
    times = {t["agent"]: t["mean_ms"] for t in json.loads((out / "results.json").read_text())["decision_times"]}
    assert row["ms_per_decision"] == pytest.approx(times["careful"], abs=1e-3)
    assert row["opponent_ms_per_decision"] == pytest.approx(times["random"], abs=1e-3)
    assert "against" in pages.decision_time(row) and pages.decision_time({"ms_per_decision": None}) == "—"


def test_record_result_turns_a_run_into_one_ladder_row_with_its_ratings_and_neighbouring_duels(tmp_path):
    out = tmp_path / "out"
    agents = "random,greedy:version=1,greedy"
    command = [sys.executable, "-m", "fiesta_envs.cli", "evaluate", "--game", "fiesta_mexicana", "--players", "2"]
    command += ["--agents", agents, "--games", "4", "--seed", "2", "--workers", "1", "--no-plot", "--out", str(out)]
    subprocess.run(command, check=True, capture_output=True, cwd=ROOT)
    results = tmp_path / "ladder.json"
    results.write_text(json.dumps({"table": "ladder", "rows": [{"game": "tequila", "setting": "2 players"}]}))
    text = f"fiesta evaluate --game fiesta_mexicana --players 2 --agents {agents} --games 4 --seed 2"
    argv = [str(results), "--setting", "2 players", "--from", str(out / "results.json"), "--command", text]
    assert recorder.main(argv) == 0
    assert recorder.main(argv) == 0  # the same game and setting again replaces its row
    rows = json.loads(results.read_text())["rows"]
    assert [r["game"] for r in rows] == ["tequila", "fiesta_mexicana"]
    row = rows[1]
    assert (row["games"], row["games_label"], row["seed"], row["command"]) == (4, "4 per pair", 2, text)
    ratings = row["ratings"]
    assert sorted(r["agent"] for r in ratings) == sorted(agents.split(","))
    assert [r["rating"] for r in ratings] == sorted((r["rating"] for r in ratings), reverse=True)
    assert next(r for r in ratings if r["agent"] == "random")["rating"] == 0
    order = [r["agent"] for r in ratings]
    assert [(d["a"], d["b"]) for d in row["duels"]] == list(itertools.pairwise(order))
    matches = json.loads((out / "results.json").read_text())["matches"]
    for d in row["duels"]:
        assert d["wins"] + d["draws"] + d["losses"] == d["games"] == 4
        assert d["ci"][0] <= d["win_rate"] <= d["ci"][1]
        listed = next(m for m in matches if {m["agent"], m["opponent"]} == {d["a"], d["b"]})
        same_way = listed["agent"] == d["a"]
        assert d["win_rate"] == pytest.approx(listed["win_rate"] if same_way else 1 - listed["win_rate"], abs=1e-3)
        assert d["losses"] == (listed["losses"] if same_way else listed["games"] - listed["draws"] - listed["losses"])


def test_record_result_refuses_an_evaluation_without_a_setting(tmp_path):
    results = tmp_path / "search.json"
    results.write_text(json.dumps({"rows": []}))
    output = {"game": "tequila", "matches": [], "num_players": 2, "seed": 1}
    with pytest.raises(SystemExit, match="needs --setting"):
        recorder.record(results, output, "fiesta evaluate ...", None)


def test_record_result_turns_a_fuzz_report_into_a_row_keyed_by_its_command(tmp_path):
    results = tmp_path / "fuzz.json"
    results.write_text(json.dumps({"table": "fuzz", "rows": []}))
    configurations = [{"num_players": 2, "options": {}}, {"num_players": 2, "options": {"reward": "margin"}}]
    report = {
        "game": "tequila",
        "configurations": configurations,
        "games": 20,
        "steps": 500,
        "total_checks": 1500,
        "failures": {"mask": 1},
        "seconds": 3.2,
    }
    command = "fiesta fuzz --game tequila --players 2 --games 10 --seed 1"
    for _ in range(2):
        recorder.record(results, {"fuzz": [report]}, command, None, cpu_seconds=5.6)
    (row,) = json.loads(results.read_text())["rows"]
    assert (row["players"], row["games_each"], row["steps"], row["checks"]) == (2, 10, 500, 1500)
    assert (row["failures"], row["cpu_seconds"], row["command"]) == (1, 6, command)
    assert row["game_versions"] == {"tequila": "v2"}


def test_record_result_refuses_a_results_file_that_does_not_exist(tmp_path):
    with pytest.raises(SystemExit, match="does not exist"):
        recorder.main([str(tmp_path / "nope.json"), "--", "fiesta", "fuzz"])


def test_tequila_calibration_summarises_solo_games_and_replaces_its_own_row(tmp_path):
    calibration = load_script("tequila_calibration")
    out = tmp_path / "calibration.json"
    assert calibration.main(["--deals", "3", "--workers", "1", "--out", str(out)]) == 0
    assert calibration.main(["--deals", "2", "--workers", "1", "--out", str(out)]) == 0
    calibration.main(["--deals", "2", "--workers", "1", "--cask-tile", "B", "--out", str(out)])
    rows = json.loads(out.read_text(encoding="utf-8"))["rows"]
    assert [(r["cask_tile"], r["deals"]) for r in rows] == [("A", 2), ("B", 2)]
    games = [calibration.play_deal(("planner", "A", seed)) for seed in (0, 1)]
    row = rows[0]
    assert row["mean"] == round(sum(g["score"] for g in games) / 2, 1)
    assert row["min"] == min(g["score"] for g in games) and row["max"] == max(g["score"] for g in games)
    assert sum(row["ranks"].values()) == 2
    assert abs(sum(row["points_by_source"].values()) - row["mean"]) < 0.2
    assert pages.tequila_calibration_page({"rows": rows}).count("| `planner` |") == 4
