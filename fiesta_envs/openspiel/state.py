"""A position of one of our games as an OpenSpiel ``State``: the engine does the rules, this only translates.

The state holds one engine (``state.engine``, a ``fiesta_envs.core.game.Game``). Chance (shuffles, deals,
dice) happens inside the engine, drawn from its own seeded generator: the game type says
``SAMPLED_STOCHASTIC`` and no state is ever a chance node. OpenSpiel's ``clone`` copies the state's
attributes with ``copy.deepcopy``; the engine is copied by its own ``clone`` (its state dict: the position and
its generator, so a clone continues exactly as the original would) and serialised the same way.

``resample_from_infostate(player, sampler)`` is our determinisation (``Game.determinize``): a state in
which everything ``player`` cannot know is drawn afresh, consistently with what it knows, with chance
reseeded -- what OpenSpiel's IS-MCTS asks of a game. Its ``history()`` is empty: the resampled position is
set directly, not replayed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel

from fiesta_envs.core.game import Game


class EngineHolder:
    """A state's engine, made on first use (a state that OpenSpiel creates only to copy another into never
    deals a game); copied through ``Game.clone`` and pickled as the engine's state dict."""

    __slots__ = ("_game", "_make")

    def __init__(self, make: Callable[[], Game] | None = None, game: Game | None = None) -> None:
        self._make = make
        self._game = game

    @property
    def game(self) -> Game:
        if self._game is None:
            assert self._make is not None
            self._game, self._make = self._make(), None
        return self._game

    def __deepcopy__(self, memo: dict[int, Any]) -> EngineHolder:
        return EngineHolder(game=self.game.clone())

    def __reduce__(self) -> tuple[Any, ...]:
        return _restored_holder, (type(self.game), self.game.state_dict())


def _restored_holder(game_class: type[Game], data: dict[str, Any]) -> EngineHolder:
    return EngineHolder(game=game_class.from_state_dict(data))


def seed_from(probability_sampler: Any) -> int | None:
    """A seed from OpenSpiel's probability sampler (a callable giving a float in [0, 1)); None without one."""
    if probability_sampler is None:
        return None
    return int(float(probability_sampler()) * 2.0**53)


class FiestaState(pyspiel.State):
    """One position of a game loaded with ``pyspiel.load_game("python_<game>")``."""

    def __init__(self, game: pyspiel.Game, engine: Game | None = None) -> None:
        """A state of ``game`` (a ``FiestaGame``, whose ``new_engine`` deals when the state is first used), or
        the position of ``engine``."""
        super().__init__(game)
        self._game = game
        self._holder = EngineHolder(make=game.new_engine) if engine is None else EngineHolder(game=engine)

    @property
    def engine(self) -> Game:
        """The rules engine playing this position (read it; change it only through ``apply_action``)."""
        return self._holder.game

    def current_player(self) -> int:
        engine = self.engine
        return pyspiel.PlayerId.TERMINAL if engine.is_over else engine.current_player

    def _legal_actions(self, player: int) -> list[int]:
        return self.engine.legal_actions()

    def _apply_action(self, action: int) -> None:
        self.engine.step(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        return self.engine.action_to_string(int(action))

    def is_terminal(self) -> bool:
        return self.engine.is_over

    def returns(self) -> list[float]:
        return [float(value) for value in self.engine.returns()]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any = None) -> FiestaState:
        """A state as ``player_id`` may believe this one to be (our determinisation), drawn with a seed taken
        from ``probability_sampler``. ``NotImplementedError`` for a game without a determinisation."""
        rng = np.random.default_rng(seed_from(probability_sampler))
        return FiestaState(self._game, engine=self.engine.determinize(int(player_id), rng))

    def __str__(self) -> str:
        return self.engine.render_text()
