"""Tequila's information cases (``tests/test_information.py``).

The rounds are simultaneous ("Simultaneously, all players use the dice"): what another player did in
the current round is hidden until it ends, and so is a "first to" bonus first taken in it. Every sheet
as it stood at the start of the round is public (farm, fences, tracks, gears), and so is everything
that happened up to then. Each case starts from a seeded random game of 2, 3 and 4 players in round 3 where seat 0 has
already played its round and seat 1 is in its main phase, then changes one fact.
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
from information_support import InformationCase

from fiesta_envs.tequila import farm
from fiesta_envs.tequila.game import Tequila
from fiesta_envs.tequila.state import Phase

GAME = "tequila"
OTHER, OBSERVER = 0, 1
TEQUILA_BONUS_RED = 7 + 3  # "first to" bonus of the red tequila (after the 7 sections)


#: The player counts the cases are built for (the 5-8 player variant changes the components, not the round).
PLAYER_COUNTS = (2, 3, 4)


def _mid_round_state(num_players: int) -> dict[str, Any]:
    """A game in round 3: seat 0 has played its round, seat 1 is in its main phase."""
    for seed in range(100):
        game = Tequila(num_players, seed=seed)
        moves = np.random.default_rng(seed)
        while not game.is_over:
            if game.round == 3 and game.current_player == OBSERVER and game.decision == Phase.MAIN:
                return game.state_dict()
            legal = game.legal_actions()
            game.step(legal[int(moves.integers(len(legal)))])
    raise AssertionError("no seeded game reached round 3 with seat 1 in its main phase")


def _changed(base: dict[str, Any], change) -> dict[str, Any]:
    data = copy.deepcopy(base)
    change(data["state"])
    return data


def _free_road_placement(sheet: dict[str, Any]) -> list[int]:
    """A road placement on a free space of a saved sheet (kind 0 = road)."""
    occupied = 0
    for _, index in sheet["buildings"]:
        occupied |= farm.PLACEMENTS[index].spaces
    roads = (i for i, p in enumerate(farm.PLACEMENTS) if p.kind == 0 and not p.spaces & occupied)
    return [0, next(roads)]


def _case(name: str, base: dict[str, Any], change) -> InformationCase:
    name = f"{name} ({base['num_players']} players)"
    return InformationCase(name=name, game=GAME, seat=OBSERVER, first=base, second=_changed(base, change))


def hidden_cases() -> list[InformationCase]:
    return [case for n in PLAYER_COUNTS for case in _hidden_cases(_mid_round_state(n))]


def known_cases() -> list[InformationCase]:
    return [case for n in PLAYER_COUNTS for case in _known_cases(_mid_round_state(n))]


def _hidden_cases(base: dict[str, Any]) -> list[InformationCase]:

    def more_coins_this_round(state: dict[str, Any]) -> None:
        sheet = state["sheets"][OTHER]
        sheet["coins"] = min(sheet["coins"] + 2, 15)
        sheet["coins_earned"] += 2

    def a_road_this_round(state: dict[str, Any]) -> None:
        sheet = state["sheets"][OTHER]
        sheet["buildings"] = [*sheet["buildings"], _free_road_placement(sheet)]

    def a_fence_this_round(state: dict[str, Any]) -> None:
        sheet = state["sheets"][OTHER]
        sheet["fences"] |= 1 << next(s for s in range(farm.NUM_SEGMENTS) if not sheet["fences"] >> s & 1)

    def gears_kept_this_round(state: dict[str, Any]) -> None:
        state["sheets"][OTHER]["gears_unused"] += 1

    def a_bonus_first_taken_this_round(state: dict[str, Any]) -> None:
        state["bonus_round"][TEQUILA_BONUS_RED] = state["round"]
        state["sheets"][OTHER]["bonuses"] |= 1 << TEQUILA_BONUS_RED

    def a_tequila_this_round(state: dict[str, Any]) -> None:
        state["sheets"][OTHER]["production"][3] = 1 - state["sheets"][OTHER]["production"][3] % 2

    return [
        _case("coins another player earned this round", base, more_coins_this_round),
        _case("a road another player drew this round", base, a_road_this_round),
        _case("a fence another player drew this round", base, a_fence_this_round),
        _case("gears another player left unused this round", base, gears_kept_this_round),
        _case("a first-to bonus another player took this round", base, a_bonus_first_taken_this_round),
        _case("tequila another player produced this round", base, a_tequila_this_round),
    ]


def _known_cases(base: dict[str, Any]) -> list[InformationCase]:

    def shown(field: str, value) -> Any:
        def change(state: dict[str, Any]) -> None:
            state["shown_sheets"][OTHER][field] = value(state["shown_sheets"][OTHER][field])

        return change

    def a_road_before_this_round(state: dict[str, Any]) -> None:
        sheet = state["shown_sheets"][OTHER]
        sheet["buildings"] = [*sheet["buildings"], _free_road_placement(sheet)]

    def a_bonus_taken_last_round(state: dict[str, Any]) -> None:
        state["bonus_round"][TEQUILA_BONUS_RED] = state["round"] - 1

    def my_own_coins(state: dict[str, Any]) -> None:
        state["sheets"][OBSERVER]["coins"] = (state["sheets"][OBSERVER]["coins"] + 1) % 15

    return [
        _case("another player's buildings at the start of the round", base, a_road_before_this_round),
        _case("another player's fences at the start of the round", base, shown("fences", lambda f: f ^ 1)),
        _case("another player's coins at the start of the round", base, shown("coins", lambda c: (c + 1) % 15)),
        _case("another player's unused gears", base, shown("gears_unused", lambda g: g + 1)),
        _case("another player's market at the start of the round", base, shown("market", lambda m: m ^ 1)),
        _case("another player's held resources", base, shown("marked", lambda m: [min(n + 1, 24) for n in m])),
        _case("a first-to bonus taken in an earlier round", base, a_bonus_taken_last_round),
        _case("my own sheet now", base, my_own_coins),
    ]
