"""``pretrain``: behaviour cloning of a scripted player before PPO (training/pretrain.py)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

import torch

from fiesta_envs.cli import main
from fiesta_envs.evaluation.checkpoints import list_checkpoints, load_model
from fiesta_envs.training.config import ConfigError, load_config
from fiesta_envs.training.pretrain import DATASET, METRICS, PRETRAIN_DIR, Decisions, split_by_game

ROOT = Path(__file__).resolve().parent.parent
SMOKE = ROOT / "configs" / "smoke.yaml"
PRETRAIN = "pretrain={teacher: greedy, games: 6, epochs: 3, batch_size: 64, validation: 0.34}"
SHORT = ["--set", "total_timesteps=256", "--set", "final_eval.games=0", "--set", "eval.every=0"]


def train(*args) -> int:
    return main(["train", "--no-progress", *map(str, args)])


def test_pretraining_on_the_smoke_config_clones_the_teacher_then_ppo_continues(tmp_path, capsys):
    run = tmp_path / "run"
    assert train("--config", SMOKE, "--run-dir", run, "--set", PRETRAIN, *SHORT) == 0
    err = capsys.readouterr().err
    assert "pretrain: collecting 6 games of 'greedy'" in err and "accuracy" in err
    metrics = json.loads((run / PRETRAIN_DIR / METRICS).read_text())
    assert metrics["validation_decisions"] > 0 and len(metrics["history"]) == 3
    assert {"bid", "place"} <= set(metrics["accuracy_by_kind"])
    first, last = metrics["history"][0], metrics["history"][-1]
    assert last["loss"] < first["loss"]  # cloning learns
    # the cloned network is checkpoint 0 (a resumable start), then PPO's checkpoints follow
    names = [p.name for p in list_checkpoints(run)]
    assert names[0] == "step_000000000" and names[-1] == "step_000000256"
    assert list((run / "tensorboard").iterdir())  # pretrain/ scalars are logged with PPO's


def test_the_cloned_network_plays_like_its_teacher_more_often_than_a_fresh_one(tmp_path):
    run = tmp_path / "run"
    setting = "pretrain={teacher: greedy, games: 40, epochs: 8, validation: 0.0}"
    assert (
        train("--config", SMOKE, "--run-dir", run, "--set", setting, "--set", "options.action_features=true", *SHORT)
        == 0
    )
    data = Decisions.load(run / PRETRAIN_DIR / DATASET, _meta_of(run))
    assert data is not None
    cloned = load_model(run / "checkpoints" / "step_000000000").policy
    fresh_run = tmp_path / "fresh"
    assert train("--config", SMOKE, "--run-dir", fresh_run, "--set", "options.action_features=true", *SHORT) == 0
    fresh = load_model(list_checkpoints(fresh_run)[0]).policy

    def agreement(policy) -> float:
        with torch.no_grad():
            dist = policy.get_distribution(torch.as_tensor(data.observations), action_masks=data.masks)
            return float((dist.distribution.logits.argmax(1).numpy() == data.actions).mean())

    assert agreement(cloned) > agreement(fresh) + 0.1


def _meta_of(run: Path) -> dict:
    with np.load(run / PRETRAIN_DIR / DATASET, allow_pickle=False) as stored:
        return json.loads(str(stored["meta"]))


def test_a_restarted_run_reuses_the_collected_games(tmp_path, capsys):
    run = tmp_path / "run"
    assert train("--config", SMOKE, "--run-dir", run, "--set", PRETRAIN, *SHORT) == 0
    first = load_model(run / "checkpoints" / "step_000000000").policy.state_dict()
    for checkpoint in list_checkpoints(run):  # as if the run died before its first checkpoint
        for path in sorted(checkpoint.rglob("*"), reverse=True):
            path.unlink() if path.is_file() else path.rmdir()
        checkpoint.rmdir()
    (run / "checkpoints" / "latest").unlink(missing_ok=True)
    capsys.readouterr()
    assert train("--config", SMOKE, "--run-dir", run, "--set", PRETRAIN, *SHORT) == 0
    assert "pretrain: reusing" in capsys.readouterr().err
    again = load_model(run / "checkpoints" / "step_000000000").policy.state_dict()
    assert all(torch.equal(first[k], again[k]) for k in first)  # same data, same seed: same clone


def test_a_run_killed_after_cloning_resumes_without_cloning_again(tmp_path, capsys):
    run = tmp_path / "run"
    assert train("--config", SMOKE, "--run-dir", run, "--set", PRETRAIN, *SHORT) == 0
    capsys.readouterr()
    assert train("--resume", run, "--set", "total_timesteps=512") == 0
    assert "pretrain:" not in capsys.readouterr().err


def test_games_split_whole_into_training_and_validation():
    games = np.repeat(np.arange(10), 5)
    data = Decisions(
        np.zeros((50, 3), np.float32), np.ones((50, 2), bool), np.zeros(50, np.int64), np.zeros(50, np.float32), games
    )
    train_part, validation = split_by_game(data, 0.3, seed=1)
    assert validation is not None and len(set(validation.games)) == 3
    assert not set(train_part.games) & set(validation.games)


@pytest.mark.parametrize(
    ("setting", "expected"),
    [
        ("pretrain={teacher: greeedy}", "pretrain.teacher"),
        ("pretrain={teacher: greedy, games: 0}", "pretrain.games"),
        ("pretrain={teacher: greedy, epoch: 3}", "did you mean 'epochs'"),
        ("pretrain={teacher: greedy, opponents: {randm: 1.0}}", "pretrain.opponents"),
        ("pretrain={teacher: greedy, targets: probs}", "'actions' or 'probabilities'"),
    ],
)
def test_a_malformed_pretrain_section_names_the_field(setting, expected):
    with pytest.raises(ConfigError, match=expected):
        load_config(SMOKE, [setting])


def test_the_collected_games_do_not_depend_on_the_number_of_workers(tmp_path):
    from fiesta_envs.training.config import load_config
    from fiesta_envs.training.pretrain import collect_decisions
    from fiesta_envs.training.train import env_factory

    config = load_config(SMOKE, ["pretrain={teacher: greedy, games: 4}"])
    one = collect_decisions(config, env_factory(config, [], pretraining=True), seed=7)
    config.pretrain.workers = 2
    two = collect_decisions(config, env_factory(config, [], pretraining=True), seed=7)
    assert np.array_equal(one.observations, two.observations) and np.array_equal(one.actions, two.actions)
    assert np.array_equal(one.returns, two.returns) and np.array_equal(one.games, two.games)


def test_soft_targets_keep_the_teachers_probabilities_and_a_scripted_teachers_action_one_hot():
    from fiesta_envs.training.config import load_config
    from fiesta_envs.training.pretrain import collect_decisions
    from fiesta_envs.training.train import env_factory

    for teacher, one_hot in (("ppo", False), ("greedy", True)):
        config = load_config(SMOKE, [f"pretrain={{teacher: {teacher}, games: 2, targets: probabilities}}"])
        data = collect_decisions(config, env_factory(config, [], pretraining=True), seed=3)
        assert data.targets is not None and data.targets.shape == data.masks.shape
        assert np.allclose(data.targets.sum(axis=1), 1.0, atol=1e-5)
        assert not (data.targets[~data.masks] > 0).any()  # nothing on illegal actions
        assert np.array_equal(data.targets.argmax(axis=1), data.actions)  # the teacher plays its most likely move
        assert bool(np.isin(data.targets, (0.0, 1.0)).all()) is one_hot
        config = load_config(SMOKE, [f"pretrain={{teacher: {teacher}, games: 2}}"])
        assert collect_decisions(config, env_factory(config, [], pretraining=True), seed=3).targets is None


def test_cloning_on_soft_targets_learns_and_is_kept_apart_from_a_data_set_of_actions(tmp_path):
    run = tmp_path / "run"
    soft = "pretrain={teacher: ppo, games: 6, epochs: 3, batch_size: 64, validation: 0.34, targets: probabilities}"
    assert train("--config", SMOKE, "--run-dir", run, "--set", soft, *SHORT) == 0
    metrics = json.loads((run / PRETRAIN_DIR / METRICS).read_text())
    assert metrics["history"][-1]["loss"] < metrics["history"][0]["loss"]
    meta = _meta_of(run)
    assert meta["targets"] == "probabilities"
    assert Decisions.load(run / PRETRAIN_DIR / DATASET, meta).targets is not None
    assert Decisions.load(run / PRETRAIN_DIR / DATASET, {k: v for k, v in meta.items() if k != "targets"}) is None


def test_the_shipped_agents_probabilities_are_its_softmax_over_the_legal_actions():
    from fiesta_envs.agents.shipped import ShippedPolicy
    from fiesta_envs.fiesta_mexicana.game import FiestaMexicana

    game = FiestaMexicana(num_players=2)
    game.reset(seed=5)
    policy = ShippedPolicy("fiesta_mexicana")
    for _ in range(30):
        if game.is_over:
            break
        player, mask = game.current_player, game.legal_mask()
        observation = game.observe(player)
        probabilities = policy.action_probabilities(observation, mask, game, player)
        assert probabilities is not None and abs(float(probabilities.sum()) - 1.0) < 1e-5
        assert not probabilities[~mask.astype(bool)].any()
        action = policy.act(observation, mask, game, player)
        assert int(probabilities.argmax()) == action
        game.step(action)


def test_soft_targets_are_refused_with_a_shortlist():
    config = ROOT / "configs" / "fiesta_de_los_muertos" / "ppo.yaml"
    with pytest.raises(ConfigError, match="pretrain.targets.*shortlist: false"):
        load_config(config, ["pretrain={teacher: associative, targets: probabilities}"])
