"""Plain ``pickle`` for the environments: the engine travels as its state dict.

An environment pickles its attributes as they are (spaces, bookkeeping, opponent policies, random
generators), except its engine (the attribute ``game``): that one goes as its class and its
``state_dict()`` -- a kilobyte of JSON-safe data -- and is rebuilt with ``from_state_dict`` on
the way back. Pickling the engine object itself would also copy the tables it refers to (5 MB of
lexicon for Fiesta de los Muertos) and tie the pickle to private caches; the state dict is the
engine's public, versioned, round-tripping format (what the reload tests check), so a pickled
environment continues exactly where it stopped.

This is what multiprocessing, ``gymnasium`` vector envs in subprocesses, Ray and ``copy.deepcopy``
use. PettingZoo's classic games pickle their constructor arguments only (``EzPickle``): a copy
of one of them starts over; a copy of ours continues the game.
"""

from __future__ import annotations

from typing import Any

from fiesta_envs.core.game import Game

_GAME = "game"


class PicklesGameAsStateDict:
    """Mixin for objects with a ``game`` attribute: pickle it as ``(class, state dict)``."""

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        game = state.get(_GAME)
        if isinstance(game, Game):
            state[_GAME] = (type(game), game.state_dict())
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        saved = state.get(_GAME)
        if isinstance(saved, tuple):
            game_class, data = saved
            state = {**state, _GAME: game_class.from_state_dict(data)}
        self.__dict__.update(state)
