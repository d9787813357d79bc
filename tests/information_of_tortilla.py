"""Tortilla de Patatas's information cases for ``tests/test_information.py``.

Hidden, in both modes: the fridge order and the cards in another hand nobody saw taken from the door (with
4 players, a team-mate's too: team-mates have no channel); in ``observation`` mode also a covered card the
seat did not see played since its last decision (memory is the agent's job). Known: the top card of a pan;
in ``observation`` mode, a card another seat played since the seat's last decision (even when it was served or
covered since), a card taken from the door; with perfect memory (``information_state``), a covered card.

The hidden cards and the top card run at every configuration (``core.configurations``: 2 and 4 players, the
three menus, both observation modes, the action features), so the action features are checked too.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from information_support import NOT_SHOWN, InformationCase, changed, labelled, play_until

from fiesta_envs.core.configurations import configurations
from fiesta_envs.tortilla.components import CARD_TYPES
from fiesta_envs.tortilla.game import TortillaDePatatas
from fiesta_envs.tortilla.state import Phase

GAME = "tortilla_de_patatas"


def _play_until(stop: Callable[[TortillaDePatatas], bool], num_players: int = 2, **options: Any) -> dict:
    return play_until(TortillaDePatatas, stop, num_players=num_players, **options)


def _case(name: str, seat: int, first: dict, second: dict) -> InformationCase:
    return InformationCase(labelled(name, TortillaDePatatas, first), GAME, seat, first, second)


def _playing(game: TortillaDePatatas) -> bool:
    """A play decision after a few turns, with a card on some pan and one in another hand nobody knows."""
    seat = game.current_player
    others = [other for other in range(game.num_players) if other != seat]
    return (
        game.state.phase == Phase.PLAY
        and game.state.turn >= 4
        and any(map(len, game.state.pans))
        and all(
            any(held > known for held, known in zip(game.state.hands[other], game.state.known[other], strict=True))
            for other in others
        )
    )


@functools.cache
def _positions() -> list[dict]:
    """Per configuration, a play decision (``_playing``)."""
    return [_play_until(_playing, n, **options) for n, options in configurations(TortillaDePatatas, skip=NOT_SHOWN)]


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
    return game.state.phase == Phase.PLAY and any(
        e.kind == 0 and e.seat not in (seat, -1) for e in game.events_seen(seat)
    )


def _swap_unknown_hand_card(state: dict[str, Any], other: int) -> None:
    """Exchange a card of ``other``'s hand that nobody saw it take with a fridge card of another type."""
    hand = state["hands"][other]
    known = state["known"][other]
    index = next(i for i, card in enumerate(hand) if hand.count(card) > known.count(card))
    _swap_with_fridge(state, hand, index)
    state["hands"][other] = sorted(hand, key=CARD_TYPES.index)


def hidden_cases() -> list[InformationCase]:
    cases = []
    for playing in _positions():
        seat = playing["state"]["current"]
        n = playing["num_players"]
        cases.append(_case("fridge order", seat, playing, changed(playing, lambda s: s["deck"].reverse())))
        opponent = (seat + 1) % n
        cases.append(
            _case(
                "a card in another hand",
                seat,
                playing,
                changed(playing, lambda s, other=opponent: _swap_unknown_hand_card(s, other)),
            )
        )
        if n == 4:
            mate = (seat + 2) % n
            cases.append(
                _case(
                    "a card in my team-mate's hand",
                    seat,
                    playing,
                    changed(playing, lambda s, other=mate: _swap_unknown_hand_card(s, other)),
                )
            )
    # a covered card not seen since the last decision: the bottom of a pile of 4 or more (2 players: at most
    # 2 cards go onto a pan between two decisions of a seat, with a steal)
    covered = _play_until(
        lambda g: g.state.phase == Phase.PLAY and max(map(len, g.state.pans)) >= 4 and g.menu.name == "day",
        observation="observation",
    )
    cases.append(
        InformationCase(
            "observation: a covered card not seen since the last decision",
            GAME,
            covered["state"]["current"],
            covered,
            changed(covered, lambda s: _swap_with_fridge(s, _deep_pile(s), 0)),
        )
    )
    return cases


def _swap_top_card(state: dict[str, Any]) -> None:
    """Exchange the top card of the first pan holding cards with a fridge card of another type."""
    pile = next(pile for team in state["pans"] for pile in team if pile)
    _swap_with_fridge(state, pile, len(pile) - 1)


def known_cases() -> list[InformationCase]:
    cases = []
    for playing in _positions():
        cases.append(
            _case("the top card of a pan", playing["state"]["current"], playing, changed(playing, _swap_top_card))
        )
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
                changed(seen, play_another_card),
            )
        )
    door = _play_until(
        lambda g: g.state.phase == Phase.PLAY and any(e.kind == 3 for e in g.events_seen(g.current_player)),
        observation="observation",
    )
    seat = door["state"]["current"]

    def take_another_door_card(state: dict[str, Any]) -> None:
        event = next(e for e in state["events"][state["events_seen_from"][seat] :] if e["kind"] == "door")
        event["card"] = _other_card(event["card"])

    cases.append(
        InformationCase(
            "observation: a card taken from the fridge door", GAME, seat, door, changed(door, take_another_door_card)
        )
    )
    memory = _play_until(
        lambda g: g.state.phase == Phase.PLAY and max(map(len, g.state.pans)) >= 4 and g.menu.name == "day"
    )
    cases.append(
        InformationCase(
            "information_state: a covered card",
            GAME,
            memory["state"]["current"],
            memory,
            changed(memory, lambda s: _swap_with_fridge(s, _deep_pile(s), 0)),
        )
    )
    return cases
