"""Tortilla de Patatas: the engine contract (state dicts, determinism, masks, honest observations)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from tortilla_positions import position

from fiesta_envs.core.errors import IllegalActionError, InvalidStateError
from fiesta_envs.tortilla.components import CARD_TYPES
from fiesta_envs.tortilla.game import TortillaDePatatas
from fiesta_envs.tortilla.observation import INFORMATION_STATE_SIZE, observation_size, unseen_counts
from fiesta_envs.tortilla.state import Phase

CONFIGS = [(n, menu) for n in (2, 4) for menu in ("kids", "day", "gourmet")]


def random_moves(game: TortillaDePatatas, count: int, seed: int) -> list[int]:
    """Play up to ``count`` random legal actions; return them."""
    rng = np.random.default_rng(seed)
    moves = []
    while not game.is_over and len(moves) < count:
        legal = np.flatnonzero(game.legal_mask())
        action = int(legal[rng.integers(len(legal))])
        game.step(action)
        moves.append(action)
    return moves


def careful_game(num_players: int, menu: str, seed: int) -> TortillaDePatatas:
    """A game part-way through a careful self-play (long games with full pans)."""
    from fiesta_envs.tortilla.baselines import CarefulChef

    game = TortillaDePatatas(num_players=num_players, seed=seed, menu=menu)
    chefs = [CarefulChef(seed=seed + s) for s in range(num_players)]
    for _ in range(40):
        p = game.current_player
        game.step(chefs[p].act(game.observe(p), game.legal_mask(), game, p))
    return game


def check_invariants(game: TortillaDePatatas) -> None:
    num_players = game.num_players
    mask = game.legal_mask()
    assert mask.dtype == np.int8 and mask.shape == (54,) and mask.any()
    assert game.legal_mask() is mask  # cached
    for seat in range(num_players):
        obs = game.observe(seat)
        assert obs.dtype == np.float32 and obs.shape == (game.observation_size,)
        assert obs.min() >= 0.0 and obs.max() <= 1.0
    held = sum(sum(game.state.hands[s]) for s in range(num_players))
    on_table = sum(len(p) for p in game.state.pans) + sum(sum(d.counts) for d in game.state.served)
    assert held + on_table + game.deck_size + (game.state.door >= 0) == 62
    assert [list(c) for c in game.pan_counts] == [[p.count(t) for t in range(7)] for p in game.state.pans]
    in_hand = [sum(game.state.hands[s]) for s in range(num_players)]
    if game.state.phase == Phase.PLAY:
        assert in_hand[game.current_player] == 3 and not game.steal_options
    if game.state.phase in (Phase.AFTER, Phase.STEAL):
        assert in_hand[game.current_player] == 2
    if game.state.phase == Phase.STEAL:
        assert len(game.steal_options) >= 2


@pytest.mark.parametrize(("num_players", "menu"), CONFIGS)
def test_careful_games_keep_every_invariant(num_players: int, menu: str) -> None:
    from fiesta_envs.tortilla.baselines import CarefulChef

    for seed in range(4):
        game = TortillaDePatatas(num_players=num_players, seed=seed, menu=menu, observation="observation")
        chefs = [CarefulChef(seed=seed + s) for s in range(num_players)]
        while not game.is_over:
            check_invariants(game)
            p = game.current_player
            game.step(chefs[p].act(game.observe(p), game.legal_mask(), game, p))
        omelettes, scores = game.final_info()["omelettes"], game.team_scores()
        assert all(dish["perfect"] for dish in omelettes[:-1])  # a badly made one only to end a game it wins
        if omelettes:
            last = omelettes[-1]
            assert last["perfect"] or scores[last["team"]] > scores[1 - last["team"]]


@pytest.mark.parametrize(("num_players", "menu"), CONFIGS)
def test_random_games_keep_every_invariant(num_players: int, menu: str) -> None:
    for observation in ("information_state", "observation"):
        game = TortillaDePatatas(num_players=num_players, seed=1, menu=menu, observation=observation)
        for seed in range(15):
            game.reset(seed)
            while not game.is_over:
                check_invariants(game)
                random_moves(game, 1, seed)
            assert game.current_player == -1 and not game.legal_mask().any()
            assert game.returns().sum() == pytest.approx(0.0)
            assert (game.deck_size == 0 and game.state.door == -1) or not any(game.state.diners_left)


def test_observation_sizes() -> None:
    assert TortillaDePatatas().observation_size == INFORMATION_STATE_SIZE == 306
    assert TortillaDePatatas(observation="observation").observation_size == observation_size("observation") == 326
    assert TortillaDePatatas(4, observation="observation").observation_size == observation_size("observation", 4) == 542


@pytest.mark.parametrize(("num_players", "menu"), CONFIGS)
def test_state_dict_round_trip_mid_game_continues_identically(num_players: int, menu: str) -> None:
    game = careful_game(num_players, menu, seed=4)
    saved = json.loads(json.dumps(game.state_dict()))
    copy = TortillaDePatatas.from_state_dict(saved)
    assert copy.state_dict() == game.state_dict()
    moves = random_moves(game, 500, seed=9)
    for action in moves:
        copy.step(action)
    assert copy.state_dict() == game.state_dict()
    assert copy.is_over and copy.returns().tolist() == game.returns().tolist()


def test_round_trip_of_a_finished_game() -> None:
    game = TortillaDePatatas(num_players=4, seed=8, menu="kids")
    random_moves(game, 1000, seed=1)
    assert game.is_over
    copy = TortillaDePatatas.from_state_dict(json.loads(json.dumps(game.state_dict())))
    assert copy.state_dict() == game.state_dict() and copy.is_over and copy.current_player == -1
    assert copy.returns().tolist() == game.returns().tolist()


def test_round_trip_in_the_steal_and_setup_phases() -> None:
    game = position(hands=[["egg"] * 3, ["potato"] * 3], pans=[[[], [], []], [["egg"], [], ["egg"]]])
    game.play("play egg on 0")
    copy = TortillaDePatatas.from_state_dict(game.state_dict())
    assert copy.legal_action_names() == ["steal from theirs 0", "steal from theirs 2"]
    setup = TortillaDePatatas(seed=2, menu="gourmet")
    setup.step(setup.legal_actions()[0])
    assert TortillaDePatatas.from_state_dict(setup.state_dict()).legal_actions() == setup.legal_actions()


def test_same_seed_same_actions_same_game() -> None:
    a, b = TortillaDePatatas(seed=11), TortillaDePatatas(seed=11)
    assert a.state_dict() == b.state_dict()
    for action in random_moves(a, 1000, seed=3):
        b.step(action)
    assert a.state_dict() == b.state_dict()
    assert (
        TortillaDePatatas(seed=12).state_dict()["state"]["deck"]
        != TortillaDePatatas(seed=11).state_dict()["state"]["deck"]
    )


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda s: s.pop("deck"), "deck"),
        (lambda s: s["hands"][0].append("tomato"), "got 'tomato'"),
        (lambda s: s["hands"][0].append("potato"), "cards per type"),
        (lambda s: s["hands"].pop(), "'hands': expected a list of 2 entries"),
        (lambda s: s.update(phase="lunch"), "lunch"),
        (lambda s: s.update(current=5), r"'current': expected an int in \[0, 1\], got 5"),
        (lambda s: s.update(diners_left=[2, 2, 3]), r"'diners_left\[2\]': expected an int in \[0, 2\], got 3"),
        (lambda s: s.update(known=[["onion", "onion", "onion", "onion"], []]), "known to hold"),
        (lambda s: s.update(phase="steal", played_pan=0), "steal"),
        (lambda s: s.update(turn="3"), "'turn': expected an int, got '3'"),
    ],
)
def test_malformed_state_dicts_are_refused(edit: Callable[[dict[str, Any]], object], message: str) -> None:
    game = position(hands=[["egg"] * 3, ["potato"] * 3], known=[[], []])
    data = game.state_dict()
    edit(data["state"])
    with pytest.raises(InvalidStateError, match=message):
        TortillaDePatatas(seed=0).load_state_dict(data)


def test_kids_state_with_a_door_is_refused() -> None:
    data = position("kids").state_dict()
    data["state"]["deck"].pop(0)
    data["state"]["door"] = "potato"
    with pytest.raises(InvalidStateError, match="no fridge door"):
        TortillaDePatatas(menu="kids").load_state_dict(data)


# ---------------------------------------------------------------- honest observations
def hide_differently(game: TortillaDePatatas, viewer: int, seed: int) -> TortillaDePatatas:
    """The same game with the deck shuffled and the unknown cards of the viewer's opponents dealt anew."""
    data = game.state_dict()
    state = data["state"]
    rng = np.random.default_rng(seed)
    others = [s for s in range(game.num_players) if s != viewer]
    pool = list(state["deck"])
    unknown_hands = {}
    for seat in others:
        cards = list(state["hands"][seat])
        for card in state["known"][seat]:
            cards.remove(card)
        unknown_hands[seat] = len(cards)
        pool += cards
    pool = [pool[i] for i in rng.permutation(len(pool))]
    for seat in others:
        dealt = [pool.pop() for _ in range(unknown_hands[seat])]
        state["hands"][seat] = sorted(state["known"][seat] + dealt, key=CARD_TYPES.index)
    state["deck"] = pool
    return TortillaDePatatas.from_state_dict(data)


@pytest.mark.parametrize("observation", ["information_state", "observation"])
@pytest.mark.parametrize(("num_players", "menu"), [(2, "day"), (4, "gourmet"), (2, "kids")])
def test_hidden_cards_do_not_change_what_a_player_sees(observation: str, num_players: int, menu: str) -> None:
    changed_someone = False
    for seed in range(6):
        game = careful_game(num_players, menu, seed)
        data = game.state_dict()
        data["options"]["observation"] = observation
        game = TortillaDePatatas.from_state_dict(data)
        for viewer in range(num_players):
            other = hide_differently(game, viewer, seed=seed * 10 + viewer)
            assert other.state_dict()["state"]["deck"] != data["state"]["deck"]
            assert np.array_equal(game.observe(viewer), other.observe(viewer))
            for seat in range(num_players):
                if other.state.hands[seat] != game.state.hands[seat]:
                    changed_someone = True
                    # the seat whose hand changed does see it: the test can fail
                    assert not np.array_equal(game.observe(seat), other.observe(seat))
    assert changed_someone


@pytest.mark.parametrize("observation", ["information_state", "observation"])
@pytest.mark.parametrize(("num_players", "menu"), [(2, "gourmet"), (4, "day")])
def test_hidden_cards_stay_hidden_during_setup_and_the_first_turns(
    observation: str, num_players: int, menu: str
) -> None:
    """The five cards a chef is dealt (and later hands) never show in another seat's vector."""
    for moves in (0, 1, 3, 6, 12):
        game = TortillaDePatatas(num_players=num_players, seed=moves, menu=menu, observation=observation)
        random_moves(game, moves, seed=moves)
        for viewer in range(num_players):
            other = hide_differently(game, viewer, seed=moves + viewer)
            assert np.array_equal(game.observe(viewer), other.observe(viewer))
            changed = [s for s in range(num_players) if other.state.hands[s] != game.state.hands[s]]
            assert changed  # the test can fail: those seats do see their new hands
            assert all(not np.array_equal(game.observe(s), other.observe(s)) for s in changed)


def test_information_state_remembers_covered_cards_observation_does_not() -> None:
    def table(bottom: str, mode: str) -> TortillaDePatatas:
        game = position(
            hands=[["egg"] * 3, ["potato"] * 3], pans=[[[bottom, "potato", "potato", "potato"], [], []], [[], [], []]]
        )
        data = game.state_dict()
        data["options"]["observation"] = mode
        return TortillaDePatatas.from_state_dict(data)

    for seat in (0, 1):
        a, b = table("egg", "observation"), table("onion", "observation")
        assert np.array_equal(a.observe(seat), b.observe(seat))
        a, b = table("egg", "information_state"), table("onion", "information_state")
        assert not np.array_equal(a.observe(seat), b.observe(seat))


def test_observation_shows_only_the_top_card_of_a_pile() -> None:
    """The rulebook: once a card is covered "you can no longer look at the ingredients beneath it"."""

    def table(pile: list[str], mode: str) -> TortillaDePatatas:
        game = position(hands=[["egg"] * 3, ["potato"] * 3], pans=[[pile, [], []], [[], [], []]])
        data = game.state_dict()
        data["options"]["observation"] = mode
        return TortillaDePatatas.from_state_dict(data)

    second_differs = (["potato", "egg", "onion"], ["potato", "potato", "onion"])
    top_differs = (["potato", "egg", "onion"], ["potato", "egg", "egg"])
    for seat in (0, 1):
        a, b = (table(pile, "observation") for pile in second_differs)
        assert np.array_equal(a.observe(seat), b.observe(seat))
        a, b = (table(pile, "observation") for pile in top_differs)
        assert not np.array_equal(a.observe(seat), b.observe(seat))
        a, b = (table(pile, "information_state") for pile in second_differs)
        assert not np.array_equal(a.observe(seat), b.observe(seat))


def test_information_state_counts_the_cards_not_yet_seen() -> None:
    """Unseen = all 62 minus own hand, pans, served omelettes, the door and door cards others took."""
    game = position(
        hands=[["egg", "egg", "onion"], ["potato", "potato", "egg+onion"]],
        pans=[[["potato", "egg"], [], []], [["onion"], [], []]],
        served=[{"seat": 1, "size": "M", "diners": 1, "cards": ["potato", "potato+egg"]}],
        diners_left=(1, 2, 2),
        known=[[], ["egg+onion"]],
        door="potato",
    )
    totals = (26, 15, 11, 3, 2, 2, 3)
    unseen_by_0 = [t - s for t, s in zip(totals, (3, 3, 2, 1, 0, 1, 0), strict=True)]
    assert unseen_counts(game, 0) == unseen_by_0
    assert game.observe(0)[-7:].tolist() == pytest.approx([u / t for u, t in zip(unseen_by_0, totals, strict=True)])
    unseen_by_1 = [t - s for t, s in zip(totals, (5, 1, 1, 1, 0, 1, 0), strict=True)]
    assert unseen_counts(game, 1) == unseen_by_1


def test_cards_taken_from_the_door_are_known_to_everyone() -> None:
    game = position(hands=[["egg"] * 3, ["potato"] * 3], door="onion", deck_top=["egg"])
    before = game.observe(1)
    game.play("play egg on 0", "draw door")
    after = game.observe(1)
    known_block = slice(306 - 7 - 21, 306 - 7)
    assert before[known_block].sum() == 0
    assert after[known_block][:7].tolist() == pytest.approx([0, 0, 1 / 3, 0, 0, 0, 0])


def test_pans_are_listed_from_the_observers_side() -> None:
    game = position(hands=[["egg"] * 3, ["potato"] * 3], pans=[[["egg"], [], []], [["onion"], [], []]])
    header = 38
    top_of_first_pan = slice(header + 1, header + 8)
    assert game.observe(0)[top_of_first_pan].tolist() == [0, 1, 0, 0, 0, 0, 0]
    assert game.observe(1)[top_of_first_pan].tolist() == [0, 0, 1, 0, 0, 0, 0]


# ---------------------------------------------------------------- names, text, info
def test_action_names_round_trip_and_illegal_messages() -> None:
    game = TortillaDePatatas(seed=0)
    for index, name in enumerate(game.action_names()):
        assert game.string_to_action(name) == index
    with pytest.raises(IllegalActionError, match="did you mean"):
        game.string_to_action("play potatoe on 0")
    game = position(hands=[["egg"] * 3, ["potato"] * 3])
    with pytest.raises(IllegalActionError, match=r"'play onion on 0' \(action 6\): you hold no onion"):
        game.play("play onion on 0")
    with pytest.raises(IllegalActionError, match="no steal to resolve"):
        game.play("steal from theirs 0")


def test_render_text_shows_the_public_table() -> None:
    game = position(hands=[["egg"] * 3, ["potato"] * 3], pans=[[["onion", "egg"], [], []], [[], [], []]])
    text = game.render_text()
    assert "Day's menu" in text and "egg on top, 2 card(s)" in text and "door: potato" in text
    assert "onion" not in text.split("pan 0:")[1].split("\n")[0]  # covered cards are not shown
    assert max(len(line) for line in text.splitlines()) <= 100


def test_final_info_lists_every_omelette_with_its_verdict() -> None:
    game = position(
        "kids",
        hands=[["egg"] * 3] * 2,
        deck=["onion"],
        pans=[[["potato"] * 3 + ["egg", "egg", "onion"], [], []], [[], [], []]],
    )
    game.play("serve 0 M with 3", "play egg on 1")
    info = game.final_info()
    assert info["team_scores"] == [3, 0]
    assert info["omelettes"] == [
        {
            "team": 0,
            "seat": 0,
            "size": "M",
            "diners": 3,
            "perfect": True,
            "points": 3,
            "cards": ["potato", "potato", "potato", "egg", "egg", "onion"],
        }
    ]
    json.dumps(info)
