"""Every registered game, player count and variant passes the PettingZoo, Gymnasium and SB3 checks."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pettingzoo
import pytest
from gymnasium.utils.env_checker import check_env as gym_check_env
from pettingzoo.test import api_test, seed_test

import fiesta_envs
from fiesta_envs.registry import GAMES

CONFIGS = [
    pytest.param(spec, n, options, id=f"{name}-{n}p-{'-'.join(f'{k}={v}' for k, v in options.items()) or 'default'}")
    for name, spec in GAMES.items()
    for n, options in spec.configurations()
]
GAME_IDS = [pytest.param(spec, id=name) for name, spec in GAMES.items()]


@pytest.mark.parametrize(("spec", "num_players", "options"), CONFIGS)
def test_pettingzoo_api(spec, num_players, options):
    module = __import__(spec.aec_module, fromlist=["env"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(module.env(num_players=num_players, **options), num_cycles=300)


@pytest.mark.parametrize(("spec", "num_players", "options"), CONFIGS)
def test_pettingzoo_seed(spec, num_players, options):
    module = __import__(spec.aec_module, fromlist=["env"])
    seed_test(lambda: module.env(num_players=num_players, **options), num_cycles=200)


@pytest.mark.parametrize(("spec", "num_players", "options"), CONFIGS)
def test_gymnasium_checker(spec, num_players, options):
    env = gymnasium.make(spec.gym_id, num_players=num_players, **options)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        gym_check_env(env.unwrapped, skip_render_check=True)


@pytest.mark.parametrize(("spec", "num_players", "options"), CONFIGS)
def test_sb3_checker(spec, num_players, options):
    sb3_checker = pytest.importorskip("stable_baselines3.common.env_checker")
    env = gymnasium.make(spec.gym_id, num_players=num_players, **options)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sb3_checker.check_env(env.unwrapped, warn=False)


@pytest.mark.parametrize("spec", GAME_IDS)
def test_pettingzoo_registry_makes_every_seat(spec):
    env = pettingzoo.make("aec", spec.gym_id)
    env.reset(seed=0)
    assert env.unwrapped.possible_agents == [f"player_{i}" for i in range(env.unwrapped.game.num_players)]


@pytest.mark.parametrize("spec", GAME_IDS)
def test_single_seat_gets_its_reward_at_the_end_whoever_ends_it(spec):
    """Against random opponents, every episode ends with the learner's entry of the game's returns,
    both when the learner's own move ends the game and when an opponent's move does."""
    env = gymnasium.make(spec.gym_id, opponents="random")
    rng = np.random.default_rng(0)
    endings = {"learner": 0, "opponent": 0}
    for episode in range(40):
        env.reset(seed=episode)
        game = env.unwrapped.game
        terminated = False
        while not terminated:
            action = int(rng.choice(np.flatnonzero(env.unwrapped.action_masks())))
            lookahead = game.clone()
            lookahead.step(action)
            _, reward, terminated, _, info = env.step(action)
        endings["learner" if lookahead.is_over else "opponent"] += 1
        assert reward == pytest.approx(game.returns()[env.unwrapped.seat])
        np.testing.assert_array_equal(info["scores"], game.scores())
        if min(endings.values()) > 0:
            break
    assert min(endings.values()) > 0, endings


@pytest.mark.parametrize("spec", GAME_IDS)
def test_unknown_option_and_player_count_are_refused(spec):
    with pytest.raises(fiesta_envs.InvalidOptionError, match="unknown option 'colour'"):
        gymnasium.make(spec.gym_id, colour="red")
    with pytest.raises(fiesta_envs.InvalidOptionError, match="num_players=99"):
        gymnasium.make(spec.gym_id, num_players=99)
    module = __import__(spec.aec_module, fromlist=["env"])
    with pytest.raises(fiesta_envs.InvalidOptionError, match="num_players=99"):
        module.env(num_players=99)


@pytest.mark.parametrize("spec", GAME_IDS)
def test_unknown_opponent_is_refused_with_the_baselines_listed(spec):
    expected = "opponents='grandmaster': .*unknown agent 'grandmaster'.*random"
    with pytest.raises(fiesta_envs.InvalidOptionError, match=expected):
        gymnasium.make(spec.gym_id, opponents="grandmaster")


def _signature(info: dict) -> tuple:
    """Keys, dtypes and shapes: what a vectorised collector needs to be the same to stack infos."""
    for key, value in info.items():
        assert isinstance(value, np.ndarray), f"info[{key!r}] is a {type(value).__name__}, not an array"
    return tuple(sorted((key, value.dtype.str, value.shape) for key, value in info.items()))


@pytest.mark.parametrize(("spec", "num_players", "options"), CONFIGS)
def test_infos_have_one_fixed_shape_per_configuration(spec, num_players, options):
    """Every info value is an array whose shape depends on the configuration only (Tianshou's Collector
    and TorchRL stack them); each agent holds its own writable mask."""
    module = __import__(spec.aec_module, fromlist=["env"])
    during, at_end = set(), set()
    for seed in range(2):
        env = module.env(num_players=num_players, **options)
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for _agent in env.agent_iter():
            _, reward, termination, truncation, info = env.last()
            masks = [env.infos[other]["action_mask"] for other in env.agents]
            assert all(mask.flags.writeable for mask in masks)
            assert len({id(mask) for mask in masks}) == len(masks)
            if termination or truncation:
                at_end.add(_signature(info))
                game = env.unwrapped.game
                assert info["winners"].tolist() == [int(s in game.winners()) for s in range(num_players)]
                assert isinstance(reward, float)
                env.step(None)
                continue
            during.add(_signature(info))
            env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
    assert len(during) == 1, during
    assert len(at_end) == 1, at_end
    assert {key for key, _, _ in next(iter(at_end))} == {"action_mask", "scores", "winners"}
