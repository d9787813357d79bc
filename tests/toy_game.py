"""A tiny game used to test the core layer on its own: last-stone Nim with a random pile.

Players take 1, 2 or 3 stones in turn from a pile of 7..12 stones (drawn from the game's
generator); whoever takes the last stone scores 1, everyone else 0.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from fiesta_envs.core.game import REWARD_OPTION, Game
from fiesta_envs.core.options import Option
from fiesta_envs.policies.policy import Policy

MAX_PILE = 12


class Nim(Game):
    name = "toy_nim"
    player_counts = (2, 3)
    default_players = 2
    options = {"reward": REWARD_OPTION, "max_take": Option(3, choices=(2, 3), doc="most stones one may take")}
    score_scale = 1.0

    @property
    def num_actions(self) -> int:
        return self.config["max_take"]

    @property
    def observation_size(self) -> int:
        return MAX_PILE + 1

    def _new_game(self) -> None:
        self.pile = int(self.rng.integers(7, MAX_PILE + 1))
        self.turn = 0
        self.winner = -1

    @property
    def current_player(self) -> int:
        return -1 if self.winner >= 0 else self.turn

    @property
    def is_over(self) -> bool:
        return self.winner >= 0

    def legal_mask(self) -> np.ndarray:
        mask = np.zeros(self.num_actions, dtype=np.int8)
        if not self.is_over:
            mask[: min(self.pile, self.num_actions)] = 1
        return mask

    def _apply(self, action: int) -> None:
        self.pile -= action + 1
        if self.pile == 0:
            self.winner = self.turn
        else:
            self.turn = (self.turn + 1) % self.num_players

    def scores(self) -> np.ndarray:
        result = np.zeros(self.num_players)
        if self.winner >= 0:
            result[self.winner] = 1.0
        return result

    def observe(self, player: int) -> np.ndarray:
        obs = np.zeros(self.observation_size, dtype=np.float32)
        obs[self.pile] = 1.0
        return obs

    def _build_action_names(self) -> list[str]:
        return [f"take {n}" for n in range(1, self.num_actions + 1)]

    def explain_illegal(self, action: int) -> str:
        return f"only {self.pile} stones are left"

    def _state_to_dict(self) -> dict[str, Any]:
        return {"pile": self.pile, "turn": self.turn, "winner": self.winner}

    def _state_from_dict(self, data: Mapping[str, Any]) -> None:
        pile, turn, winner = int(data["pile"]), int(data["turn"]), int(data["winner"])
        if not 0 <= pile <= MAX_PILE or not 0 <= turn < self.num_players or not -1 <= winner < self.num_players:
            raise ValueError(f"pile {pile}, turn {turn} or winner {winner} out of range")
        self.pile, self.turn, self.winner = pile, turn, winner

    def render_text(self) -> str:
        return f"pile: {'o' * self.pile} ({self.pile}); player {self.turn} to take"


class TakeOne(Policy):
    """Always takes one stone."""

    def act(self, observation: np.ndarray, action_mask: np.ndarray, game: Game, player: int) -> int:
        return 0
