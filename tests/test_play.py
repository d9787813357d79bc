"""``fiesta play``: a person's game driven by a script of typed lines, mistakes included."""

from __future__ import annotations

import argparse
import importlib
import io

import numpy as np
import pytest

from fiesta_envs.core.errors import FiestaError
from fiesta_envs.fiesta_mexicana.game import FiestaMexicana
from fiesta_envs.policies.policy import RandomPolicy
from fiesta_envs.tools import play as play_command
from fiesta_envs.tools.play import PlaySession, play


def session(game, script: str, seat: int = 0) -> tuple[PlaySession, io.StringIO]:
    out = io.StringIO()
    opponents = {s: ("random", RandomPolicy(seed=s)) for s in range(game.num_players) if s != seat}
    return PlaySession(game, seat, opponents, stdin=io.StringIO(script), stdout=out), out


def test_a_whole_fiesta_mexicana_game_from_typed_lines_with_mistakes() -> None:
    game = FiestaMexicana(num_players=2, seed=5)
    mistakes = [
        "help",  # the help text
        "legal",  # the list of legal actions
        "bid 99",  # no such action: names it resembles
        "fly away",  # no such action at all
        "bid 1",  # a real action, illegal now (setup): the rule says why
        "rotate",  # only illegal actions start so
        "999",  # no such menu number
        "",  # nothing typed
        "orient 0",  # ambiguous beginning: four legal actions start so
        "board",
    ]
    script = "\n".join(mistakes) + "\n" + "1\n" * 500  # then always the first legal action
    run, out = session(game, script)
    assert run.run() == 0
    text = out.getvalue()
    assert game.is_over
    assert "Commands: 'legal'" in text
    assert "no action is named 'bid 99'; did you mean 'bid 9'" in text
    assert "no action is named 'fly away'" in text
    explained = " ".join(text.split())  # the explanations are wrapped to the width
    assert "may not play 'bid 1' (action 18): bids, passes and reserves are made during an auction only" in explained
    assert "no legal action starts with 'rotate'" in text
    assert "there is no action number 999" in text
    assert "'orient 0' could be any of these; type more of the name or a number:" in text
    assert "  1. orient 0 0" in text and "  4. orient 0 3" in text
    assert "(only you see) your objective hand" in text and "(only you see) your objectives:" in text
    assert "player_1 (random): " in text
    scores = game.scores()
    assert f"player_0 (you): {scores[0]:g}" in text and f"player_1 (random): {scores[1]:g}" in text
    assert ("You win!" in text) == (0 in game.winners())
    assert "winner" in text


def test_names_prefixes_and_numbers_all_play_the_same_action() -> None:
    game = FiestaMexicana(num_players=2, seed=5)
    run, out = session(game, "")
    legal = game.legal_actions()
    assert run.parse("orient 0 2", legal) == game.string_to_action("orient 0 2")
    assert run.parse("  orient   0  2 ", legal) == game.string_to_action("orient 0 2")
    assert run.parse("3", legal) == legal[2]
    while game.state_dict()["state"]["phase"] != "rotate":
        game.step(game.legal_actions()[0])
    legal = game.legal_actions()
    assert run.parse("rotate l", legal) == game.string_to_action("rotate left")
    assert run.parse("rotate n", legal) == game.string_to_action("rotate none")
    assert run.parse("rot", legal) is None
    assert "'rot' could be any of these" in out.getvalue()
    for number, name in enumerate(game.legal_action_names(), start=1):
        assert f"{number}. {name}" in out.getvalue()


def test_an_illegal_entry_is_explained_and_asked_again(monkeypatch: pytest.MonkeyPatch) -> None:
    game = FiestaMexicana(num_players=2, seed=5)
    game.play("orient 0 0", "orient 1 0", "orient 0 0", "orient 1 0")
    for _ in range(2):  # both players keep objectives
        game.play(game.legal_action_names()[0])
    assert game.state_dict()["state"]["phase"] == "auction" and game.current_player == 0
    run, out = session(game, "pass\nbid 3\n")
    run.human_turn()
    assert max(len(line) for line in out.getvalue().splitlines()) <= play_command.WIDTH  # prompt + explanation
    text = " ".join(out.getvalue().split())  # the explanations are wrapped to the width
    assert "not allowed: fiesta_mexicana: player 0 may not play 'pass'" in text
    assert "the player who turns the dish over must make the opening bid" in text
    assert "you: bid 3" in text


@pytest.mark.parametrize("line", ["quit", "q", None])
def test_quit_or_end_of_input_leaves_cleanly(line: str | None) -> None:
    game = FiestaMexicana(num_players=3, seed=1)
    run, out = session(game, "1\n" * 3 + (f"{line}\n" if line else ""))
    assert run.run() == 0
    assert "You left the game." in out.getvalue()
    assert not game.is_over


def test_the_others_points_are_not_told_while_start_cards_are_oriented() -> None:
    """Seat 0's points count the skulls of its start cards, hidden until everybody has oriented: its turn is
    told without its score change; the person's own table shows its start card and points."""
    game = FiestaMexicana(num_players=2, seed=4)
    run, out = session(game, "1\n", seat=1)
    assert run.run() == 0 and game.phase_name == "orient" and game.state.points[0] > 0
    text = out.getvalue()
    assert "player_0 (random), 2 moves: orients a start card x2\n" in text and "(score" not in text
    before, after = text.split("you: orient 0 0")
    assert "player 0: ? points" in before and "  6 ?????????" in before and "player 1: 0 points" in before
    assert f"player 1: {game.state.points[1]} points" in after  # the own table, with the start card oriented
    assert "unchanged since you last saw it, not shown: player_0's table; 'board' shows all, 'board 0' one" in after
    assert "player 0: " not in after


def test_opponents_words_are_not_shown_in_fiesta_de_los_muertos() -> None:
    from fiesta_envs.muertos.game import FiestaDeLosMuertos

    game = FiestaDeLosMuertos(num_players=4, seed=3)
    run, out = session(game, "1\n" * 200, seat=2)
    assert run.run() == 0 and game.is_over
    text = out.getvalue()
    assert "player_0 (random): writes a word" in text
    assert "player_0 (random): write " not in text
    assert "(only you see) your character(s):" in text
    assert "skulls appeased" in text


@pytest.mark.parametrize(
    ("module", "cls", "options"),
    [
        ("fiesta_envs.tortilla.game", "TortillaDePatatas", {"menu": "gourmet"}),
        ("fiesta_envs.tequila.game", "Tequila", {}),
        ("fiesta_envs.muertos.catrina", "LaCatrina", {"draw_choice": True}),
    ],
)
def test_every_game_can_be_played_to_the_end(module: str, cls: str, options: dict) -> None:
    game = getattr(importlib.import_module(module), cls)(num_players=None, seed=2, **options)
    rng = np.random.default_rng(0)
    numbers = "".join(f"{rng.integers(1, 4)}\n" for _ in range(3000))
    run, out = session(game, numbers, seat=1)
    assert run.run() == 0
    assert game.is_over, out.getvalue()[-2000:]
    assert "game over" in out.getvalue()


def test_play_builds_the_opponents_from_baseline_names() -> None:
    out = io.StringIO()
    assert play("fiesta_mexicana", 3, ["random"], seat=2, seed=4, stdin=io.StringIO("1\n" * 500), stdout=out) == 0
    text = out.getvalue()
    assert "seats in order: random, random, you" in text
    assert "You win!" in text or "You lose." in text


def test_play_refuses_a_wrong_number_of_opponents_and_a_wrong_seat() -> None:
    with pytest.raises(FiestaError, match="2 agents named for 1 seats"):
        play("fiesta_mexicana", 2, ["random", "random"], stdin=io.StringIO(""), stdout=io.StringIO())
    with pytest.raises(FiestaError, match="--seat 5 is not a seat"):
        play("fiesta_mexicana", 2, ["random"], seat=5, stdin=io.StringIO(""), stdout=io.StringIO())


def test_command_line_errors_are_reported_not_raised(capsys: pytest.CaptureFixture) -> None:
    parser = argparse.ArgumentParser()
    play_command.add_arguments(parser)
    args = parser.parse_args(["--game", "fiesta_mexicana", "--opponents", "nobody_at_all"])
    assert play_command.run(args) == 2
    assert "unknown agent 'nobody_at_all'" in capsys.readouterr().err
    args = parser.parse_args(["--game", "chess"])
    assert play_command.run(args) == 2
    assert "unknown game 'chess'" in capsys.readouterr().err
