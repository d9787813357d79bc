"""Bad input through the public APIs of every game: a clear error, never a crash or a silent no-op.

Each test runs on every registered game (skipped until its files land) and on the toy Nim
(registered for the test only), through the engine, ``gymnasium.make`` (single seat) and the
PettingZoo AEC env (``make_aec_env`` / ``pettingzoo.make``): unknown options, option values
outside their choices, impossible player counts, actions that are not actions, illegal actions,
actions after the end, and malformed state dicts.
"""

from __future__ import annotations

import copy
import json
import logging

import gymnasium
import numpy as np
import pettingzoo
import pytest
from fuzz_support import TOY_NAME, game_class_or_skip, use_toy_registry

from fiesta_envs.core.errors import IllegalActionError, InvalidOptionError, InvalidStateError
from fiesta_envs.registry import GAMES, game_spec, make_aec_env

GAME_NAMES = [TOY_NAME, *GAMES]
NOT_ACTIONS = ["bid 9", 1.5, None, True, np.float32(1.0), [0], {"action": 0}]


@pytest.fixture(params=GAME_NAMES)
def name(request, monkeypatch):
    if request.param == TOY_NAME:
        use_toy_registry(monkeypatch, keep_real=True)
    else:
        game_class_or_skip(request.param)
    return request.param


def game_class(name):
    return game_spec(name).game_class()


def make_gym(name, **kwargs):
    return gymnasium.make(game_spec(name).gym_id, **kwargs)


def make_all(name, **kwargs):
    """The engine, the single-seat env and the AEC env, each made with ``kwargs``."""
    return [
        lambda: game_class(name)(**kwargs),
        lambda: make_gym(name, **kwargs),
        lambda: make_aec_env(name, **kwargs),
        lambda: pettingzoo.make("aec", game_spec(name).gym_id, **kwargs),
    ]


def play_until(game, rng, stop, max_steps=5000):
    """Random legal play until ``stop(game)`` holds (returns True) or the game ends (False)."""
    for _ in range(max_steps):
        if stop(game):
            return True
        if game.is_over:
            return False
        legal = np.flatnonzero(game.legal_mask())
        game.step(int(rng.choice(legal)))
    return False


def finished_game(name, seed=0):
    game = game_class(name)(seed=seed)
    play_until(game, np.random.default_rng(seed), lambda g: g.is_over)
    assert game.is_over
    return game


# ---------------------------------------------------------------------------- options and players
def test_unknown_option_is_refused_everywhere_naming_it(name):
    for make in make_all(name, no_such_option=1):
        with pytest.raises(InvalidOptionError, match=r"unknown option 'no_such_option'.*known options"):
            make()


def test_option_values_outside_their_choices_are_refused_listing_the_allowed(name):
    cls = game_class(name)
    for option_name, option in cls.options.items():
        if not option.choices:
            continue
        for bad in ("no-such-value", 12345, None, [option.default]):
            for make in make_all(name, **{option_name: bad}):
                with pytest.raises(InvalidOptionError) as error:
                    make()
                message = str(error.value)
                assert option_name in message
                assert all(repr(choice) in message for choice in option.choices), message


def test_impossible_player_counts_are_refused_listing_the_allowed(name):
    cls = game_class(name)
    bad_counts = [0, -1, max(cls.player_counts) + 1, 99, 2.0, "2", True]
    bad_counts += [n for n in range(1, max(cls.player_counts)) if n not in cls.player_counts]
    for n in bad_counts:
        for make in make_all(name, num_players=n):
            with pytest.raises(
                InvalidOptionError, match=r"num_players=.*allowed: " + ", ".join(map(str, cls.player_counts))
            ):
                make()


def test_every_supported_player_count_and_option_choice_is_accepted(name):
    cls = game_class(name)
    for n in cls.player_counts:
        assert cls(num_players=n).num_players == n
    for option_name, option in cls.options.items():
        for choice in option.choices or ():
            assert cls(**{option_name: choice}).config[option_name] == choice


# ---------------------------------------------------------------------------- actions
def test_things_that_are_not_actions_are_refused_by_the_engine(name):
    game = game_class(name)(seed=0)
    before = game.state_dict()
    for bad in [*NOT_ACTIONS, game.num_actions, -1, 10**12, np.int64(game.num_actions)]:
        with pytest.raises(IllegalActionError, match=r"action|integer|range"):
            game.step(bad)
    assert game.state_dict() == before


def test_things_that_are_not_actions_always_raise_in_the_envs(name):
    aec = make_aec_env(name)
    aec.reset(seed=0)
    gym_env = make_gym(name)
    gym_env.reset(seed=0)
    n = game_class(name)(seed=0).num_actions
    for bad in [*[a for a in NOT_ACTIONS if a is not None], n, -1]:
        with pytest.raises(IllegalActionError):
            aec.step(bad)
        with pytest.raises(IllegalActionError):
            gym_env.step(bad)


def _illegal_positions(name, count=25, seed=0):
    """(game, illegal in-range action) pairs from random positions across whole games."""
    rng = np.random.default_rng(seed)
    found = []
    game_seed = 0
    while len(found) < count and game_seed < 50:
        game = game_class(name)(seed=game_seed)
        while not game.is_over and len(found) < count:
            mask = game.legal_mask()
            illegal = np.flatnonzero(mask == 0)
            if len(illegal) and rng.random() < 0.2:
                found.append((game.clone(), int(rng.choice(illegal))))
            game.step(int(rng.choice(np.flatnonzero(mask))))
        game_seed += 1
    return found


def test_illegal_actions_are_refused_naming_the_action_and_the_rule(name):
    positions = _illegal_positions(name)
    assert positions, "no position with an illegal action found"
    for game, action in positions:
        before = game.state_dict()
        with pytest.raises(IllegalActionError) as error:
            game.step(action)
        message = str(error.value)
        assert game.action_to_string(action) in message
        assert f"player {game.current_player}" in message
        assert game.state_dict() == before, "a refused action changed the game"


def test_illegal_actions_explain_which_rule_forbids_them(name):
    """Games override ``explain_illegal``: the generic fallback text must not be what users read."""
    generic = "the rules do not allow it now"
    vague = [
        (game.action_to_string(action), game.explain_illegal(action))
        for game, action in _illegal_positions(name, count=40, seed=1)
        if game.explain_illegal(action).strip() in ("", generic)
    ]
    assert not vague, f"{len(vague)} illegal actions without a reason, e.g. {vague[:3]}"


def test_illegal_action_in_the_aec_env_ends_the_game_with_a_warning_or_raises(name):
    game, action = _illegal_positions(name, count=1)[0]
    data = game.state_dict()
    aec = make_aec_env(name, num_players=game.num_players)
    aec.reset(seed=0)
    aec.unwrapped.load_state_dict(data)
    offender = aec.agent_selection
    with pytest.warns(UserWarning, match="illegal action"):
        aec.step(action)
    assert all(aec.terminations.values())
    assert aec.rewards[offender] == -1.0
    assert game.action_to_string(action) in aec.infos[offender]["illegal_action"]
    strict = make_aec_env(name, num_players=game.num_players, illegal_action="raise")
    strict.reset(seed=0)
    strict.unwrapped.load_state_dict(data)
    with pytest.raises(IllegalActionError, match="may not play"):
        strict.step(action)


def test_illegal_action_in_the_gym_env_ends_the_episode_with_a_warning_or_raises(name):
    env = make_gym(name, seat=0, illegal_action="terminate")
    env.reset(seed=0)
    game = env.unwrapped.game
    illegal = np.flatnonzero(game.legal_mask() == 0)
    if not len(illegal):
        game, action = _illegal_positions(name, count=1)[0]
        env.unwrapped.load_state_dict({"seat": game.current_player, "game": game.state_dict()})
    else:
        action = int(illegal[0])
    data = env.unwrapped.state_dict()
    with pytest.warns(UserWarning, match="illegal action"):
        _, reward, terminated, _, info = env.step(action)
    assert (reward, terminated) == (-1.0, True)
    assert "illegal_action" in info
    strict = make_gym(name, seat=0, illegal_action="raise")
    strict.reset(seed=0)
    strict.unwrapped.load_state_dict(data)
    with pytest.raises(IllegalActionError):
        strict.step(action)


def test_actions_after_the_end_are_refused_by_the_engine(name):
    game = finished_game(name)
    for action in (0, game.num_actions - 1):
        with pytest.raises(IllegalActionError, match="game is over"):
            game.step(action)


def test_actions_after_the_end_in_the_envs(name, caplog):
    gym_env = make_gym(name, seat=0)
    gym_env.reset(seed=3)
    done = False
    rng = np.random.default_rng(0)
    while not done:
        mask = gym_env.unwrapped.action_masks()
        _, _, done, _, _ = gym_env.step(int(rng.choice(np.flatnonzero(mask))))
    with pytest.raises(IllegalActionError, match="episode is over"):
        gym_env.step(0)

    aec = make_aec_env(name)
    aec.reset(seed=3)
    while not all(aec.terminations.values()):
        mask = aec.observe(aec.agent_selection)["action_mask"]
        aec.step(int(rng.choice(np.flatnonzero(mask))))
    with pytest.raises(ValueError, match="only valid action is None"):
        aec.step(0)  # a finished agent may only pass None
    for _ in list(aec.agents):
        aec.step(None)
    final = aec.unwrapped.state_dict()
    with caplog.at_level(logging.WARNING):
        aec.step(0)  # PettingZoo's convention once every agent is gone: a warning, nothing else
    assert "Should reset() first" in caplog.text
    assert aec.unwrapped.state_dict() == final


# ---------------------------------------------------------------------------- state dicts
def _mid_game(name, seed=0, steps=15):
    """A game after up to ``steps`` random legal actions, never a finished one."""
    game = game_class(name)(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        before = game.state_dict()
        game.step(int(rng.choice(np.flatnonzero(game.legal_mask()))))
        if game.is_over:
            game.load_state_dict(before)
            break
    return game


def test_state_dicts_of_another_game_count_or_options_are_refused(name):
    cls = game_class(name)
    game = _mid_game(name)
    data = game.state_dict()
    fresh = cls(seed=1)
    cases = {
        "not a mapping": (["not", "a", "dict"], "must be a mapping"),
        "another game": ({**data, "game": "chess"}, "for game 'chess'"),
        "missing state": ({k: v for k, v in data.items() if k != "state"}, "missing key 'state'"),
        "missing rng": ({k: v for k, v in data.items() if k != "rng"}, "missing key 'rng'"),
        "bad rng": ({**data, "rng": {"bit_generator": "NoSuchGenerator"}}, "malformed"),
        "state not a dict": ({**data, "state": 7}, "malformed"),
        "empty state": ({**data, "state": {}}, "malformed|missing"),
    }
    for other in cls.player_counts:
        if other != game.num_players:
            cases["player count"] = ({**data, "num_players": other}, f"for {other} players")
    for option_name, option in cls.options.items():
        others = [c for c in option.choices or () if c != game.config[option_name]]
        if others:
            options = {**data["options"], option_name: others[0]}
            cases[f"option {option_name}"] = ({**data, "options": options}, "options")
    for label, (bad, pattern) in cases.items():
        with pytest.raises(InvalidStateError, match=pattern):
            fresh.load_state_dict(bad)
        assert fresh.state_dict() == cls(seed=1).state_dict(), f"a refused state dict ({label}) changed the game"


def test_from_state_dict_refuses_garbage(name):
    cls = game_class(name)
    for bad in (None, [], "state", {"game": cls.name}):
        with pytest.raises(InvalidStateError):
            cls.from_state_dict(bad)


def _leaves(value, path=()):
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _leaves(item, (*path, key))
    elif isinstance(value, list) and value and not all(isinstance(v, (int, float, bool)) for v in value):
        for i, item in enumerate(value):
            yield from _leaves(item, (*path, i))
    else:
        yield path, value


def _mutations(value):
    if isinstance(value, bool):
        return [None, "yes", 2]
    if isinstance(value, int):
        return [None, "1", -7, 10**6, 1.5]
    if isinstance(value, str):
        return [None, 3, "no-such-" + value]
    if isinstance(value, list):
        return [None, "list", value[:-1] if value else [1], [*value, value[-1] if value else 0], {}]
    return [None, [], "x"]


def _set(data, path, value):
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value


def test_every_damaged_state_leaf_is_refused_or_gives_a_usable_game(name):
    """Damage one value of a mid-game state dict: loading must raise InvalidStateError or work.

    A damaged value that is still a consistent position may load; then the game must stay
    usable (mask, observations, scores, text) instead of crashing later with IndexError & co.
    """
    cls = game_class(name)
    problems = []
    for seed in (0, 1):
        data = _mid_game(name, seed=seed, steps=10 + 20 * seed).state_dict()
        for path, value in _leaves(data["state"], ("state",)):
            for bad in _mutations(value):
                damaged = copy.deepcopy(data)
                _set(damaged, path, bad)
                game = cls(num_players=data["num_players"], **data["options"])
                try:
                    game.load_state_dict(damaged)
                except InvalidStateError:
                    continue
                except Exception as error:
                    problems.append(f"{'.'.join(map(str, path))}={bad!r:.40}: {type(error).__name__}: {error}")
                    continue
                try:
                    game.legal_mask()
                    game.scores()
                    game.render_text()
                    for seat in range(game.num_players):
                        game.observe(seat)
                except Exception as error:
                    problems.append(
                        f"{'.'.join(map(str, path))}={bad!r:.40} loads, then {type(error).__name__}: {error}"
                    )
    assert not problems, f"{len(problems)} damaged state dicts not refused:\n" + "\n".join(problems[:15])


def test_state_dict_survives_json_and_loads_in_the_envs(name):
    game = _mid_game(name, steps=12)
    data = json.loads(json.dumps(game.state_dict()))
    aec = make_aec_env(name, num_players=game.num_players)
    aec.reset(seed=5)
    aec.unwrapped.load_state_dict(data)
    assert aec.agent_selection == f"player_{game.current_player}"
    np.testing.assert_array_equal(aec.observe(aec.agent_selection)["action_mask"], game.legal_mask())
    with pytest.raises(InvalidStateError):
        aec.unwrapped.load_state_dict({**data, "game": "chess"})


def test_gym_env_refuses_a_malformed_state_dict(name):
    env = make_gym(name, seat=0)
    env.reset(seed=0)
    game_data = env.unwrapped.game.state_dict()
    for bad in ({"game": game_data}, {"seat": 0}, {"seat": 99, "game": game_data}, {"seat": "x", "game": game_data}):
        with pytest.raises(InvalidStateError):
            env.unwrapped.load_state_dict(bad)
