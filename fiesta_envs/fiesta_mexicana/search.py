"""The ``search`` agent of Fiesta Mexicana: Monte-Carlo search two auctions deep, ``greedy`` rollouts.

See ``fiesta_envs.policies.search`` for the method. Each determinisation deals the deck and the other players'
objectives afresh (``fiesta_mexicana.determinization``). ``greedy`` values a dish for itself only; the
search plays each candidate out with ``greedy`` in every seat until two more auctions have been settled
(the dishes won, placed, and the tables turned) and values the position by the lead in points plus the
estimated worth of the objectives held (``valuation.objective_worths``, for every seat of the
determinisation) plus the worth of the free numbers (``baselines.free_numbers_worth``: what ``greedy``
charges for spending one, so that two auctions ahead a dish won with a 16 is not free), or by the final
lead when the game ended on the way. So it sees what a bid or a pass
gives the others (a dish denied, a price pushed up), what a reserve gives up, what a table turn does to
the next auction and when filling a table ends the game. Candidates: in an auction ``greedy``'s choice,
pass, the bids of the three numbers ``greedy`` values most, the lowest bid and the reserve of its best
number dropping its weakest objective; every table turn, start-card turn and choice of objectives; the
placement is ``greedy``'s.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from fiesta_envs.fiesta_mexicana import actions
from fiesta_envs.fiesta_mexicana.baselines import GreedyPolicy, free_numbers_worth
from fiesta_envs.fiesta_mexicana.game import FiestaMexicana
from fiesta_envs.fiesta_mexicana.state import Phase
from fiesta_envs.fiesta_mexicana.valuation import objective_worths, placements_values
from fiesta_envs.policies.search import MonteCarloSearch

if TYPE_CHECKING:
    from fiesta_envs.core.game import Game

#: Auctions settled in a rollout before its position is valued.
AUCTIONS_AHEAD = 2
#: Bids on the numbers ``greedy`` values most that are compared.
TOP_BIDS = 3


def _engine(game: Game) -> FiestaMexicana:
    """``game`` as the engine this search plays (``MonteCarloSearch`` hands it over as the contract's ``Game``)."""
    assert isinstance(game, FiestaMexicana), f"the Fiesta Mexicana search plays Fiesta Mexicana, not {game.name}"
    return game


class FiestaMexicanaSearch(MonteCarloSearch):
    """Flat Monte-Carlo over determinisations, two auctions deep, ``greedy`` rollouts (module docstring)."""

    rollout_policy = GreedyPolicy
    default_budget = 4

    def searched(self, game: Game, player: int, legal: np.ndarray) -> bool:
        return _engine(game).state.phase != Phase.PLACE and len(legal) > 1

    def candidates(self, game: Game, player: int, legal: np.ndarray, proposal: int) -> list[int]:
        engine = _engine(game)
        if engine.state.phase != Phase.AUCTION:
            return super().candidates(game, player, legal, proposal)
        mask = engine.legal_mask()
        wanted = [proposal, actions.PASS]
        numbers = [int(n) for n in np.flatnonzero(engine.legal_bids(player)) + 1]
        if numbers:
            spaces = [engine.space_of(player, n) for n in numbers]
            values = placements_values(engine, player, spaces, engine.state.offer)[1].max(axis=1)
            ranked = [numbers[i] for i in np.argsort(-values, kind="stable")]
            wanted += [actions.bid_action(n) for n in ranked[:TOP_BIDS]] + [actions.bid_action(numbers[0])]
            worths = [(w, slot) for slot, w in enumerate(objective_worths(engine, player)) if w is not None]
            if worths:
                wanted.append(actions.reserve_action(ranked[0], min(worths)[1]))
        return [a for a in dict.fromkeys(wanted) if mask[a]]

    def horizon(self, game: Game) -> Any:
        return len(_engine(game).state.deck)

    def rollout_done(self, game: Game, horizon: Any) -> bool:
        state = _engine(game).state
        return game.is_over or (len(state.deck) <= horizon - AUCTIONS_AHEAD and state.phase == Phase.AUCTION)

    def value(self, game: Game, player: int) -> float:
        """The lead over the best other seat (final scores, or points plus the objectives' estimated worth plus
        the free numbers' worth), divided by the game's typical winning score."""
        engine = _engine(game)
        if engine.is_over:
            totals = engine.scores()
        else:
            totals = np.array(
                [
                    engine.state.points[p]
                    + sum(w for w in objective_worths(engine, p) if w is not None)
                    + free_numbers_worth(engine, p)
                    for p in range(engine.num_players)
                ]
            )
        others = np.delete(totals, player)
        return float((totals[player] - others.max()) / engine.score_scale)
