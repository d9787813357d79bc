"""Determinisation for search (``Game.determinize(seat, rng)``, ``fiesta_envs.core.determinization``).

For every game that has one: (a) the copy shows the seat exactly what the game shows it (its observation, and
its legal actions when it is to act); (b) the hidden parts take different values for different generators;
(c) the copy does not hold the true future (deck order, the generator); (d) two positions that differ only in
what the seat cannot know (the cases of ``tests/test_information.py``) give the same copy for the same
generator: the copy is built from the seat's knowledge alone.
"""

from __future__ import annotations

import importlib
import json

import numpy as np
import pytest
from information_support import InformationCase
from toy_game import Nim

from fiesta_envs.core.determinization import cards_of_counts, shuffled, without
from fiesta_envs.registry import GAMES

DETERMINISED = ["fiesta_mexicana", "tortilla_de_patatas", "tequila", "fiesta_de_los_muertos", "la_catrina"]
WITH_DECKS = ["fiesta_mexicana", "tortilla_de_patatas"]
PROVIDERS = {
    "fiesta_mexicana": "information_of_fiesta_mexicana",
    "tortilla_de_patatas": "information_of_tortilla",
    "tequila": "information_of_tequila",
    "fiesta_de_los_muertos": "information_of_muertos",
    "la_catrina": "information_of_muertos",
}
#: Tequila is determinised for the seat to act (the round another seat is playing now is not resampled).
ACTING_SEAT_ONLY = {"tequila"}
#: The Tortilla ``observation`` mode's memory case: the copy keeps the pans card by card (perfect memory).
MEMORY_CASES = ("observation: a covered card not seen since the last decision",)


def _random_positions(game_name: str, num_players: int, options: dict, seed: int, every: int):
    """Every ``every``-th position of a seeded random game."""
    game = GAMES[game_name].game_class()(num_players=num_players, seed=seed, **options)
    moves = np.random.default_rng(seed)
    step = 0
    while not game.is_over:
        if step % every == 0:
            yield game
        legal = game.legal_actions()
        game.step(legal[int(moves.integers(len(legal)))])
        step += 1


def _configurations():
    return [
        (name, num_players, options)
        for name in DETERMINISED
        for num_players, options in GAMES[name].configurations()
        if not options.get("action_features")
    ]


@pytest.mark.parametrize(("game_name", "num_players", "options"), _configurations(), ids=str)
def test_the_copy_shows_every_seat_what_the_game_shows_it(game_name, num_players, options):
    for game in _random_positions(game_name, num_players, options, seed=5, every=3):
        seats = [game.current_player] if game_name in ACTING_SEAT_ONLY else range(num_players)
        for seat in seats:
            copy = game.determinize(seat, np.random.default_rng(seat))
            assert np.array_equal(copy.observe(seat), game.observe(seat))
            if seat == game.current_player:
                assert np.array_equal(copy.legal_mask(), game.legal_mask())
                assert copy.current_player == seat


def _mid_game(game_name: str):
    game = GAMES[game_name].game_class()(num_players=2, seed=3)
    moves = np.random.default_rng(3)
    for _ in range(12):
        legal = game.legal_actions()
        game.step(legal[int(moves.integers(len(legal)))])
    return game


@pytest.mark.parametrize("game_name", WITH_DECKS)
def test_hidden_parts_vary_across_generators_and_the_rest_stays(game_name):
    game = _mid_game(game_name)
    seat = game.current_player
    copies = [game.determinize(seat, np.random.default_rng(k)).state_dict()["state"] for k in range(8)]
    assert len({json.dumps(c["deck"]) for c in copies}) == 8
    hidden = {"deck", "hands", "objectives", "turns_chosen"}
    true = game.state_dict()["state"]
    for copy in copies:
        assert {key: value for key, value in copy.items() if key not in hidden} == {
            key: value for key, value in true.items() if key not in hidden
        }
    assert len({json.dumps([c["hands"], c.get("objectives")]) for c in copies}) > 1  # others' cards change


@pytest.mark.parametrize("game_name", WITH_DECKS)
def test_the_copy_does_not_hold_the_true_future(game_name):
    game = _mid_game(game_name)
    seat = game.current_player
    true_deck = game.state_dict()["state"]["deck"]
    true_draws = game.clone().rng.integers(1 << 30, size=8)
    for k in range(8):
        copy = game.determinize(seat, np.random.default_rng(k))
        assert copy.state_dict()["state"]["deck"] != true_deck
        assert not np.array_equal(copy.rng.integers(1 << 30, size=8), true_draws)
    # the top card of the deck (the next dish or refill) matches the true one about as often as chance says
    tops = [game.determinize(seat, np.random.default_rng(k)).state_dict()["state"]["deck"][-1] for k in range(200)]
    assert sum(top == true_deck[-1] for top in tops) < 100


def _tequila_mid_round():
    """2 players, round 3 or later: seat 0 has played its round, seat 1 is at its first decision."""
    game = GAMES["tequila"].game_class()(num_players=2, seed=1)
    moves = np.random.default_rng(1)
    state = game.state
    while not (state.round >= 3 and state.turn == 1 and game.current_player == 1 and game.decision.label == "virtual"):
        legal = game.legal_actions()
        game.step(legal[int(moves.integers(len(legal)))])
    return game


def test_tequila_copies_replay_the_round_another_player_has_played_and_keep_the_rest():
    game = _tequila_mid_round()
    true = game.state_dict()["state"]
    copies = [game.determinize(1, np.random.default_rng(k)).state_dict()["state"] for k in range(8)]
    assert len({json.dumps(copy["sheets"][0]) for copy in copies}) > 1  # seat 0's round, played again at random
    for copy in copies:
        assert copy["sheets"][0] != true["sheets"][0]
        assert copy["sheets"][1] == true["sheets"][1]  # the seat's own sheet
        assert copy["shown_sheets"] == true["shown_sheets"]
        assert (copy["dice"], copy["round"], copy["turn"], copy["phase"]) == (
            true["dice"],
            true["round"],
            true["turn"],
            true["phase"],
        )
    with pytest.raises(ValueError, match="determinise for the seat to act \\(1\\)"):
        game.determinize(0, np.random.default_rng(0))


def test_tequila_copies_do_not_know_the_dice_to_come():
    game = GAMES["tequila"].game_class()(num_players=2, seed=4)
    assert game.decision.label == "reroll"
    truth = game.clone()
    truth.play("reroll both")
    rerolled = [game.determinize(0, np.random.default_rng(k)) for k in range(100)]
    for copy in rerolled:
        copy.play("reroll both")
    assert sum(copy.state.dice == truth.state.dice for copy in rerolled) < 20  # chance: 1 in 36


def _hidden_cases() -> list[InformationCase]:
    cases = []
    for module_name in dict.fromkeys(PROVIDERS[name] for name in DETERMINISED):
        for case in importlib.import_module(module_name).hidden_cases():
            to_act = GAMES[case.game].game_class().from_state_dict(case.first).current_player
            if case.name not in MEMORY_CASES and (case.game not in ACTING_SEAT_ONLY or case.seat == to_act):
                cases.append(case)
    return cases


@pytest.mark.parametrize("case", _hidden_cases(), ids=lambda c: f"{c.game}: {c.name}")
def test_positions_differing_only_in_what_the_seat_cannot_know_give_the_same_copy(case):
    game_class = GAMES[case.game].game_class()
    first, second = game_class.from_state_dict(case.first), game_class.from_state_dict(case.second)
    for k in range(3):
        one = first.determinize(case.seat, np.random.default_rng(k)).state_dict()
        other = second.determinize(case.seat, np.random.default_rng(k)).state_dict()
        assert one == other


def test_a_game_without_determinisation_says_so():
    game = Nim(seed=0)
    with pytest.raises(NotImplementedError, match="toy_nim: no determinisation"):
        game.determinize(0, np.random.default_rng(0))


def test_the_helpers_deal_by_what_is_there_not_by_the_order_it_was_kept_in():
    rng = np.random.default_rng
    assert shuffled([3, 1, 2], rng(0)) == shuffled([2, 3, 1], rng(0))
    assert cards_of_counts([2, 0, 1]) == [0, 0, 2]
    assert without([1, 1, 2, 3], [1, 3]) == [1, 2]
    with pytest.raises(ValueError):
        without([1, 2], [4])


def test_fiesta_mexicanas_quick_clone_is_the_game_and_goes_on_alone():
    for game in _random_positions("fiesta_mexicana", 3, {}, seed=2, every=5):
        copy = game.clone()
        assert copy.state_dict() == game.state_dict()
        assert np.array_equal(copy.observe(game.current_player), game.observe(game.current_player))
        before = game.state_dict()
        while not copy.is_over:
            copy.step(copy.legal_actions()[0])
        assert game.state_dict() == before
