"""Vectorised Gymnasium environments: every game's single-seat environment (``opponents="random"``) in
stable-baselines3's ``SubprocVecEnv`` (worker processes; masks through sb3-contrib's ``get_action_masks``) and
in ``gymnasium.make_vec`` with sync and async vectorisation (masks in the vector info), each playing random
legal actions until every copy has finished two games."""

from __future__ import annotations

import numpy as np
import pytest
from integration_support import MAX_STEPS, games, gym_id, legal_choice

pytestmark = pytest.mark.integration

COPIES = 2
GAMES_EACH = 2


def _make(game: str):
    import gymnasium

    import fiesta_envs  # noqa: F401  (registers the ids in the worker process)

    return gymnasium.make(gym_id(game), opponents="random", illegal_action="raise")


@games()
def test_sb3_subproc_vec_env(game):
    from functools import partial

    from sb3_contrib.common.maskable.utils import get_action_masks
    from stable_baselines3.common.vec_env import SubprocVecEnv

    env = SubprocVecEnv([partial(_make, game)] * COPIES)
    try:
        env.seed(0)
        env.reset()
        rng = np.random.default_rng(0)
        finished = np.zeros(COPIES, dtype=int)
        for _ in range(MAX_STEPS):
            actions = np.array([legal_choice(mask, rng) for mask in get_action_masks(env)])
            observations, _, dones, infos = env.step(actions)
            for copy in np.flatnonzero(dones):
                assert infos[copy]["terminal_observation"] in env.observation_space
                assert len(infos[copy]["scores"]) >= 1  # the end-of-game info
            finished += dones
            if finished.min() >= GAMES_EACH:
                break
        assert finished.min() >= GAMES_EACH
        assert observations.shape == (COPIES, *env.observation_space.shape)
    finally:
        env.close()


@games()
@pytest.mark.parametrize("mode", ["sync", "async"])
def test_gymnasium_make_vec(game, mode):
    import gymnasium

    env = gymnasium.make_vec(
        gym_id(game), num_envs=COPIES, vectorization_mode=mode, opponents="random", illegal_action="raise"
    )
    try:
        _, infos = env.reset(seed=0)
        rng = np.random.default_rng(0)
        finished = np.zeros(COPIES, dtype=int)
        ended = np.zeros(COPIES, dtype=bool)
        for _ in range(MAX_STEPS):
            # a copy that just ended is reset by this step (its action is ignored; its mask is all zero)
            actions = np.array(
                [0 if ended[copy] else legal_choice(infos["action_mask"][copy], rng) for copy in range(COPIES)]
            )
            _, _, terminated, truncated, infos = env.step(actions)
            ended = terminated | truncated
            finished += ended
            if finished.min() >= GAMES_EACH:
                break
        assert finished.min() >= GAMES_EACH
        assert not truncated.any()
    finally:
        env.close()
