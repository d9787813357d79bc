"""What each seat is shown: nothing it cannot know, everything it can.

Each game provides its cases in ``tests/information_of_<game>.py`` with two functions returning ``InformationCase``s:

- ``hidden_cases()``: two state dicts that differ only in what ``seat`` cannot know (another hand, the deck
  order, a choice made this round that is not yet revealed...). The seat's observations must be identical.
- ``known_cases()``: two state dicts that differ in something ``seat`` does know (a public card, a bid, what it
  saw happen between its decisions...). The seat's observations must differ.

Cases are built from real positions (play a seeded game, take ``state_dict()``, change one fact), so the
reader can check each against the rulebook.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import numpy as np
import pytest
from information_support import InformationCase

from fiesta_envs.registry import GAMES

PROVIDERS = sorted(path.stem for path in Path(__file__).parent.glob("information_of_*.py"))


def _cases(kind: str) -> list[InformationCase]:
    cases = []
    for provider in PROVIDERS:
        cases.extend(getattr(importlib.import_module(provider), kind)())
    return cases


def _observation(case: InformationCase, state: dict) -> np.ndarray:
    game = GAMES[case.game].game_class().from_state_dict(state)
    return game.observe(case.seat)


@pytest.mark.parametrize("case", _cases("hidden_cases"), ids=lambda c: f"{c.game}: {c.name}")
def test_what_a_seat_cannot_know_does_not_change_its_observation(case):
    assert case.first != case.second, "the two positions must differ"
    assert np.array_equal(_observation(case, case.first), _observation(case, case.second))


@pytest.mark.parametrize("case", _cases("known_cases"), ids=lambda c: f"{c.game}: {c.name}")
def test_what_a_seat_knows_changes_its_observation(case):
    assert not np.array_equal(_observation(case, case.first), _observation(case, case.second))
