"""Mistakes a user makes on the way get an error that says what was meant: a misspelled game, a misspelled
keyword of an environment, an unknown key in a saved game; and counts read as written ("1 player")."""

from __future__ import annotations

import copy
import json

import gymnasium
import numpy as np
import pytest

from fiesta_envs import cli, tequila_v2
from fiesta_envs.core.errors import InvalidOptionError, InvalidStateError
from fiesta_envs.core.wording import counted, players
from fiesta_envs.registry import GAMES, game_spec


# -- a misspelled game -----------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("typed", "meant"), [("tequilla", "tequila"), ("Tortilla", "tortilla_de_patatas"), ("catrina", "la_catrina")]
)
def test_a_misspelled_game_gets_a_did_you_mean(typed: str, meant: str) -> None:
    with pytest.raises(InvalidOptionError, match=rf"unknown game '{typed}' \(did you mean '{meant}'\?\); known games"):
        game_spec(typed)


def test_a_game_like_none_of_ours_gets_the_list_only() -> None:
    with pytest.raises(InvalidOptionError) as refused:
        game_spec("chess")
    assert "did you mean" not in str(refused.value) and "known games: fiesta_mexicana" in str(refused.value)


def test_the_command_line_says_which_game_was_meant(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["play", "--game", "tequilla"]) == 2
    assert "unknown game 'tequilla' (did you mean 'tequila'?)" in capsys.readouterr().err


# -- a misspelled keyword --------------------------------------------------------------------------------------
def test_a_misspelled_gymnasium_keyword_lists_the_environment_keywords() -> None:
    with pytest.raises(InvalidOptionError) as refused:
        gymnasium.make("fiesta_envs/Tequila-v2", oponents="random")
    message = str(refused.value)
    assert "unknown option 'oponents' (did you mean 'opponents'?)" in message
    assert "known options: cask_tile, jimador_order, jimadores, reward" in message
    assert "opponents" in message.split("also takes:")[1] and "seat" in message.split("also takes:")[1]


def test_a_misspelled_pettingzoo_keyword_lists_the_environment_keywords() -> None:
    with pytest.raises(InvalidOptionError, match=r"'num_player' \(did you mean 'num_players'\?\).*render_mode"):
        tequila_v2.env(num_player=2)
    with pytest.raises(InvalidOptionError, match=r"'ilegal_action' \(did you mean 'illegal_action'\?\)"):
        tequila_v2.parallel_env(ilegal_action="raise")


# -- unknown keys in a state dict ------------------------------------------------------------------------------
@pytest.mark.parametrize("game", list(GAMES))
def test_an_engine_refuses_an_unknown_key_at_any_depth(game: str) -> None:
    engine = GAMES[game].game_class()(seed=0)
    saved = engine.state_dict()
    for where, add in [
        ("'comment'", lambda data: data.__setitem__("comment", "mine")),
        ("'state.turnn'", lambda data: data["state"].__setitem__("turnn", 1)),
        ("'rng.extra'", lambda data: data["rng"].__setitem__("extra", 1)),
        ("'options.colour'", lambda data: data["options"].__setitem__("colour", "red")),
    ]:
        data = copy.deepcopy(saved)
        add(data)
        with pytest.raises(InvalidStateError, match=f"unknown key {where}"):
            GAMES[game].game_class()(seed=1).load_state_dict(data)
    GAMES[game].game_class()(seed=1).load_state_dict(saved)  # the saved game itself loads


def test_an_unknown_key_deep_inside_is_named_by_its_path() -> None:
    engine = GAMES["tequila"].game_class()(num_players=2, seed=0)
    data = engine.state_dict()
    data["state"]["sheets"][1]["colour"] = "red"
    with pytest.raises(InvalidStateError, match=r"unknown key 'state\.sheets\[1\]\.colour'"):
        GAMES["tequila"].game_class()(num_players=2).load_state_dict(data)


def test_environments_refuse_unknown_keys_and_stay_as_they_were() -> None:
    env = tequila_v2.env(num_players=2)
    env.reset(seed=0)
    saved = json.loads(json.dumps(env.state_dict()))
    observed = env.observe("player_0")["observation"]
    for add, where in [
        (lambda data: data.__setitem__("notes", ""), "'notes'"),
        (lambda data: data["aec"].__setitem__("turn", 0), "'aec.turn'"),
        (lambda data: data["game"].__setitem__("seed", 0), "'seed'"),
    ]:
        data = copy.deepcopy(saved)
        add(data)
        other = tequila_v2.env(num_players=2)
        other.reset(seed=5)
        before = other.unwrapped.state_dict()
        with pytest.raises(InvalidStateError, match=f"unknown key {where}"):
            other.load_state_dict(data)
        assert other.unwrapped.state_dict() == before
    np.testing.assert_array_equal(env.observe("player_0")["observation"], observed)

    single = gymnasium.make("fiesta_envs/Tequila-v2", num_players=2, seat=0)
    single.reset(seed=0)
    with pytest.raises(InvalidStateError, match="unknown key 'opponents'"):
        single.unwrapped.load_state_dict({**single.unwrapped.state_dict(), "opponents": ["random"]})

    parallel = tequila_v2.parallel_env(num_players=2)
    parallel.reset(seed=0)
    data = parallel.state_dict()
    data["parallel"]["round"] = 1
    with pytest.raises(InvalidStateError, match=r"unknown key 'parallel\.round'"):
        tequila_v2.parallel_env(num_players=2).load_state_dict(data)


# -- counts in words ------------------------------------------------------------------------------------------
def test_one_player_is_written_in_the_singular() -> None:
    assert (players(1), players(2), counted(1, "tooth", "teeth"), counted(0, "tooth", "teeth")) == (
        "1 player",
        "2 players",
        "1 tooth",
        "0 teeth",
    )
    solo = GAMES["tequila"].game_class()(num_players=1, seed=0)
    assert "1 player," in repr(solo) and "1 players" not in repr(solo)
    with pytest.raises(InvalidStateError, match="state dict is for 1 player, this game has 2"):
        GAMES["tequila"].game_class()(num_players=2).load_state_dict(solo.state_dict())
