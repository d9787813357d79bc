"""The ``search`` agent of Tortilla de Patatas: Monte-Carlo search over serves, ``careful`` rollouts.

See ``fiesta_envs.policies.search`` for the method. Each determinisation deals the fridge and the other hands'
unknown cards afresh (``tortilla.determinization``); every candidate is played out to the end of the game by
``careful`` in every seat.

``careful`` counts every card in every pan, but it plays by a one-move evaluation of the pans and weighs
the race only roughly: when to serve, with which diner card (version 2 takes the last diner card to end a
game it leads). So the search is asked at every play and wherever a serve is open, and compares
``careful``'s choice, the ``TOP_PLAYS`` plays ``careful`` values most, the best move that does not serve
(its own choice among the plays or draws), every serve of a pan that is perfect now (each allowed diner
card, the size it is perfect at) and, when one diner card is left, serving any pan to end the game.
(Searching the serves alone beat ``careful`` version 1, 0.598 over 200 games, but not version 2, 0.512.)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

import numpy as np

from fiesta_envs.policies.search import MonteCarloSearch
from fiesta_envs.tortilla.actions import SERVE_BASE, serve_action
from fiesta_envs.tortilla.baselines import CarefulChef
from fiesta_envs.tortilla.components import DINER_VALUES, NUM_TEAMS, PANS_PER_TEAM
from fiesta_envs.tortilla.omelettes import is_perfect
from fiesta_envs.tortilla.state import Phase

if TYPE_CHECKING:
    from fiesta_envs.core.game import Game
    from fiesta_envs.tortilla.game import TortillaDePatatas

NUM_SERVES = PANS_PER_TEAM * 2 * len(DINER_VALUES)
#: The plays ``careful`` values most that are compared at every play.
TOP_PLAYS = 2
SERVES = slice(SERVE_BASE, SERVE_BASE + NUM_SERVES)
M, XL = 0, 1


class TortillaSearch(MonteCarloSearch):
    """Flat Monte-Carlo over determinisations, ``careful`` rollouts; searches the serves (module docstring)."""

    rollout_policy = CarefulChef
    heuristic: CarefulChef
    default_budget = 8

    def searched(self, game: Game, player: int, legal: np.ndarray) -> bool:
        phase = _tortilla(game).state.phase
        return phase == Phase.PLAY or (phase == Phase.AFTER and bool(game.legal_mask()[SERVES].any()))

    def candidates(self, game: Game, player: int, legal: np.ndarray, proposal: int) -> list[int]:
        mask = game.legal_mask()
        wanted = [proposal]
        if SERVE_BASE <= proposal < SERVE_BASE + NUM_SERVES:
            without_serves = mask.copy()
            without_serves[SERVES] = 0
            if without_serves.any():
                self.heuristic.rng = self.rng
                wanted.append(int(self.heuristic.act(None, without_serves, game, player)))
        tortilla = _tortilla(game)
        if tortilla.state.phase == Phase.PLAY:
            wanted += self.heuristic.best_plays(tortilla, player, TOP_PLAYS)
        wanted += self._sensible_serves(tortilla, player, mask)
        return list(dict.fromkeys(wanted))

    @staticmethod
    def _sensible_serves(game: TortillaDePatatas, player: int, mask: np.ndarray) -> list[int]:
        """Serves of perfect pans (the sizes they are perfect at, every diner card allowed) and, with one
        diner card left, the serve of any pan as an M that ends the game."""
        team = player % NUM_TEAMS
        last_card = sum(game.state.diners_left) == 1
        serves = []
        for pan in range(PANS_PER_TEAM):
            counts = game.pan_counts[team * PANS_PER_TEAM + pan]
            for size in (XL, M):
                if is_perfect(counts, size) or (last_card and size == M):
                    serves += [serve_action(pan, size, d) for d in DINER_VALUES if mask[serve_action(pan, size, d)]]
        return serves


def _tortilla(game: Game) -> TortillaDePatatas:
    """The searched game: this agent plays Tortilla de Patatas only."""
    return cast("TortillaDePatatas", game)
