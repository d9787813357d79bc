"""Tortilla de Patatas: the engine's position is one typed ``TortillaState`` (``game.state``), and its copies
(``clone``, ``saved_state``) are independent of it."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from fiesta_envs.tortilla.game import TortillaDePatatas
from fiesta_envs.tortilla.state import Phase, TortillaState

CONFIGS = [(n, menu) for n in (2, 4) for menu in ("kids", "day", "gourmet")]
STATE_FIELDS = {field.name for field in dataclasses.fields(TortillaState)}


def game_after(num_players: int, menu: str, moves: int, seed: int) -> TortillaDePatatas:
    """A game after up to ``moves`` random legal actions."""
    game = TortillaDePatatas(num_players=num_players, seed=seed, menu=menu)
    rng = np.random.default_rng(seed)
    for _ in range(moves):
        if game.is_over:
            break
        game.step(int(rng.choice(np.flatnonzero(game.legal_mask()))))
    return game


def play_on(game: TortillaDePatatas, seed: int) -> list[int]:
    """Random legal actions to the end of the game; the actions played."""
    rng = np.random.default_rng(seed)
    actions = []
    while not game.is_over:
        actions.append(int(rng.choice(np.flatnonzero(game.legal_mask()))))
        game.step(actions[-1])
    return actions


@pytest.mark.parametrize(("num_players", "menu"), CONFIGS)
def test_the_position_is_the_state_and_nothing_of_it_is_copied_onto_the_engine(num_players: int, menu: str) -> None:
    for moves in (0, 7, 30, 500):
        game = game_after(num_players, menu, moves, seed=moves)
        assert isinstance(game.state, TortillaState)
        assert isinstance(game.state.phase, Phase)
        mirrored = set(vars(game)) & (STATE_FIELDS | {f"_{name}" for name in STATE_FIELDS})
        assert not mirrored, f"state fields copied onto the engine: {sorted(mirrored)}"
        assert game.state_dict()["state"] == game.state.to_dict()


@pytest.mark.parametrize(("num_players", "menu"), CONFIGS)
def test_a_clone_is_equal_and_independent(num_players: int, menu: str) -> None:
    game = game_after(num_players, menu, 25, seed=3)
    saved = game.state_dict()
    twin = game.clone()
    assert twin.state_dict() == saved
    assert twin.state is not game.state
    # changing every list of the clone's position, and playing it to the end, leaves the original as it was
    for value in vars(twin.state).values():
        if isinstance(value, list):
            value.append(value[0] if value else 0)
            for item in value:
                if isinstance(item, list):
                    item.append(0)
    twin.rng.random()
    assert game.state_dict() == saved
    twin = game.clone()
    play_on(twin, seed=5)
    assert game.state_dict() == saved


@pytest.mark.parametrize(("num_players", "menu"), CONFIGS)
def test_a_clone_continues_as_the_original_does(num_players: int, menu: str) -> None:
    game = game_after(num_players, menu, 12, seed=8)
    twin = game.clone()
    actions = play_on(game, seed=9)
    for action in actions:
        twin.step(action)
    assert twin.state_dict() == game.state_dict()
    game.reset()
    twin.reset()
    assert twin.state_dict() == game.state_dict()  # the generators were equal: the next deal is too


def test_a_clone_observes_as_the_original_does() -> None:
    for observation in ("information_state", "observation"):
        game = TortillaDePatatas(num_players=4, seed=2, menu="day", observation=observation, action_features=True)
        rng = np.random.default_rng(2)
        while not game.is_over:
            twin = game.clone()
            for seat in range(game.num_players):
                assert twin.observe(seat).tobytes() == game.observe(seat).tobytes()
            game.step(int(rng.choice(np.flatnonzero(game.legal_mask()))))


def test_saved_state_is_a_copy() -> None:
    game = game_after(2, "day", 20, seed=4)
    saved = game.state_dict()
    state = game.saved_state()
    assert state == game.state and state is not game.state
    state.hands[0][0] += 1
    state.pans[0].append(0)
    state.deck.clear()
    assert game.state_dict() == saved
