"""Checkpoints: atomic writes, clear refusals of broken or foreign ones, use as a policy."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest
from toy_game import Nim
from training_helpers import register_toys

pytest.importorskip("sb3_contrib")

from sb3_contrib import MaskablePPO

import fiesta_envs.evaluation.checkpoints as reading_module
import fiesta_envs.training.checkpoint as checkpoint_module
from fiesta_envs.envs.single_seat import SingleSeatEnv
from fiesta_envs.evaluation.checkpoints import (
    CheckpointError,
    CheckpointPolicy,
    UntrustedCheckpointError,
    latest_checkpoint,
    list_checkpoints,
    load_model,
    read_meta,
)
from fiesta_envs.policies.policy import RandomPolicy
from fiesta_envs.training.checkpoint import save_checkpoint

META = {"game": "toy_nim", "num_players": 2, "options": {"max_take": 3}, "seed": 5, "config": {"seed": 5}}


def toy_env():
    return SingleSeatEnv(Nim, lambda spec, seed: RandomPolicy(seed))


@pytest.fixture
def model():
    return MaskablePPO("MlpPolicy", toy_env(), n_steps=32, batch_size=32, policy_kwargs={"net_arch": [8]}, seed=0)


@pytest.fixture(autouse=True)
def toys(monkeypatch):
    register_toys(monkeypatch)


def test_save_writes_model_meta_config_and_latest(model, tmp_path):
    path = save_checkpoint(model, tmp_path, 64, META)
    assert path == tmp_path / "checkpoints" / "step_000000064"
    assert sorted(p.name for p in path.iterdir()) == ["config.yaml", "meta.json", "model.zip", "policy.npz"]
    assert (tmp_path / "checkpoints" / "latest").read_text().strip() == "step_000000064"
    meta = read_meta(tmp_path)  # a run dir means its latest checkpoint
    assert meta["step"] == 64 and meta["game"] == "toy_nim" and meta["seed"] == 5
    assert meta["format_version"] == checkpoint_module.FORMAT_VERSION
    assert {"fiesta_envs", "torch", "sb3-contrib", "stable-baselines3", "numpy", "python"} <= set(meta["versions"])
    assert meta["sha256"] == checkpoint_module.sha256_of(path / "model.zip")
    assert "seed: 5" in (path / "config.yaml").read_text()


def test_latest_follows_the_newest_save(model, tmp_path):
    assert latest_checkpoint(tmp_path) is None
    save_checkpoint(model, tmp_path, 10, META)
    save_checkpoint(model, tmp_path, 20, META)
    assert latest_checkpoint(tmp_path).name == "step_000000020"
    assert [p.name for p in list_checkpoints(tmp_path)] == ["step_000000010", "step_000000020"]
    save_checkpoint(model, tmp_path, 20, META)  # the same step again replaces it cleanly
    assert [p.name for p in list_checkpoints(tmp_path)] == ["step_000000010", "step_000000020"]


def test_a_crash_mid_write_leaves_the_last_good_checkpoint(model, tmp_path, monkeypatch):
    save_checkpoint(model, tmp_path, 10, META)

    def crash(config):
        raise OSError("disk full (simulated)")

    monkeypatch.setattr(checkpoint_module, "_config_yaml", crash)  # model.zip and meta.json already written
    with pytest.raises(OSError, match="simulated"):
        save_checkpoint(model, tmp_path, 20, META)
    assert latest_checkpoint(tmp_path).name == "step_000000010"
    assert read_meta(tmp_path)["step"] == 10
    leftovers = [p.name for p in (tmp_path / "checkpoints").iterdir() if p.name.startswith(".tmp-")]
    assert leftovers  # the half-written directory is left aside, never taken for a checkpoint
    monkeypatch.undo()
    register_toys(monkeypatch)
    save_checkpoint(model, tmp_path, 20, META)
    assert latest_checkpoint(tmp_path).name == "step_000000020"
    assert not [p for p in (tmp_path / "checkpoints").iterdir() if p.name.startswith(".tmp-")]


def test_a_crash_before_latest_is_updated_keeps_the_previous_latest(model, tmp_path, monkeypatch):
    save_checkpoint(model, tmp_path, 10, META)

    def crash(path, text):
        raise KeyboardInterrupt

    monkeypatch.setattr(checkpoint_module, "_write_text_atomically", crash)
    with pytest.raises(KeyboardInterrupt):
        save_checkpoint(model, tmp_path, 20, META)
    assert latest_checkpoint(tmp_path).name == "step_000000010"


def test_a_stale_latest_falls_back_on_the_newest_complete_checkpoint(model, tmp_path):
    save_checkpoint(model, tmp_path, 10, META)
    (tmp_path / "checkpoints" / "latest").write_text("step_000000099\n")
    assert latest_checkpoint(tmp_path).name == "step_000000010"


def test_truncated_model_is_refused_clearly(model, tmp_path):
    path = save_checkpoint(model, tmp_path, 10, META)
    data = (path / "model.zip").read_bytes()
    (path / "model.zip").write_bytes(data[: len(data) // 2])
    with pytest.raises(
        CheckpointError, match=r"corrupt or truncated checkpoint .*model.zip .* does not match the SHA-256"
    ):
        read_meta(path)
    with pytest.raises(CheckpointError, match="corrupt or truncated"):
        CheckpointPolicy(path)


def test_model_that_cannot_be_loaded_is_a_checkpoint_error(model, tmp_path):
    path = save_checkpoint(model, tmp_path, 10, META)
    (path / "model.zip").write_bytes(b"not a zip at all")
    meta = json.loads((path / "meta.json").read_text())
    meta["sha256"] = checkpoint_module.sha256_of(path / "model.zip")  # hash fits, content does not
    (path / "meta.json").write_text(json.dumps(meta))
    with pytest.raises(CheckpointError, match="could not be loaded"):
        load_model(path)


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("{not json", "meta.json is not valid JSON"),
        ("[1, 2]", "must hold a JSON object"),
        ('{"game": "toy_nim"}', "meta.json lacks format_version, num_players, options, step, sha256"),
    ],
)
def test_bad_meta_is_refused_clearly(model, tmp_path, content, expected):
    path = save_checkpoint(model, tmp_path, 10, META)
    (path / "meta.json").write_text(content)
    with pytest.raises(CheckpointError, match=expected):
        read_meta(path)


def test_unsupported_format_version(model, tmp_path):
    path = save_checkpoint(model, tmp_path, 10, META)
    meta = json.loads((path / "meta.json").read_text())
    meta["format_version"] = 99
    (path / "meta.json").write_text(json.dumps(meta))
    with pytest.raises(CheckpointError, match="format version 99; this fiesta_envs reads version 1"):
        read_meta(path)


def test_missing_paths(tmp_path):
    with pytest.raises(CheckpointError, match="does not exist"):
        read_meta(tmp_path / "nowhere")
    with pytest.raises(CheckpointError, match="neither a checkpoint directory"):
        read_meta(tmp_path)
    (tmp_path / "checkpoints").mkdir()
    with pytest.raises(CheckpointError, match="has no complete checkpoint yet"):
        read_meta(tmp_path)
    (tmp_path / "file.zip").write_bytes(b"x")
    with pytest.raises(CheckpointError, match="is a file"):
        read_meta(tmp_path / "file.zip")


def test_foreign_checkpoints_are_refused_naming_both(model, tmp_path):
    path = save_checkpoint(model, tmp_path, 10, META)
    with pytest.raises(CheckpointError, match="trained for game 'toy_nim', not 'toy_coop_nim'"):
        CheckpointPolicy(path, game="toy_coop_nim")
    with pytest.raises(CheckpointError, match=r"trained for 2 players \(toy_nim\), not 3"):
        CheckpointPolicy(path, game="toy_nim", num_players=3)


def test_checkpoint_policy_plays_legal_moves_like_the_model(model, tmp_path):
    path = save_checkpoint(model, tmp_path, 10, META)
    policy = CheckpointPolicy(tmp_path / "checkpoints" / "step_000000010" / "model.zip", game="toy_nim", num_players=2)
    assert policy.meta["step"] == 10 and "step=10" in repr(policy)
    game = Nim(seed=3)
    game.pile = 2  # only "take 1" and "take 2" are legal
    game.pile = 2
    mask = game.legal_mask()
    for _ in range(5):
        obs = game.observe(0)
        action = policy.act(obs, mask, game, 0)
        expected, _ = model.predict(obs, action_masks=mask.astype(bool), deterministic=True)
        assert action == int(expected) and mask[action]
    sampler = CheckpointPolicy(path, deterministic=False, seed=1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        draws = [sampler.act(game.observe(0), mask, game, 0) for _ in range(50)]
    assert set(draws) <= {0, 1}
    sampler.start_episode(1)
    assert [sampler.act(game.observe(0), mask, game, 0) for _ in range(50)] == draws  # same seed, same draws


def test_loading_for_training_restores_the_optimiser(model, tmp_path):
    obs = np.zeros((1, 13), dtype=np.float32)
    model.learn(64)
    path = save_checkpoint(model, tmp_path, model.num_timesteps, META)
    again = load_model(path)
    assert again.num_timesteps == model.num_timesteps == 64
    before = model.policy.optimizer.state_dict()["state"]
    after = again.policy.optimizer.state_dict()["state"]
    assert before.keys() == after.keys() and all((before[k]["exp_avg"] == after[k]["exp_avg"]).all() for k in before)
    np.testing.assert_array_equal(
        model.policy.predict_values(model.policy.obs_to_tensor(obs)[0]).detach().numpy(),
        again.policy.predict_values(again.policy.obs_to_tensor(obs)[0]).detach().numpy(),
    )


def _drop_policy_file(path):
    """Make ``path`` look like a checkpoint of an older fiesta_envs (or a bare SB3 zip): model.zip only."""
    (path / "policy.npz").unlink()
    meta = json.loads((path / "meta.json").read_text())
    del meta["policy_sha256"]
    (path / "meta.json").write_text(json.dumps(meta))


def test_evaluating_a_checkpoint_never_unpickles_its_model(model, tmp_path, monkeypatch):
    path = save_checkpoint(model, tmp_path, 10, META)

    def refuse(*args, **kwargs):
        raise AssertionError("model.zip was unpickled")

    monkeypatch.setattr(reading_module, "load_model", refuse)
    monkeypatch.setattr("sb3_contrib.MaskablePPO.load", refuse)
    policy = CheckpointPolicy(path, game="toy_nim", num_players=2)
    game = Nim(seed=3)
    assert game.legal_mask()[policy.act(game.observe(0), game.legal_mask(), game, 0)]


def test_a_checkpoint_without_policy_file_needs_trust(model, tmp_path):
    path = save_checkpoint(model, tmp_path, 10, META)
    _drop_policy_file(path)
    with pytest.raises(UntrustedCheckpointError, match=r"unpickles Python objects.*--trust-checkpoint"):
        CheckpointPolicy(path)
    trusted = CheckpointPolicy(path, trust_pickle=True)
    game = Nim(seed=3)
    obs, mask = game.observe(0), game.legal_mask()
    expected, _ = model.predict(obs, action_masks=mask.astype(bool), deterministic=True)
    assert trusted.act(obs, mask, game, 0) == int(expected)


def test_an_altered_policy_file_is_refused(model, tmp_path):
    path = save_checkpoint(model, tmp_path, 10, META)
    (path / "policy.npz").write_bytes(b"PK\x03\x04 something else")
    with pytest.raises(CheckpointError, match=r"policy.npz .* does not match the SHA-256"):
        CheckpointPolicy(path)
    (path / "policy.npz").unlink()
    with pytest.raises(CheckpointError, match="policy.npz is missing"):
        read_meta(path)


def test_fiesta_evaluate_refuses_an_untrusted_checkpoint_unless_told(model, tmp_path, capsys):
    from fiesta_envs.cli import main

    path = save_checkpoint(model, tmp_path / "run", 10, {**META, "options": {}})
    _drop_policy_file(path)
    argv = ["evaluate", "--game", "toy_nim", "--agents", f"old={path},random", "--games", "2", "--workers", "1"]
    argv += ["--out", str(tmp_path / "out"), "--no-plot"]
    assert main(argv) == 2
    error = capsys.readouterr().err
    assert "unpickles Python objects" in error and "--trust-checkpoint" in error
    assert main([*argv, "--trust-checkpoint"]) == 0
    assert "old" in capsys.readouterr().out
