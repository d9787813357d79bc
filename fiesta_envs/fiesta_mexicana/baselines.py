"""Scripted players for Fiesta Mexicana (``random`` comes from ``fiesta_envs.policies.policy``).

``GreedyPolicy`` plays for points now and for its own objectives, using only what its seat knows
(every table is public; its own objectives are its own; of the others' only how many they hold):

- values a dish on each space it could bid for as the best, over the four turns of the card, of the
  points the placement brings plus what it adds to an estimate of its objectives;
- prices the numbers: a high free number wins later auctions, so spending number ``n`` costs
  ``NUMBER_PRICE * (n - 1)``; it opens with the number of best value after that price, often below
  its best number, and raises to the best-priced number above the high bid while that is worth at
  least a point (counting, against an opponent's high bid, what the dish is worth to that opponent
  in points: a dish denied);
- reserves (discarding an objective) when the dish is worth a lot *without the objective it gives
  up*, an opponent could still outbid it, and that objective is worth clearly less;
- one space from a full table (winning a dish ends the game) it bids only when the dish leaves it
  ahead on its estimate of the final scores (its own objectives exactly, each objective an opponent
  holds at ``OPPONENT_OBJECTIVE_POINTS``), and turns its table so that the last free space reads 16
  when it is ahead, the lowest number when it is behind;
- places the dish in its best turn; otherwise turns its table so that its free spaces read high numbers;
- keeps the three objectives with the best prior estimate; turns each start card so that its sauce
  halves face empty spaces where the halves of the cards around agree in colour.

``greedy:version=1`` is the first version (kept to measure against and to reproduce older results):
it opens and raises with its best number whatever the number, never bids to deny, reserves on the
dish's value *with* the objective it discards, ignores that filling its table ends the game and
orients start cards as dealt.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from fiesta_envs.fiesta_mexicana import actions
from fiesta_envs.fiesta_mexicana.board import FIXED_OF, NEIGHBOURS, OPPOSITE, ROTATED_EDGES, VIEW_OF
from fiesta_envs.fiesta_mexicana.components import CHILDREN, NUM_SPACES, OBJECTIVE_KINDS, PINATA_SPACES, TEENS
from fiesta_envs.fiesta_mexicana.game import valid_keeps
from fiesta_envs.fiesta_mexicana.scoring import dish_counts
from fiesta_envs.fiesta_mexicana.state import Phase
from fiesta_envs.fiesta_mexicana.valuation import (
    PRIOR_VALUE,
    best_by_number,
    best_points,
    best_rotation,
    objective_worths,
    table_view,
)
from fiesta_envs.policies.policy import Policy, VersionedPolicy, first_legal

if TYPE_CHECKING:
    from fiesta_envs.fiesta_mexicana.game import FiestaMexicana

MIN_BID_VALUE = 1.0  # a dish worth less is not worth outbidding for
RESERVE_VALUE = 7.0  # a dish worth this much may be reserved
RESERVE_MARGIN = 3.0  # ... when the objective given up is worth this much less
NUMBER_PRICE = 0.15  # version 2: what spending a number costs per step up the track 1..16
DENY_WEIGHT = 1.0  # version 2: weight of a dish's points to the opponent holding the high bid (2 players)
OPPONENT_OBJECTIVE_POINTS = 3.4  # version 2: an opponent's held objective at the end (mean in greedy games)


def free_numbers_worth(game: FiestaMexicana, player: int) -> float:
    """What ``player``'s free numbers are worth at ``NUMBER_PRICE`` a step up the track (what version 2
    charges for spending one): the part of a position's worth that later auctions will cash."""
    view = FIXED_OF[game.state.orientation[player]]
    dishes = game.dishes[player]
    return NUMBER_PRICE * sum(number for number in range(NUM_SPACES) if dishes[view[number]] < 0)


class GreedyPolicy(VersionedPolicy["FiestaMexicana"]):
    """Bids, places and turns its table for the best immediate value (see the module docstring)."""

    needs_observation = False  # reads the engine; environments skip encoding an observation for it
    versions = (1, 2)

    def act(self, observation: np.ndarray | None, action_mask: np.ndarray, game: FiestaMexicana, player: int) -> int:
        phase = game.state.phase
        if phase == Phase.AUCTION:
            action = self._auction(game, player) if self.version >= 2 else self._auction_v1(game, player)
        elif phase == Phase.PLACE:
            action = actions.place_action(
                self._best_rotation(game, player, game.space_of(player, game.state.high_bid))[0]
            )
        elif phase == Phase.ROTATE:
            action = self._rotation(game, player)
        elif phase == Phase.KEEP:
            action = self._keep(game, player)
        elif phase == Phase.ORIENT:
            action = actions.orient_action(game.state.orient_step, self._start_card_turn(game, player))
        else:
            action = first_legal(action_mask)
        return action if action_mask[action] else first_legal(action_mask)

    def _best_rotation(self, game: FiestaMexicana, player: int, space: int) -> tuple[int, float]:
        """The best view rotation for the dish on offer on ``space`` and the value it brings."""
        return best_rotation(game, player, space)

    # ------------------------------------------------------------------ auctions
    def _number_values(
        self, game: FiestaMexicana, player: int, objectives: list[int] | None = None
    ) -> dict[int, float]:
        """The dish's value on each number ``player`` may bid now (``objectives``: see ``placements_values``)."""
        high_bid = game.state.high_bid  # the free numbers above it, each number n as n - 1:
        numbers = [n for n in table_view(game, player, game.state.orientation[player]).indices if n >= high_bid]
        if not numbers:
            return {}
        held = game.state.objectives[player] if objectives is None else objectives
        best = best_by_number(game, player, game.state.offer, tuple(code for code in held if code >= 0))[1]
        return {n + 1: float(best[n]) for n in numbers}

    def _auction_v1(self, game: FiestaMexicana, player: int) -> int:
        values = self._number_values(game, player)
        if not values:  # no free number above the high bid
            return actions.PASS
        # the most valuable number; among equals the higher one (harder to outbid)
        number = max(values, key=lambda n: (values[n], n))
        value = values[number]
        if game.state.high_bid and value < MIN_BID_VALUE:
            return actions.PASS
        if value >= RESERVE_VALUE and self._could_be_outbid(game, player, number):
            slot = self._weakest_objective(game, player)
            if slot is not None and slot[1] <= value - RESERVE_MARGIN:
                return actions.reserve_action(number, slot[0])
        return actions.bid_action(number)

    def _auction(self, game: FiestaMexicana, player: int) -> int:
        values = self._number_values(game, player)
        if not values:  # no free number above the high bid
            return actions.PASS
        if game.filled[player] == NUM_SPACES - 1:  # winning this dish ends the game
            return self._last_dish(game, player, values)
        priced = {n: v - NUMBER_PRICE * (n - 1) for n, v in values.items()}
        number = max(priced, key=lambda n: (priced[n], -n))
        if game.state.high_bid and priced[number] + self._denial(game, player) < MIN_BID_VALUE:
            return actions.PASS
        if values[number] >= RESERVE_VALUE and self._could_be_outbid(game, player, number):
            reserve = self._reserve(game, player)
            if reserve is not None:
                return reserve
        return actions.bid_action(number)

    def _last_dish(self, game: FiestaMexicana, player: int, values: dict[int, float]) -> int:
        """One space left: win only a dish that leaves it ahead (the opener must bid all the same)."""
        (number, value), *_ = values.items()
        if game.state.high_bid and self._estimated_lead(game, player) + value <= 0:
            return actions.PASS
        return actions.bid_action(number)

    def _denial(self, game: FiestaMexicana, player: int) -> float:
        """What letting the high bidder have the dish costs ``player``: the points it brings that opponent
        (weighted, shared among the opponents), or its whole lead when the dish ends the game for it."""
        rival = game.state.high_bidder
        if rival < 0 or rival == player:
            return 0.0
        points = float(best_points(game, rival, game.state.offer)[game.space_of(rival, game.state.high_bid)])
        if game.filled[rival] == NUM_SPACES - 1 and self._estimated_lead(game, player) < points:
            return np.inf  # it would end the game ahead of us
        return DENY_WEIGHT * points / (game.num_players - 1)

    def _estimated_lead(self, game: FiestaMexicana, player: int) -> float:
        """``player``'s final score if the game ended now minus the best opponent's estimate (points plus
        ``OPPONENT_OBJECTIVE_POINTS`` per objective held: their objectives are secret)."""
        mine = game.state.points[player] + sum(game.objective_points(player))
        others = [
            game.state.points[p] + OPPONENT_OBJECTIVE_POINTS * sum(code >= 0 for code in game.state.objectives[p])
            for p in range(game.num_players)
            if p != player
        ]
        return mine - max(others)

    def _reserve(self, game: FiestaMexicana, player: int) -> int | None:
        """The reserve that gains most: the dish valued without the objective it discards, on its best
        number, minus that objective's worth; None unless that is worth a reserve."""
        held = game.state.objectives[player]
        best: tuple[float, int] | None = None
        for slot, worth in enumerate(objective_worths(game, player)):
            if worth is None:
                continue
            kept = [code for other, code in enumerate(held) if other != slot]
            values = self._number_values(game, player, kept)
            number = max(values, key=lambda n: (values[n], n))
            value = values[number]
            if value >= RESERVE_VALUE and worth <= value - RESERVE_MARGIN and (best is None or value - worth > best[0]):
                best = (value - worth, actions.reserve_action(number, slot))
        return None if best is None else best[1]

    def _could_be_outbid(self, game: FiestaMexicana, player: int, number: int) -> bool:
        """Whether another player has a free number above ``number`` (itself above the high bid)."""
        orientation = game.state.orientation
        return any(
            table_view(game, other, orientation[other]).highest > number
            for other in range(game.num_players)
            if other != player
        )

    def _weakest_objective(self, game: FiestaMexicana, player: int) -> tuple[int, float] | None:
        """The objective slot worth least (``valuation.objective_worths``)."""
        held = [(slot, worth) for slot, worth in enumerate(objective_worths(game, player)) if worth is not None]
        return min(held, key=lambda item: item[1]) if held else None

    # ------------------------------------------------------------------ tables and setup
    def _rotation(self, game: FiestaMexicana, player: int) -> int:
        if self.version >= 2 and game.filled[player] == NUM_SPACES - 1:
            return self._last_space_rotation(game, player)

        def openness(left_turns: int) -> int:
            """The three highest free numbers after the turn, summed."""
            return table_view(game, player, (game.state.orientation[player] + left_turns) % 4).top_three

        # "none" is listed last in ROTATIONS; prefer it on ties by checking it first
        order = [2, 0, 1]
        best = max(order, key=lambda i: (openness(actions.ROTATION_TURNS[i]), -order.index(i)))
        return actions.ROTATE + best

    def _last_space_rotation(self, game: FiestaMexicana, player: int) -> int:
        """The turn that makes the last free space read 16 when ahead (nobody outbids it: it can end the
        game), the lowest number when behind (anybody outbids it)."""
        space = game.dishes[player].index(-1)
        ahead = self._estimated_lead(game, player) > 0

        def reads(choice: int) -> int:
            number = VIEW_OF[(game.state.orientation[player] + actions.ROTATION_TURNS[choice]) % 4][space] + 1
            return number if ahead else -number

        order = [2, 0, 1]  # "none" first among equals
        return actions.ROTATE + max(order, key=lambda i: (reads(i), -order.index(i)))

    def _start_card_turn(self, game: FiestaMexicana, player: int) -> int:
        """Version 2: the turn of the start card whose halves facing empty spaces agree best with the halves
        other cards show towards those spaces (+1 per same colour, -1 per other colour); 0 among equals."""
        if self.version < 2:
            return 0
        space = PINATA_SPACES[game.state.orient_step]
        card = game.state.start_cards[player][game.state.orient_step]
        dishes, edges = game.dishes[player], game.edges[player]

        def agreement(turn: int) -> int:
            total = 0
            for direction, neighbour in NEIGHBOURS[space]:
                half = ROTATED_EDGES[card][turn][direction]
                if half < 0 or dishes[neighbour] >= 0:
                    continue
                for facing, other in NEIGHBOURS[neighbour]:
                    theirs = edges[other][OPPOSITE[facing]] if other != space and dishes[other] >= 0 else -1
                    if theirs >= 0:
                        total += 1 if theirs == half else -1
            return total

        return max(range(4), key=lambda turn: (agreement(turn), -turn))

    def _keep(self, game: FiestaMexicana, player: int) -> int:
        hand = game.state.hands[player]
        start_dishes = dish_counts(game.dishes[player])

        def worth(code: int) -> float:
            kind = OBJECTIVE_KINDS[code]
            bonus = start_dishes[kind.dish] if kind.kind in (CHILDREN, TEENS) else 0
            return PRIOR_VALUE[kind.kind] + 0.5 * bonus

        choices = valid_keeps(hand)
        best = max(choices, key=lambda i: sum(worth(hand[slot]) for slot in actions.KEEP_CHOICES[i]))
        return actions.KEEP + best


BASELINES: dict[str, type[Policy]] = {"greedy": GreedyPolicy}
