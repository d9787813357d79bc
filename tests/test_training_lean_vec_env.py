"""``LeanDummyVecEnv`` returns what stable-baselines3's ``DummyVecEnv`` returns, step for step, episodes included."""

from __future__ import annotations

import functools

import numpy as np
from stable_baselines3.common.vec_env import DummyVecEnv

from fiesta_envs.training.lean_vec_env import LeanDummyVecEnv
from fiesta_envs.training.train import _build_env

MAKE = functools.partial(
    _build_env,
    game="fiesta_mexicana",
    num_players=2,
    options={"action_features": True, "reward": "margin"},
    baselines={"greedy": 1.0, "random": 1.0},
    self_play_weight=0.0,
    deterministic_members=False,
    cooperative=False,
    members=[],
    reward_shaping=1.0,
    gamma=0.99,
)


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
