"""Scripted players for Fiesta Mexicana (``random`` comes from ``fiesta_envs.core.policy``).

``GreedyPolicy`` plays for points now and for its own objectives, using only what its seat knows
(every table is public; its own objectives are its own):

- values a dish on each space it could bid for as the best, over the four turns of the card, of the
  points the placement brings plus what it adds to an estimate of its objectives;
- opens with the bid of highest value; later bids its best number when that is worth at least a
  point and above the high bid, else passes;
- reserves (discarding its weakest objective) when the dish is worth a lot, an opponent could still
  outbid it, and the objective given up is worth clearly less;
- places the dish in its best turn; turns its table so that its free spaces read high numbers;
- keeps the three objectives with the best prior estimate, orients start cards as dealt.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from fiesta_envs.core.policy import Policy, first_legal
from fiesta_envs.fiesta_mexicana import actions
from fiesta_envs.fiesta_mexicana.board import FIXED_OF
from fiesta_envs.fiesta_mexicana.components import CHILDREN, NUM_SPACES, OBJECTIVE_KINDS, TEENS
from fiesta_envs.fiesta_mexicana.game import valid_keeps
from fiesta_envs.fiesta_mexicana.scoring import dish_counts
from fiesta_envs.fiesta_mexicana.state import Phase
from fiesta_envs.fiesta_mexicana.valuation import PRIOR_VALUE, best_rotation, objective_worths, placements_values

if TYPE_CHECKING:
    from fiesta_envs.fiesta_mexicana.game import FiestaMexicana

MIN_BID_VALUE = 1.0  # a dish worth less is not worth outbidding for
RESERVE_VALUE = 7.0  # a dish worth this much may be reserved
RESERVE_MARGIN = 3.0  # ... when the objective given up is worth this much less


class GreedyPolicy(Policy):
    """Bids, places and turns its table for the best immediate value (see the module docstring)."""

    needs_observation = False  # reads the engine; environments skip encoding an observation for it

    def act(self, observation: np.ndarray, action_mask: np.ndarray, game: FiestaMexicana, player: int) -> int:
        phase = game.phase
        if phase == Phase.AUCTION:
            action = self._auction(game, player)
        elif phase == Phase.PLACE:
            action = actions.place_action(self._best_rotation(game, player, game.space_of(player, game.high_bid))[0])
        elif phase == Phase.ROTATE:
            action = self._rotation(game, player)
        elif phase == Phase.KEEP:
            action = self._keep(game, player)
        elif phase == Phase.ORIENT:
            action = actions.orient_action(game.orient_step, 0)
        else:
            action = first_legal(action_mask)
        return action if action_mask[action] else first_legal(action_mask)

    def _best_rotation(self, game: FiestaMexicana, player: int, space: int) -> tuple[int, float]:
        """The best view rotation for the dish on offer on ``space`` and the value it brings."""
        return best_rotation(game, player, space)

    # ------------------------------------------------------------------ decisions
    def _auction(self, game: FiestaMexicana, player: int) -> int:
        bids = [int(n) for n in np.flatnonzero(game.legal_bids(player)) + 1]
        spaces = [game.space_of(player, n) for n in bids]
        best_values = placements_values(game, player, spaces, game.offer)[1].max(axis=1) if bids else []
        values = {n: float(v) for n, v in zip(bids, best_values, strict=True)}
        if not values:  # no free number above the high bid
            return actions.PASS
        # the most valuable number; among equals the higher one (harder to outbid)
        number = max(values, key=lambda n: (values[n], n))
        value = values[number]
        if game.high_bid and value < MIN_BID_VALUE:
            return actions.PASS
        if value >= RESERVE_VALUE and self._could_be_outbid(game, player, number):
            slot = self._weakest_objective(game, player)
            if slot is not None and slot[1] <= value - RESERVE_MARGIN:
                return actions.reserve_action(number, slot[0])
        return actions.bid_action(number)

    def _could_be_outbid(self, game: FiestaMexicana, player: int, number: int) -> bool:
        for other in range(game.num_players):
            if other != player:
                free = game.legal_bids(other)  # numbers above the current high bid
                if free[number:].any():
                    return True
        return False

    def _weakest_objective(self, game: FiestaMexicana, player: int) -> tuple[int, float] | None:
        """The objective slot worth least (``valuation.objective_worths``)."""
        held = [(slot, worth) for slot, worth in enumerate(objective_worths(game, player)) if worth is not None]
        return min(held, key=lambda item: item[1]) if held else None

    def _rotation(self, game: FiestaMexicana, player: int) -> int:
        def openness(left_turns: int) -> tuple[int, ...]:
            orientation = (game.orientation[player] + left_turns) % 4
            free = [v + 1 for v in range(NUM_SPACES) if game.dishes[player][FIXED_OF[orientation][v]] < 0]
            return tuple(sorted(free, reverse=True)[:3])

        # "none" is listed last in ROTATIONS; prefer it on ties by checking it first
        order = [2, 0, 1]
        best = max(order, key=lambda i: (sum(openness(actions.ROTATION_TURNS[i])), -order.index(i)))
        return actions.ROTATE + best

    def _keep(self, game: FiestaMexicana, player: int) -> int:
        hand = game.hands[player]
        start_dishes = dish_counts(game.dishes[player])

        def worth(code: int) -> float:
            kind = OBJECTIVE_KINDS[code]
            bonus = start_dishes[kind.dish] if kind.kind in (CHILDREN, TEENS) else 0
            return PRIOR_VALUE[kind.kind] + 0.5 * bonus

        choices = valid_keeps(hand)
        best = max(choices, key=lambda i: sum(worth(hand[slot]) for slot in actions.KEEP_CHOICES[i]))
        return actions.KEEP + best


BASELINES: dict[str, type[Policy]] = {"greedy": GreedyPolicy}
