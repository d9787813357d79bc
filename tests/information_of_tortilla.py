"""Tortilla de Patatas's information cases for ``tests/test_information.py``.

Hidden, in both modes: the fridge order and the cards in another hand nobody saw taken from the door;
in ``observation`` mode also a covered card the seat did not see played since its last decision (memory is
the agent's job). Known: in ``observation`` mode, a card another seat played since the seat's last decision
(even when it was served or covered since), a card taken from the door; with perfect memory
(``information_state``), a covered card.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import numpy as np
from information_support import InformationCase

from fiesta_envs.tortilla.components import CARD_TYPES
from fiesta_envs.tortilla.game import TortillaDePatatas

GAME = "tortilla_de_patatas"


def _play_until(stop: Callable[[TortillaDePatatas], bool], num_players: int = 2, **options: Any) -> dict:
    """The state dict of the first seeded random game position where ``stop`` holds."""
    for seed in range(300):
        game = TortillaDePatatas(num_players, seed=seed, **options)
        moves = np.random.default_rng(seed)
        while not game.is_over:
            if stop(game):
                return game.state_dict()
            legal = game.legal_actions()
            game.step(legal[int(moves.integers(len(legal)))])
    raise LookupError("no random game reached the position")


def _changed(data: dict, change: Callable[[dict[str, Any]], None]) -> dict:
    other = copy.deepcopy(data)
    change(other["state"])
    return other


def _other_card(name: str) -> str:
    return CARD_TYPES[(CARD_TYPES.index(name) + 1) % len(CARD_TYPES)]


def _swap_with_fridge(state: dict[str, Any], cards: list[str], index: int) -> None:
    """Exchange ``cards[index]`` with a fridge card of another type (the card counts stay right)."""
    other = next(i for i, card in enumerate(state["deck"]) if card != cards[index])
    cards[index], state["deck"][other] = state["deck"][other], cards[index]


def _deep_pile(state: dict[str, Any]) -> list[str]:
    return max((pile for team in state["pans"] for pile in team), key=len)


def _seen_a_play_by_another_seat(game: TortillaDePatatas) -> bool:
    seat = game.current_player
    return game.phase == "play" and any(e.kind == 0 and e.seat not in (seat, -1) for e in game.events_seen(seat))


def hidden_cases() -> list[InformationCase]:
    cases = []
    for mode in ("information_state", "observation"):
        playing = _play_until(lambda g: g.phase == "play" and g.turn >= 6, observation=mode)
        seat = playing["state"]["current"]
        other = 1 - seat
        cases.append(
            InformationCase(
                f"{mode}: fridge order", GAME, seat, playing, _changed(playing, lambda s: s["deck"].reverse())
            )
        )

        def swap_unknown_hand_card(state: dict[str, Any], other: int = other) -> None:
            hand = state["hands"][other]
            index = next(i for i, card in enumerate(hand) if card not in state["known"][other])
            _swap_with_fridge(state, hand, index)
            state["hands"][other] = sorted(hand, key=CARD_TYPES.index)

        cases.append(
            InformationCase(
                f"{mode}: a card in another hand", GAME, seat, playing, _changed(playing, swap_unknown_hand_card)
            )
        )
    # a covered card not seen since the last decision: the bottom of a pile of 4 or more (2 players: at most
    # 2 cards go onto a pan between two decisions of a seat, with a steal)
    covered = _play_until(
        lambda g: g.phase == "play" and max(map(len, g.pans)) >= 4 and g.menu.name == "day", observation="observation"
    )
    cases.append(
        InformationCase(
            "observation: a covered card not seen since the last decision",
            GAME,
            covered["state"]["current"],
            covered,
            _changed(covered, lambda s: _swap_with_fridge(s, _deep_pile(s), 0)),
        )
    )
    return cases


def known_cases() -> list[InformationCase]:
    cases = []
    for num_players in (2, 4):
        seen = _play_until(_seen_a_play_by_another_seat, num_players, observation="observation")
        seat = seen["state"]["current"]
        start = seen["state"]["events_seen_from"][seat]
        index = next(
            i
            for i, event in enumerate(seen["state"]["events"][start:], start)
            if event["kind"] == "play" and event["seat"] not in (seat, None)
        )

        def play_another_card(state: dict[str, Any], index: int = index) -> None:
            state["events"][index]["card"] = _other_card(state["events"][index]["card"])

        cases.append(
            InformationCase(
                f"observation, {num_players} players: a card another seat played since my last decision",
                GAME,
                seat,
                seen,
                _changed(seen, play_another_card),
            )
        )
    door = _play_until(
        lambda g: g.phase == "play" and any(e.kind == 3 for e in g.events_seen(g.current_player)),
        observation="observation",
    )
    seat = door["state"]["current"]

    def take_another_door_card(state: dict[str, Any]) -> None:
        event = next(e for e in state["events"][state["events_seen_from"][seat] :] if e["kind"] == "door")
        event["card"] = _other_card(event["card"])

    cases.append(
        InformationCase(
            "observation: a card taken from the fridge door", GAME, seat, door, _changed(door, take_another_door_card)
        )
    )
    memory = _play_until(lambda g: g.phase == "play" and max(map(len, g.pans)) >= 4 and g.menu.name == "day")
    cases.append(
        InformationCase(
            "information_state: a covered card",
            GAME,
            memory["state"]["current"],
            memory,
            _changed(memory, lambda s: _swap_with_fridge(s, _deep_pile(s), 0)),
        )
    )
    return cases
