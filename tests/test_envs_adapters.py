"""The generic PettingZoo and Gymnasium adapters, on the toy Nim game."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env as gym_check_env
from pettingzoo.test import api_test, seed_test
from toy_game import Nim, TakeOne

from fiesta_envs.core.errors import IllegalActionError, InvalidOptionError
from fiesta_envs.envs.aec import aec_env_classes
from fiesta_envs.envs.single_seat import SingleSeatEnv
from fiesta_envs.policies.policy import CallablePolicy, RandomPolicy

raw_env, env = aec_env_classes(Nim, "toy_nim_v0", module=__name__)


def policy_factory(spec, seed):
    if spec == "random":
        return RandomPolicy(seed)
    if spec == "take_one":
        return TakeOne(seed)
    if callable(spec):
        return CallablePolicy(spec, seed)
    raise InvalidOptionError(f"unknown opponent {spec!r}")


@pytest.mark.parametrize("num_players", [2, 3])
def test_pettingzoo_api_and_seed(num_players):
    api_test(env(num_players=num_players), num_cycles=200)
    seed_test(lambda: env(num_players=num_players), num_cycles=200)


def test_aec_reset_without_a_seed_continues_so_one_seed_fixes_the_sequence_of_games():
    def piles(aec) -> list[int]:
        aec.reset(seed=3)
        sequence = []
        for _ in range(10):
            aec.reset()
            sequence.append(aec.unwrapped.game.pile)
        return sequence

    first = piles(env())
    assert first == piles(env())
    assert len(set(first)) > 1


def test_mask_is_zero_for_agents_not_to_move_and_infos_carry_it():
    aec = env(num_players=3)
    aec.reset(seed=0)
    for agent in aec.agents:
        mask = aec.observe(agent)["action_mask"]
        assert mask.any() == (agent == aec.agent_selection)
        np.testing.assert_array_equal(aec.infos[agent]["action_mask"], mask)


def test_final_rewards_and_infos():
    aec = env(num_players=2)
    aec.reset(seed=4)
    while not any(aec.terminations.values()):
        aec.step(0)
    winner = aec.agent_selection  # took the last stone
    assert aec.rewards[winner] == 1.0
    assert sum(aec.rewards.values()) == 0.0
    seat = aec.possible_agents.index(winner)
    for agent in aec.agents:
        info = aec.infos[agent]
        assert info["winners"].dtype == np.int8 and info["winners"].tolist() == [int(s == seat) for s in range(2)]
        assert info["scores"].dtype == np.float64 and info["scores"].tolist()[seat] == 1.0
    assert aec.infos["player_0"]["scores"] is not aec.infos["player_1"]["scores"]  # each agent its own arrays
    assert aec.unwrapped.final_info() == aec.unwrapped.game.final_info()


def test_illegal_action_ends_the_game_with_penalty_and_warning():
    aec = env(num_players=2)
    aec.reset(seed=1)
    game = aec.unwrapped.game
    d = game.state_dict()
    d["state"]["pile"] = 1
    aec.unwrapped.load_state_dict(d)
    offender = aec.agent_selection
    with pytest.warns(UserWarning, match="illegal action.*'take 3'"):
        aec.step(2)
    assert all(aec.terminations.values())
    assert aec.rewards[offender] == -1.0
    assert "only 1 stones are left" in aec.infos[offender]["illegal_action"]


def test_illegal_action_raises_on_request():
    aec = env(num_players=2, illegal_action="raise")
    aec.reset(seed=1)
    game = aec.unwrapped.game
    d = game.state_dict()
    d["state"]["pile"] = 1
    aec.unwrapped.load_state_dict(d)
    with pytest.raises(IllegalActionError, match="take 3"):
        aec.step(2)


@pytest.mark.parametrize("bad", [7, -1, "take 1", 1.0])
def test_actions_that_are_no_actions_always_raise(bad):
    aec = env(num_players=2)
    aec.reset(seed=1)
    with pytest.raises(IllegalActionError):
        aec.step(bad)


def test_none_for_a_live_agent_raises():
    aec = env()
    aec.reset(seed=1)
    with pytest.raises(IllegalActionError, match="must act"):
        aec.step(None)


def test_step_before_reset_is_a_clear_error():
    aec = env()
    with pytest.raises(Exception, match="reset"):
        aec.step(0)


def test_bad_env_arguments():
    with pytest.raises(InvalidOptionError, match="illegal_action='ignore'"):
        env(illegal_action="ignore")
    with pytest.raises(InvalidOptionError, match="render_mode='rgb_array' is not supported"):
        env(render_mode="rgb_array")
    with pytest.raises(InvalidOptionError, match="num_players=5"):
        env(num_players=5)


def test_ansi_render():
    aec = env(render_mode="ansi")
    aec.reset(seed=0)
    assert "pile" in aec.render()


def single_seat(**kwargs):
    return SingleSeatEnv(Nim, policy_factory, **kwargs)


def test_gymnasium_checker_passes():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        gym_check_env(single_seat(seat=None), skip_render_check=True)


def test_stable_baselines_checker_passes():
    sb3_env_checker = pytest.importorskip("stable_baselines3.common.env_checker")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sb3_env_checker.check_env(single_seat(), warn=False)


def test_learner_gets_its_reward_when_an_opponent_ends_the_game():
    # Seat 0 takes one stone at a time, so does the opponent; find a pile where the opponent wins.
    for seed in range(50):
        env_ = single_seat(seat=0, opponents="take_one")
        env_.reset(seed=seed)
        if env_.game.pile % 2 == 0:
            break
    terminated = False
    while not terminated:
        _, reward, terminated, _, info = env_.step(0)
    assert reward == -1.0
    assert info["winners"].tolist() == [0, 1]


def test_learner_only_sees_its_own_turns_and_masks_are_offered():
    env_ = single_seat(num_players=3, seat=2, opponents=["random", "take_one"])
    _, info = env_.reset(seed=3)
    assert env_.game.current_player == 2
    assert env_.action_masks().dtype == bool
    np.testing.assert_array_equal(info["action_mask"].astype(bool), env_.action_masks())


def test_random_seat_varies_and_is_reproducible():
    env_ = single_seat(seat=None)
    seats = []
    for seed in range(12):
        env_.reset(seed=seed)
        seats.append(env_.seat)
    assert set(seats) == {0, 1}
    again = []
    for seed in range(12):
        env_.reset(seed=seed)
        again.append(env_.seat)
    assert seats == again


def test_single_seat_illegal_action_terminates_or_raises():
    env_ = single_seat(seat=0)
    env_.reset(seed=1)
    d = env_.state_dict()
    d["game"]["state"]["pile"] = 1
    env_.load_state_dict(d)
    with pytest.warns(UserWarning, match="illegal action"):
        _, reward, terminated, _, info = env_.step(2)
    assert (reward, terminated) == (-1.0, True)
    assert "only 1 stones are left" in info["illegal_action"]
    strict = single_seat(seat=0, illegal_action="raise")
    strict.reset(seed=1)
    strict.load_state_dict(d)
    with pytest.raises(IllegalActionError):
        strict.step(2)


def test_single_seat_bad_arguments():
    with pytest.raises(InvalidOptionError, match="seat=5"):
        single_seat(seat=5)
    with pytest.raises(InvalidOptionError, match="2 opponents given for 1 other seats"):
        single_seat(opponents=["random", "random"])
    with pytest.raises(InvalidOptionError, match="unknown opponent 'expert'"):
        single_seat(opponents="expert")
    with pytest.raises(RuntimeError, match="reset"):
        single_seat().step(0)


def test_stepping_a_finished_episode_is_refused():
    env_ = single_seat(seat=0, opponents="take_one")
    env_.reset(seed=0)
    terminated = False
    while not terminated:
        _, _, terminated, _, _ = env_.step(0)
    with pytest.raises(IllegalActionError, match="episode is over"):
        env_.step(0)


def test_gymnasium_make_passes_through_the_registry():
    import fiesta_envs  # noqa: F401  (registers the ids)

    assert "fiesta_envs/FiestaMexicana-v1" in gymnasium.registry
