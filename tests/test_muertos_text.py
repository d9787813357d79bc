"""Fiesta de los Muertos and La Catrina in the terminal (issue 22): the private panel tells the words
received earlier in the round, the yellow-box choice names its skull, the end shows every chain of
words and La Catrina's end says why the campaign ended and her mood."""

from __future__ import annotations

import io

from fiesta_envs.muertos.catrina import LaCatrina
from fiesta_envs.muertos.components import STEPS, Phase
from fiesta_envs.muertos.game import FiestaDeLosMuertos
from fiesta_envs.policies.policy import RandomPolicy
from fiesta_envs.render import private_lines
from fiesta_envs.render.muertos import LEXICON
from fiesta_envs.tools.guides import decision_hint
from fiesta_envs.tools.play import PlaySession


def flat(text: str) -> str:
    return " ".join(text.split())


def table_of(game) -> dict:
    return game.state_dict()["state"]["round"]


def play_until(game, stop, *, match_right: bool = False) -> None:
    """First legal actions (every match right when asked) until ``stop(game)`` or the end."""
    while not game.is_over and not stop(game):
        table = table_of(game)
        if match_right and table["phase"] == Phase.DEDUCE:
            skull = table["numbers"][table["number"]]
            game.play(f"match {table['number'] + 1} to {game.state.round.answer(skull) + 1}")
        else:
            game.step(game.legal_actions()[0])


def test_the_private_panel_tells_the_words_received_earlier_in_the_round() -> None:
    game = FiestaDeLosMuertos(num_players=4, seed=3)
    play_until(game, lambda g: table_of(g)["phase"] == Phase.WRITE and table_of(g)["step"] == STEPS - 1)
    seat, words = game.current_player, table_of(game)["words"]
    lines = private_lines(game, seat)
    received = [
        f"step {k + 1}: {LEXICON.words[words[(seat - k) % 4][k - 1]].text!r} (player_{(seat - k) % 4}'s skull)"
        for k in range(1, STEPS - 1)
    ]
    assert "words you received: " + "; ".join(received) in lines
    now = LEXICON.words[words[(seat - (STEPS - 1)) % 4][STEPS - 2]].text
    assert not any(now in line for line in lines if line.startswith("words you received"))  # told by the task line
    early = FiestaDeLosMuertos(num_players=4, seed=3)
    play_until(early, lambda g: table_of(g)["phase"] == Phase.WRITE and table_of(g)["step"] == 1)
    assert not any(line.startswith("words you received") for line in private_lines(early, early.current_player))


def test_the_yellow_box_choice_names_its_skull() -> None:
    game = LaCatrina(num_players=4, seed=3)
    play_until(game, lambda g: table_of(g)["phase"] == Phase.YELLOW, match_right=True)
    table = table_of(game)
    report = game.state.round.skull_reports()[table["pending"][0]]
    hint = decision_hint(game, game.current_player)
    assert hint == (
        f"skull {report['number']} (player_{report['owner']}'s, {report['character']}) checked its yellow box: "
        "take a flower for La Catrina's hat ('flower') or a Memory Bone ('memory')"
    )


def test_the_end_shows_every_chain_and_la_catrina_says_why_it_ended_and_her_mood() -> None:
    game = LaCatrina(num_players=4, seed=1)
    out = io.StringIO()
    opponents = {s: ("random", RandomPolicy(seed=s)) for s in range(1, 4)}
    PlaySession(game, 0, opponents, stdin=io.StringIO("1\n" * 400), stdout=out).run()
    text = out.getvalue()
    info = game.final_info()
    for report in info["skull_reports"]:
        chain = " > ".join(report["words"])
        assert (
            f"skull {report['number']} (player_{report['owner']}'s): {report['character']} "
            f"(character {report['slot']}): {chain}" in text
        )
    assert info["end_reason"] == "failed round"
    assert (
        f"game over: the campaign ended (a round failed) after 1 round(s) with {info['flowers']} flowers; "
        f"La Catrina's mood: {info['mood_band']}. {info['mood_text']}" in flat(text)
    )
    base = FiestaDeLosMuertos(num_players=4, seed=1)
    out = io.StringIO()
    PlaySession(base, 0, opponents, stdin=io.StringIO("1\n" * 400), stdout=out).run()
    info = base.final_info()
    assert f"game over: {info['appeased']} of 4 skulls appeased ({info['result_band']}): " in flat(out.getvalue())


def test_the_chains_stay_hidden_until_the_end() -> None:
    game = FiestaDeLosMuertos(num_players=4, seed=3)
    play_until(game, lambda g: table_of(g)["phase"] >= Phase.DEDUCE)
    assert "the chains of words" not in game.render_text()
