"""``fiesta train``: runs, checkpoints, resumes exactly, repeats from its seed, fails clearly.

Most tests train the toy Nim (registered for the test only) in a second or two; the tests
marked with the real game run the shipped smoke config on Fiesta Mexicana.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from training_helpers import TOY_CONFIG, register_toys
from training_support import evaluations

pytest.importorskip("sb3_contrib")

import torch

from fiesta_envs.cli import main
from fiesta_envs.evaluation.checkpoints import latest_checkpoint, list_checkpoints, load_model, read_meta
from fiesta_envs.registry import GAMES

ROOT = Path(__file__).resolve().parent.parent
SMOKE = ROOT / "configs" / "smoke.yaml"


def fm_ready() -> bool:
    try:
        GAMES["fiesta_mexicana"].baseline_classes()
    except (KeyError, ImportError, AttributeError):
        return False
    return True


needs_fm = pytest.mark.skipif(not fm_ready(), reason="fiesta_mexicana is not importable yet")


@pytest.fixture
def toy(tmp_path, monkeypatch):
    register_toys(monkeypatch)
    path = tmp_path / "toy.yaml"
    path.write_text(TOY_CONFIG)
    return path


def train(*args) -> int:
    return main(["train", "--no-progress", *map(str, args)])


def weights(path) -> dict:
    return load_model(path).policy.state_dict()


def same_weights(a, b) -> bool:
    return a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)


def test_a_run_writes_checkpoints_league_logs_and_the_final_table(toy, tmp_path, capsys):
    run = tmp_path / "run"
    assert train("--config", toy, "--run-dir", run) == 0
    assert [p.name for p in list_checkpoints(run)] == ["step_000000256", "step_000000512"]
    assert latest_checkpoint(run).name == "step_000000512"
    meta = read_meta(run)
    assert meta["config"]["total_timesteps"] == 512 and meta["game"] == "toy_nim"
    assert meta["league"] == ["snapshot_000000384.npz", "snapshot_000000512.npz"]  # pool_size 2
    assert sorted(p.name for p in (run / "league").iterdir()) == [
        f"snapshot_{s:09d}.npz" for s in (0, 128, 256, 384, 512)
    ]
    evals = [json.loads(line) for line in (run / "eval.jsonl").read_text().splitlines()]
    assert [e["step"] for e in evals] == [256, 512] and set(evals[0]["win_rate"]) == {"random", "take_one"}
    assert any(p.name.startswith("events.out.tfevents") for p in (run / "tensorboard").iterdir())
    assert (run / "config.yaml").is_file()
    assert "rollout/ep_rew_mean" in (run / "logs" / "progress_from_000000000.csv").read_text()
    final = json.loads((run / "final_eval.json").read_text())
    assert set(final["win_rate"]) == {"random", "take_one"}
    out = capsys.readouterr().out
    assert "against the baselines" in out and "win rate [95% CI]" in out and "take_one" in out


def test_resume_continues_exactly_like_an_uninterrupted_run(toy, tmp_path):
    whole, part = tmp_path / "whole", tmp_path / "part"
    assert train("--config", toy, "--run-dir", whole, "--set", "final_eval.games=0") == 0
    # the same run stopped at its first checkpoint, then resumed
    assert train("--config", toy, "--run-dir", part, "--set", "total_timesteps=256", "--set", "final_eval.games=0") == 0
    assert latest_checkpoint(part).name == "step_000000256"
    assert train("--resume", part, "--set", "total_timesteps=512") == 0
    assert read_meta(part)["step"] == 512
    logs = sorted(p.name for p in (part / "logs").iterdir())
    assert logs == ["progress_from_000000000.csv", "progress_from_000000256.csv"]  # one CSV per (re)start
    assert same_weights(weights(whole), weights(part))
    a, b = load_model(whole).policy.optimizer.state_dict(), load_model(part).policy.optimizer.state_dict()
    assert all(torch.equal(a["state"][k]["exp_avg_sq"], b["state"][k]["exp_avg_sq"]) for k in a["state"])
    assert evaluations(whole) == evaluations(part)


def test_a_run_killed_after_its_last_checkpoint_resumes_to_the_same_result(toy, tmp_path):
    import shutil

    whole, killed = tmp_path / "whole", tmp_path / "killed"
    assert train("--config", toy, "--run-dir", whole, "--set", "final_eval.games=0") == 0
    shutil.copytree(whole, killed)
    # the run died after step 256's checkpoint: later snapshots and evaluations exist, no later checkpoint
    shutil.rmtree(killed / "checkpoints" / "step_000000512")
    (killed / "checkpoints" / "latest").write_text("step_000000256\n")
    (killed / "league" / "snapshot_000000512.npz").write_bytes(b"half a snapshot")
    with open(killed / "eval.jsonl", "a") as log:  # killed while it logged an evaluation
        log.write('{"step": 640, "win_ra')
    assert train("--resume", killed) == 0
    assert same_weights(weights(whole), weights(killed))
    assert evaluations(whole) == evaluations(killed)  # no duplicated lines


def test_the_seed_makes_a_run_repeatable(toy, tmp_path):
    for name in ("a", "b"):
        assert train("--config", toy, "--run-dir", tmp_path / name, "--set", "final_eval.games=0") == 0
    assert train("--config", toy, "--run-dir", tmp_path / "c", "--set", "seed=2", "--set", "final_eval.games=0") == 0
    assert same_weights(weights(tmp_path / "a"), weights(tmp_path / "b"))
    assert not same_weights(weights(tmp_path / "a"), weights(tmp_path / "c"))


def test_cooperative_games_train_with_their_latest_self_as_team_mates(toy, tmp_path):
    run = tmp_path / "coop"
    args = ["--set", "game=toy_coop_nim", "--set", "opponents.baselines={}", "--set", "num_players=3"]
    args += ["--set", "reward_shaping=0.5", "--set", "team_play=frozen"]  # shaping sits in the env stack too
    assert train("--config", toy, "--run-dir", run, *args, "--set", "final_eval.games=0") == 0
    meta = read_meta(run)
    assert meta["game"] == "toy_coop_nim" and meta["league"] == ["snapshot_000000512.npz"]  # the latest only


def test_cooperative_games_train_one_shared_policy_on_every_seat_by_default(toy, tmp_path):
    run = tmp_path / "coop"
    args = ["--set", "game=toy_coop_nim", "--set", "opponents.baselines={}", "--set", "num_players=3"]
    args += ["--set", "reward_shaping=0.5"]
    assert train("--config", toy, "--run-dir", run, *args, "--set", "final_eval.games=0") == 0
    meta = read_meta(run)
    assert meta["config"]["team_play"] == "shared" and meta["league"] == []  # no frozen team-mates
    assert not (run / "league").exists() or not list((run / "league").iterdir())


def test_schedules_are_rounded_up_to_whole_rollouts(toy, tmp_path):
    run = tmp_path / "run"
    overrides = ["total_timesteps=300", "checkpoint_every=200", "eval.every=0", "final_eval.games=0"]
    assert train("--config", toy, "--run-dir", run, *[a for o in overrides for a in ("--set", o)]) == 0
    assert [p.name for p in list_checkpoints(run)] == ["step_000000256", "step_000000384"]


def test_an_existing_run_is_not_overwritten(toy, tmp_path, capsys):
    run = tmp_path / "run"
    assert train("--config", toy, "--run-dir", run, "--set", "total_timesteps=256", "--set", "final_eval.games=0") == 0
    assert train("--config", toy, "--run-dir", run) == 2
    assert "already holds checkpoints; continue it with `fiesta train --resume" in capsys.readouterr().err


def test_resume_with_nothing_left_to_do_only_evaluates(toy, tmp_path, capsys):
    run = tmp_path / "run"
    assert train("--config", toy, "--run-dir", run, "--set", "total_timesteps=128", "--set", "final_eval.games=0") == 0
    assert train("--resume", run, "--set", "final_eval.games=4") == 0
    assert "against the baselines" in capsys.readouterr().out
    assert read_meta(run)["step"] == 128


def error_of(capsys, *args) -> str:
    assert train(*args) == 2
    return " ".join(capsys.readouterr().err.split())


def test_command_line_mistakes_give_clear_messages(toy, tmp_path, capsys):
    assert "config file not found: " in error_of(capsys, "--config", tmp_path / "missing.yaml")
    assert "give --config FILE to start a run" in error_of(capsys)
    message = error_of(capsys, "--config", toy, "--set", "ppo.n_step=3")
    assert str(toy) in message and "unknown field 'ppo.n_step'; did you mean 'n_steps'?" in message
    assert "does not exist" in error_of(capsys, "--resume", tmp_path / "nowhere")
    (tmp_path / "empty_run").mkdir()
    assert "config.yaml is missing" in error_of(capsys, "--resume", tmp_path / "empty_run")


def test_resume_refuses_corrupt_and_foreign_checkpoints(toy, tmp_path, capsys):
    run = tmp_path / "run"
    assert train("--config", toy, "--run-dir", run, "--set", "total_timesteps=256", "--set", "final_eval.games=0") == 0
    assert "drop --config" in error_of(capsys, "--resume", run, "--config", toy)
    assert "--resume cannot change num_players" in error_of(capsys, "--resume", run, "--set", "num_players=3")
    assert "--resume cannot change ppo" in error_of(capsys, "--resume", run, "--set", "ppo.learning_rate=0.1")
    model_zip = latest_checkpoint(run) / "model.zip"
    data = model_zip.read_bytes()
    model_zip.write_bytes(data[:1000])
    assert "corrupt or truncated checkpoint" in error_of(capsys, "--resume", run)
    model_zip.write_bytes(data)
    meta_path = latest_checkpoint(run) / "meta.json"
    meta = json.loads(meta_path.read_text())
    meta_path.write_text(json.dumps({**meta, "game": "toy_coop_nim"}))
    assert "trained for game 'toy_coop_nim', not 'toy_nim'" in error_of(capsys, "--resume", run)
    meta_path.write_text("{broken")
    assert "meta.json is not valid JSON" in error_of(capsys, "--resume", run)


# ---------------------------------------------------------------------------------- the real game
@pytest.fixture(scope="module")
def smoke_run(tmp_path_factory):
    """One uninterrupted run of the shipped smoke config, shared by the tests below."""
    run = tmp_path_factory.mktemp("smoke") / "whole"
    assert train("--config", SMOKE, "--run-dir", run) == 0
    return run


@needs_fm
def test_smoke_config_trains_saves_and_evaluates(smoke_run):
    assert read_meta(smoke_run)["step"] == 1024
    assert len(list_checkpoints(smoke_run)) == 2
    final = json.loads((smoke_run / "final_eval.json").read_text())
    assert set(final["win_rate"]) == {"random", "greedy"}


@needs_fm
def test_smoke_config_resumes_exactly(smoke_run, tmp_path):
    total = read_meta(smoke_run)["step"]
    stop = read_meta(list_checkpoints(smoke_run)[0])["step"]
    assert stop < total
    part = tmp_path / "part"
    overrides = ["--set", f"total_timesteps={stop}", "--set", "final_eval.games=0"]
    assert train("--config", SMOKE, "--run-dir", part, *overrides) == 0
    assert train("--resume", part, "--set", f"total_timesteps={total}") == 0
    assert read_meta(part)["step"] == total
    assert same_weights(weights(smoke_run), weights(part))  # resumed == uninterrupted, bit for bit


@needs_fm
def test_smoke_config_is_repeatable_from_its_seed(smoke_run, tmp_path):
    assert train("--config", SMOKE, "--run-dir", tmp_path / "again", "--set", "final_eval.games=0") == 0
    assert same_weights(weights(smoke_run), weights(tmp_path / "again"))


@needs_fm
def test_parallel_environments_in_worker_processes(tmp_path):
    overrides = ["n_envs=2", "total_timesteps=512", "ppo.n_steps=128", "checkpoint_every=512", "final_eval.games=0"]
    args = [a for o in overrides for a in ("--set", o)]
    assert train("--config", SMOKE, "--run-dir", tmp_path / "run", *args) == 0
    assert read_meta(tmp_path / "run")["step"] == 512


@needs_fm
@pytest.mark.slow
def test_training_beats_random_on_fiesta_mexicana(tmp_path):
    """The main job's run (quick.yaml, about 10 minutes) wins clearly more than half of 200 games against random."""
    from fiesta_envs.evaluation.evaluate import evaluate_against_baselines

    overrides = ["final_eval.games=0", "eval.every=0"]
    config = ROOT / "configs" / "fiesta_mexicana" / "quick.yaml"
    assert train("--config", config, "--run-dir", tmp_path / "run", *[a for o in overrides for a in ("--set", o)]) == 0
    [result] = evaluate_against_baselines(
        "fiesta_mexicana", 2, str(tmp_path / "run"), ["random"], games_per_baseline=200, seed=99
    )
    assert result.ci_low > 0.5, result
