"""``LeanDummyVecEnv`` returns what stable-baselines3's ``DummyVecEnv`` returns, step for step, episodes included."""

from __future__ import annotations

import functools
import itertools
from pathlib import Path

import numpy as np
from stable_baselines3.common.vec_env import DummyVecEnv
from training_support import fiesta_mexicana_env

from fiesta_envs.policies.mlp import ActorSnapshot
from fiesta_envs.training.lean_vec_env import LeanDummyVecEnv, batched_logits

MAKE = fiesta_mexicana_env({"greedy": 1.0, "random": 1.0})


def assert_same(a: object, b: object) -> None:
    if isinstance(a, dict):
        assert isinstance(b, dict) and a.keys() == b.keys()
        for key in a.keys() - {"t"}:  # Monitor's episode "t": the wall time, which differs
            assert_same(a[key], b[key])
    elif isinstance(a, np.ndarray):
        np.testing.assert_array_equal(a, b)
    else:
        assert a == b


def test_lean_vector_env_steps_like_dummy_vec_env():
    plain, lean = DummyVecEnv([MAKE] * 3), LeanDummyVecEnv([MAKE] * 3)
    for env in (plain, lean):
        env.seed(11)
    np.testing.assert_array_equal(plain.reset(), lean.reset())
    rng = np.random.default_rng(0)
    episodes = 0
    for _ in range(300):
        masks = np.stack(plain.env_method("action_masks"))
        np.testing.assert_array_equal(masks, np.stack(lean.env_method("action_masks")))
        actions = np.array([rng.choice(np.flatnonzero(mask)) for mask in masks])
        got, want = lean.step(actions), plain.step(actions)
        for a, b in zip(got[:3], want[:3], strict=True):
            np.testing.assert_array_equal(a, b)
        assert len(got[3]) == len(want[3])
        for a, b in zip(got[3], want[3], strict=True):
            assert_same(a, b)
        assert got[0] is not lean.buf_obs[None]  # the caller's copy
        episodes += int(got[2].sum())
    assert episodes >= 3  # episodes ended (terminal observations, resets) along the way


def random_actor(seed: int, sizes: list[int]) -> ActorSnapshot:
    rng = np.random.default_rng(seed)
    weights = [rng.normal(0.0, 0.3, (a, b)).astype(np.float32) for a, b in itertools.pairwise(sizes)]
    biases = [rng.normal(0.0, 0.3, b).astype(np.float32) for b in sizes[1:]]
    return ActorSnapshot(weights, biases, ["tanh"] * (len(sizes) - 2) + ["identity"])


def league_of_two(directory: Path, env: object) -> list[str]:
    """Two frozen networks of the environment's size, as league snapshots on disk."""
    inputs, actions = env.observation_space.shape[0], env.action_space.n
    paths = []
    for seed in (1, 2):
        path = directory / f"snapshot_{seed:09d}.npz"
        random_actor(seed, [inputs, 32, 16, actions]).save(path)
        paths.append(str(path))
    return paths


def test_network_opponents_batched_play_the_moves_of_environments_stepped_alone(tmp_path):
    make = functools.partial(MAKE, baselines={"greedy": 1.0}, self_play_weight=2.0)
    members = league_of_two(tmp_path, make())
    alone = DummyVecEnv([functools.partial(make, members=members)] * 4)
    batched = LeanDummyVecEnv([functools.partial(make, members=members)] * 4)
    assert batched._single_seats is not None  # the batching path is the one tested
    for env in (alone, batched):
        env.seed(5)
    np.testing.assert_array_equal(alone.reset(), batched.reset())
    rng = np.random.default_rng(1)
    episodes, opponents = 0, set()
    for _ in range(400):
        masks = np.stack(alone.env_method("action_masks"))
        np.testing.assert_array_equal(masks, batched.action_masks())
        actions = np.array([rng.choice(np.flatnonzero(mask)) for mask in masks])
        got, want = batched.step(actions), alone.step(actions)
        for a, b in zip(got[:3], want[:3], strict=True):
            np.testing.assert_array_equal(a, b)
        for a, b in zip(got[3], want[3], strict=True):
            assert_same(a, b)
        names = alone.env_method("opponent_names")
        assert batched.env_method("opponent_names") == names
        opponents.update(name for seats in names for name in seats)
        states = [[env.unwrapped.game.state_dict() for env in vec.envs] for vec in (alone, batched)]
        assert states[0] == states[1]  # every move of the games, the opponents' included
        episodes += int(got[2].sum())
    assert episodes >= 4
    assert opponents == {"self", "greedy"}
    assert batched.network_moves > 200  # frozen selves played many moves ...
    assert batched.forward_passes < batched.network_moves * 0.8  # ... most of them answered with others


def test_batched_logits_equal_one_forward_pass_per_input():
    actor = random_actor(3, [1165, 256, 128, 90])
    rng = np.random.default_rng(4)
    for count in (1, 2, 5, 8):
        inputs = [((rng.random(1165) < 0.15) * rng.random(1165)).astype(np.float32) for _ in range(count)]
        rows = batched_logits(actor, inputs)
        for row, vector in zip(rows, inputs, strict=True):
            np.testing.assert_array_equal(row, actor.logits(vector))
