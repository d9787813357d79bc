"""``fiesta train --resume RUN_DIR`` continues a run of the RLlib backend (marker ``rllib``: ``bash
scripts/rllib_test.sh``): the resumed run starts from the checkpoint's learner weights, self-play pool count and
sampled steps (RLlib's lifetime counter goes on from there, it does not start again at 0), appends to the
progress log and writes its own checkpoint at the new end."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

pytestmark = pytest.mark.rllib

FIRST_END = 1024
SECOND_END = 2048


def _config() -> dict[str, Any]:
    return {
        "game": "tortilla_de_patatas",
        "num_players": 2,
        "seed": 0,
        "backend": "rllib",
        "total_timesteps": FIRST_END,
        "n_envs": 2,
        "rllib": {"num_env_runners": 1, "address": "local"},
        "ppo": {"n_steps": 256, "batch_size": 256, "n_epochs": 1, "net_arch": [16]},
        "opponents": {
            "baselines": {"random": 0.5},
            "self_play": {"weight": 0.5, "snapshot_every": 512, "pool_size": 2},
        },
        "checkpoint_every": FIRST_END,
        "eval": {"every": 0},
        "final_eval": {"games": 0},
        "progress_bar": False,
    }


def test_resume_continues_from_the_checkpoint(tmp_path, monkeypatch):
    pytest.importorskip("ray.rllib")
    import yaml

    from fiesta_envs.cli import main
    from fiesta_envs.evaluation.checkpoints import CheckpointPolicy, latest_checkpoint, read_meta
    from fiesta_envs.training import rllib_train
    from fiesta_envs.training.rllib_env import OBSERVATIONS, RoleDealtGame

    config_file = tmp_path / "resume.yaml"
    config_file.write_text(yaml.safe_dump(_config()))
    run_dir = tmp_path / "run"
    assert main(["train", "--config", str(config_file), "--run-dir", str(run_dir), "--no-progress"]) == 0
    first = read_meta(run_dir)
    assert first["step"] >= FIRST_END and first["snapshots_taken"] >= 2
    first_checkpoint = latest_checkpoint(run_dir)
    saved_actor = CheckpointPolicy(first_checkpoint, game="tortilla_de_patatas", num_players=2).actor
    progress = (run_dir / rllib_train.PROGRESS_LOG).read_text().splitlines()

    seen: dict[str, Any] = {}

    class Inspecting(rllib_train.RllibTrainer):
        def _start(self) -> None:
            super()._start()
            seen["step"], seen["snapshots"] = self.step, self.snapshots_taken
            seen["learner"] = self.learner_state()

    monkeypatch.setattr(rllib_train, "RllibTrainer", Inspecting)
    argv = ["train", "--resume", str(run_dir), "--set", f"total_timesteps={SECOND_END}", "--no-progress"]
    assert main(argv) == 0

    assert seen["step"] == first["step"] and seen["snapshots"] == first["snapshots_taken"]
    game = RoleDealtGame({"game": "tortilla_de_patatas", "num_players": 2, "baselines": {"random": 1.0}})
    observations, _ = game.reset(seed=3)
    observation = next(iter(observations.values()))[OBSERVATIONS]
    restored = rllib_train.actor_from_state(seen["learner"], "tanh")
    np.testing.assert_allclose(restored.logits(observation), saved_actor.logits(observation), rtol=1e-5, atol=1e-6)

    second = read_meta(run_dir)
    assert second["step"] >= SECOND_END and second["backend"] == "rllib"
    assert latest_checkpoint(run_dir) != first_checkpoint and first_checkpoint.is_dir()
    lines = (run_dir / rllib_train.PROGRESS_LOG).read_text().splitlines()
    assert lines[: len(progress)] == progress and len(lines) > len(progress)
    steps = [json.loads(line)["step"] for line in lines]
    assert steps == sorted(steps) and steps[len(progress)] > first["step"]  # the counter went on from the checkpoint
    assert steps[len(progress)] <= first["step"] + 2 * 256 * 2  # ... one iteration (n_steps x n_envs) later
    resumed_actor = CheckpointPolicy(latest_checkpoint(run_dir), game="tortilla_de_patatas", num_players=2).actor
    assert not np.allclose(resumed_actor.logits(observation), saved_actor.logits(observation))  # it trained on
