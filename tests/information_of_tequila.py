"""Tequila's information cases (``tests/test_information.py``), for every configuration.

The rounds are simultaneous ("Simultaneously, all players use the dice"): what another player did in
the current round is hidden until it ends, and so is a "first to" bonus first taken in it. Every sheet
as it stood at the start of the round is public (farm, fences, tracks, gears, jimador), and so is
everything that happened up to then. Each case starts from a seeded random game in round 3 where seat 0
has already played its round and seat 1 is in its main phase (solo: seat 0 in its main phase), then
changes one fact. The cases run at every configuration (``core.configurations``: 1-8 players, the side B
and dealt jimadores, cask tile B); with 4 or more players a seat further round the table is checked too,
and with side B jimadores the others' jimadores. Solo, nothing is hidden but the dice still to come.
"""

from __future__ import annotations

from typing import Any

from information_support import NOT_SHOWN, InformationCase, changed, labelled, other_chance, play_until

from fiesta_envs.core.configurations import configurations
from fiesta_envs.tequila import farm
from fiesta_envs.tequila.components import JIMADORES
from fiesta_envs.tequila.game import Tequila
from fiesta_envs.tequila.state import Phase

GAME = "tequila"
OTHER, OBSERVER = 0, 1
FAR = 3  # with 4 or more players: a seat two or more places from the observer
TEQUILA_BONUS_RED = 7 + 3  # "first to" bonus of the red tequila (after the 7 sections)


def _mid_round_state(num_players: int, options: dict[str, Any]) -> dict[str, Any]:
    """A game in round 3: seat 0 has played its round, seat 1 is in its main phase (solo: seat 0 is)."""
    observer = min(OBSERVER, num_players - 1)

    def there(game: Tequila) -> bool:
        return game.state.round == 3 and game.current_player == observer and game.decision == Phase.MAIN

    return play_until(Tequila, there, num_players=num_players, seeds=range(100), **options)


def _free_road_placement(sheet: dict[str, Any]) -> list[int]:
    """A road placement on a free space of a saved sheet (kind 0 = road)."""
    occupied = 0
    for _, index in sheet["buildings"]:
        occupied |= farm.PLACEMENTS[index].spaces
    roads = (i for i, p in enumerate(farm.PLACEMENTS) if p.kind == 0 and not p.spaces & occupied)
    return [0, next(roads)]


def _case(name: str, base: dict[str, Any], change, seat: int = OBSERVER) -> InformationCase:
    return InformationCase(
        name=labelled(name, Tequila, base), game=GAME, seat=seat, first=base, second=changed(base, change)
    )


def _bases() -> list[dict[str, Any]]:
    return [_mid_round_state(n, options) for n, options in configurations(Tequila, skip=NOT_SHOWN)]


def hidden_cases() -> list[InformationCase]:
    cases = []
    for base in _bases():
        cases.append(
            InformationCase(labelled("the dice still to come", Tequila, base), GAME, 0, base, other_chance(base))
        )
        if base["num_players"] > 1:
            cases.extend(_hidden_cases(base))
    return cases


def known_cases() -> list[InformationCase]:
    cases = []
    for base in _bases():
        cases.extend(_known_cases(base) if base["num_players"] > 1 else _solo_known_cases(base))
        if base["state"]["jimadores"][0] is not None:
            cases.extend(_jimador_cases(base))
    return cases


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

    def shown(field: str, value, seat: int = OTHER) -> Any:
        def change(state: dict[str, Any]) -> None:
            state["shown_sheets"][seat][field] = value(state["shown_sheets"][seat][field])

        return change

    def a_road_before_this_round(state: dict[str, Any]) -> None:
        sheet = state["shown_sheets"][OTHER]
        sheet["buildings"] = [*sheet["buildings"], _free_road_placement(sheet)]

    def a_bonus_taken_last_round(state: dict[str, Any]) -> None:
        state["bonus_round"][TEQUILA_BONUS_RED] = state["round"] - 1

    def my_own_coins(state: dict[str, Any]) -> None:
        state["sheets"][OBSERVER]["coins"] = (state["sheets"][OBSERVER]["coins"] + 1) % 15

    cases = [
        _case("another player's buildings at the start of the round", base, a_road_before_this_round),
        _case("another player's fences at the start of the round", base, shown("fences", lambda f: f ^ 1)),
        _case("another player's coins at the start of the round", base, shown("coins", lambda c: (c + 1) % 15)),
        _case("another player's unused gears", base, shown("gears_unused", lambda g: g + 1)),
        _case("another player's market at the start of the round", base, shown("market", lambda m: m ^ 1)),
        _case("another player's held resources", base, shown("marked", lambda m: [min(n + 1, 24) for n in m])),
        _case("a first-to bonus taken in an earlier round", base, a_bonus_taken_last_round),
        _case("my own sheet now", base, my_own_coins),
    ]
    if base["num_players"] >= 4:
        cases.append(
            _case("a far seat's fences at the start of the round", base, shown("fences", lambda f: f ^ 1, FAR))
        )
    return cases


def _solo_known_cases(base: dict[str, Any]) -> list[InformationCase]:
    def my_own_coins(state: dict[str, Any]) -> None:
        state["sheets"][0]["coins"] = (state["sheets"][0]["coins"] + 1) % 15

    def a_bonus_taken_last_round(state: dict[str, Any]) -> None:
        state["bonus_round"][TEQUILA_BONUS_RED] = state["round"] - 1

    def other_dice(state: dict[str, Any]) -> None:
        state["dice"] = [value % 6 + 1 for value in state["dice"]]

    return [
        _case("my own sheet now", base, my_own_coins, seat=0),
        _case("a first-to bonus taken in an earlier round", base, a_bonus_taken_last_round, seat=0),
        _case("the dice of this round", base, other_dice, seat=0),
    ]


def _jimador_cases(base: dict[str, Any]) -> list[InformationCase]:
    """Side B jimadores are public boards: another seat's (or, solo, my own) is shown."""
    seat = OTHER if base["num_players"] > 1 else 0

    def another_jimador(state: dict[str, Any]) -> None:
        jimadores = state["jimadores"]
        free = [j for j in JIMADORES if j not in jimadores]
        if free:
            jimadores[seat] = free[0]
        else:  # every board in play (4 players): seat 0 and seat 2 exchange theirs
            jimadores[seat], jimadores[2] = jimadores[2], jimadores[seat]

    return [_case("a jimador board", base, another_jimador, seat=min(OBSERVER, base["num_players"] - 1))]
