"""Potential-based reward shaping from the running score margin (optional, off by default).

The games pay their reward only at the end, after dozens of decisions. With
``reward_shaping: c`` in the config, each learner step also earns

    F = gamma * phi(after) - phi(before),    phi = c * (my score - best other score) / score_scale

(cooperative games: ``phi = c * team score / score_scale``)
and ``phi`` of the final position is taken as 0. This is the potential-based form of Ng, Harada
and Russell (1999): the shaping terms of an episode telescope to a constant, so the best policy
for the game's own reward is unchanged, while points scored during the game are credited to the
moves that scored them. ``phi`` reads ``Game.scores()`` -- the scores as they stand -- which may
include points that depend on hidden information; this only shapes the training signal (as a
privileged critic would) and never reaches the policy's observation.
"""

from __future__ import annotations

from typing import Any

import gymnasium


class ScoreShaping(gymnasium.Wrapper):
    """Adds ``gamma * phi(s') - phi(s)`` to the single-seat env's reward (see the module docstring)."""

    def __init__(self, env: gymnasium.Env, coefficient: float, gamma: float) -> None:
        super().__init__(env)
        self.coefficient = float(coefficient)
        self.gamma = float(gamma)
        self._phi = 0.0

    def _potential(self) -> float:
        base = self.env.unwrapped
        scores = [float(score) for score in base.game.scores()]
        mine = scores[base.seat]
        alone = base.game.cooperative or len(scores) == 1  # the team's score, or the score of a solo game
        lead = mine if alone else mine - max(score for seat, score in enumerate(scores) if seat != base.seat)
        return self.coefficient * lead / float(base.game.score_scale)

    def reset(self, **kwargs: Any) -> tuple[Any, dict]:
        result = self.env.reset(**kwargs)
        self._phi = self._potential()
        return result

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        phi = 0.0 if terminated else self._potential()
        shaped = float(reward) + self.gamma * phi - self._phi
        self._phi = phi
        return obs, shaped, terminated, truncated, info
