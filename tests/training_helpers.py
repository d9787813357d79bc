"""Test-only helpers for the training tests: the toy Nim (and a cooperative variant) as games.

``register_toys(monkeypatch)`` adds them to ``fiesta_envs.registry.GAMES`` for one test, so
the training code can be tested without depending on any real game being ready. They live
in this process only: tests with worker processes (``n_envs > 1``) use a real game.
"""

from __future__ import annotations

import numpy as np
from toy_game import Nim, TakeOne

from fiesta_envs.registry import GameSpec


class CoopNim(Nim):
    """Nim as a team game: everyone scores 1 when the pile is emptied by an even number of moves."""

    name = "toy_coop_nim"
    cooperative = True
    player_counts = (2, 3)

    def _new_game(self) -> None:
        super()._new_game()
        self.moves = 0

    def _apply(self, action: int) -> None:
        self.moves += 1
        super()._apply(action)

    def scores(self) -> np.ndarray:
        won = self.is_over and self.moves % 2 == 0
        return np.full(self.num_players, 1.0 if won else 0.0)

    def returns(self) -> np.ndarray:
        if not self.is_over:
            return np.zeros(self.num_players)
        return np.where(self.scores() > 0, 1.0, -1.0)

    def _state_to_dict(self) -> dict:
        return {**super()._state_to_dict(), "moves": self.moves}

    def _state_from_dict(self, data) -> None:
        super()._state_from_dict(data)
        self.moves = int(data["moves"])


#: the scripted players of the toy games, as a game's ``baselines.py`` would export them
BASELINES = {"take_one": TakeOne}

TOY_SPEC = GameSpec("toy_nim", "fiesta_envs/ToyNim-v0", "toy_nim_v0", "toy_game:Nim", "training_helpers:BASELINES")
COOP_SPEC = GameSpec(
    "toy_coop_nim",
    "fiesta_envs/ToyCoopNim-v0",
    "toy_coop_nim_v0",
    "training_helpers:CoopNim",
    "training_helpers:BASELINES",
)


def register_toys(monkeypatch) -> None:
    import fiesta_envs.registry as registry

    games = dict(registry.GAMES)
    games[TOY_SPEC.name] = TOY_SPEC
    games[COOP_SPEC.name] = COOP_SPEC
    monkeypatch.setattr(registry, "GAMES", games)


TOY_CONFIG = """\
game: toy_nim
num_players: 2
seed: 1
total_timesteps: 512
n_envs: 1
progress_bar: false
ppo: {n_steps: 128, batch_size: 64, n_epochs: 2, net_arch: [16, 16], learning_rate: 3e-3}
opponents:
  baselines: {random: 0.5, take_one: 0.5}
  self_play: {weight: 1.0, snapshot_every: 128, pool_size: 2}
checkpoint_every: 256
eval: {every: 256, games: 10}
final_eval: {games: 10}
"""
