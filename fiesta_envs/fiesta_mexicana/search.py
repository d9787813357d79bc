"""The ``search`` agent of Fiesta Mexicana: Monte-Carlo search with ``greedy`` rollouts.

See ``fiesta_envs.core.search`` for the method. Each determinisation deals the deck and the other players'
objectives afresh (``fiesta_mexicana.determinization``); every candidate is played out to the end of the game
by ``greedy`` in every seat.
"""

from __future__ import annotations

from fiesta_envs.core.search import MonteCarloSearch
from fiesta_envs.fiesta_mexicana.baselines import GreedyPolicy


class FiestaMexicanaSearch(MonteCarloSearch):
    """Flat Monte-Carlo over determinisations, ``greedy`` rollouts."""

    rollout_policy = GreedyPolicy
    default_budget = 4
