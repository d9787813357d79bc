"""``TeamEnv``: one agent plays every seat of a cooperative game (parameter sharing)."""

from __future__ import annotations

import numpy as np
import pytest

from fiesta_envs.core.errors import IllegalActionError, InvalidOptionError
from fiesta_envs.envs.team_env import TeamEnv
from fiesta_envs.fiesta_mexicana.game import FiestaMexicana
from fiesta_envs.muertos.game import FiestaDeLosMuertos


def test_every_decision_of_every_seat_is_a_step_with_that_seats_observation():
    env = TeamEnv(FiestaDeLosMuertos, num_players=4)
    observation, info = env.reset(seed=3)
    rng = np.random.default_rng(0)
    reference = FiestaDeLosMuertos(num_players=4)
    reference.load_state_dict(env.game.state_dict())
    seats, total = set(), 0.0
    terminated = False
    while not terminated:
        seat = info["seat"]
        seats.add(seat)
        assert seat == reference.current_player
        assert np.array_equal(observation, reference.observe(seat))  # the acting seat's view, nobody else's
        assert np.array_equal(env.action_masks(), reference.legal_mask().astype(bool))
        action = int(rng.choice(np.flatnonzero(env.action_masks())))
        reference.step(action)
        observation, reward, terminated, _, info = env.step(action)
        total += reward
        if not terminated:
            assert reward == 0.0
    assert seats == {0, 1, 2, 3}
    assert total == reference.returns()[0] == reference.returns()[3]  # the team's reward, once, at the end


def test_illegal_actions_end_the_episode_or_raise():
    env = TeamEnv(FiestaDeLosMuertos, num_players=4)
    env.reset(seed=0)
    illegal = int(np.flatnonzero(env.action_masks() == 0)[0])
    with pytest.warns(UserWarning, match="illegal action"):
        _, reward, terminated, _, _ = env.step(illegal)
    assert reward == -1.0 and terminated
    strict = TeamEnv(FiestaDeLosMuertos, num_players=4, illegal_action="raise")
    strict.reset(seed=0)
    with pytest.raises(IllegalActionError):
        strict.step(illegal)


def test_a_competitive_game_is_refused():
    with pytest.raises(InvalidOptionError, match="not cooperative"):
        TeamEnv(FiestaMexicana)
