"""A saved game continues in a freshly made environment, never reset, of every kind and every game.

Environment A plays a few steps and saves (through JSON); a new environment B of the same kind loads the
save; then both get the same actions to the end and must agree at every step (observations, masks,
rewards, terminations).
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable, Iterator
from typing import Any

import gymnasium
import numpy as np
import pytest

from fiesta_envs.policies.policy import first_legal
from fiesta_envs.registry import GAMES, GameSpec

STEPS_BEFORE_SAVE = 9
#: Each game's player count for this test (the smallest count where the game is a real match).
PLAYERS = {"fiesta_mexicana": 3, "tortilla_de_patatas": 2, "tequila": 2, "fiesta_de_los_muertos": 4, "la_catrina": 4}


def _through_json(data: dict[str, Any]) -> dict[str, Any]:
    return json.loads(json.dumps(data))


def _choose(mask: np.ndarray, rng: np.random.Generator) -> int:
    return int(rng.choice(np.flatnonzero(mask)))


def _module(spec: GameSpec) -> Any:
    return importlib.import_module(spec.aec_module)


# -- the AEC kinds ---------------------------------------------------------------------------------------
def _aec_kinds(spec: GameSpec) -> dict[str, tuple[Callable[[], Any], Callable[[Any, dict], Any]]]:
    """kind -> (make a fresh environment, load a save into it and return the environment to loop over)."""
    module = _module(spec)
    n = PLAYERS[spec.name]

    def load_on(env: Any, saved: dict) -> Any:
        env.load_state_dict(saved)
        return env

    def load_on_unwrapped(env: Any, saved: dict) -> Any:
        env.unwrapped.load_state_dict(saved)
        return env  # the loop runs on the wrapper

    return {
        "env": (lambda: module.env(num_players=n), load_on),
        "env.unwrapped": (lambda: module.env(num_players=n), load_on_unwrapped),
        "raw_env": (lambda: module.raw_env(num_players=n), load_on),
    }


def _aec_steps(env: Any) -> Iterator[tuple[str, Any, float, bool, bool]]:
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        yield agent, observation, reward, terminated, truncated


def _same_observation(a: Any, b: Any) -> None:
    if a is None or b is None:
        assert a is None and b is None
        return
    np.testing.assert_array_equal(a["observation"], b["observation"])
    np.testing.assert_array_equal(a["action_mask"], b["action_mask"])


CASES = [(name, kind) for name in GAMES for kind in ("env", "env.unwrapped", "raw_env")]


@pytest.mark.parametrize(("game", "kind"), CASES)
def test_an_aec_environment_made_fresh_continues_a_saved_game(game: str, kind: str) -> None:
    make, load = _aec_kinds(GAMES[game])[kind]
    rng = np.random.default_rng(7)
    saved_env = make()
    saved_env.reset(seed=11)
    playing = _aec_steps(saved_env)
    for _ in range(STEPS_BEFORE_SAVE):
        _, observation, *_ = next(playing)
        saved_env.step(_choose(observation["action_mask"], rng))
    fresh = load(make(), _through_json(saved_env.state_dict()))
    steps = 0
    for left, right in zip(_aec_steps(saved_env), _aec_steps(fresh), strict=True):
        assert left[0] == right[0] and left[2:] == right[2:]
        _same_observation(left[1], right[1])
        done = left[3] or left[4]
        action = None if done else _choose(left[1]["action_mask"], rng)
        saved_env.step(action)
        fresh.step(action)
        steps += 1
    assert steps > 0 and not saved_env.agents and not fresh.agents


# -- the Parallel environment ------------------------------------------------------------------------------
PARALLEL_GAMES = [name for name, spec in GAMES.items() if spec.parallel]


def _parallel_actions(observations: dict[str, Any], rng: np.random.Generator) -> dict[str, int | None]:
    return {
        agent: _choose(seen["action_mask"], rng) if seen["action_mask"].any() else None
        for agent, seen in observations.items()
    }


@pytest.mark.parametrize("game", PARALLEL_GAMES)
@pytest.mark.parametrize("steps_before_save", [1, STEPS_BEFORE_SAVE])
def test_a_parallel_environment_made_fresh_continues_a_saved_game(game: str, steps_before_save: int) -> None:
    module = _module(GAMES[game])
    n = PLAYERS[game]
    rng = np.random.default_rng(7)
    saved_env = module.parallel_env(num_players=n)
    observations, _ = saved_env.reset(seed=11)
    for _ in range(steps_before_save):
        observations, *_ = saved_env.step(_parallel_actions(observations, rng))
    saved = _through_json(saved_env.state_dict())
    fresh = module.parallel_env(num_players=n)
    fresh.load_state_dict(saved)
    assert fresh.agents == saved_env.agents
    steps = 0
    while saved_env.agents:
        actions = _parallel_actions(observations, rng)
        left, right = saved_env.step(actions), fresh.step(actions)
        for agent in left[0]:
            _same_observation(left[0][agent], right[0][agent])
        assert left[1:4] == right[1:4]
        observations = left[0]
        steps += 1
    assert steps > 0 and fresh.agents == []


def test_a_parallel_state_dict_is_checked_field_by_field() -> None:
    from fiesta_envs.core.errors import InvalidStateError

    module = _module(GAMES[PARALLEL_GAMES[0]])
    env = module.parallel_env(num_players=2)
    observations, _ = env.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(3):
        observations, *_ = env.step(_parallel_actions(observations, rng))
    saved = env.state_dict()
    assert saved["parallel"]["part_actions"] is not None  # in the middle of a simultaneous round
    bad = json.loads(json.dumps(saved))
    bad["parallel"]["part_actions"]["player_1"].append(10_000)
    fresh = module.parallel_env(num_players=2)
    with pytest.raises(InvalidStateError, match=r"part_actions\.player_1"):
        fresh.load_state_dict(bad)
    aec = module.env(num_players=2)
    aec.reset(seed=0)
    with pytest.raises(InvalidStateError, match="Parallel environment's state dict"):
        fresh.load_state_dict(aec.state_dict())


# -- the Gymnasium single-seat environment -------------------------------------------------------------------
def _first_legal(observation: np.ndarray, action_mask: np.ndarray) -> int:
    return first_legal(action_mask)  # a deterministic opponent: opponents' random generators are not saved


@pytest.mark.parametrize("game", list(GAMES))
@pytest.mark.parametrize("through", ["env", "env.unwrapped"])
def test_a_gymnasium_environment_made_fresh_continues_a_saved_game(game: str, through: str) -> None:
    spec = GAMES[game]

    def make() -> Any:
        return gymnasium.make(spec.gym_id, num_players=PLAYERS[game], opponents=_first_legal, seat=None)

    rng = np.random.default_rng(7)
    saved_env = make()
    _, info = saved_env.reset(seed=11)
    for _ in range(2):  # the learner's turns only: a cooperative game may end after a few of them
        _, _, terminated, _, info = saved_env.step(_choose(info["action_mask"], rng))
        assert not terminated
    fresh = make()
    target = fresh if through == "env" else fresh.unwrapped
    target.load_state_dict(_through_json(saved_env.unwrapped.state_dict()))
    np.testing.assert_array_equal(fresh.unwrapped.action_masks(), saved_env.unwrapped.action_masks())
    terminated = False
    while not terminated:
        action = _choose(info["action_mask"], rng)
        left, right = saved_env.step(action), fresh.step(action)
        np.testing.assert_array_equal(left[0], right[0])
        assert left[1:4] == right[1:4]
        np.testing.assert_array_equal(left[4]["action_mask"], right[4]["action_mask"])
        _, _, terminated, _, info = left


def test_a_gymnasium_environment_still_refuses_a_step_before_reset_or_load() -> None:
    spec = GAMES["tortilla_de_patatas"]
    env = gymnasium.make(spec.gym_id, render_mode="ansi")
    with pytest.raises(gymnasium.error.ResetNeeded, match="reset"):
        env.step(0)
    with pytest.raises(gymnasium.error.ResetNeeded, match="reset"):
        env.render()
