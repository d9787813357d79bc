"""What a seat of Fiesta de los Muertos / La Catrina may know (cases for ``tests/test_information.py``).

Each case plays a seeded game to a position with the engine's own rules, takes its state dict and changes
one fact. The printed game is simultaneous in the draw choice, in each writing step and in the matching, so
what another seat did during the current step stays hidden until the step is over (the words of step k are
handed over when step k + 1 begins); words and characters are known by identity, not only by their tags.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from information_support import InformationCase

from fiesta_envs.muertos.catrina import LaCatrina
from fiesta_envs.muertos.common import LEXICON, MuertosGame
from fiesta_envs.muertos.components import STEPS, Phase
from fiesta_envs.muertos.game import FiestaDeLosMuertos


def _position(
    game_class: type[MuertosGame], until: Callable[[MuertosGame], bool], seed: int = 3, **options: Any
) -> MuertosGame:
    """A game of 4 players, every seat playing its first legal action, stopped when ``until`` holds."""
    game = game_class(num_players=4, seed=seed, **options)
    while not until(game):
        game.step(game.legal_actions()[0])
    return game


def _writing(step: int, seat: int, **options: Any) -> MuertosGame:
    """Writing step ``step`` (0-based), ``seat`` to write."""

    def there(game: MuertosGame) -> bool:
        return game.round.phase == Phase.WRITE and (game.round.step, game.round.seat) == (step, seat)

    return _position(FiestaDeLosMuertos, there, **options)


def _deducing(seat: int, game_class: type[MuertosGame] = FiestaDeLosMuertos) -> MuertosGame:
    def there(game: MuertosGame) -> bool:
        return game.round.phase == Phase.DEDUCE and game.round.seat == seat

    return _position(game_class, there)


def _revealed(game_class: type[MuertosGame] = FiestaDeLosMuertos) -> MuertosGame:
    return _position(game_class, lambda game: game.round.phase > Phase.DEDUCE or game.is_over)


def _case(name: str, game: MuertosGame, seat: int, change: Callable[[dict[str, Any]], None]) -> InformationCase:
    first = game.state_dict()
    second = copy.deepcopy(first)
    change(second["state"]["round"])
    return InformationCase(name, game.name, seat, first, second)


def _twins(word: int) -> tuple[int, int]:
    """Two different words with exactly the same tags: ``word`` and its twin, or the lexicon's first such pair."""
    tags = LEXICON.words[word].tags
    twins = [w.id for w in LEXICON.words if w.tags == tags and w.id != word]
    if twins:
        return word, twins[0]
    for first in LEXICON.words:
        for second in LEXICON.words[first.id + 1 :]:
            if first.tags == second.tags:
                return first.id, second.id
    raise AssertionError("the lexicon has no two words with the same tags")


def _word_case(name: str, game: MuertosGame, seat: int, skull: int, tooth: int) -> InformationCase:
    """The tooth ``tooth`` of skull ``skull`` holds one word or another with exactly the same tags."""
    first = game.state_dict()
    second = copy.deepcopy(first)
    one, other = _twins(first["state"]["round"]["words"][skull][tooth])
    first["state"]["round"]["words"][skull][tooth] = one
    second["state"]["round"]["words"][skull][tooth] = other
    return InformationCase(name, game.name, seat, first, second)


def _off_table_character(state_round: dict[str, Any], like: int | None = None) -> int:
    """A character on no skull and not among the extras (one with the tags of ``like`` when there is one)."""
    used = set(state_round["characters"]) | set(state_round["extras"])
    free = [c.id for c in LEXICON.characters if c.id not in used]
    if like is not None:
        twins = [c for c in free if LEXICON.characters[c].tags == LEXICON.characters[like].tags]
        if twins:
            return twins[0]
    return free[0]


def _skull_held(seat: int, step: int, n: int = 4) -> int:
    """The skull ``seat`` holds at ``step`` (one hand): the one of seat ``seat - step``."""
    return (seat - step) % n


def hidden_cases() -> list[InformationCase]:
    cases = []

    # Writing step 1, seat 2 to write: seats 0 and 1 have already written this step.
    game = _writing(step=1, seat=2)
    for seat in (2, 3):
        cases.append(
            _word_case(
                f"a word another seat wrote earlier in this step (seat {seat})", game, seat, _skull_held(0, 1), 1
            )
        )
    cases.append(_word_case("a word written this step on the skull I receive next step", game, 2, _skull_held(1, 1), 1))

    def other_extras(state_round: dict[str, Any]) -> None:
        state_round["extras"][0] = _off_table_character(state_round)
        state_round["table_order"] = state_round["table_order"][::-1]
        state_round["numbers"] = state_round["numbers"][::-1]

    cases.append(_case("the extras, the table and the number cards before the deduction", game, 2, other_extras))

    def other_character(state_round: dict[str, Any]) -> None:
        state_round["characters"][1] = _off_table_character(state_round)

    cases.append(_case("another seat's character", _writing(step=0, seat=0), 0, other_character))

    # After the writing, seat 0 never saw the second tooth of its own skull (seat 1 wrote it at step 1).
    game = _deducing(seat=0)
    cases.append(_word_case("a word written in between on my skull by another seat", game, 0, 0, 1))

    game = _deducing(seat=2)

    def earlier_guess(state_round: dict[str, Any]) -> None:
        guesses = state_round["guesses"][state_round["numbers"][0]]
        guesses[0] = (guesses[0] + 1) % 8

    for seat in (2, 3):
        cases.append(_case(f"another seat's guess before the reveal (seat {seat})", game, seat, earlier_guess))

    # Draw choice: seat 0 has kept a character, seat 1 is choosing.
    game = _position(FiestaDeLosMuertos, lambda g: g.round.phase == Phase.DRAW and g.round.seat == 1, draw_choice=True)

    def other_keeps_the_other_card(state_round: dict[str, Any]) -> None:
        offer = state_round["offers"][0]
        state_round["characters"][0] = offer[1] if state_round["characters"][0] == offer[0] else offer[0]

    cases.append(_case("the character another seat kept in the draw", game, 1, other_keeps_the_other_card))

    def other_offer(state_round: dict[str, Any]) -> None:
        state_round["offers"][2] = state_round["offers"][2][::-1]

    cases.append(_case("the characters dealt to another seat", game, 1, other_offer))

    game = _position(LaCatrina, lambda g: g.round.phase == Phase.WRITE and (g.round.step, g.round.seat) == (2, 1))
    cases.append(
        _word_case("La Catrina: a word another seat wrote earlier in this step", game, 1, _skull_held(0, 2), 2)
    )
    return cases


def known_cases() -> list[InformationCase]:
    cases = []

    # Writing step 1: seat 1 reads the word seat 0 wrote at step 0 on seat 0's skull.
    cases.append(_word_case("the word I read, against another with the same tags", _writing(step=1, seat=1), 1, 0, 0))
    # Seat 3 holds seat 2's skull at step 1: the word on it is handed over when the step begins.
    game = _writing(step=1, seat=0)
    cases.append(_word_case("the word handed to me when the step began, before my turn", game, 3, _skull_held(3, 1), 0))
    cases.append(_word_case("the word I wrote this step", _writing(step=1, seat=2), 1, _skull_held(1, 1), 1))

    # Attila the Hun and Genghis Khan have the same tags: seat 0 holds one or the other.
    attila, genghis = LEXICON.character_id("Attila the Hun"), LEXICON.character_id("Genghis Khan")
    game = _writing(step=0, seat=1)  # seat 0 has written its first word; its character stays in view
    first = game.state_dict()
    state_round = first["state"]["round"]
    spare = [c.id for c in LEXICON.characters if c.id not in {attila, genghis, *state_round["characters"]}]
    spare = [c for c in spare if c not in state_round["extras"]]
    for part in ("characters", "extras"):
        state_round[part] = [spare.pop() if c in (attila, genghis) else c for c in state_round[part]]
    state_round["characters"][0] = attila
    second = copy.deepcopy(first)
    second["state"]["round"]["characters"][0] = genghis
    cases.append(
        InformationCase("my character: Attila the Hun or Genghis Khan (same tags)", game.name, 0, first, second)
    )

    game = _deducing(seat=1)
    cases.append(
        _word_case("a final word, against another with the same tags", game, 3, game.round.numbers[0], STEPS - 1)
    )

    def table_order(state_round: dict[str, Any]) -> None:
        state_round["table_order"] = state_round["table_order"][::-1]

    cases.append(_case("the table in the deduction", game, 3, table_order))

    def my_guess(state_round: dict[str, Any]) -> None:
        guesses = state_round["guesses"][state_round["numbers"][0]]
        guesses[0] = (guesses[0] + 1) % 8

    cases.append(_case("my own guess", game, 0, my_guess))

    game = _revealed()
    skull = game.round.numbers[0]
    answer = game.round.answer(skull)

    def revealed_guess(state_round: dict[str, Any]) -> None:
        guesses = state_round["guesses"][skull]
        guesses[1] = (answer + 1) % 8 if guesses[1] == answer else answer  # right becomes wrong, or wrong right

    cases.append(_case("after the reveal, how many guessed a skull right", game, 0, revealed_guess))

    game = _position(LaCatrina, lambda g: g.round.phase == Phase.WRITE and (g.round.step, g.round.seat) == (2, 1))
    cases.append(
        _word_case("La Catrina: the word I read, against another with the same tags", game, 1, _skull_held(1, 2), 1)
    )
    return cases
