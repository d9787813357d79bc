"""The ``search`` agent of Tortilla de Patatas: Monte-Carlo search over serves, ``careful`` rollouts.

See ``fiesta_envs.core.search`` for the method. Each determinisation deals the fridge and the other hands'
unknown cards afresh (``tortilla.determinization``); every candidate is played out to the end of the game by
``careful`` in every seat.

``careful`` plays its cards well (it counts every card in every pan); what it does not weigh is the race:
when to serve, with which diner card, and taking the last diner card to end a game it leads. So the search
is asked only where a serve is open and compares ``careful``'s choice, the best move that does not serve
(its own choice among the plays or draws), every serve of a pan that is perfect now (each allowed diner
card, the size it is perfect at) and, when one diner card is left, serving any pan to end the game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from fiesta_envs.core.search import MonteCarloSearch
from fiesta_envs.tortilla.actions import SERVE_BASE, serve_action
from fiesta_envs.tortilla.baselines import CarefulChef
from fiesta_envs.tortilla.components import DINER_VALUES, NUM_TEAMS, PANS_PER_TEAM
from fiesta_envs.tortilla.omelettes import is_perfect

if TYPE_CHECKING:
    from fiesta_envs.core.game import Game

NUM_SERVES = PANS_PER_TEAM * 2 * len(DINER_VALUES)
SERVES = slice(SERVE_BASE, SERVE_BASE + NUM_SERVES)
M, XL = 0, 1


class TortillaSearch(MonteCarloSearch):
    """Flat Monte-Carlo over determinisations, ``careful`` rollouts; searches the serves (module docstring)."""

    rollout_policy = CarefulChef
    default_budget = 8

    def searched(self, game: Game, player: int, legal: np.ndarray) -> bool:
        return game.phase in ("play", "after") and bool(game.legal_mask()[SERVES].any())  # type: ignore[attr-defined]

    def candidates(self, game: Game, player: int, legal: np.ndarray, proposal: int) -> list[int]:
        mask = game.legal_mask()
        wanted = [proposal]
        if SERVE_BASE <= proposal < SERVE_BASE + NUM_SERVES:
            without_serves = mask.copy()
            without_serves[SERVES] = 0
            if without_serves.any():
                self.heuristic.rng = self.rng
                wanted.append(int(self.heuristic.act(None, without_serves, game, player)))
        wanted += self._sensible_serves(game, player, mask)
        return list(dict.fromkeys(wanted))

    @staticmethod
    def _sensible_serves(game: Game, player: int, mask: np.ndarray) -> list[int]:
        """Serves of perfect pans (the sizes they are perfect at, every diner card allowed) and, with one
        diner card left, the serve of any pan as an M that ends the game."""
        team = player % NUM_TEAMS
        last_card = sum(game.diners_left) == 1  # type: ignore[attr-defined]
        serves = []
        for pan in range(PANS_PER_TEAM):
            counts = game.pan_counts[team * PANS_PER_TEAM + pan]  # type: ignore[attr-defined]
            for size in (XL, M):
                if is_perfect(counts, size) or (last_card and size == M):
                    serves += [serve_action(pan, size, d) for d in DINER_VALUES if mask[serve_action(pan, size, d)]]
        return serves
