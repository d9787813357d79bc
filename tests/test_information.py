"""What each seat is shown: nothing it cannot know, everything it can.

Each game provides its cases in ``tests/information_of_<game>.py`` with two functions returning ``InformationCase``s:

- ``hidden_cases()``: two state dicts that differ only in what ``seat`` cannot know (another hand, the deck
  order, a choice made this round that is not yet revealed...). The seat's observations must be identical.
- ``known_cases()``: two state dicts that differ in something ``seat`` does know (a public card, a bid, what it
  saw happen between its decisions...). The seat's observations must differ.

Cases are built from real positions (play a seeded game, take ``state_dict()``, change one fact), so the
reader can check each against the rulebook. Every configuration of every game (``core.configurations``: each
player count, each non-default choice of each option that can change what is shown, at every player count)
has at least one case of each kind: a new configuration without cases fails
``test_every_configuration_has_cases_of_both_kinds``.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import numpy as np
import pytest
from information_support import NOT_SHOWN, InformationCase, configuration_of

from fiesta_envs.core.configurations import configurations
from fiesta_envs.registry import GAMES

PROVIDERS = sorted(path.stem for path in Path(__file__).parent.glob("information_of_*.py"))


KINDS = ("hidden_cases", "known_cases")


def _cases(kind: str) -> list[InformationCase]:
    cases = []
    for provider in PROVIDERS:
        cases.extend(getattr(importlib.import_module(provider), kind)())
    return cases


CASES = {kind: _cases(kind) for kind in KINDS}


def _observation(case: InformationCase, state: dict) -> np.ndarray:
    game = GAMES[case.game].game_class().from_state_dict(state)
    return game.observe(case.seat)


@pytest.mark.parametrize("case", CASES["hidden_cases"], ids=lambda c: f"{c.game}: {c.name}")
def test_what_a_seat_cannot_know_does_not_change_its_observation(case):
    assert case.first != case.second, "the two positions must differ"
    assert np.array_equal(_observation(case, case.first), _observation(case, case.second))


@pytest.mark.parametrize("case", CASES["known_cases"], ids=lambda c: f"{c.game}: {c.name}")
def test_what_a_seat_knows_changes_its_observation(case):
    assert not np.array_equal(_observation(case, case.first), _observation(case, case.second))


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_configuration_has_cases_of_both_kinds(game):
    game_class = GAMES[game].game_class()
    covered = {
        kind: [configuration_of(game_class, case.first) for case in CASES[kind] if case.game == game] for kind in KINDS
    }
    missing = [
        f"{num_players} players {options or 'defaults'}: no {kind}"
        for num_players, options in configurations(game_class, skip=NOT_SHOWN)
        for kind in KINDS
        if (num_players, options) not in covered[kind]
    ]
    assert not missing, f"{game}: configurations without information cases: {missing}"


def test_each_pair_is_one_configuration():
    for case in (*CASES["hidden_cases"], *CASES["known_cases"]):
        game_class = GAMES[case.game].game_class()
        first, second = (configuration_of(game_class, data) for data in (case.first, case.second))
        assert first == second, f"{case.game}: {case.name}: the two positions are of different configurations"
