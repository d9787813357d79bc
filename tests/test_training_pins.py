"""``fiesta train`` (stable-baselines3) computes pinned weights: a tiny run's checkpoints are bit for bit the ones
the pins below were taken from.

Each case trains the toy Nim (or its cooperative variant) for two checkpoints; the digest covers every tensor of
the first and the last checkpoint's network (actor and critic, from ``model.zip``), its optimiser state and the
``policy.npz`` arrays. A change of the training loop, the environment stack, the league, the seeds or
the schedule shows up here as a new digest.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import pytest
from training_helpers import TOY_CONFIG, register_toys

pytest.importorskip("sb3_contrib")

from fiesta_envs.cli import main
from fiesta_envs.evaluation.checkpoints import list_checkpoints, load_model, read_meta

CASES: dict[str, list[str]] = {
    # league of past selves and two baselines, periodic evaluations
    "league": [],
    # two environments in this process, potential-based shaping
    "two_envs_shaped": ["n_envs=2", "vec_env=dummy", "reward_shaping=0.5", "ppo.batch_size=128"],
    # cooperative game, one policy on every seat
    "team_shared": ["game=toy_coop_nim", "opponents.baselines={}", "num_players=3", "reward_shaping=0.5"],
    # cooperative game, the latest frozen self as team-mates
    "team_frozen": ["game=toy_coop_nim", "opponents.baselines={}", "num_players=3", "team_play=frozen"],
    # behaviour cloning of a scripted player first (a checkpoint at step 0)
    "pretrained": ["pretrain={teacher: take_one, games: 8, epochs: 2, batch_size: 16, validation: 0.0}"],
}

PINS = {
    "league": "58ad913cec46962034dade50ca332a0f713d5607f52c5d13123ef09d919ed08e",
    "two_envs_shaped": "5de51f2761799cc0465f8c5ae518afe667e13531915d015b1ffcce5b545d356d",
    "team_shared": "139c412c7c71a0c87eaca4bdd27589b66f4eb6cf7220d8b79b128b969cdd7b94",
    "team_frozen": "660e8f8c2e71f2b0011a3cee13f1bb072dec925bba9a6df8c35f9918b255e79c",
    "pretrained": "3c456812e212f1b523b73d7a000b18382eb7838dfdd040d7abb0d734dd94893f",
}


def checkpoint_digest(path) -> str:
    """SHA-256 over the network's tensors, the optimiser's moment estimates and the arrays of ``policy.npz``
    (names, dtypes, shapes, bytes; not the files, whose zip entries carry the time they were written)."""
    policy = load_model(path).policy
    arrays = {f"net/{name}": tensor.detach().cpu().numpy() for name, tensor in policy.state_dict().items()}
    for index, state in policy.optimizer.state_dict()["state"].items():
        for key in ("exp_avg", "exp_avg_sq"):
            arrays[f"adam/{index}/{key}"] = state[key].detach().cpu().numpy()
    with np.load(Path(read_meta(path)["path"]) / "policy.npz") as npz:
        arrays.update({f"npz/{name}": npz[name] for name in npz.files})
    digest = hashlib.sha256()
    for name, array in sorted(arrays.items()):
        digest.update(f"{name}:{array.dtype}:{array.shape}".encode())
        digest.update(np.ascontiguousarray(array).tobytes())
    return digest.hexdigest()


def run_digest(tmp_path, monkeypatch, overrides: list[str]) -> str:
    register_toys(monkeypatch)
    config = tmp_path / "toy.yaml"
    config.write_text(TOY_CONFIG)
    run = tmp_path / "run"
    sets = [arg for override in [*overrides, "final_eval.games=0"] for arg in ("--set", override)]
    assert main(["train", "--no-progress", "--config", str(config), "--run-dir", str(run), *sets]) == 0
    checkpoints = list_checkpoints(run)
    assert len(checkpoints) >= 2
    return hashlib.sha256("".join(checkpoint_digest(c) for c in (checkpoints[0], checkpoints[-1])).encode()).hexdigest()


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_tiny_run_computes_the_pinned_weights(case, tmp_path, monkeypatch):
    assert run_digest(tmp_path, monkeypatch, CASES[case]) == PINS[case]
