"""Tortilla de Patatas through the PettingZoo AEC adapter."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test

from fiesta_envs import tortilla_de_patatas_v1


@pytest.mark.parametrize(
    ("num_players", "options"),
    [(2, {}), (4, {"menu": "gourmet"}), (2, {"menu": "kids", "observation": "observation"})],
)
def test_pettingzoo_api(num_players: int, options: dict) -> None:
    api_test(tortilla_de_patatas_v1.env(num_players=num_players, **options), num_cycles=300)


def test_a_full_game_through_the_aec_env_gives_team_rewards() -> None:
    env = tortilla_de_patatas_v1.env(num_players=4, menu="day")
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        totals[agent] += reward
        if termination or truncation:
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        env.step(int(legal[rng.integers(len(legal))]))
    assert totals["player_0"] == totals["player_2"] == -totals["player_1"] == -totals["player_3"]
    team_a, team_b = env.unwrapped.final_info()["team_scores"]
    assert info["scores"].tolist() == [team_a, team_b, team_a, team_b]
    assert totals["player_0"] == float(np.sign(team_a - team_b))


def test_single_seat_gymnasium_env_with_careful_opponents() -> None:
    from gymnasium.utils.env_checker import check_env

    from fiesta_envs.envs.single_seat import SingleSeatEnv
    from fiesta_envs.policies.policy import Policy, RandomPolicy
    from fiesta_envs.tortilla.baselines import BASELINES
    from fiesta_envs.tortilla.game import TortillaDePatatas

    def factory(spec: str, seed: int | None) -> Policy:
        policies: dict[str, type[Policy]] = {"random": RandomPolicy, **BASELINES}
        return policies[spec](seed=seed)

    env = SingleSeatEnv(TortillaDePatatas, factory, num_players=4, opponents="careful", menu="gourmet")
    check_env(env, skip_render_check=True)
    rewards = []
    for episode in range(5):
        env.reset(seed=episode)
        done = False
        while not done:
            legal = np.flatnonzero(env.action_masks())
            obs, reward, done, _, _ = env.step(int(legal[0]))
            assert obs.shape == (306,)
        rewards.append(reward)
    assert set(rewards) <= {-1.0, 0.0, 1.0}
