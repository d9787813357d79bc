"""Tortilla de Patatas v1's observations: the documented blocks, and the events of the ``observation`` mode.

In ``observation`` mode (memory is the agent's job) each seat sees what happened on the table since its
last decision: a card an opponent plays and serves in the same turn, or covers before the seat decides
again, is shown in the ``events`` block.
"""

from __future__ import annotations

import importlib
import re

import gymnasium
import numpy as np
import pytest
from tortilla_positions import position

import fiesta_envs
import fiesta_envs.tortilla.observation as module
import fiesta_envs.tortilla_de_patatas_v1 as page
from fiesta_envs.tortilla.components import CARD_COUNTS, CARD_TYPE_INDEX, CARD_TYPES
from fiesta_envs.tortilla.game import TortillaDePatatas
from fiesta_envs.tortilla.observation import EVENT_SIZE
from fiesta_envs.tortilla.state import EventKind


def documented_blocks(mode: str, num_players: int) -> list[tuple[str, int]]:
    """(name, size) of the blocks the observation module's docstring lists for ``mode``, in order."""
    text = module.__doc__
    header = re.findall(r"^(\d+)\s+``(\w+)``", text, flags=re.MULTILINE)
    blocks = [(name, int(size)) for size, name in header]
    section = text[text.index(f"``{mode}`` (") :]
    section = section[: section.index("\n\n", section.index("then:") + 7)]
    for name, size in re.findall(r"^- ``(\w+)`` \(([^)]+)\)", section, flags=re.MULTILINE):
        blocks.append((name, eval(size.replace(" n", " * n").replace("x", "*"), {"n": num_players})))  # "4 n x 27"
    return blocks


@pytest.mark.parametrize("mode", ["information_state", "observation"])
@pytest.mark.parametrize("num_players", [2, 4])
def test_the_documented_blocks_are_the_code_blocks(mode, num_players):
    game = TortillaDePatatas(num_players, observation=mode)
    layout = [(name, size) for name, _, size in game.observer.layout.describe()]
    assert layout == documented_blocks(mode.replace("\\", ""), num_players)
    assert str(game.observation_size) in page.__doc__


def blocks_on_the_page(mode: str, num_players: int) -> list[tuple[str, int]]:
    """(name, size) of the blocks the game's page lists for ``mode``: the shared header, then the mode's own."""
    text = page.__doc__
    section = text[text.index("Observations (option") : text.index("Action features (option")]
    header, _, rest = section.partition('- ``"information_state"``')
    own = rest if mode == "information_state" else rest[rest.index('- ``"observation"``') :]
    own = own[: own.index("\n\n")] if mode == "observation" else own[: own.index('- ``"observation"``')]
    pattern = r"``(\w+)``\s+\[([^\]]+)\]"
    found = re.findall(pattern, header) + re.findall(pattern, own)
    return [(name, eval(size.replace(" n", " * n").replace("x", "*"), {"n": num_players})) for name, size in found]


@pytest.mark.parametrize("mode", ["information_state", "observation"])
@pytest.mark.parametrize("num_players", [2, 4])
def test_the_page_lists_the_code_blocks_in_order(mode, num_players):
    game = TortillaDePatatas(num_players, observation=mode)
    assert blocks_on_the_page(mode, num_players) == [(name, size) for name, _, size in game.observer.layout.describe()]


def one_hot(card: str | None) -> list[float]:
    return [float(card == name) for name in CARD_TYPES]


def counts(cards: list[str], scale: list[float] | float) -> list[float]:
    scales = scale if isinstance(scale, list) else [scale] * len(CARD_TYPES)
    return [cards.count(name) / scales[i] for i, name in enumerate(CARD_TYPES)]


TOTALS = [float(count) for count in CARD_COUNTS]
#: Seat 1 (chef B, team B) looks at a 4-player Day's-menu table while seat 3 (relative seat 2) is to play.
HANDS = [["potato", "egg", "onion"], ["potato", "potato", "egg+onion"], ["egg", "onion", "onion"], ["potato"] * 3]
PANS = [[["potato", "egg"], [], ["onion"]], [["egg"], ["potato", "egg+onion", "onion", "egg"], []]]
SERVED = [{"seat": 0, "size": "XL", "diners": 3, "cards": ["potato", "egg", "potato"]}]


def decoded_table(mode: str) -> tuple[TortillaDePatatas, dict[str, np.ndarray]]:
    game = position(
        "day", 4, hands=HANDS, pans=PANS, door="potato", diners_left=(2, 2, 1), served=SERVED,
        known=[[], [], ["onion"], []], current=3, observation=mode,
    )  # fmt: skip
    return game, game.observer.decode(game.observe(1))


@pytest.mark.parametrize("mode", ["information_state", "observation"])
def test_every_header_block_decodes_to_the_table(mode):
    game, seen = decoded_table(mode)
    assert seen["phase"].tolist() == [0, 1, 0, 0]
    assert seen["menu"].tolist() == [0, 1, 0]
    assert seen["four_players"].tolist() == [1] and seen["chef"].tolist() == [1]
    assert seen["to_act"].tolist() == [0, 0, 1, 0]  # seat 3 is two seats after seat 1
    assert seen["served_this_turn"].tolist() == [0]
    assert seen["hand"].tolist() == pytest.approx(counts(HANDS[1], 5))
    assert seen["door"].tolist() == one_hot("potato")
    assert seen["fridge"].tolist() == pytest.approx([len(game.state_dict()["state"]["deck"]) / 62])
    assert seen["diners_left"].tolist() == pytest.approx([1, 1, 0.5])
    assert not seen["steal_choices"].any()


def test_every_block_of_the_observation_mode_decodes_to_the_table():
    _, seen = decoded_table("observation")
    pans = seen["pans"].reshape(6, 8)
    own_first = [*PANS[1], *PANS[0]]
    for row, pile in zip(pans, own_first, strict=True):  # height / 12, then the top card only
        assert row.tolist() == pytest.approx([len(pile) / 12, *one_hot(pile[-1] if pile else None)])
    served = seen["served"].reshape(6, 4)
    assert served[0].tolist() == pytest.approx([1, 0, 1, 1])  # present, not my team's, XL, 3 diners
    assert not served[1:].any()
    assert not seen["events"].any()  # nothing happened since the position was set


def test_every_block_of_the_information_state_mode_decodes_to_the_table():
    _, seen = decoded_table("information_state")
    pans = seen["pans"].reshape(6, 29)
    for row, pile in zip(pans, [*PANS[1], *PANS[0]], strict=True):  # height, top three cards top first, counts
        tops = [entry for k in range(3) for entry in one_hot(pile[-1 - k] if k < len(pile) else None)]
        assert row.tolist() == pytest.approx([len(pile) / 12, *tops, *counts(pile, TOTALS)])
    served = seen["served"].reshape(6, 11)
    assert served[0].tolist() == pytest.approx([1, 0, 1, 1, *counts(SERVED[0]["cards"], TOTALS)])
    assert not served[1:].any()
    known = seen["known_in_hands"].reshape(3, 7)  # seats 2, 3, 0 after seat 1
    assert known.ravel().tolist() == pytest.approx([*counts(["onion"], 3), *[0] * 14])
    seen_by_1 = [
        *HANDS[1],
        *(c for team in PANS for pile in team for c in pile),
        *SERVED[0]["cards"],
        "potato",
        "onion",
    ]
    unseen = [(total - seen_by_1.count(name)) / total for name, total in zip(CARD_TYPES, CARD_COUNTS, strict=True)]
    assert seen["unseen"].tolist() == pytest.approx(unseen)


def test_the_old_names_fail_naming_v1():
    assert fiesta_envs  # registers the ids
    retired = importlib.import_module("fiesta_envs.tortilla_de_patatas_v0")
    for make in (retired.env, retired.raw_env):
        with pytest.raises(ImportError, match="tortilla_de_patatas_v1"):  # PettingZoo's DeprecatedEnv
            make()
    with pytest.raises(gymnasium.error.DeprecatedEnv, match="TortillaDePatatas-v1"):
        gymnasium.make("fiesta_envs/TortillaDePatatas-v0")


def events_seen(game: TortillaDePatatas, seat: int) -> list[dict]:
    """The events block of ``seat``'s observation, decoded: kind, relative seat, pan, card, source."""
    entries = game.observer.decode(game.observe(seat))["events"].reshape(-1, EVENT_SIZE)
    decoded = []
    for row in entries:
        if not row[:4].any():
            continue
        pick = lambda part: int(part.argmax()) if part.any() else None  # noqa: E731
        decoded.append(
            {
                "kind": EventKind(int(row[:4].argmax())).name.lower(),
                "seat": pick(row[4:8]),
                "pan": pick(row[8:14]),
                "card": pick(row[14:21]),
                "from": pick(row[21:27]),
            }
        )
    return decoded


def test_a_card_played_and_served_between_two_decisions_is_seen():
    hands = [["potato", "potato", "onion"], ["egg", "onion", "potato"]]
    game = position("day", 2, hands=hands, pans=[[[], [], []], [["potato"], [], []]], observation="observation")
    game.play("play onion on 1", "draw deck")  # seat 0's turn
    game.play("play egg on 0", "serve 0 M with 1", "draw deck")  # seat 1 plays an egg and serves it at once
    assert not any(game.state.pans[3])  # the egg is gone from the table: only the events show it
    seen = events_seen(game, 0)
    assert seen == [  # since its last decision, the draw (a draw from the fridge shows nothing)
        {"kind": "play", "seat": 1, "pan": 3, "card": CARD_TYPE_INDEX["egg"], "from": None},  # their pan 0
        {"kind": "serve", "seat": 1, "pan": 3, "card": None, "from": None},
    ]
    game.play("play potato on 0")  # seat 0 decides: its events start afresh, its own decision first
    assert events_seen(game, 0) == [{"kind": "play", "seat": 0, "pan": 0, "card": 0, "from": None}]
    assert len(events_seen(game, 1)) == 1  # seat 0's play, since seat 1's draw


def test_a_card_covered_before_the_next_decision_is_seen_with_four_players():
    hands = [["potato"] * 3, ["egg", "potato", "potato"], ["potato"] * 3, ["onion", "potato", "potato"]]
    game = position("kids", 4, hands=hands, observation="observation")
    game.play("play potato on 0", "draw deck", "play egg on 0")  # seat 1: an egg on team B's pan 0
    game.play("draw deck", "play potato on 1", "draw deck", "play onion on 0")  # seat 3 covers it
    cards = [(event["seat"], event["card"]) for event in events_seen(game, 0) if event["kind"] == "play"]
    assert (1, CARD_TYPE_INDEX["egg"]) in cards and (3, CARD_TYPE_INDEX["onion"]) in cards
    assert game.state.pans[3][-1] == CARD_TYPE_INDEX["onion"]


def test_a_door_card_taken_and_a_steal_are_events():
    hands = [["egg", "potato", "onion"], ["egg", "onion", "potato"]]
    game = position(
        "day", 2, hands=hands, pans=[[[], [], []], [["egg"], [], []]], door="onion", observation="observation"
    )
    game.play("play egg on 0", "draw door")  # the egg steals team B's egg; seat 0 takes the onion from the door
    seen = events_seen(game, 1)
    assert {"kind": "steal", "seat": 1, "pan": 3, "card": CARD_TYPE_INDEX["egg"], "from": 0} in seen  # seen by seat 1
    assert {"kind": "door", "seat": 1, "pan": None, "card": CARD_TYPE_INDEX["onion"], "from": None} in seen


@pytest.mark.parametrize("num_players", [2, 4])
@pytest.mark.parametrize("menu", ["kids", "day"])
def test_events_never_outnumber_their_slots(num_players, menu):
    for seed in range(30):
        game = TortillaDePatatas(num_players, seed=seed, menu=menu, observation="observation")
        moves = np.random.default_rng(seed)
        while not game.is_over:
            slots = game.observer.layout.describe()[-1][2] // EVENT_SIZE
            assert all(len(game.events_seen(seat)) <= slots for seat in range(num_players))
            legal = game.legal_actions()
            game.step(legal[int(moves.integers(len(legal)))])


def test_the_events_round_trip_through_a_state_dict():
    game = TortillaDePatatas(4, seed=3, observation="observation")
    moves = np.random.default_rng(3)
    for _ in range(30):
        if game.is_over:
            break
        legal = game.legal_actions()
        game.step(legal[int(moves.integers(len(legal)))])
    copy = TortillaDePatatas.from_state_dict(game.state_dict())
    for seat in range(4):
        assert list(copy.events_seen(seat)) == list(game.events_seen(seat))
        assert np.array_equal(copy.observe(seat), game.observe(seat))
