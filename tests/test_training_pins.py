"""``fiesta train`` (stable-baselines3) computes pinned weights: a tiny run's checkpoints hold the arrays the pins in
``tests/training_pins.npz`` were taken from.

Each case trains the toy Nim (or its cooperative variant) for two checkpoints; the pins cover every tensor of the
first and the last checkpoint's network (actor and critic, from ``model.zip``), its optimiser state and the
``policy.npz`` arrays. A change of the training loop, the environment stack, the league, the seeds or the schedule
moves them by far more than the tolerance.

The comparison allows a relative difference of ``RTOL`` of each array's largest value: the same run on another CPU
(a different vector instruction set, so a different order of float additions in torch's and MKL's kernels) rounds
differently in the last bits. ``test_the_pins_survive_another_instruction_set`` runs the cases with torch's scalar
kernels and MKL's compatible code path, which change those bits, to show the tolerance covers it
(measured: at most 2e-5 of an array's largest value).

Regenerate after an intended change: ``FIESTA_UPDATE_PINS=1 python -m pytest tests/test_training_pins.py``.
"""

from __future__ import annotations

import os
import subprocess
import sys
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

PINS = Path(__file__).with_name("training_pins.npz")
RTOL = 1e-3
UPDATE = os.environ.get("FIESTA_UPDATE_PINS") == "1"


def checkpoint_arrays(path) -> dict[str, np.ndarray]:
    """The network's tensors, the optimiser's moment estimates and the arrays of ``policy.npz``."""
    policy = load_model(path).policy
    arrays = {f"net/{name}": tensor.detach().cpu().numpy() for name, tensor in policy.state_dict().items()}
    for index, state in policy.optimizer.state_dict()["state"].items():
        for key in ("exp_avg", "exp_avg_sq"):
            arrays[f"adam/{index}/{key}"] = state[key].detach().cpu().numpy()
    with np.load(Path(read_meta(path)["path"]) / "policy.npz") as npz:
        arrays.update({f"npz/{name}": npz[name] for name in npz.files})
    return arrays


def run_arrays(tmp_path, monkeypatch, case: str) -> dict[str, np.ndarray]:
    """Train the case and return the arrays of its first and last checkpoint, keyed ``case/first|last/name``."""
    register_toys(monkeypatch)
    config = tmp_path / "toy.yaml"
    config.write_text(TOY_CONFIG)
    run = tmp_path / "run"
    sets = [arg for override in [*CASES[case], "final_eval.games=0"] for arg in ("--set", override)]
    assert main(["train", "--no-progress", "--config", str(config), "--run-dir", str(run), *sets]) == 0
    checkpoints = list_checkpoints(run)
    assert len(checkpoints) >= 2
    arrays = {}
    for label, checkpoint in (("first", checkpoints[0]), ("last", checkpoints[-1])):
        arrays.update({f"{case}/{label}/{name}": value for name, value in checkpoint_arrays(checkpoint).items()})
    return arrays


def differences(actual: dict[str, np.ndarray], pinned: dict[str, np.ndarray]) -> list[str]:
    """What differs beyond the tolerance: missing or extra arrays, shapes, dtypes, values."""
    problems = [f"{name}: not pinned" for name in sorted(set(actual) - set(pinned))]
    problems += [f"{name}: missing" for name in sorted(set(pinned) - set(actual))]
    for name in sorted(set(actual) & set(pinned)):
        got, want = actual[name], pinned[name]
        if got.shape != want.shape or got.dtype != want.dtype:
            problems.append(f"{name}: {got.dtype}{got.shape} instead of {want.dtype}{want.shape}")
            continue
        if not np.issubdtype(want.dtype, np.number):
            if not np.array_equal(got, want):
                problems.append(f"{name}: {got!r} instead of {want!r}")
            continue
        scale = float(np.max(np.abs(want))) if want.size else 0.0
        error = float(np.max(np.abs(got.astype(np.float64) - want))) if want.size else 0.0
        if error > RTOL * scale:
            problems.append(f"{name}: differs by {error:.3g} (tolerance {RTOL * scale:.3g})")
    return problems


def pinned_arrays(case: str) -> dict[str, np.ndarray]:
    with np.load(PINS) as npz:
        return {name: npz[name] for name in npz.files if name.startswith(f"{case}/")}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_tiny_run_computes_the_pinned_weights(case, tmp_path, monkeypatch):
    actual = run_arrays(tmp_path, monkeypatch, case)
    if UPDATE:
        others = {}
        if PINS.exists():
            with np.load(PINS) as npz:
                others = {name: npz[name] for name in npz.files if not name.startswith(f"{case}/")}
        np.savez_compressed(PINS, **others, **actual)
    problems = differences(actual, pinned_arrays(case))
    assert not problems, "\n".join(problems[:20])


def test_the_tolerance_catches_a_changed_run(tmp_path, monkeypatch):
    """Another seed is a different run: far outside the tolerance."""
    monkeypatch.setitem(CASES, "league_seed2", ["seed=2"])
    actual = run_arrays(tmp_path, monkeypatch, "league_seed2")
    renamed = {name.replace("league_seed2/", "league/", 1): value for name, value in actual.items()}
    assert len(differences(renamed, pinned_arrays("league"))) > len(renamed) // 2


def test_the_pins_survive_another_instruction_set(tmp_path):
    """The cases in a fresh process with torch's scalar kernels and MKL's compatible path (other last bits)."""
    env = {**os.environ, "ATEN_CPU_CAPABILITY": "default", "MKL_CBWR": "COMPATIBLE"}
    tests = Path(__file__).parent
    command = [
        sys.executable,
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        "--basetemp",
        str(tmp_path / "run"),
        Path(__file__).name,
        "-k",
        "test_a_tiny_run_computes_the_pinned_weights",
    ]
    if UPDATE:
        pytest.skip("regenerating the pins")
    done = subprocess.run(command, cwd=tests, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:]
