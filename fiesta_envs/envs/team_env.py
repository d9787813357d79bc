"""A cooperative game as one ``gymnasium.Env`` whose agent plays every seat (parameter sharing).

In a cooperative game every seat gets the same reward, so one policy can play all of them: each
step the agent receives the observation of the seat that must act (only what that seat knows)
and chooses its action. Every decision of the game is then a training sample, where the
single-seat environment (``single_seat.py``) makes one seat learn and lets frozen copies play
the others (whose decisions are computed and thrown away).

    env = TeamEnv(FiestaDeLosMuertos, num_players=4)
    obs, info = env.reset(seed=0)           # info["seat"]: the seat this observation belongs to
    obs, reward, terminated, truncated, info = env.step(action)

Pictures (``render_mode="rgb_array"``) need the game's ``picture=`` (``GAMES[name].picture()``).
The reward is 0 until the game ends, then the team's ``Game.returns()`` entry. ``seat`` is the
seat to act (it changes from step to step), so wrappers that read ``env.unwrapped.seat`` see
the right one. Illegal actions end the episode with reward -1 (or raise, ``illegal_action="raise"``).
"""

from __future__ import annotations

from typing import Any

from fiesta_envs.core.errors import InvalidOptionError
from fiesta_envs.core.game import Game
from fiesta_envs.envs.aec import Picture
from fiesta_envs.envs.single_seat import NetworkMove, SingleSeatEnv


def _no_policy(spec: Any, seed: int | None) -> Any:
    raise AssertionError("a TeamEnv has no opponents")


class TeamEnv(SingleSeatEnv):
    """Every seat of a cooperative game played by the one agent (see the module docstring).

    A single-seat environment whose learner's seat is always the seat to act: no opponents,
    and the seat moves on after every step instead of other policies playing.
    """

    def __init__(
        self,
        game_class: type[Game],
        num_players: int | None = None,
        illegal_action: str = "terminate",
        render_mode: str | None = None,
        *,
        picture: Picture | None = None,
        **options: Any,
    ) -> None:
        if not game_class.cooperative:
            raise InvalidOptionError(
                f"{game_class.name} is not cooperative: one agent cannot play every seat; use the single-seat env"
            )
        super().__init__(
            game_class,
            _no_policy,
            num_players,
            illegal_action=illegal_action,
            render_mode=render_mode,
            picture=picture,
            **options,
        )

    def set_opponents(self, opponents: Any) -> None:
        self.opponents = []

    def _play_opponents(self, defer: bool = False) -> NetworkMove | None:
        """Nobody else plays: the agent's next observation is the next seat's (no move ever waits on a network)."""
        if not self.game.is_over:
            self.seat = self.game.current_player
        return None
