"""A training run killed with SIGKILL at random moments and resumed ends exactly like an uninterrupted run.

The run trains the toy Nim in a child process (``_CHILD`` registers the toy game there). It is
killed three times at random moments — a random point of its progress (the number of league
snapshots written, one every 128 steps) plus a random delay, so that the kills fall during
rollouts, PPO updates, snapshot and checkpoint writes and periodic evaluations alike — and
``fiesta train --resume`` is started again after each kill until the run completes. Its
final weights, optimiser state and evaluation log must equal those of a run that was never
interrupted: checkpoints are written atomically and resuming replays the same random streams.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from training_helpers import TOY_CONFIG
from training_support import evaluations

pytest.importorskip("sb3_contrib")

import torch

from fiesta_envs.evaluation.checkpoints import load_model

TESTS = Path(__file__).resolve().parent
_CHILD = f"""
import sys
sys.path.insert(0, {str(TESTS)!r})
import fiesta_envs.registry as registry
from training_helpers import TOY_SPEC
registry.GAMES[TOY_SPEC.name] = TOY_SPEC
from fiesta_envs.cli import main
sys.exit(main(["train", "--no-progress", *sys.argv[1:]]))
"""
#: Longer than the other toy runs, so that random moments fall inside every phase of training.
CONFIG = TOY_CONFIG.replace("total_timesteps: 512", "total_timesteps: 1024").replace(
    "final_eval: {games: 10}", "final_eval: {games: 0}"
)


def _start(*args: object) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-c", _CHILD, *map(str, args)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )


def _finish(process: subprocess.Popen) -> None:
    _, error = process.communicate(timeout=300)
    assert process.returncode == 0, error.decode()


def _state(run: Path) -> tuple[dict, dict]:
    model = load_model(run)
    return model.policy.state_dict(), model.policy.optimizer.state_dict()["state"]


def _snapshots(run: Path) -> int:
    league = run / "league"
    return len(list(league.glob("snapshot_*.npz"))) if league.is_dir() else 0


def _wait_for(process: subprocess.Popen, run: Path, snapshots: int) -> bool:
    """Wait until the run has written ``snapshots`` league snapshots; False if it ended first."""
    while _snapshots(run) < snapshots:
        if process.poll() is not None:
            return False
        time.sleep(0.01)
    return True


def test_a_run_killed_at_random_moments_resumes_to_the_same_weights(tmp_path):
    config = tmp_path / "toy.yaml"
    config.write_text(CONFIG)
    whole, killed = tmp_path / "whole", tmp_path / "killed"
    _finish(_start("--config", config, "--run-dir", whole))
    total = _snapshots(whole)  # 9: steps 0, 128, ..., 1024

    seed = int.from_bytes(os.urandom(4), "little")  # a new draw every run; printed when the test fails
    rng = np.random.default_rng(seed)
    # from the fourth snapshot on (step 384: the checkpoint of step 256 is written, so there is something to resume)
    moments = sorted(rng.choice(np.arange(4, total - 1), size=3, replace=False))
    process = _start("--config", config, "--run-dir", killed)
    kills = []
    for snapshots in moments:
        if not _wait_for(process, killed, int(snapshots)):
            break
        time.sleep(float(rng.uniform(0.0, 0.3)))
        if process.poll() is not None:
            break
        process.send_signal(signal.SIGKILL)
        process.wait()
        kills.append(f"after snapshot {int(snapshots)}")
        process = _start("--resume", killed)
    _finish(process)
    assert kills, "the run ended before it could be killed"
    where = f"seed {seed}, killed {kills}"

    (weights_a, optimiser_a), (weights_b, optimiser_b) = _state(whole), _state(killed)
    assert weights_a.keys() == weights_b.keys(), where
    assert all(torch.equal(weights_a[k], weights_b[k]) for k in weights_a), where
    assert all(torch.equal(optimiser_a[k]["exp_avg"], optimiser_b[k]["exp_avg"]) for k in optimiser_a), where
    assert evaluations(whole) == evaluations(killed), where
