"""The speed caches of Fiesta de los Muertos / La Catrina change nothing a player or learner sees.

* Legal masks are shared between positions (``round.legal_mask``): each must equal a mask
  built afresh from the rules (``allowed_words`` for the writing), and be read-only.
  (Draw and spend masks are built afresh for every position.) A deep copy or pickle of a game
  fetches those shared tables again instead of copying them, so its masks stay read-only.
* Shortcuts of the step path are checked against the plain rules they stand for: the writer's
  prompt (checked against ``Round.prompt()``, the lexicon's tags and the identity codes),
  ``current_player``, ``blank`` played through the ``write`` handler, and ``correct_count``.

(The observation has no cache: ``tests/test_observers.py`` and ``tests/test_muertos_observation.py``.)
"""

from __future__ import annotations

import copy
import json
import pickle

import numpy as np
import pytest

from fiesta_envs.muertos import observation
from fiesta_envs.muertos.catrina import LaCatrina
from fiesta_envs.muertos.components import BLANK, STEPS, Phase
from fiesta_envs.muertos.engine import LAYOUT, LEXICON, OBSERVER
from fiesta_envs.muertos.game import FiestaDeLosMuertos
from fiesta_envs.muertos.identity import load_identity_codes

CASES = [
    (FiestaDeLosMuertos, 4, {}),
    (FiestaDeLosMuertos, 8, {"draw_choice": True, "constraints": 2}),
    (FiestaDeLosMuertos, 4, {"double_challenge": True, "cortege": True, "constraints": 1}),
    (LaCatrina, 5, {}),
    (LaCatrina, 4, {"double_challenge": True}),
]


def fresh_mask(game) -> np.ndarray:
    """The legal mask built from the rules without any shared table."""
    game_round = game.state.round
    mask = np.zeros(LAYOUT.size, dtype=np.int8)
    if game.state.over:
        return mask
    if game_round.phase == Phase.WRITE:
        allowed = game_round.allowed_words()
        if allowed.any():
            mask[LAYOUT.write : LAYOUT.blank] = allowed
        else:
            mask[LAYOUT.blank] = 1
        return mask
    if game_round.phase == Phase.DEDUCE:
        start = LAYOUT.match_action(game_round.number, 0)
        mask[start : start + 8] = 1
        return mask
    if game_round.phase == Phase.YELLOW:
        mask[[LAYOUT.flower, LAYOUT.memory]] = 1
        return mask
    return game_round.legal_mask()  # draw and spend masks are built afresh anyway


@pytest.mark.parametrize(("game_class", "players", "options"), CASES)
def test_shared_masks_equal_fresh_ones(game_class, players, options) -> None:
    game = game_class(num_players=players, **options)
    rng = np.random.default_rng(players)
    for seed in range(6):
        game.reset(seed)
        step = 0
        while not game.is_over:
            mask = game.legal_mask()
            if game.state.round.phase in (Phase.WRITE, Phase.DEDUCE, Phase.YELLOW) and not game.state.over:
                assert not mask.flags.writeable  # shared between positions: nobody may change it
            np.testing.assert_array_equal(mask, fresh_mask(game))
            if step % 23 == 7:
                copy = game_class.from_state_dict(json.loads(json.dumps(game.state_dict())))
                np.testing.assert_array_equal(copy.legal_mask(), mask)
            legal = np.flatnonzero(mask)
            game.step(int(legal[rng.integers(len(legal))]))
            step += 1


def play_smart(game, rng: np.random.Generator) -> None:
    """One step: a random legal action, except that skulls are mostly matched right in the deduction
    (so that La Catrina's campaign goes on to later rounds, with their constraints and bonus flowers)."""
    game_round = game.state.round
    if game_round.phase == Phase.DEDUCE and rng.random() < 0.9:
        slot = game_round.answer(game_round.numbers[game_round.number])
        game.step(LAYOUT.match_action(game_round.number, slot))
        return
    legal = np.flatnonzero(game.legal_mask())
    game.step(int(legal[rng.integers(len(legal))]))


def test_a_loaded_game_continues_with_the_same_observations_as_the_original() -> None:
    game = LaCatrina(num_players=5, seed=3)
    rng = np.random.default_rng(3)
    for _ in range(30):
        play_smart(game, rng)
    copy = LaCatrina.from_state_dict(json.loads(json.dumps(game.state_dict())))
    copy_rng = np.random.default_rng(9)
    game_rng = np.random.default_rng(9)
    while not game.is_over:
        for seat in range(5):
            assert np.array_equal(copy.observe(seat), game.observe(seat))
        np.testing.assert_array_equal(copy.legal_mask(), game.legal_mask())
        play_smart(game, game_rng)
        play_smart(copy, copy_rng)
    assert copy.is_over and copy.state_dict() == game.state_dict()


def test_a_game_deep_copied_or_pickled_mid_game_goes_on_alike() -> None:
    game = LaCatrina(num_players=4, seed=2)
    rng = np.random.default_rng(2)
    for _ in range(9):
        game.observe(game.current_player)
        play_smart(game, rng)
    copies = [copy.deepcopy(game), pickle.loads(pickle.dumps(game))]
    while not game.is_over:
        action = int(np.flatnonzero(game.legal_mask())[-1])
        for other in copies:
            for seat in range(4):
                assert np.array_equal(other.observe(seat), game.observe(seat))
            other.step(action)
        game.step(action)
    assert all(other.state_dict() == game.state_dict() for other in copies)


def test_observe_returns_a_fresh_vector() -> None:
    game = FiestaDeLosMuertos(num_players=4, seed=1)
    first = game.observe(0)
    first[:] = 7.0
    assert np.array_equal(game.observe(0), OBSERVER.reference(game, 0))


def test_a_deep_copied_or_pickled_game_hands_out_shared_read_only_masks() -> None:
    """The mask tables a Round keeps at hand are not copied with it: the copy fetches the shared ones."""
    for options in ({}, {"constraints": 1}):
        game = FiestaDeLosMuertos(num_players=5, seed=4, **options)
        rng = np.random.default_rng(4)
        while not game.is_over:
            if game.state.round.phase in (Phase.WRITE, Phase.DEDUCE):
                game.legal_mask()  # the original has fetched its tables by now
                for other in (copy.deepcopy(game), pickle.loads(pickle.dumps(game))):
                    mask = other.state.round.legal_mask()  # (the game's own cached mask is the copy's alone)
                    assert not mask.flags.writeable
                    np.testing.assert_array_equal(mask, fresh_mask(other))
            play_smart(game, rng)


def expected_task(game_round) -> np.ndarray:
    """The writing task block of the writer, built from the rules' own ``prompt()`` and the lexicon's
    tags and the identity codes."""
    kind, ident = game_round.prompt()
    codes = load_identity_codes()
    block = np.zeros(observation.HANDS + STEPS + 3 + OBSERVER.tags + OBSERVER.code_bits, np.float32)
    block[game_round.hand] = block[observation.HANDS + game_round.step] = 1.0
    prompt = block[observation.HANDS + STEPS :]
    if kind == "character":
        prompt[0] = 1.0
        prompt[3:] = np.concatenate([LEXICON.character_tags[ident], codes.characters[ident]])
    elif kind == "word":
        prompt[1] = 1.0
        prompt[3:] = np.concatenate([LEXICON.word_tags[ident], codes.words[ident]])
    else:
        prompt[2] = 1.0
    return block


@pytest.mark.parametrize(
    ("game_class", "players", "options"), [*CASES, (FiestaDeLosMuertos, 8, {"constraints": 3, "cortege": True})]
)
def test_the_shortcuts_of_the_step_path_agree_with_the_rules_they_stand_for(game_class, players, options) -> None:
    """Inlined or table-driven code on the step path against the plain rules it replaces: the writer's
    task (prompt), ``current_player`` (the seat read without ``Round.current_player``),
    the ``blank`` action writing BLANK through the ``write`` handler, and ``correct_count`` (a count of
    the answer slot) against matching characters."""
    game = game_class(num_players=players, **options)
    rng = np.random.default_rng(7 + players)
    task = slice(OBSERVER.layout.slice("task").start, OBSERVER.layout.slice("prompt").stop)
    blanks = 0
    for seed in range(5):
        game.reset(seed)
        while not game.is_over:
            game_round = game.state.round
            assert game.current_player == game_round.current_player
            if game_round.phase == Phase.WRITE:
                np.testing.assert_array_equal(game.observe(game.current_player)[task], expected_task(game_round))
                skull, step = game_round.current_skull(), game_round.step
                if game.legal_mask()[LAYOUT.blank]:
                    game.play("blank")
                    assert game_round.words[skull][step] == BLANK
                    blanks += 1
                    continue
            play_smart(game, rng)
        assert game.current_player == -1
        game_round = game.state.round
        table = game_round.table
        for skull in range(game_round.rules.skulls):
            character = game_round.characters[skull]
            expected = sum(slot >= 0 and table[slot] == character for slot in game_round.guesses[skull])
            assert game_round.correct_count(skull) == expected
    if options.get("constraints") == 3:
        assert blanks > 0  # the blank path was taken (three constraints leave some prompts without a word)
