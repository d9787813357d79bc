"""Score shaping: potential-based, so an episode's shaping terms add up to a constant."""

from __future__ import annotations

import numpy as np
import pytest
from toy_game import Nim

from fiesta_envs.envs.single_seat import SingleSeatEnv
from fiesta_envs.policies.policy import RandomPolicy
from fiesta_envs.training.shaping import ScoreShaping


class CountingNim(Nim):
    """Nim where a player's score is the number of stones it has taken so far."""

    name = "toy_counting_nim"
    score_scale = 4.0

    def _new_game(self) -> None:
        super()._new_game()
        self.taken = [0] * self.num_players

    def _apply(self, action: int) -> None:
        self.taken[self.turn] += action + 1
        super()._apply(action)

    def scores(self) -> np.ndarray:
        return np.array(self.taken, dtype=float)


def episode(env, seed):
    _, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    rewards, done = [], False
    while not done:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _, reward, done, _, info = env.step(action)
        rewards.append(reward)
    return rewards


def make_env():
    return SingleSeatEnv(CountingNim, lambda spec, seed: RandomPolicy(seed), seat=None)


@pytest.mark.parametrize("seed", range(10))
def test_shaping_terms_telescope_to_minus_the_starting_potential(seed):
    plain = episode(make_env(), seed)
    shaped_env = ScoreShaping(make_env(), coefficient=2.0, gamma=1.0)
    shaped_env.reset(seed=seed)
    start_potential = shaped_env._potential()
    shaped = episode(shaped_env, seed)
    assert len(shaped) == len(plain)
    assert sum(shaped) == pytest.approx(sum(plain) - start_potential)
    assert plain[:-1] == [0.0] * (len(plain) - 1)
    assert any(r != 0.0 for r in shaped[:-1]) or len(shaped) == 1  # points are credited when they are scored


def test_a_move_that_scores_is_rewarded_at_once():
    env = ScoreShaping(SingleSeatEnv(CountingNim, lambda spec, seed: RandomPolicy(seed), seat=0), 1.0, gamma=1.0)
    env.reset(seed=0)
    game = env.unwrapped.game
    game.pile = 12  # no two moves can end the game
    _, reward, done, _, _ = env.step(2)  # the learner takes 3 stones, then the opponent takes some
    assert not done
    assert reward == pytest.approx((3 - game.taken[1]) / CountingNim.score_scale)


def test_a_solo_game_is_shaped_by_its_own_score():
    from fiesta_envs.registry import make_gym_env

    env = ScoreShaping(make_gym_env("tequila", num_players=1), coefficient=1.0, gamma=1.0)
    _, info = env.reset(seed=3)
    game = env.unwrapped.game
    start = game.scores()[0] / game.score_scale
    rng = np.random.default_rng(3)
    total, done = 0.0, False
    while not done:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _, reward, done, _, info = env.step(action)
        total += reward
    assert game.scores()[0] > 0  # points were credited on the way: the terms telescope to minus the start
    assert total == pytest.approx(game.returns()[0] - start)
