"""Fiesta Mexicana's information cases for ``tests/test_information.py``.

Hidden: the deck order, the others' objectives (dealt, kept, or given up by a reserve), the others' start
cards and how they oriented them before everybody has (oriented at once in the printed game), and a table
turn another player chose that is not applied yet (turned at once). Known: the tables, who bid what in the
auction, the objective hands shown at setup, my own start cards and my own table turn chosen.

The auction cases run at every configuration (``core.configurations``: 2, 3 and 4 players, the action
features, the confirmed waiters variant), so the action features, too, are checked for what they reveal; the
setup and table-turn cases at the configurations where those steps exist.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from information_support import NOT_SHOWN, InformationCase, changed, labelled, play_until

from fiesta_envs.core.configurations import configurations
from fiesta_envs.fiesta_mexicana.game import FiestaMexicana

GAME = "fiesta_mexicana"


def _play_until(num_players: int, stop: Callable[[FiestaMexicana], bool], **options: Any) -> dict:
    return play_until(FiestaMexicana, stop, num_players=num_players, seeds=range(200), **options)


def _case(name: str, seat: int, first: dict, second: dict) -> InformationCase:
    return InformationCase(labelled(name, FiestaMexicana, first), GAME, seat, first, second)


@functools.cache
def _auctions() -> list[dict]:
    """Per configuration, an auction in which at least two seats have bid."""
    return [
        _play_until(n, _auction_with_two_bidders_and_a_dish_on_another_table, **options)
        for n, options in configurations(FiestaMexicana, skip=NOT_SHOWN)
    ]


def _swap_with_deck(state: dict[str, Any], cards: list[int], index: int) -> None:
    """Exchange ``cards[index]`` with the top of the deck (the position stays a valid one)."""
    cards[index], state["deck"][-1] = state["deck"][-1], cards[index]


def _auction_with_two_bidders(game: FiestaMexicana) -> bool:
    return game.phase_name == "auction" and sum(bool(bids) for bids in game.state.bids) >= 2


def _auction_with_two_bidders_and_a_dish_on_another_table(game: FiestaMexicana) -> bool:
    others = (seat for seat in range(game.num_players) if seat != game.state.turn)
    return _auction_with_two_bidders(game) and any(card >= 0 for seat in others for card in game.state.cards[seat])


def hidden_cases() -> list[InformationCase]:
    cases = []
    for auction in _auctions():
        turn = auction["state"]["turn"]
        n = auction["num_players"]
        other = next(
            seat
            for seat in ((turn + k) % n for k in range(1, n))
            if any(code >= 0 for code in auction["state"]["objectives"][seat])
        )

        def give_other_objectives(state: dict[str, Any], other: int = other) -> None:
            state["objectives"][other] = [(code + 1) % 18 if code >= 0 else -1 for code in state["objectives"][other]]

        cases.append(_case("deck order", turn, auction, changed(auction, lambda s: s["deck"].reverse())))
        cases.append(_case("another seat's objectives", turn, auction, changed(auction, give_other_objectives)))

    keeping = _play_until(3, lambda g: g.phase_name == "keep" and g.state.turn == 1, variant="confirmed_waiters")

    def swap_dealt_hands(state: dict[str, Any]) -> None:
        state["hands"][2] = [(code + 1) % 18 for code in state["hands"][2]]  # seat 2 keeps after seat 1

    cases.append(InformationCase("another seat's dealt hand", GAME, 1, keeping, changed(keeping, swap_dealt_hands)))

    orienting = _play_until(3, lambda g: g.phase_name == "orient" and g.state.turn == 1)
    cases.append(
        InformationCase(
            "how another seat oriented its start cards",
            GAME,
            1,
            orienting,
            changed(orienting, lambda s: s["rotations"][0].__setitem__(5, (s["rotations"][0][5] + 1) % 4)),
        )
    )
    cases.append(
        InformationCase(
            "another seat's start cards while orienting",
            GAME,
            1,
            orienting,
            changed(orienting, lambda s: _swap_with_deck(s, s["start_cards"][2], 0)),
        )
    )

    turning = _play_until(3, lambda g: g.phase_name == "rotate" and len(g.state.rotation_queue) == 1)
    decided = next(seat for seat, chosen in enumerate(turning["state"]["turns_chosen"]) if chosen >= 0)
    waiting = turning["state"]["rotation_queue"][0]
    cases.append(
        InformationCase(
            "a table turn another seat chose, not applied yet",
            GAME,
            waiting,
            turning,
            changed(turning, lambda s: s["turns_chosen"].__setitem__(decided, (s["turns_chosen"][decided] + 1) % 3)),
        )
    )
    return cases


def known_cases() -> list[InformationCase]:
    cases = []
    for auction in _auctions():
        cases.extend(_auction_known_cases(auction))

    shown = _play_until(
        2, lambda g: g.phase_name == "keep" and bool(g.state.shown_objectives), variant="confirmed_waiters"
    )

    def show_another_hand(changed: dict[str, Any]) -> None:
        changed["shown_objectives"][0][0] = (changed["shown_objectives"][0][0] + 1) % 18

    cases.append(
        InformationCase(
            "objective hands shown at setup", GAME, shown["state"]["turn"], shown, changed(shown, show_another_hand)
        )
    )

    orienting = _play_until(3, lambda g: g.phase_name == "orient" and g.state.turn == 0 and g.state.orient_step == 0)
    cases.append(
        InformationCase(
            "my second start card while the first is oriented",
            GAME,
            0,
            orienting,
            changed(orienting, lambda s: _swap_with_deck(s, s["start_cards"][0], 1)),
        )
    )
    cases.append(
        InformationCase(
            "my start cards while another seat orients",
            GAME,
            2,
            orienting,
            changed(orienting, lambda s: _swap_with_deck(s, s["start_cards"][2], 0)),
        )
    )

    turning = _play_until(3, lambda g: g.phase_name == "rotate" and len(g.state.rotation_queue) == 1)
    decided = next(seat for seat, chosen in enumerate(turning["state"]["turns_chosen"]) if chosen >= 0)
    cases.append(
        InformationCase(
            "my own table turn, not applied yet",
            GAME,
            decided,
            turning,
            changed(turning, lambda s: s["turns_chosen"].__setitem__(decided, (s["turns_chosen"][decided] + 1) % 3)),
        )
    )
    return cases


def _auction_known_cases(auction: dict) -> list[InformationCase]:
    """Who bid what in this auction, and a dish on another table (both public)."""
    turn = auction["state"]["turn"]
    state = auction["state"]
    seats = range(auction["num_players"])
    low_bidder = next(seat for seat in seats if state["bids"][seat] and seat != state["high_bidder"])

    def forget_a_bid(changed: dict[str, Any]) -> None:
        changed["bids"][low_bidder] = changed["bids"][low_bidder][1:]

    placed = next(
        (seat, space) for seat in seats for space, card in enumerate(state["cards"][seat]) if card >= 0 and seat != turn
    )
    return [
        _case("who bid what in this auction", turn, auction, changed(auction, forget_a_bid)),
        _case(
            "a dish on another table",
            turn,
            auction,
            changed(auction, lambda s: _swap_with_deck(s, s["cards"][placed[0]], placed[1])),
        ),
    ]
