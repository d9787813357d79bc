"""Toy games registered only for the evaluation tests, so they never wait for a real game.

* ``toy_nim``: the core's last-stone Nim (tests/toy_game.py) for 2-4 players, with baselines
  ``take_one`` and ``optimal`` (leaves a multiple of 4 stones when it can).
* ``toy_team``: a cooperative Nim: the team scores the number of turns it took to empty the
  pile, so patient teams (``take_one``) score more than hasty ones (``take_three``).
* ``toy_solo``: the same for one player alone (a competitive game with one seat).

``register_toys(monkeypatch)`` puts both into ``fiesta_envs.registry.GAMES`` for one test.
The specs name this module by its import name, so worker processes find it too (tests/ is
on ``sys.path`` there as well).
"""

from __future__ import annotations

import numpy as np
import pytest
from toy_game import Nim, TakeOne

from fiesta_envs.core.game import Game
from fiesta_envs.policies.policy import Policy
from fiesta_envs.registry import GameSpec


class ToyNim(Nim):
    player_counts = (2, 3, 4)


class Optimal(Policy):
    """Takes ``pile % 4`` stones when that is legal and not zero, else a random legal number."""

    def act(self, observation: np.ndarray, action_mask: np.ndarray, game: Game, player: int) -> int:
        take = game.pile % 4
        if 1 <= take <= len(action_mask) and action_mask[take - 1]:
            return take - 1
        legal = np.flatnonzero(action_mask)
        return int(legal[self.rng.integers(len(legal))])


class TakeThree(Policy):
    def act(self, observation: np.ndarray, action_mask: np.ndarray, game: Game, player: int) -> int:
        return int(np.flatnonzero(action_mask)[-1])


class TeamNim(ToyNim):
    """Cooperative: everyone scores the number of turns the team took to empty the pile."""

    name = "toy_team"
    cooperative = True

    def _new_game(self) -> None:
        super()._new_game()
        self.turns = 0

    def _apply(self, action: int) -> None:
        self.turns += 1
        super()._apply(action)

    def scores(self) -> np.ndarray:
        return np.full(self.num_players, float(self.turns) if self.is_over else 0.0)

    def returns(self) -> np.ndarray:
        return self.scores() / 12.0

    def _state_to_dict(self) -> dict:
        return {**super()._state_to_dict(), "turns": self.turns}

    def _state_from_dict(self, data: dict) -> None:
        super()._state_from_dict(data)
        self.turns = int(data["turns"])


class SoloNim(TeamNim):
    """One player alone scores the number of turns it took to empty the pile (not cooperative)."""

    name = "toy_solo"
    cooperative = False
    player_counts = (1,)
    default_players = 1


NIM_BASELINES = {"take_one": TakeOne, "optimal": Optimal}
TEAM_BASELINES = {"take_one": TakeOne, "take_three": TakeThree}

TOY_SPECS = {
    "toy_nim": GameSpec(
        "toy_nim",
        "fiesta_envs/ToyNim-v0",
        "toy_game",
        "evaluation_toys:ToyNim",
        "evaluation_toys:NIM_BASELINES",
    ),
    "toy_team": GameSpec(
        "toy_team",
        "fiesta_envs/ToyTeam-v0",
        "toy_game",
        "evaluation_toys:TeamNim",
        "evaluation_toys:TEAM_BASELINES",
    ),
    "toy_solo": GameSpec(
        "toy_solo",
        "fiesta_envs/ToySolo-v0",
        "toy_game",
        "evaluation_toys:SoloNim",
        "evaluation_toys:TEAM_BASELINES",
    ),
}


def register_toys(monkeypatch: pytest.MonkeyPatch) -> dict[str, GameSpec]:
    import fiesta_envs.registry as registry

    monkeypatch.setattr(registry, "GAMES", {**registry.GAMES, **TOY_SPECS})
    return TOY_SPECS
