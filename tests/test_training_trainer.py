"""The one training loop (``training/trainer.py``) with any backend, the environment pipeline (``training/envs.py``)
and what the RLlib backend refuses before Ray is imported.

``Scripted`` is a backend that learns nothing: each ``learn`` moves the step on by a fixed stride (as RLlib's
iterations do, whatever the next event) and records what the trainer asked of it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from toy_game import MAX_PILE
from training_helpers import register_toys

pytest.importorskip("sb3_contrib")

from fiesta_envs.evaluation.checkpoints import latest_checkpoint, read_meta
from fiesta_envs.policies.mlp import ActorSnapshot
from fiesta_envs.training.backend import Backend
from fiesta_envs.training.checkpoint import save_policy_checkpoint
from fiesta_envs.training.config import ConfigError, validate_config
from fiesta_envs.training.trainer import Trainer, crossed


class Scripted:
    """A ``Backend`` whose step advances by ``stride`` per ``learn``; its actor is a fixed random network."""

    algorithm = "scripted"
    label = "scripted"

    def __init__(self, run_dir: Path, stride: int, schedule_unit: int = 1) -> None:
        self.run_dir = run_dir
        self.stride = stride
        self.schedule_unit = schedule_unit
        self.calls: list[tuple[Any, ...]] = []
        rng = np.random.default_rng(0)
        self.network = ActorSnapshot(
            [rng.normal(size=(MAX_PILE + 1, 8)).astype(np.float32), rng.normal(size=(8, 3)).astype(np.float32)],
            [np.zeros(8, np.float32), np.zeros(3, np.float32)],
            ["tanh", "identity"],
        )

    def describe(self) -> str:
        return "by script"

    def start(self, checkpoint: Path | None, meta: dict[str, Any] | None) -> int:
        self.calls.append(("start", None if meta is None else meta["step"]))
        return 0 if meta is None else int(meta["step"])

    def learn(self, start: int, stop: int, bar: Any) -> int:
        self.calls.append(("learn", start, stop))
        return start + self.stride

    def actor(self) -> ActorSnapshot:
        return self.network

    def snapshot(self, step: int) -> None:
        self.calls.append(("snapshot", step))

    def checkpoint_fields(self, step: int) -> dict[str, Any]:
        return {"algorithm": self.algorithm, "backend": "scripted"}

    def save_checkpoint(self, step: int, meta: dict[str, Any]) -> Path:
        self.calls.append(("checkpoint", step))
        return save_policy_checkpoint(self.network, self.run_dir, step, meta)

    def log_scalars(self, step: int, scalars: dict[str, float]) -> None:
        self.calls.append(("scalars", step, sorted(scalars)))

    def close(self) -> None:
        self.calls.append(("close",))


def toy_config(**fields: Any) -> Any:
    data = {
        "game": "toy_nim",
        "num_players": 2,
        "seed": 3,
        "total_timesteps": 1000,
        "progress_bar": False,
        "ppo": {"n_steps": 64, "batch_size": 64, "net_arch": [8]},
        "opponents": {"baselines": {"random": 1.0}, "self_play": {"weight": 1.0, "snapshot_every": 250}},
        "checkpoint_every": 400,
        "eval": {"every": 300, "games": 4, "baselines": ["random"]},
        "final_eval": {"games": 4, "baselines": ["random"]},
        **fields,
    }
    return validate_config(data)


def test_a_scripted_backend_satisfies_the_protocol():
    backend: Backend = Scripted(Path("."), stride=1)
    assert backend.describe() == "by script"


def test_events_happen_at_the_first_step_that_crosses_their_period(tmp_path, monkeypatch, capsys):
    register_toys(monkeypatch)
    backend = Scripted(tmp_path, stride=300)
    seen: list[tuple[int, dict[str, float]]] = []
    trainer = Trainer(
        toy_config(), tmp_path, progress=False, backend=backend, on_evaluation=lambda s, r: seen.append((s, r))
    )
    (row,) = trainer.run()
    assert row.opponent == "random" and row.games == 4
    events = [call for call in backend.calls if call[0] in ("snapshot", "checkpoint", "scalars")]
    assert events == [
        ("snapshot", 300),  # 250 lies in (0, 300]
        ("scalars", 300, ["eval/win_rate_vs_random"]),
        ("snapshot", 600),  # 500
        ("scalars", 600, ["eval/win_rate_vs_random"]),
        ("checkpoint", 600),  # 400
        ("snapshot", 900),  # 750
        ("scalars", 900, ["eval/win_rate_vs_random"]),
        ("checkpoint", 900),  # 800
        ("snapshot", 1200),  # 1000
        ("scalars", 1200, ["eval/win_rate_vs_random"]),  # 1200
        ("checkpoint", 1200),  # 1200, and the last step
    ]
    assert backend.calls[0] == ("start", None) and backend.calls[-1] == ("close",)
    assert [call[1:] for call in backend.calls if call[0] == "learn"] == [(0, 250), (300, 400), (600, 750), (900, 1000)]
    assert [step for step, _ in seen] == [300, 600, 900, 1200]
    evaluations = [json.loads(line) for line in (tmp_path / "eval.jsonl").read_text().splitlines()]
    assert [entry["step"] for entry in evaluations] == [300, 600, 900, 1200]
    assert (tmp_path / "learning_curve.png").is_file() and (tmp_path / "config.yaml").is_file()
    meta = read_meta(tmp_path)
    assert meta["step"] == 1200 and meta["backend"] == "scripted" and meta["algorithm"] == "scripted"
    assert meta["game"] == "toy_nim" and meta["config"]["seed"] == 3
    final = json.loads((tmp_path / "final_eval.json").read_text())
    assert final["step"] == 1200 and set(final["win_rate"]) == {"random"}
    assert final["checkpoint"] == str(latest_checkpoint(tmp_path))
    captured = capsys.readouterr()
    assert "training toy_nim (2 players) for 1,000 steps by script" in captured.err
    assert "toy_nim, 2 players (scripted):" in captured.out


def test_schedules_round_up_to_the_backends_unit_and_a_resume_starts_from_the_checkpoint(tmp_path, monkeypatch):
    register_toys(monkeypatch)
    config = toy_config(eval={"every": 0}, final_eval={"games": 0})
    first = Scripted(tmp_path, stride=128, schedule_unit=128)
    trainer = Trainer(config, tmp_path, progress=False, backend=first)
    assert (trainer.total, trainer.checkpoint_every, trainer.snapshot_every) == (1024, 512, 256)
    trainer.run()
    assert [call[1] for call in first.calls if call[0] == "checkpoint"] == [512, 1024]
    assert [call[1] for call in first.calls if call[0] == "snapshot"] == [256, 512, 768, 1024]
    # a longer run resumed from the checkpoint at 1,024: the backend restores it, the loop goes on from there
    config.total_timesteps = 1536
    second = Scripted(tmp_path, stride=128, schedule_unit=128)
    Trainer(config, tmp_path, resume=True, progress=False, backend=second).run()
    assert second.calls[0] == ("start", 1024)
    assert [call[1] for call in second.calls if call[0] == "checkpoint"] == [1536]
    assert read_meta(tmp_path)["step"] == 1536


def test_a_resume_forgets_evaluations_logged_after_its_checkpoint(tmp_path, monkeypatch):
    register_toys(monkeypatch)
    config = toy_config(total_timesteps=600, final_eval={"games": 0})
    Trainer(config, tmp_path, progress=False, backend=Scripted(tmp_path, stride=300)).run()
    log = tmp_path / "eval.jsonl"
    with open(log, "a") as handle:
        handle.write('{"step": 900, "win_rate": {"random": 1.0}}\n{"step": 12')  # after the checkpoint, torn
    config.total_timesteps = 900
    Trainer(config, tmp_path, resume=True, progress=False, backend=Scripted(tmp_path, stride=300)).run()
    assert [json.loads(line)["step"] for line in log.read_text().splitlines()] == [300, 600, 900]


def test_crossed_counts_multiples_in_the_half_open_interval():
    assert crossed(0, 256, 256) and crossed(255, 256, 256) and not crossed(256, 511, 256)
    assert crossed(100, 900, 256) and not crossed(0, 1000, 0)


def test_both_kinds_of_environment_wear_the_same_stack(monkeypatch):
    from stable_baselines3.common.monitor import Monitor

    from fiesta_envs.envs.team_env import TeamEnv
    from fiesta_envs.training.envs import env_factory
    from fiesta_envs.training.league import LeagueEnv
    from fiesta_envs.training.shaping import ScoreShaping

    register_toys(monkeypatch)
    for fields, inner in (
        ({}, LeagueEnv),
        (
            {"game": "toy_coop_nim", "num_players": 3, "opponents": {"baselines": {}}, "team_play": "shared"},
            TeamEnv,
        ),
    ):
        env = env_factory(toy_config(reward_shaping=0.5, **fields), [])()
        assert isinstance(env, Monitor) and isinstance(env.env, ScoreShaping) and isinstance(env.env.env, inner)
        unshaped = env_factory(toy_config(**fields), [])()
        assert isinstance(unshaped, Monitor) and isinstance(unshaped.env, inner)


def test_the_rllib_backend_refuses_a_shortlist_before_ray_is_needed(tmp_path):
    from fiesta_envs.training.rllib_train import RllibTrainer

    config = validate_config(
        {
            "game": "fiesta_de_los_muertos",
            "num_players": 4,
            "backend": "rllib",
            "shortlist": True,
            "total_timesteps": 1000,
            "opponents": {"baselines": {}},
        }
    )
    with pytest.raises(ConfigError, match="shortlist"):
        RllibTrainer(config, tmp_path)
    with pytest.raises(ValueError, match="backend: rllib"):
        RllibTrainer(validate_config({"game": "tortilla_de_patatas", "total_timesteps": 1000}), tmp_path)
