"""The incrementally kept observation vectors equal the from-scratch encoders, bit for bit.

``TortillaDePatatas.observe`` asks its ``observation.TortillaObserver``, which keeps each seat's last
vector and rewrites what changed since (it pulls: the rules never call it); ``encode_observation``
and ``encode_information_state`` are the readable definition. Every seat's vector is compared at
every step of random games, in every menu, player count and mode, across loaded positions and
clones too.
"""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

from fiesta_envs.core.errors import InvalidStateError
from fiesta_envs.tortilla.game import TortillaDePatatas
from fiesta_envs.tortilla.observation import encode_information_state, encode_observation

REFERENCE = {"information_state": encode_information_state, "observation": encode_observation}


def _assert_every_seat_matches(game: TortillaDePatatas, mode: str) -> None:
    encode = REFERENCE[mode]
    for seat in range(game.num_players):
        observed = game.observe(seat)
        assert observed.dtype == np.float32
        assert observed.tobytes() == encode(game, seat).tobytes(), f"seat {seat}, phase {game.state.phase.label}"


@pytest.mark.parametrize("mode", sorted(REFERENCE))
@pytest.mark.parametrize("menu", ["kids", "day", "gourmet"])
@pytest.mark.parametrize("num_players", [2, 4])
def test_cached_observations_equal_the_reference_encoders(mode: str, menu: str, num_players: int) -> None:
    game = TortillaDePatatas(num_players=num_players, menu=menu, observation=mode)
    for seed in range(10):
        game.reset(seed)
        rng = np.random.default_rng(seed)
        steps = 0
        while True:
            _assert_every_seat_matches(game, mode)
            if game.is_over:
                break
            game.step(int(rng.choice(game.legal_actions())))
            steps += 1
            if steps % 9 == 0:  # a loaded position is written from scratch, then kept up again
                game.load_state_dict(game.state_dict())
            if steps % 13 == 0:  # so is a clone, which then lives on independently
                game = game.clone()


@pytest.mark.parametrize("menu", ["kids", "day"])
def test_seats_that_look_rarely_see_the_same_as_the_reference(menu: str) -> None:
    """Vectors are updated whether or not a seat looks: skipping turns changes nothing."""
    game = TortillaDePatatas(num_players=4, menu=menu)
    for seed in range(6):
        game.reset(seed)
        rng = np.random.default_rng(100 + seed)
        while not game.is_over:
            seat = int(rng.integers(4))
            assert np.array_equal(game.observe(seat), encode_information_state(game, seat))
            game.step(int(rng.choice(game.legal_actions())))
        _assert_every_seat_matches(game, "information_state")


def test_observe_returns_a_fresh_array() -> None:
    game = TortillaDePatatas(seed=3)
    first = game.observe(0)
    first[:] = 7.0
    assert np.array_equal(game.observe(0), encode_information_state(game, 0))
    assert game.observe(0) is not game.observe(0)


def test_a_clone_does_not_share_vectors_with_its_original() -> None:
    game = TortillaDePatatas(seed=4)
    twin = game.clone()
    before = twin.observe(0)
    game.step(int(game.legal_actions()[0]))
    assert np.array_equal(twin.observe(0), before)
    assert np.array_equal(game.observe(0), encode_information_state(game, 0))


@pytest.mark.parametrize("copier", [copy.deepcopy, lambda game: pickle.loads(pickle.dumps(game))])
def test_a_deep_copy_or_pickled_game_keeps_its_own_vectors_current(copier) -> None:
    game = TortillaDePatatas(num_players=4, seed=6)
    for _ in range(6):
        game.step(game.legal_actions()[0])
    twin = copier(game)
    rng = np.random.default_rng(6)
    while not twin.is_over:
        twin.step(int(rng.choice(twin.legal_actions())))
        _assert_every_seat_matches(twin, "information_state")
    _assert_every_seat_matches(game, "information_state")


def test_a_refused_position_leaves_the_game_and_its_vectors_untouched() -> None:
    game = TortillaDePatatas(seed=5)
    for _ in range(4):  # the chefs' starting cards: pans 0 and 1 of both teams hold a card
        game.step(game.legal_actions()[0])
    game.step(game.legal_actions()[0])  # player_0 plays a card onto a pan
    saved, seen = game.state_dict(), [game.observe(seat) for seat in range(2)]
    broken = game.state_dict()
    broken["state"]["phase"] = "steal"  # a steal choice with fewer than two pans to choose from
    broken["state"]["played_pan"] = 0
    with pytest.raises(InvalidStateError, match="two candidate pans"):
        game.load_state_dict(broken)
    assert game.state_dict() == saved
    assert all(np.array_equal(game.observe(seat), seen[seat]) for seat in range(2))
