"""A game saved with the environment's ``state_dict()`` at any point continues exactly after a load.

For every game and configuration of the registry: saved before the first move, mid-game, on the
last move, after it, during the end-of-game ``None`` steps and once every agent is gone; the data
goes through JSON and into a fresh AEC environment (no ``reset``), and both environments then show
the same thing at every step (agent to act, observations, masks, rewards, cumulative rewards,
terminations, truncations, infos) and deal the same next game after ``reset()`` without a seed.
"""

from __future__ import annotations

import importlib
import json

import numpy as np
import pytest
from aec_twins import aec_view, assert_same, continue_aec_twins, play_aec

from fiesta_envs.core.errors import InvalidStateError
from fiesta_envs.registry import GAMES

CONFIGS = [
    pytest.param(spec, n, options, id=f"{name}-{n}p-{'-'.join(f'{k}={v}' for k, v in options.items()) or 'default'}")
    for name, spec in GAMES.items()
    for n, options in spec.configurations()
]


def _aec_env(spec, num_players, options):
    return importlib.import_module(spec.aec_module).env(num_players=num_players, **options)


@pytest.mark.parametrize(("spec", "num_players", "options"), CONFIGS)
def test_a_saved_game_continues_exactly_after_a_load(spec, num_players, options):
    seed = 1
    probe = _aec_env(spec, num_players, options)
    probe.reset(seed=seed)
    length = play_aec(probe, np.random.default_rng(seed), 10**9)
    moves = length - num_players  # then one None step per agent
    # before the first move, mid-game, before and after the last move, in the None steps, all gone
    cuts = sorted({0, moves // 2, moves - 1, moves, moves + 1, length})
    for cut in cuts:
        original = _aec_env(spec, num_players, options)
        original.reset(seed=seed)
        play_aec(original, np.random.default_rng(seed), cut)
        saved = json.loads(json.dumps(original.state_dict()))
        copy = _aec_env(spec, num_players, options)
        copy.load_state_dict(saved)
        continue_aec_twins(original, copy, seed=cut, label=f"saved after {cut} of {length} steps")


def _toy_position():
    from fiesta_envs import fiesta_mexicana_v1

    env = fiesta_mexicana_v1.env(num_players=2)
    env.reset(seed=0)
    play_aec(env, np.random.default_rng(0), 5)
    return env


def test_a_bare_engine_state_dict_still_loads_and_starts_the_loop_afresh():
    env = _toy_position()
    game_data = env.unwrapped.game.state_dict()
    fresh = type(env.unwrapped)(num_players=2)
    fresh.load_state_dict(game_data)
    assert fresh.agent_selection == env.agent_selection
    assert fresh.agents == env.possible_agents
    np.testing.assert_array_equal(fresh.observe(fresh.agent_selection)["action_mask"], env.unwrapped.game.legal_mask())


def test_a_bare_engine_state_dict_of_a_finished_game_ends_the_loop_with_the_final_rewards():
    env = _toy_position()
    play_aec(env, np.random.default_rng(3), 10**9)
    game = env.unwrapped.game
    fresh = type(env.unwrapped)(num_players=2)
    fresh.load_state_dict(game.state_dict())
    assert all(fresh.terminations.values())
    for agent, expected in zip(fresh.possible_agents, game.returns(), strict=True):
        fresh.agent_selection = agent
        assert fresh.last()[1] == expected


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda aec: aec.update(agent_selection="player_7"), "agent_selection"),
        (
            lambda aec: aec.update(agent_selection="player_1" if aec["agent_selection"] == "player_0" else "player_0"),
            "agent_selection",
        ),
        (lambda aec: aec.update(agents=["player_1", "player_0"]), "aec.agents"),
        (lambda aec: aec["rewards"].pop("player_0"), "aec.rewards"),
        (lambda aec: aec["cumulative_rewards"].update(player_0="x"), "aec.cumulative_rewards.player_0"),
        (lambda aec: aec["terminations"].update(player_0=True), "aec.terminations"),
        (lambda aec: aec["truncations"].update(player_1=True), "aec.truncations"),
        (lambda aec: aec.update(illegal_action={"agent": "nobody", "message": "?"}), "aec.illegal_action.agent"),
        (lambda aec: aec.pop("truncations"), "aec.truncations"),
    ],
)
def test_bad_bookkeeping_is_refused_naming_the_field_and_changes_nothing(change, field):
    env = _toy_position()
    before = env.state_dict()
    bad = json.loads(json.dumps(before))
    change(bad["aec"])
    later = _toy_position()
    play_aec(later, np.random.default_rng(1), 3)
    untouched = later.state_dict()
    with pytest.raises(InvalidStateError, match=field):
        later.load_state_dict(bad)
    assert later.state_dict() == untouched
    assert_same(aec_view(later), aec_view(later), "still usable")


def test_an_env_state_dict_without_its_aec_part_is_refused_naming_it():
    env = _toy_position()
    with pytest.raises(InvalidStateError, match="'aec' is missing"):
        env.load_state_dict({"game": env.state_dict()["game"]})
