"""``init`` (a warm start from a trained network), ``pretrain.played_by`` and ``total_timesteps: 0``: the pieces of
expert iteration (training/warm_start.py, training/pretrain.py)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from fiesta_envs.cli import main
from fiesta_envs.evaluation.checkpoints import list_checkpoints, load_model
from fiesta_envs.policies.mlp import ActorSnapshot
from fiesta_envs.training import pretrain as pretrain_module
from fiesta_envs.training.config import ConfigError, load_config
from fiesta_envs.training.pretrain import DATASET, PARTS_DIR, PRETRAIN_DIR, collect_decisions
from fiesta_envs.training.train import env_factory
from fiesta_envs.training.warm_start import initial_actor

ROOT = Path(__file__).resolve().parent.parent
SMOKE = ROOT / "configs" / "smoke.yaml"
SHIPPED_SHAPE = ["options.action_features=true", "ppo.net_arch=[256, 128]"]
QUIET = ["--set", "final_eval.games=0", "--set", "eval.every=0"]


def train(*args) -> int:
    return main(["train", "--no-progress", *map(str, args)])


def _sets(settings: list[str]) -> list[str]:
    return [part for setting in settings for part in ("--set", setting)]


def test_init_starts_the_policy_as_the_named_network(tmp_path, capsys):
    run = tmp_path / "run"
    assert (
        train("--config", SMOKE, "--run-dir", run, *_sets([*SHIPPED_SHAPE, "init=ppo", "total_timesteps=256"]), *QUIET)
        == 0
    )
    assert "init: the policy starts as 'ppo'" in capsys.readouterr().err
    first = list_checkpoints(run)[0]
    assert first.name == "step_000000000"  # the starting point is a checkpoint of its own
    started = ActorSnapshot.from_model(load_model(first))
    shipped = initial_actor(load_config(SMOKE, [*SHIPPED_SHAPE, "init=ppo"]))
    observation = np.random.default_rng(0).normal(size=shipped.input_size).astype(np.float32)
    assert np.allclose(started.logits(observation), shipped.logits(observation), atol=1e-5)
    last = ActorSnapshot.from_model(load_model(list_checkpoints(run)[-1]))
    assert not np.allclose(last.logits(observation), shipped.logits(observation))  # then PPO trains it


@pytest.mark.parametrize(
    ("settings", "expected"),
    [
        (["init=greedy", *SHIPPED_SHAPE], r"init.*'greedy' is not a network.*allowed"),
        (["init=ppo", "options.action_features=true"], r"init.*layers \[1165, 256, 128, 90\].*\[1165, 64, 64, 90\]"),
        (["init=ppo", "ppo.net_arch=[256, 128]"], r"init.*set ppo.net_arch"),
        (["init=ppo", *SHIPPED_SHAPE, "ppo.activation=relu"], r"init.*tanh.*relu"),
        (["init=nonsense", *SHIPPED_SHAPE], r"init.*nonsense"),
        (["init=ppo", *SHIPPED_SHAPE, "backend=rllib"], r"init.*rllib backend has no warm start"),
        (["total_timesteps=0"], r"total_timesteps.*pretrain"),
        (["pretrain={teacher: greedy, played_by: nobody}"], r"pretrain.played_by.*nobody"),
    ],
)
def test_a_bad_warm_start_is_refused_when_the_config_loads(settings, expected):
    with pytest.raises(ConfigError, match=expected):
        load_config(SMOKE, settings)


def test_a_run_of_zero_steps_is_its_pretrain_stage(tmp_path, capsys):
    run = tmp_path / "run"
    stage = "pretrain={teacher: greedy, games: 4, epochs: 2, batch_size: 64, validation: 0.0}"
    sets = _sets([stage, "total_timesteps=0", "final_eval.games=4", "final_eval.baselines=[random]"])
    assert train("--config", SMOKE, "--run-dir", run, *sets) == 0
    assert [p.name for p in list_checkpoints(run)] == ["step_000000000"]
    final = json.loads((run / "final_eval.json").read_text())
    assert final["step"] == 0 and "random" in final["win_rate"]
    assert "cloned" in capsys.readouterr().err


def _collect(settings: list[str], seed: int = 5, **kwargs):
    config = load_config(SMOKE, settings)
    return collect_decisions(config, env_factory(config, [], pretraining=True), seed=seed, **kwargs)


def test_played_by_moves_while_the_teacher_labels():
    labelled = _collect(["pretrain={teacher: ppo, games: 3, targets: probabilities, played_by: random}"])
    alone = _collect(["pretrain={teacher: ppo, games: 3, targets: probabilities}"])
    assert labelled.targets is not None
    assert np.array_equal(labelled.targets.argmax(axis=1), labelled.actions)  # the labels are the teacher's
    # random moves lead elsewhere: other positions than the teacher's own games
    assert len(labelled) != len(alone) or not np.array_equal(labelled.observations, alone.observations)


def test_the_data_set_records_who_moved(tmp_path):
    run = tmp_path / "run"
    stage = "pretrain={teacher: greedy, games: 2, epochs: 1, validation: 0.0, played_by: random}"
    assert train("--config", SMOKE, "--run-dir", run, *_sets([stage, "total_timesteps=0"]), *QUIET) == 0
    with np.load(run / PRETRAIN_DIR / DATASET, allow_pickle=False) as stored:
        assert json.loads(str(stored["meta"]))["played_by"] == "random"
    assert not (run / PRETRAIN_DIR / PARTS_DIR).exists()  # the whole data set replaced its parts


def test_collection_in_parts_gives_the_same_data_and_a_restart_reuses_finished_parts(tmp_path, monkeypatch):
    settings = ["pretrain={teacher: greedy, games: 5}"]
    whole = _collect(settings)
    monkeypatch.setattr(pretrain_module, "CHUNK", 2)
    parts_dir = tmp_path / "parts"
    notes: list[str] = []
    in_parts = _collect(settings, parts_dir=parts_dir, meta={"m": 1}, note=notes.append)
    for name in ("observations", "masks", "actions", "returns", "games"):
        assert np.array_equal(getattr(whole, name), getattr(in_parts, name)), name
    assert len(list(parts_dir.glob("*.npz"))) == 3 and "5 of 5 games collected" in notes[-1]
    (parts_dir / "part_00001.npz").unlink()  # as if killed while collecting the second part
    notes.clear()
    again = _collect(settings, parts_dir=parts_dir, meta={"m": 1}, note=notes.append)
    assert "reusing 2 of 3 collected parts" in notes[0]
    assert np.array_equal(again.observations, whole.observations) and np.array_equal(again.games, whole.games)
    notes.clear()
    _collect(settings, parts_dir=parts_dir, meta={"m": 2}, note=notes.append)  # other settings: nothing reused
    assert not any("reusing" in line for line in notes)
