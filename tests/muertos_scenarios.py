"""Helpers for the Fiesta de los Muertos and La Catrina tests: play a round to a chosen result.

``write_all`` fills every tooth with the first legal word (or a blank); ``deduce`` makes a chosen
number of players right on each skull; ``edit_round`` changes the saved round and reloads it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from fiesta_envs.muertos.components import Phase
from fiesta_envs.muertos.engine import LAYOUT, LEXICON


def first_legal_name(game) -> str:
    return game.action_to_string(int(np.flatnonzero(game.legal_mask())[0]))


def keep_first(game) -> None:
    """Under draw_choice: every seat keeps the first character dealt to it."""
    while game.state.round.phase == Phase.DRAW:
        offer = game.state.round.offers[game.current_player][0]
        game.play(f"keep {LEXICON.characters[offer].name}")


def write_all(game) -> None:
    """Every writer writes its first legal word (or the blank when none is)."""
    while game.state.round.phase == Phase.WRITE:
        game.play(first_legal_name(game))


def deduce(game, correct: Sequence[int]) -> None:
    """Each skull number d gets ``correct[d]`` right guesses (seats 0.. right, the rest wrong)."""
    game_round = game.state.round
    while game_round.phase == Phase.DEDUCE and not game.is_over:
        seat, number = game_round.seat, game_round.number
        answer = game_round.answer(game_round.numbers[number])
        slot = answer if seat < correct[number] else (answer + 1) % 8
        game.play(f"match {number + 1} to {slot + 1}")


def play_round(game, correct: Sequence[int]) -> None:
    """Draw (keeping the first card), write and deduce with the given right guesses per skull."""
    keep_first(game)
    write_all(game)
    deduce(game, correct)


def edit_state(game, edit: Callable[[dict[str, Any]], None]) -> None:
    """Apply ``edit`` to the saved ``state`` part (through JSON, as a user would) and reload."""
    data = json.loads(json.dumps(game.state_dict()))
    edit(data["state"])
    game.load_state_dict(data)


def word(text: str) -> int:
    return LEXICON.word_id(text)


def give_characters(game, names: Sequence[str]) -> None:
    """Seat i draws the character ``names[i]`` (any copy of it among the extras is swapped out)."""
    wanted = [LEXICON.character_id(name) for name in names]

    def edit(state: dict[str, Any]) -> None:
        drawn, extras = state["round"]["characters"], state["round"]["extras"]
        spare = [c for c in range(len(LEXICON.characters)) if c not in drawn + extras + wanted]
        for seat, character in enumerate(wanted):
            if character in extras:
                extras[extras.index(character)] = spare.pop()
            if character in drawn and drawn.index(character) != seat:
                drawn[drawn.index(character)] = spare.pop()
            drawn[seat] = character

    edit_state(game, edit)


def legal_words(game) -> set[str]:
    mask = game.legal_mask()[LAYOUT.write : LAYOUT.blank]
    return {LEXICON.words[w].text for w in np.flatnonzero(mask)}
