"""``fiesta bench`` on a tiny budget: the table and the JSON have the promised structure.

No timing is asserted in the default run (machines are noisy); the slow-marked tests check the
targets on the real games: the environment under 20% of MaskablePPO's training time, and the AEC
loop at least as fast as the wrapped connect_four_v3. The engine's ratio to the raw connect_four is
reported, not asserted (it moves between machines and runs).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from fuzz_support import TOY_NAME, missing_part, use_toy_registry

from fiesta_envs import cli
from fiesta_envs.files.atomic import write_json_atomically
from fiesta_envs.registry import GAMES
from fiesta_envs.testing.bench import (
    AEC_TARGET,
    API_NAMES,
    ENV_SHARE_TARGET,
    Contestant,
    Measurement,
    add_ratios,
    bench,
    bench_training,
    engine_loop,
    measure,
)


def test_bench_command_prints_the_table_and_saves_json(monkeypatch, tmp_path, capsys):
    use_toy_registry(monkeypatch)
    out = tmp_path / "results" / "bench.json"
    status = cli.main(["bench", "--games", "2", "--repeats", "2", "--min-seconds", "0", "--json", str(out)])
    printed = capsys.readouterr().out
    assert status == 0
    assert "connect_four_v3" in printed and TOY_NAME in printed and "targets met" in printed
    data = json.loads(out.read_text())
    assert set(data) == {"settings", "reference", "results", "training", "targets"}
    assert set(data["reference"]) == {"wrapped", "raw"}
    assert [r["api"] for r in data["results"]] == list(API_NAMES)
    for row in [*data["reference"].values(), *data["results"]]:
        runs = row["steps_per_second"]["runs"]
        assert len(runs) == 2 and all(r > 0 for r in runs)
        assert row["steps_per_second"]["min"] <= row["steps_per_second"]["median"] <= row["steps_per_second"]["max"]
        assert row["steps_per_game"] > 0 and row["reset_seconds"] > 0 and row["peak_memory_kib"] > 0
    aec, engine, gym = data["results"]
    assert aec["target"] == AEC_TARGET and engine["target"] is None and gym["target"] is None
    assert engine["ratio"] > 0 and engine["met"] is None  # shown, not judged
    assert data["targets"] == {"aec": AEC_TARGET, "env_share": ENV_SHARE_TARGET}
    assert aec["ratio"] == pytest.approx(
        aec["steps_per_second"]["median"] / data["reference"]["wrapped"]["steps_per_second"]["median"]
    )
    assert engine["ratio"] == pytest.approx(
        engine["steps_per_second"]["median"] / data["reference"]["raw"]["steps_per_second"]["median"]
    )
    assert aec["met"] == (aec["ratio"] >= AEC_TARGET)


def test_bench_training_reports_frames_and_env_share(monkeypatch, tmp_path, capsys):
    pytest.importorskip("sb3_contrib")
    use_toy_registry(monkeypatch)
    out = tmp_path / "bench.json"
    args = ["bench", "--games", "1", "--repeats", "1", "--min-seconds", "0", "--train", "--train-steps", "128"]
    status = cli.main([*args, "--json", str(out)])
    assert status == 0
    assert "MaskablePPO" in capsys.readouterr().out
    training = json.loads(out.read_text())["training"]
    assert [t["n_envs"] for t in training] == [1, 2]
    for row in training:
        assert row["timesteps"] >= 128 and row["frames_per_second"] > 0
        assert 0 < row["env_share"] < 1 and row["env_seconds"] < row["total_seconds"]


def test_measure_counts_steps_and_games_of_each_run():
    from toy_game import Nim

    game = Nim(num_players=2)
    [result] = measure([Contestant("toy", "engine", 2, engine_loop(game))], games=5, repeats=3, seed=1)
    assert len(result.steps_per_second) == len(result.games_per_second) == 3
    assert 7 / 3 <= result.steps_per_game <= 12  # a pile of 7..12 stones, at most 3 taken at a time
    played = np.array(result.steps_per_second) / np.array(result.games_per_second)
    np.testing.assert_allclose(played, played[0], rtol=0.5)


def test_ratios_divide_medians_by_the_matching_reference():
    wrapped = Measurement("c4", "aec", 2, 1, steps_per_second=[100.0, 200.0, 300.0])
    raw = Measurement("c4", "aec raw", 2, 1, steps_per_second=[1000.0])
    ours = [Measurement("g", api, 2, 1, steps_per_second=[600.0]) for api in API_NAMES]
    add_ratios(ours, {"wrapped": wrapped, "raw": raw})
    assert [m.ratio for m in ours] == [3.0, 0.6, 3.0]
    assert [m.met for m in ours] == [True, None, None]


def test_json_is_written_atomically(tmp_path):
    target = tmp_path / "out.json"
    write_json_atomically(target, {"a": 1})
    with pytest.raises(TypeError):
        write_json_atomically(target, {"a": object()})  # fails half-way: the old file stays whole
    assert json.loads(target.read_text()) == {"a": 1}
    assert [p.name for p in tmp_path.iterdir()] == ["out.json"]


REAL_GAMES = [name for name, spec in GAMES.items() if not missing_part(spec)]


@pytest.mark.slow
def test_every_aec_environment_is_at_least_as_fast_as_connect_four():
    _, results = bench(REAL_GAMES, games=20, repeats=5, min_seconds=1.0)
    missed = [f"{m.env} {m.api}: {m.ratio:.2f}x < {m.target}x" for m in results if m.met is False]
    assert not missed, missed


@pytest.mark.slow
@pytest.mark.parametrize("name", REAL_GAMES)
def test_the_environment_takes_under_a_fifth_of_training_time(name):
    pytest.importorskip("sb3_contrib")
    measured = bench_training(name, n_envs=1, timesteps=4096)
    assert measured.env_share < ENV_SHARE_TARGET, f"{name}: environment {measured.env_share:.1%} of training time"


def test_a_training_config_is_timed_part_by_part(tmp_path, capsys):
    pytest.importorskip("sb3_contrib")
    out = tmp_path / "bench.json"
    config = Path(__file__).resolve().parent.parent / "configs" / "smoke.yaml"
    args = ["bench", "--game", "fiesta_mexicana", "--games", "1", "--repeats", "1", "--min-seconds", "0"]
    status = cli.main([*args, "--train-config", str(config), "--train-steps", "512", "--json", str(out)])
    assert status == 0
    assert "Training configs" in capsys.readouterr().out
    (row,) = json.loads(out.read_text())["config_training"]
    assert row["config"] == str(config) and row["steps"] == 512 and row["frames_per_second"] > 0
    assert set(row["shares"]) == {"environment", "opponents", "rollout_inference", "update"}
    assert all(share >= 0 for share in row["shares"].values())
    assert sum(row["shares"].values()) == pytest.approx(1.0)
    assert 0 < row["opponents"] < row["environment"] < row["seconds"] and 0 < row["update"] < row["seconds"]
