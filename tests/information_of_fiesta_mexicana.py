"""Fiesta Mexicana's information cases for ``tests/test_information.py``.

Hidden: the deck order, the others' objectives (dealt, kept, or given up by a reserve), the others' start
cards and how they oriented them before everybody has (oriented at once in the printed game), and a table
turn another player chose that is not applied yet (turned at once). Known: the tables, who bid what in the
auction, the objective hands shown at setup, my own start cards and my own table turn chosen.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import numpy as np
from information_support import InformationCase

from fiesta_envs.fiesta_mexicana.game import FiestaMexicana

GAME = "fiesta_mexicana"


def _play_until(num_players: int, stop: Callable[[FiestaMexicana], bool], variant: str = "standard") -> dict:
    """The state dict of the first seeded random game position where ``stop`` holds."""
    for seed in range(200):
        game = FiestaMexicana(num_players=num_players, seed=seed, variant=variant)
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


def _swap_with_deck(state: dict[str, Any], cards: list[int], index: int) -> None:
    """Exchange ``cards[index]`` with the top of the deck (the position stays a valid one)."""
    cards[index], state["deck"][-1] = state["deck"][-1], cards[index]


def _auction_with_two_bidders(game: FiestaMexicana) -> bool:
    return game.phase_name == "auction" and sum(bool(bids) for bids in game.bids) >= 2


def hidden_cases() -> list[InformationCase]:
    cases = []
    auction = _play_until(3, _auction_with_two_bidders)
    turn = auction["state"]["turn"]
    other = (turn + 1) % 3
    cases.append(InformationCase("deck order", GAME, turn, auction, _changed(auction, lambda s: s["deck"].reverse())))

    def give_other_objectives(state: dict[str, Any]) -> None:
        state["objectives"][other] = [(code + 1) % 18 if code >= 0 else -1 for code in state["objectives"][other]]

    cases.append(
        InformationCase("another seat's objectives", GAME, turn, auction, _changed(auction, give_other_objectives))
    )

    keeping = _play_until(3, lambda g: g.phase_name == "keep" and g.turn == 1, variant="confirmed_waiters")

    def swap_dealt_hands(state: dict[str, Any]) -> None:
        state["hands"][2] = [(code + 1) % 18 for code in state["hands"][2]]  # seat 2 keeps after seat 1

    cases.append(InformationCase("another seat's dealt hand", GAME, 1, keeping, _changed(keeping, swap_dealt_hands)))

    orienting = _play_until(3, lambda g: g.phase_name == "orient" and g.turn == 1)
    cases.append(
        InformationCase(
            "how another seat oriented its start cards",
            GAME,
            1,
            orienting,
            _changed(orienting, lambda s: s["rotations"][0].__setitem__(5, (s["rotations"][0][5] + 1) % 4)),
        )
    )
    cases.append(
        InformationCase(
            "another seat's start cards while orienting",
            GAME,
            1,
            orienting,
            _changed(orienting, lambda s: _swap_with_deck(s, s["start_cards"][2], 0)),
        )
    )

    turning = _play_until(3, lambda g: g.phase_name == "rotate" and len(g.rotation_queue) == 1)
    decided = next(seat for seat, chosen in enumerate(turning["state"]["turns_chosen"]) if chosen >= 0)
    waiting = turning["state"]["rotation_queue"][0]
    cases.append(
        InformationCase(
            "a table turn another seat chose, not applied yet",
            GAME,
            waiting,
            turning,
            _changed(turning, lambda s: s["turns_chosen"].__setitem__(decided, (s["turns_chosen"][decided] + 1) % 3)),
        )
    )
    return cases


def known_cases() -> list[InformationCase]:
    cases = []
    auction = _play_until(3, _auction_with_two_bidders)
    turn = auction["state"]["turn"]
    state = auction["state"]
    low_bidder = next(seat for seat in range(3) if state["bids"][seat] and seat != state["high_bidder"])

    def forget_a_bid(changed: dict[str, Any]) -> None:
        changed["bids"][low_bidder] = changed["bids"][low_bidder][1:]

    cases.append(InformationCase("who bid what in this auction", GAME, turn, auction, _changed(auction, forget_a_bid)))
    placed = next(
        (seat, space)
        for seat in range(3)
        for space, card in enumerate(state["cards"][seat])
        if card >= 0 and seat != turn
    )
    cases.append(
        InformationCase(
            "a dish on another table",
            GAME,
            turn,
            auction,
            _changed(auction, lambda s: _swap_with_deck(s, s["cards"][placed[0]], placed[1])),
        )
    )

    shown = _play_until(2, lambda g: g.phase_name == "keep" and bool(g.shown_objectives), variant="confirmed_waiters")

    def show_another_hand(changed: dict[str, Any]) -> None:
        changed["shown_objectives"][0][0] = (changed["shown_objectives"][0][0] + 1) % 18

    cases.append(
        InformationCase(
            "objective hands shown at setup", GAME, shown["state"]["turn"], shown, _changed(shown, show_another_hand)
        )
    )

    orienting = _play_until(3, lambda g: g.phase_name == "orient" and g.turn == 0 and g.orient_step == 0)
    cases.append(
        InformationCase(
            "my second start card while the first is oriented",
            GAME,
            0,
            orienting,
            _changed(orienting, lambda s: _swap_with_deck(s, s["start_cards"][0], 1)),
        )
    )
    cases.append(
        InformationCase(
            "my start cards while another seat orients",
            GAME,
            2,
            orienting,
            _changed(orienting, lambda s: _swap_with_deck(s, s["start_cards"][2], 0)),
        )
    )

    turning = _play_until(3, lambda g: g.phase_name == "rotate" and len(g.rotation_queue) == 1)
    decided = next(seat for seat, chosen in enumerate(turning["state"]["turns_chosen"]) if chosen >= 0)
    cases.append(
        InformationCase(
            "my own table turn, not applied yet",
            GAME,
            decided,
            turning,
            _changed(turning, lambda s: s["turns_chosen"].__setitem__(decided, (s["turns_chosen"][decided] + 1) % 3)),
        )
    )
    return cases
