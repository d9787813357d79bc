"""What OpenSpiel's observers see of a state: our observation, block by block.

OpenSpiel asks a Python game for observers through ``make_py_observer`` (``open_spiel/python/observation.py``):
objects with a ``tensor``, a ``dict`` of named views into it, ``set_from(state, player)`` and
``string_from(state, player)``. Ours writes the engine's ``observe(player)`` -- the vector our environments
hand out, bit for bit -- and names its parts as the game's documented ``ObservationLayout`` does, so
``observation_tensor`` is our observation and ``state.observation_dict`` gives its blocks by name.

Two kinds of observation exist: the default (what the seat knows now) and the information state (perfect
recall). A game whose observation is its information state (``Game.observation_is_information_state``)
answers both; any other game refuses the information state with a message saying so. Every other kind
(public information only, all private information) is refused too: our engines show one seat's view.
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np
import pyspiel

from fiesta_envs.core.errors import InvalidOptionError
from fiesta_envs.core.game import Game


class PlaysAnEngine(Protocol):
    """What an observer reads of a state: its rules engine (``FiestaState.engine``)."""

    @property
    def engine(self) -> Game: ...


def observation_blocks(engine: Game) -> list[tuple[str, slice]]:
    """The named parts of ``engine``'s observation, in order (one part ``observation`` for an engine whose
    observer does not document a layout of the observation's full length)."""
    layout = getattr(getattr(engine, "observer", None), "layout", None)
    if layout is not None and layout.size == engine.observation_size:
        return list(layout.blocks.items())
    return [("observation", slice(0, engine.observation_size))]


def check_observation_type(game_name: str, iig_obs_type: Any, has_information_state: bool) -> None:
    """Refuse (``InvalidOptionError``) an observation type this game cannot give, saying which it gives."""
    if iig_obs_type is None:
        return
    given = "the default observation" + (" and the information state (perfect recall)" if has_information_state else "")
    if iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER or not iig_obs_type.public_info:
        raise InvalidOptionError(
            f"{game_name}: only a seat's own view is observed (public and its private information); "
            f"this game gives {given}"
        )
    if iig_obs_type.perfect_recall and not has_information_state:
        raise InvalidOptionError(
            f"{game_name}: this configuration has no information state (its observation shows the table as it "
            f"is now, not everything seen so far); use the observation (observation_string/observation_tensor, "
            f"or use_observation_string=True for IS-MCTS); this game gives {given}"
        )


class FiestaObserver:
    """An OpenSpiel Python observer of one configuration (``make_py_observer`` returns one)."""

    def __init__(self, blocks: list[tuple[str, slice]], size: int) -> None:
        self.tensor = np.zeros(size, dtype=np.float32)
        self.dict = {name: self.tensor[part] for name, part in blocks}
        self._blocks = blocks

    def set_from(self, state: PlaysAnEngine, player: int) -> None:
        """Write ``player``'s observation of ``state`` into ``tensor`` (and so into ``dict``)."""
        self.tensor[:] = state.engine.observe(player)

    def string_from(self, state: PlaysAnEngine, player: int) -> str:
        """``player``'s observation as text: each block's nonzero entries as ``index=value``. Two observations
        give the same text exactly when their vectors are equal (values are written in full precision)."""
        return observation_text(self._blocks, state.engine.observe(player), player)


def observation_text(blocks: list[tuple[str, slice]], vector: np.ndarray, player: int) -> str:
    """``vector`` (float32) as ``player P | block: i=v i=v | ...``: each block's nonzero entries, indexed within
    the block, each value in the shortest text that reads back as it (so two vectors give the same text exactly
    when they are equal)."""
    nonzero = np.flatnonzero(vector)
    values = vector[nonzero].astype(str).tolist()  # float32's shortest text that reads back as the same value
    positions = nonzero.tolist()
    starts = np.searchsorted(nonzero, [part.start for _, part in blocks]).tolist()
    parts = [f"player {player}"]
    for (name, part), first, last in zip(blocks, starts, [*starts[1:], len(positions)], strict=True):
        pairs = zip(positions[first:last], values[first:last], strict=True)
        entries = " ".join([f"{index - part.start}={value}" for index, value in pairs])
        parts.append(f"{name}: {entries or '-'}")
    return " | ".join(parts)
