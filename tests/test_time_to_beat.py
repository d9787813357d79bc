"""scripts/time_to_beat.py: training minutes until a periodic evaluation first beats a baseline."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

pytest.importorskip("sb3_contrib")

ROOT = Path(__file__).resolve().parent.parent
SMOKE = ROOT / "configs" / "smoke.yaml"


def _script():
    spec = importlib.util.spec_from_file_location("time_to_beat", ROOT / "scripts" / "time_to_beat.py")
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    return module


def _write_log(run: Path, entries: list[tuple[int, float, float, float]]) -> None:
    run.mkdir(parents=True, exist_ok=True)
    lines = [
        json.dumps(
            {
                "step": s,
                "win_rate": {"greedy": r},
                "interval": {"greedy": [lo, r + 0.05]},
                "games": 400,
                "train_seconds": s / 100,
            }
        )
        for s, r, lo, _ in [(s, r, lo, 0) for s, r, lo, *_ in entries]
    ]
    (run / "eval.jsonl").write_text("\n".join(lines) + "\n")


def test_the_first_evaluation_with_its_whole_interval_above_half_is_the_time_to_beat(tmp_path):
    script = _script()
    _write_log(tmp_path, [(0, 0.45, 0.40), (6000, 0.55, 0.49), (12000, 0.58, 0.53), (18000, 0.6, 0.55)])
    rows = script.evaluations(tmp_path, "greedy")
    assert [r["minutes"] for r in rows] == [0.0, 1.0, 2.0, 3.0]
    assert script.first_beating(rows)["step"] == 12000  # not 6000: its interval reaches below 0.5
    assert script.first_beating(rows[:2]) is None
    assert script.evaluations(tmp_path, "random") == []


def test_a_row_replaces_the_row_of_the_same_game_config_and_baseline(tmp_path):
    script = _script()
    path = tmp_path / "time.json"
    base = {"game": "g", "players": 2, "config": "c.yaml", "baseline": "greedy"}
    script.record(path, {**base, "minutes": 3})
    script.record(path, {**base, "baseline": "random", "minutes": 1})
    script.record(path, {**base, "minutes": 2})
    rows = json.loads(path.read_text())["rows"]
    assert sorted((r["baseline"], r["minutes"]) for r in rows) == [("greedy", 2), ("random", 1)]


def test_a_timed_run_evaluates_at_start_and_stops_at_the_first_beating_evaluation(tmp_path):
    script = _script()
    out = tmp_path / "time.json"
    args = [
        "--config",
        str(SMOKE),
        "--baseline",
        "random",
        "--games",
        "6",
        "--every",
        "256",
        "--json",
        str(out),
        "--run-dir",
        str(tmp_path / "run"),
        "--set",
        "opponents.self_play.weight=0",
    ]
    assert script.main(args) == 0
    row = json.loads(out.read_text())["rows"][0]
    steps = [e["step"] for e in row["evaluations"]]
    assert steps[0] == 0 and steps == sorted(steps)  # the starting network first, then every 256 steps
    minutes = [e["minutes"] for e in row["evaluations"]]
    assert minutes == sorted(minutes)
    beaten = [e["ci"][0] > 0.5 for e in row["evaluations"]]
    if row["beaten"]:  # the run stopped at its first beating evaluation
        assert beaten.index(True) == len(beaten) - 1 and row["step"] == steps[-1]
    else:
        assert not any(beaten) and steps[-1] == 1024
    assert row["command"].startswith("python scripts/time_to_beat.py") and "--run-dir" not in row["command"]
    assert len(row["load_average"]) == 2 and json.loads(out.read_text())["table"] == "time_to_beat"
    with pytest.raises(SystemExit, match="not empty"):
        script.main(args)


def test_training_seconds_go_on_counting_over_a_resume(tmp_path):
    from fiesta_envs.cli import main

    run = tmp_path / "run"
    sets = ["eval.every=256", "eval.games=2", "eval.baselines=[random]", "eval.at_start=true", "final_eval.games=0"]
    first = ["train", "--no-progress", "--config", str(SMOKE), "--run-dir", str(run), "--set", "total_timesteps=512"]
    assert main([*first, *(part for s in sets for part in ("--set", s))]) == 0
    assert main(["train", "--no-progress", "--resume", str(run), "--set", "total_timesteps=1024"]) == 0
    entries = [json.loads(line) for line in (run / "eval.jsonl").read_text().splitlines()]
    assert [e["step"] for e in entries] == [0, 256, 512, 768, 1024]  # the start is not evaluated again
    seconds = [e["train_seconds"] for e in entries]
    assert seconds == sorted(seconds) and seconds[-1] > seconds[2]
    assert all(set(e["interval"]) == {"random"} and e["games"] == 2 for e in entries)


def test_a_bad_baseline_or_run_is_refused_naming_it(tmp_path, capsys):
    script = _script()
    args = ["--config", str(SMOKE), "--baseline", "nobody", "--json", str(tmp_path / "t.json")]
    assert script.main([*args, "--run-dir", str(tmp_path / "run")]) == 2
    err = capsys.readouterr().err
    assert "eval.baselines" in err and "'nobody'" in err
    assert script.main(["--from-run", str(tmp_path / "missing"), "--baseline", "greedy"]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert not (tmp_path / "t.json").exists()
