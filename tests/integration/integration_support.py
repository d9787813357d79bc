"""What the integration tests share: every registered game, its environments, random legal choices.

The tests themselves are marked ``integration`` and run in their own virtualenv (``bash
scripts/integration_test.sh``), where TorchRL, Tianshou, RLlib and stable-baselines3 are installed. Every
environment is made with ``illegal_action="raise"``, so an action a library picked against the mask fails the
test instead of quietly ending the game.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from fiesta_envs.registry import GAMES

#: Every game of the registry (engine names).
GAME_NAMES = list(GAMES)

#: The games that also have PettingZoo's Parallel API.
PARALLEL_GAMES = [name for name, spec in GAMES.items() if spec.parallel]

#: A random game longer than this many actions is a bug (the longest take a few thousand).
MAX_STEPS = 20_000


def public_module(game: str) -> ModuleType:
    """``fiesta_envs.<game>_v1``: ``env()``, ``raw_env`` and (simultaneous games) ``parallel_env()``."""
    return importlib.import_module(GAMES[game].aec_module)


def aec_env(game: str, **settings: Any):
    """The game's PettingZoo AEC environment (wrapped as ``env()`` makes it), refusing illegal actions."""
    return public_module(game).env(**{"illegal_action": "raise", **settings})


def parallel_env(game: str, **settings: Any):
    return public_module(game).parallel_env(**{"illegal_action": "raise", **settings})


def gym_id(game: str) -> str:
    return GAMES[game].gym_id


def legal_choice(mask: Any, rng: np.random.Generator) -> int:
    """A uniformly random legal action of an action mask (any array-like of 0/1 or booleans)."""
    legal = np.flatnonzero(np.asarray(mask))
    assert legal.size, "a mask without a legal action was offered for a decision"
    return int(rng.choice(legal))


def games() -> Any:
    """The parametrisation over every game."""
    return pytest.mark.parametrize("game", GAME_NAMES)
