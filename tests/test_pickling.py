"""Every environment pickles with plain ``pickle`` and the copy continues the game identically.

For every game and configuration of the registry: the wrapped AEC env (before ``reset``, mid-game,
after the last move and during the end-of-game ``None`` steps), the Gymnasium env mid-episode
(against a scripted baseline, whose state travels too) and the parallel env where a game has one.
A copy must then show the same thing as the original at every step, and the next ``reset()``
without a seed must deal the same game (the random generators travelled with it).
"""

from __future__ import annotations

import importlib
import pickle

import gymnasium
import numpy as np
import pytest
from aec_twins import assert_same, continue_aec_twins, continue_gym_twins, play_aec
from gymnasium.utils.env_checker import data_equivalence

from fiesta_envs.registry import GAMES

CONFIGS = [
    pytest.param(spec, n, options, id=f"{name}-{n}p-{'-'.join(f'{k}={v}' for k, v in options.items()) or 'default'}")
    for name, spec in GAMES.items()
    for n, options in spec.configurations()
]


def _round_trip(obj):
    return pickle.loads(pickle.dumps(obj))


def _aec_env(spec, num_players, options):
    return importlib.import_module(spec.aec_module).env(num_players=num_players, **options)


def _game_length(spec, num_players, options, seed):
    """The number of AEC steps of the seeded random game, the end-of-game ``None`` steps included."""
    env = _aec_env(spec, num_players, options)
    env.reset(seed=seed)
    return play_aec(env, np.random.default_rng(seed), 10**9)


@pytest.mark.parametrize(("spec", "num_players", "options"), CONFIGS)
def test_aec_env_pickles_and_the_copy_continues(spec, num_players, options):
    seed = 11
    length = _game_length(spec, num_players, options, seed)
    moves = length - num_players
    # before reset, at the start, mid-game, on the last move, after it, in the middle of the None steps
    for cut in sorted({0, moves // 2, moves - 1, moves, moves + num_players // 2}):
        original = _aec_env(spec, num_players, options)
        if cut == 0:
            copy = _round_trip(original)
            original.reset(seed=seed)
            copy.reset(seed=seed)
        else:
            original.reset(seed=seed)
            play_aec(original, np.random.default_rng(seed), cut)
            copy = _round_trip(original)
        assert type(copy.unwrapped) is type(original.unwrapped)
        continue_aec_twins(original, copy, seed=cut, label=f"pickled after {cut} of {length} steps")


@pytest.mark.parametrize(("spec", "num_players", "options"), CONFIGS)
def test_gymnasium_env_pickles_and_the_copy_continues(spec, num_players, options):
    scripted = next(iter(spec.baseline_classes()))
    env = gymnasium.make(spec.gym_id, num_players=num_players, opponents=scripted, **options)
    assert_same(_round_trip(env).reset(seed=3), env.reset(seed=3), "pickled before reset")
    rng = np.random.default_rng(0)
    for _ in range(5):
        if env.unwrapped.game.is_over:
            break
        env.step(int(rng.choice(np.flatnonzero(env.unwrapped.action_masks()))))
    continue_gym_twins(env, _round_trip(env), seed=1, label=f"{spec.name} gym env pickled mid-episode")


@pytest.mark.parametrize(("spec", "num_players", "options"), CONFIGS)
def test_parallel_env_pickles_and_the_copy_continues(spec, num_players, options):
    make_parallel = getattr(importlib.import_module(spec.aec_module), "parallel_env", None)
    if make_parallel is None:
        pytest.skip(f"{spec.aec_module} has no parallel_env")
    original = make_parallel(num_players=num_players, **options)
    observations, _ = original.reset(seed=5)
    rng = np.random.default_rng(5)

    def random_actions(observations):
        """A random legal action for every agent with a decision (action 0 for the others)."""
        actions = {}
        for agent in original.agents:
            legal = np.flatnonzero(observations[agent]["action_mask"])
            actions[agent] = int(legal[rng.integers(len(legal))]) if len(legal) else 0
        return actions

    for _ in range(3):
        if original.agents:
            observations = original.step(random_actions(observations))[0]
    copy = _round_trip(original)
    while original.agents:
        actions = random_actions(observations)
        result = original.step(actions)
        assert data_equivalence(result, copy.step(actions))
        observations = result[0]
    assert not copy.agents


@pytest.mark.parametrize("spec", [pytest.param(s, id=s.name) for s in GAMES.values() if s.game_class().cooperative])
def test_team_env_pickles_and_the_copy_continues(spec):
    from fiesta_envs.envs.team_env import TeamEnv

    env = TeamEnv(spec.game_class())
    env.reset(seed=4)
    rng = np.random.default_rng(4)
    for _ in range(6):
        env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
    continue_gym_twins(env, _round_trip(env), seed=2, label=f"{spec.name} team env pickled mid-episode")
