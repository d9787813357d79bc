"""The PettingZoo Parallel environment (``fiesta_envs.envs.parallel``), played on Tequila's simultaneous rounds.

Every seat with a decision left in the round makes its next one in each parallel step. Since the
seats' rounds do not touch each other, the parallel game must be the game the AEC environment plays
when it gets the same decisions seat by seat, and each seat must see at each of its decisions exactly
what it sees there in the AEC environment.
"""

from __future__ import annotations

import hashlib
import warnings

import numpy as np
import pettingzoo
import pytest
from pettingzoo.test import parallel_api_test

import fiesta_envs  # noqa: F401  (registers the environments)
from fiesta_envs import tequila_v2
from fiesta_envs.core.errors import IllegalActionError, InvalidOptionError
from fiesta_envs.envs.parallel import parallel_env_classes
from fiesta_envs.fiesta_mexicana.game import FiestaMexicana
from fiesta_envs.tequila.game import Tequila

CONFIGS = [(1, {}), (2, {}), (3, {"cask_tile": "B", "jimadores": "dealt"}), (5, {})]


def digest(vector: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(vector).tobytes()).hexdigest()[:16]


@pytest.mark.parametrize(("num_players", "options"), CONFIGS, ids=str)
def test_pettingzoo_parallel_api_test_passes(num_players, options):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the API test warns where it finds a convention broken
        parallel_api_test(tequila_v2.parallel_env(num_players=num_players, **options), num_cycles=2000)


def test_pettingzoo_makes_the_parallel_environment_by_id():
    env = pettingzoo.make("parallel", "fiesta_envs/Tequila-v2", num_players=3)
    observations, _ = env.reset(seed=1)
    assert sorted(observations) == ["player_0", "player_1", "player_2"]
    assert env.metadata["name"] == "tequila_v2"


def play_in_parallel(num_players: int, options: dict, seed: int):
    """A random parallel game: each seat's decisions (observation digest, mask, action) and the end."""
    env = tequila_v2.parallel_env(num_players=num_players, **options)
    observations, infos = env.reset(seed=seed)
    moves = np.random.default_rng(seed + 100)
    decisions: dict[int, list[tuple[str, bytes, int]]] = {seat: [] for seat in range(num_players)}
    steps = 0
    while env.agents:
        actions = {}
        for seat, agent in enumerate(env.possible_agents):
            mask = observations[agent]["action_mask"]
            assert infos[agent]["acting"] == bool(mask.any())
            if mask.any():
                action = int(moves.choice(np.flatnonzero(mask)))
                decisions[seat].append((digest(observations[agent]["observation"]), mask.tobytes(), action))
                actions[agent] = action
            else:
                actions[agent] = None  # nothing to decide: ignored
        observations, rewards, terminations, truncations, infos = env.step(actions)
        steps += 1
    assert all(terminations.values()) and not any(truncations.values())
    return decisions, env.game.state_dict(), rewards, steps


@pytest.mark.parametrize(("num_players", "options"), CONFIGS, ids=str)
def test_a_parallel_game_is_the_aec_game_of_the_same_decisions_seen_the_same_way(num_players, options):
    decisions, final_state, rewards, parallel_steps = play_in_parallel(num_players, options, seed=7)
    game = Tequila(num_players=num_players, seed=7, **options)
    next_decision = {seat: iter(made) for seat, made in decisions.items()}
    aec_steps = 0
    while not game.is_over:
        seat = game.current_player
        seen, mask, action = next(next_decision[seat])
        assert digest(game.observe(seat)) == seen, f"seat {seat} saw something else at step {aec_steps}"
        assert game.legal_mask().tobytes() == mask
        game.step(action)
        aec_steps += 1
    assert all(next(left, None) is None for left in next_decision.values())
    assert game.state_dict() == final_state
    assert list(rewards.values()) == pytest.approx(game.returns().tolist())
    if num_players > 1:
        assert parallel_steps < aec_steps  # the seats' decisions were made at the same time


def test_the_end_infos_are_those_of_the_aec_environment_and_final_info_has_the_breakdown():
    env = tequila_v2.parallel_env(num_players=2)
    observations, _ = env.reset(seed=5)
    with pytest.raises(RuntimeError, match="once the game is over"):
        env.final_info()
    moves = np.random.default_rng(5)
    while env.agents:
        actions = {}
        for agent in env.agents:
            legal = np.flatnonzero(observations[agent]["action_mask"])
            actions[agent] = int(moves.choice(legal)) if len(legal) else None
        observations, _, _, _, infos = env.step(actions)
    game = env.game
    for agent in env.possible_agents:
        info = infos[agent]
        assert sorted(info) == ["acting", "action_mask", "scores", "winners"] and not info["acting"]
        assert info["scores"].dtype == np.float64 and info["scores"].tolist() == game.scores().tolist()
        assert info["winners"].dtype == np.int8 and np.flatnonzero(info["winners"]).tolist() == game.winners()
    assert env.final_info() == game.final_info()


def test_a_seat_done_with_its_round_waits_with_nothing_to_decide():
    env = tequila_v2.parallel_env(num_players=2)
    observations, infos = env.reset(seed=3)
    if infos["player_0"]["acting"] and not infos["player_1"]["acting"]:  # the starting player's re-roll
        observations, *_, infos = env.step({"player_0": env.string_to_action("reroll none"), "player_1": None})
    assert infos["player_0"]["acting"] and infos["player_1"]["acting"]  # both play the round at once
    end = env.string_to_action("end")
    for _ in range(50):  # seat 0 ends its main phase as soon as it may; seat 1 keeps answering
        actions = {}
        for agent in env.agents:
            mask = observations[agent]["action_mask"]
            legal = np.flatnonzero(mask)
            actions[agent] = None if not len(legal) else (end if agent == "player_0" and mask[end] else int(legal[0]))
        observations, _, _, _, infos = env.step(actions)
        if not infos["player_0"]["acting"]:
            break
    assert not infos["player_0"]["acting"] and not observations["player_0"]["action_mask"].any()
    assert env.game.state.round == 0  # the round goes on for seat 1


def test_a_missing_or_illegal_action_of_a_deciding_seat_is_refused():
    env = tequila_v2.parallel_env(num_players=2, illegal_action="raise")
    _, infos = env.reset(seed=0)
    deciding = [agent for agent, info in infos.items() if info["acting"]]
    with pytest.raises(IllegalActionError, match="must act"):
        env.step({})
    with pytest.raises(IllegalActionError):
        env.step(dict.fromkeys(deciding, env.string_to_action("end")))
    env = tequila_v2.parallel_env(num_players=2)
    _, infos = env.reset(seed=0)
    with pytest.warns(UserWarning, match="illegal action"):
        _, rewards, terminations, _, _ = env.step(dict.fromkeys(env.possible_agents, env.string_to_action("end")))
    assert all(terminations.values()) and sorted(rewards.values()) == [-1.0, 0.0] and env.agents == []


def test_a_game_without_simultaneous_decisions_has_no_parallel_environment():
    _, parallel_env = parallel_env_classes(FiestaMexicana, "fiesta_mexicana_v0", module=__name__)
    with pytest.raises(InvalidOptionError, match="no Parallel API"):
        parallel_env(num_players=2)
