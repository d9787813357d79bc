"""Helpers for the fuzz, bad-input and bench tests (test-only; not a test module).

* ``toy_spec()``: the toy Nim as a ``GameSpec`` whose parts live here and in ``toy_game``;
  ``use_toy_registry(monkeypatch)`` puts it into ``fiesta_envs.registry.GAMES`` (with
  ``monkeypatch``), so the generic tools can be tested without any real game. ``StrictNim`` is
  the toy with a state-dict validation the bad-input tests expect of every game.
* ``missing_part(spec)`` / ``game_class_or_skip(name)``: games are written in parallel; a game
  listed in the registry before its files land is skipped, not failed.
"""

from __future__ import annotations

import importlib

import pytest
from toy_game import Nim, TakeOne

from fiesta_envs.core.game import Game
from fiesta_envs.envs.aec import aec_env_classes
from fiesta_envs.registry import GAMES, GameSpec, register_environments


class StrictNim(Nim):
    """The toy Nim, validating every value of its state dict (the bad-input tests expect that)."""

    def _state_from_dict(self, data):
        winner = int(data["winner"])
        if not -1 <= winner < self.num_players:
            raise ValueError(f"winner {winner} is not a seat")
        super()._state_from_dict(data)


raw_env, env = aec_env_classes(StrictNim, "toy_nim_v0", module=__name__)
BASELINES = {"take_one": TakeOne}
TOY_NAME = "toy_nim"


def toy_spec() -> GameSpec:
    return GameSpec(
        TOY_NAME, "fiesta_envs/ToyNim-v0", "fuzz_support", "fuzz_support:StrictNim", "fuzz_support:BASELINES"
    )


def use_toy_registry(monkeypatch: pytest.MonkeyPatch, keep_real: bool = False) -> None:
    """Make the registry hold the toy Nim (only, unless ``keep_real``) and register its ids.

    The toy's Gymnasium/PettingZoo ids stay registered for the rest of the session (harmless:
    nothing else uses them); the ``GAMES`` table is restored after the test.
    """
    games = dict(GAMES) if keep_real else {}
    games[TOY_NAME] = toy_spec()
    monkeypatch.setattr("fiesta_envs.registry.GAMES", games)
    register_environments()


def missing_part(spec: GameSpec) -> str | None:
    """Which of the game's modules is not written yet (None when all import)."""
    for target in (spec.engine, spec.aec_module, spec.baselines):
        module_name = target.partition(":")[0]
        try:
            importlib.import_module(module_name)
        except ModuleNotFoundError as error:
            if error.name and module_name.startswith(error.name):
                return module_name
            raise
    return None


def game_class_or_skip(name: str) -> type[Game]:
    spec = GAMES[name]
    missing = missing_part(spec)
    if missing:
        pytest.skip(f"{name}: {missing} is not written yet")
    return spec.game_class()
