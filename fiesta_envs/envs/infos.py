"""The ``info`` dicts the environments hand out: the same keys and fixed shapes in every game.

Vectorised collectors (Tianshou's ``Collector``, TorchRL, RLlib) stack the infos of many
environments into arrays, so every value has one shape per configuration:

* during the game: ``action_mask``, int8 ``(num_actions,)``: the legal actions of the agent to act,
  all zeros for every other agent (each agent its own writable array);
* at the end: ``action_mask`` (zeros), ``scores`` float64 ``(num_players,)`` (final scores, in seat
  order) and ``winners`` int8 ``(num_players,)``: 1 for every seat sharing the win, else 0;
* an illegal action that ended the game: ``action_mask`` (zeros) and ``illegal_action``, the error
  message.

The game's own breakdown of the final scores (revealed cards, achievements, bonus points...) has a
shape of its own per game and per deal, so it is not in ``infos``: read it from the environment's
``final_info()`` (``Game.final_info()``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from fiesta_envs.core.game import Game


def no_actions(game: Game) -> np.ndarray:
    """A fresh all-zero action mask."""
    return np.zeros(game.num_actions, dtype=np.int8)


def winners_mask(game: Game) -> np.ndarray:
    """int8 per seat: 1 for the seats sharing the win."""
    mask = np.zeros(game.num_players, dtype=np.int8)
    mask[game.winners()] = 1
    return mask


def end_of_game_info(game: Game) -> dict[str, Any]:
    """The info of every agent once the game is over (a fresh dict and fresh arrays)."""
    return {
        "action_mask": no_actions(game),
        "scores": np.asarray(game.scores(), dtype=np.float64).copy(),
        "winners": winners_mask(game),
    }


def illegal_action_info(game: Game, message: str) -> dict[str, Any]:
    """The info of every agent once an illegal action has ended the game."""
    return {"action_mask": no_actions(game), "illegal_action": message}
