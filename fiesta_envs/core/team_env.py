"""A cooperative game as one ``gymnasium.Env`` whose agent plays every seat (parameter sharing).

In a cooperative game every seat gets the same reward, so one policy can play all of them: each
step the agent receives the observation of the seat that must act (only what that seat knows)
and chooses its action. Every decision of the game is then a training sample, where the
single-seat environment (``single_seat.py``) makes one seat learn and lets frozen copies play
the others (whose decisions are computed and thrown away).

    env = TeamEnv(FiestaDeLosMuertos, num_players=4)
    obs, info = env.reset(seed=0)           # info["seat"]: the seat this observation belongs to
    obs, reward, terminated, truncated, info = env.step(action)

The reward is 0 until the game ends, then the team's ``Game.returns()`` entry. ``seat`` is the
seat to act (it changes from step to step), so wrappers that read ``env.unwrapped.seat`` see
the right one. Illegal actions end the episode with reward -1 (or raise, ``illegal_action="raise"``).
"""

from __future__ import annotations

from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces

from fiesta_envs.core.aec import ILLEGAL_ACTION_PENALTY, check_illegal_action_mode
from fiesta_envs.core.errors import IllegalActionError, InvalidOptionError
from fiesta_envs.core.game import Game


class TeamEnv(gymnasium.Env):
    """Every seat of a cooperative game played by the one agent (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": [], "render_fps": 1}

    def __init__(
        self, game_class: type[Game], num_players: int | None = None, illegal_action: str = "terminate", **options: Any
    ) -> None:
        if not game_class.cooperative:
            raise InvalidOptionError(
                f"{game_class.name} is not cooperative: one agent cannot play every seat; use the single-seat env"
            )
        self.game: Game = game_class(num_players=num_players, **options)
        self.illegal_action = check_illegal_action_mode(illegal_action)
        low, high = self.game.observation_bounds()
        self.observation_space = spaces.Box(low, high, shape=(self.game.observation_size,), dtype=np.float32)
        self.action_space = spaces.Discrete(self.game.num_actions)
        self.seat = 0
        self._started = False

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict]:
        super().reset(seed=seed)
        if options:
            raise InvalidOptionError(f"{self.game.name}: reset() takes no options; pass game options to the env")
        self.game.reset(int(self.np_random.integers(0, 2**63 - 1)))
        self._started = True
        self.seat = self.game.current_player
        return self.game.observe(self.seat), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict]:
        if not self._started:
            raise RuntimeError(f"{self.game.name}: call reset() before step()")
        if self.game.is_over:
            raise IllegalActionError(f"{self.game.name}: the episode is over; call reset() to start another")
        try:
            self.game.step(action)
        except IllegalActionError as error:
            if self.illegal_action == "raise":
                raise
            gymnasium.logger.warn(f"[seat {self.seat}] illegal action, episode ended: {error}")
            self._started = False
            return self.game.observe(self.seat), ILLEGAL_ACTION_PENALTY, True, False, {"illegal_action": str(error)}
        if self.game.is_over:
            reward = float(self.game.returns()[self.seat])
            info = {"seat": self.seat, "scores": self.game.scores().tolist(), "final": self.game.final_info()}
            return self.game.observe(self.seat), reward, True, False, info
        self.seat = self.game.current_player
        return self.game.observe(self.seat), 0.0, False, False, self._info()

    def action_masks(self) -> np.ndarray:
        """Boolean mask of the acting seat's legal actions (sb3-contrib's MaskablePPO reads this)."""
        if self.game.is_over or not self._started:
            return np.ones(self.game.num_actions, dtype=bool)
        return self.game.legal_mask().astype(bool)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.game.legal_mask().copy(), "seat": self.seat}
