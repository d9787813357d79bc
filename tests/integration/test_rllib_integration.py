"""RLlib: every game as RLlib's ``PettingZooEnv`` (and Tequila's Parallel API as ``ParallelPettingZooEnv``):
RLlib's own multi-agent environment check passes, and random masked actions through the wrapper play a whole
game to RLlib's ``__all__`` termination with the final rewards of every seat. (The RLlib training backend has
its own tests: ``bash scripts/rllib_test.sh``.)"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from integration_support import MAX_STEPS, PARALLEL_GAMES, aec_env, games, legal_choice, parallel_env

pytestmark = pytest.mark.integration


@games()
def test_pettingzoo_env_plays_a_whole_game(game):
    from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv
    from ray.rllib.utils.pre_checks.env import check_multiagent_environments

    with warnings.catch_warnings():  # the check samples unmasked actions: illegal ones end its game
        warnings.filterwarnings("ignore", message=".*illegal action, game ended")
        check_multiagent_environments(PettingZooEnv(aec_env(game, illegal_action="terminate")))
    env = PettingZooEnv(aec_env(game))
    rng = np.random.default_rng(0)
    observations, _ = env.reset(seed=0)
    for _ in range(MAX_STEPS):
        ((agent, observation),) = observations.items()  # one agent acts at a time
        assert observation in env.observation_space[agent]
        observations, rewards, terminated, truncated, _ = env.step(
            {agent: legal_choice(observation["action_mask"], rng)}
        )
        if terminated["__all__"] or truncated["__all__"]:
            break
    assert terminated["__all__"], "the game did not end"
    assert set(rewards) == set(env.possible_agents)


@pytest.mark.parametrize("game", PARALLEL_GAMES)
def test_parallel_pettingzoo_env_plays_a_whole_game(game):
    from ray.rllib.env.wrappers.pettingzoo_env import ParallelPettingZooEnv

    env = ParallelPettingZooEnv(parallel_env(game))
    rng = np.random.default_rng(0)
    observations, _ = env.reset(seed=0)
    for _ in range(MAX_STEPS):
        actions = {
            agent: legal_choice(observation["action_mask"], rng)
            for agent, observation in observations.items()
            if observation["action_mask"].any()
        }
        observations, rewards, terminated, truncated, _ = env.step(actions)
        if terminated["__all__"] or truncated["__all__"]:
            break
    assert terminated["__all__"], "the game did not end"
    assert set(rewards) == set(env.possible_agents)
