"""What a seat of Fiesta de los Muertos / La Catrina may know (cases for ``tests/test_information.py``).

Each case plays a seeded game to a position with the engine's own rules, takes its state dict and changes
one fact. The printed game is simultaneous in the draw choice, in each writing step and in the matching, so
what another seat did during the current step stays hidden until the step is over (the words of step k are
handed over when step k + 1 begins); words and characters are known by identity, not only by their tags.

The first cases below are worked out at 4 players; ``_configuration_cases`` runs the core of them at every
configuration of both games (``core.configurations``: 4-8 players, the draw choice, the double challenge, the
cortège, the constraint cards) with the facts each option adds to the observation: the characters dealt to me,
the word on my second skull, the cortège's themes, the constraint cards in play, the campaign's flowers and
bones.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from information_support import NOT_SHOWN, InformationCase, changed, labelled

from fiesta_envs.core.configurations import configurations
from fiesta_envs.muertos.catrina import LaCatrina
from fiesta_envs.muertos.components import STEPS, Phase
from fiesta_envs.muertos.constraints import CONSTRAINTS, INCOMPATIBLE
from fiesta_envs.muertos.engine import LEXICON, MuertosGame
from fiesta_envs.muertos.game import FiestaDeLosMuertos
from fiesta_envs.muertos.lexicon import THEMES


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
        return game.state.round.phase == Phase.WRITE and (game.state.round.step, game.state.round.seat) == (step, seat)

    return _position(FiestaDeLosMuertos, there, **options)


def _deducing(seat: int, game_class: type[MuertosGame] = FiestaDeLosMuertos) -> MuertosGame:
    def there(game: MuertosGame) -> bool:
        return game.state.round.phase == Phase.DEDUCE and game.state.round.seat == seat

    return _position(game_class, there)


def _revealed(game_class: type[MuertosGame] = FiestaDeLosMuertos) -> MuertosGame:
    return _position(game_class, lambda game: game.state.round.phase > Phase.DEDUCE or game.is_over)


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
    cases = [case for kind, case in _configuration_cases() if kind == "hidden"]

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
    game = _position(
        FiestaDeLosMuertos, lambda g: g.state.round.phase == Phase.DRAW and g.state.round.seat == 1, draw_choice=True
    )

    def other_keeps_the_other_card(state_round: dict[str, Any]) -> None:
        offer = state_round["offers"][0]
        state_round["characters"][0] = offer[1] if state_round["characters"][0] == offer[0] else offer[0]

    cases.append(_case("the character another seat kept in the draw", game, 1, other_keeps_the_other_card))

    def other_offer(state_round: dict[str, Any]) -> None:
        state_round["offers"][2] = state_round["offers"][2][::-1]

    cases.append(_case("the characters dealt to another seat", game, 1, other_offer))

    game = _position(
        LaCatrina, lambda g: g.state.round.phase == Phase.WRITE and (g.state.round.step, g.state.round.seat) == (2, 1)
    )
    cases.append(
        _word_case("La Catrina: a word another seat wrote earlier in this step", game, 1, _skull_held(0, 2), 2)
    )
    return cases


def known_cases() -> list[InformationCase]:
    cases = [case for kind, case in _configuration_cases() if kind == "known"]

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
        _word_case("a final word, against another with the same tags", game, 3, game.state.round.numbers[0], STEPS - 1)
    )

    def table_order(state_round: dict[str, Any]) -> None:
        state_round["table_order"] = state_round["table_order"][::-1]

    cases.append(_case("the table in the deduction", game, 3, table_order))

    def my_guess(state_round: dict[str, Any]) -> None:
        guesses = state_round["guesses"][state_round["numbers"][0]]
        guesses[0] = (guesses[0] + 1) % 8

    cases.append(_case("my own guess", game, 0, my_guess))

    game = _revealed()
    skull = game.state.round.numbers[0]
    answer = game.state.round.answer(skull)

    def revealed_guess(state_round: dict[str, Any]) -> None:
        guesses = state_round["guesses"][skull]
        guesses[1] = (answer + 1) % 8 if guesses[1] == answer else answer  # right becomes wrong, or wrong right

    cases.append(_case("after the reveal, how many guessed a skull right", game, 0, revealed_guess))

    game = _position(
        LaCatrina, lambda g: g.state.round.phase == Phase.WRITE and (g.state.round.step, g.state.round.seat) == (2, 1)
    )
    cases.append(
        _word_case("La Catrina: the word I read, against another with the same tags", game, 1, _skull_held(1, 2), 1)
    )
    return cases


# ---------------------------------------------------------------- every configuration of both games


def _snapshots(game_class: type[MuertosGame], num_players: int, options: dict[str, Any]) -> dict[str, MuertosGame]:
    """One game (seed 3, first legal actions) stopped at each named moment (``None`` if it never comes)."""

    def writing(step: int, seat: int, hand: int = 0) -> Callable[[MuertosGame], bool]:
        return lambda g: (
            g.state.round.phase == Phase.WRITE
            and (g.state.round.step, g.state.round.seat, g.state.round.hand) == (step, seat, hand)
        )

    def deducing(seat: int) -> Callable[[MuertosGame], bool]:
        return lambda g: g.state.round.phase == Phase.DEDUCE and g.state.round.seat == seat

    moments: dict[str, Callable[[MuertosGame], bool]] = {
        "draw, seat 1": lambda g: g.state.round.phase == Phase.DRAW and g.state.round.seat == 1,
        "write 0, seat 0": writing(0, 0),
        "write 1, seat 1": writing(1, 1),
        "write 1, seat 1, hand 1": writing(1, 1, 1),
        "write 1, seat 2": writing(1, 2),
        "deduce, seat 1": deducing(1),
        "deduce, seat 2": deducing(2),
    }
    game = game_class(num_players=num_players, seed=3, **options)
    found: dict[str, MuertosGame] = {}
    while not game.is_over and game.state.round.phase <= Phase.DEDUCE:
        for name, there in moments.items():
            if name not in found and there(game):
                found[name] = game_class.from_state_dict(game.state_dict())
        game.step(game.legal_actions()[0])
    return found


def _configuration_cases() -> list[tuple[str, InformationCase]]:
    """("hidden" | "known", case) at every configuration of Fiesta de los Muertos and La Catrina."""
    cases = []
    for game_class in (FiestaDeLosMuertos, LaCatrina):
        for num_players, options in configurations(game_class, skip=NOT_SHOWN):
            at = _snapshots(game_class, num_players, options)
            for kind, case in _cases_at(at, options):
                case.name = labelled(case.name, game_class, case.first)
                cases.append((kind, case))
    return cases


def _cases_at(at: dict[str, MuertosGame], options: dict[str, Any]) -> list[tuple[str, InformationCase]]:
    cases = []

    def holds(seat: int, step: int, hand: int = 0) -> int:
        return at["write 1, seat 2"].state.round.holder_skull(seat, step, hand)

    # Hidden: what another seat wrote, kept or matched in the current step; another seat's character.
    cases.append(
        ("hidden", _word_case("a word another seat wrote in this step", at["write 1, seat 2"], 2, holds(0, 1), 1))
    )

    def other_character(state_round: dict[str, Any]) -> None:
        state_round["characters"][1] = _off_table_character(state_round)

    cases.append(("hidden", _case("another seat's character", at["write 0, seat 0"], 0, other_character)))

    def earlier_guess(state_round: dict[str, Any]) -> None:
        guesses = state_round["guesses"][state_round["numbers"][0]]
        guesses[0] = (guesses[0] + 1) % 8

    cases.append(("hidden", _case("another seat's guess before the reveal", at["deduce, seat 2"], 2, earlier_guess)))

    # Known: the word I read, the table and the final words in the deduction.
    cases.append(("known", _word_case("the word I read", at["write 1, seat 1"], 1, holds(0, 0), 0)))

    def table_order(state_round: dict[str, Any]) -> None:
        state_round["table_order"] = state_round["table_order"][::-1]

    deducing = at["deduce, seat 1"]
    cases.append(("known", _case("the table in the deduction", deducing, 1, table_order)))
    last = deducing.state.round.numbers[0]
    cases.append(("known", _word_case("a final word", deducing, 1, last, STEPS - 1)))

    if options.get("draw_choice"):
        cases.extend(_draw_choice_cases(at["draw, seat 1"]))
    if options.get("double_challenge"):
        second = at["write 1, seat 1, hand 1"]
        cases.append(
            ("hidden", _word_case("a word another seat wrote on its second skull", second, 1, holds(0, 1, 1), 1))
        )
        cases.append(("known", _word_case("the word I read on my second skull", second, 1, holds(0, 0, 1), 0)))
    if options.get("cortege"):
        cases.append(("known", _case("the cortège's themes", at["write 0, seat 0"], 0, _other_themes)))
    if options.get("constraints"):
        cases.append(("known", _case("a constraint card in play", at["write 0, seat 0"], 0, _other_constraint)))
    if isinstance(deducing, LaCatrina):
        cases.extend(_campaign_cases(deducing))
    return cases


def _draw_choice_cases(game: MuertosGame) -> list[tuple[str, InformationCase]]:
    """Seat 0 has kept a character, seat 1 is choosing between its two."""

    def other_keeps_the_other_card(state_round: dict[str, Any]) -> None:
        offer = state_round["offers"][0]
        state_round["characters"][0] = offer[1] if state_round["characters"][0] == offer[0] else offer[0]

    def another_card_dealt_to_me(state_round: dict[str, Any]) -> None:
        state_round["offers"][1][1] = _off_table_character(state_round)

    return [
        ("hidden", _case("the character another seat kept in the draw", game, 1, other_keeps_the_other_card)),
        ("known", _case("the characters dealt to me", game, 1, another_card_dealt_to_me)),
    ]


def _other_themes(state_round: dict[str, Any]) -> None:
    """The cortège with its second theme replaced by one not drawn."""
    state_round["themes"][1] = next(t for t in range(len(THEMES)) if t not in state_round["themes"])


def _other_constraint(state_round: dict[str, Any]) -> None:
    """The first constraint card in play replaced by one compatible with the others."""
    in_play = state_round["constraints"]
    state_round["constraints"][0] = next(
        card
        for card in range(len(CONSTRAINTS))
        if card not in in_play and not any(frozenset((card, other)) in INCOMPATIBLE for other in in_play[1:])
    )


def _campaign_cases(game: MuertosGame) -> list[tuple[str, InformationCase]]:
    """La Catrina: the team's flowers and Memory Bones are public."""

    def team_changed(field: str) -> Callable[[dict[str, Any]], None]:
        def change(state: dict[str, Any]) -> None:
            state["team"][field] += 1

        return change

    first = game.state_dict()
    return [
        ("known", InformationCase(f"the team's {field}", game.name, 1, first, changed(first, team_changed(field))))
        for field in ("flowers", "memory")
    ]
