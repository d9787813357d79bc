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
from fiesta_envs.fiesta_mexicana import actions as A
from fiesta_envs.fiesta_mexicana.board import (
    FIXED_OF,
    LINES_OF_3,
    LINES_OF_4,
    NEIGHBOURS,
    OPPOSITE,
    ROTATED_EDGES,
    SQUARES,
)
from fiesta_envs.fiesta_mexicana.components import (
    CHILDREN,
    DISH_CARDS,
    MASKED_FOUR,
    MASKED_SIX,
    MASKED_THREE_SAME,
    NUM_SPACES,
    OBJECTIVE_KINDS,
    SENIORS_LINE_3,
    SENIORS_LINE_4,
    SENIORS_SQUARE,
    TEENS,
)
from fiesta_envs.fiesta_mexicana.game import AUCTION, KEEP, ORIENT, PLACE, ROTATE, valid_keeps
from fiesta_envs.fiesta_mexicana.scoring import complete_bowls, dish_counts, placement_points

if TYPE_CHECKING:
    from fiesta_envs.fiesta_mexicana.game import FiestaMexicana

#: Rough worth of each objective kind when kept at the start (expected points).
PRIOR_VALUE: dict[str, float] = {
    CHILDREN: 2.5,
    TEENS: 2.5,
    SENIORS_SQUARE: 1.0,
    SENIORS_LINE_4: 1.5,
    SENIORS_LINE_3: 3.0,
    MASKED_SIX: 3.0,
    MASKED_FOUR: 3.0,
    MASKED_THREE_SAME: 2.5,
}
SHAPES = {SENIORS_SQUARE: SQUARES, SENIORS_LINE_4: LINES_OF_4, SENIORS_LINE_3: LINES_OF_3}
PARTIAL_CREDIT = 0.6  # share of an objective's points an unfinished objective is valued at
MIN_BID_VALUE = 1.0  # a dish worth less is not worth outbidding for
RESERVE_VALUE = 7.0  # a dish worth this much may be reserved
RESERVE_MARGIN = 3.0  # ... when the objective given up is worth this much less


def shape_progress(dishes: list[int], shapes: tuple[tuple[int, ...], ...]) -> float:
    """The best share of a shape already filled with one dish and still completable (0..1)."""
    best = 0.0
    for cells in shapes:
        kinds = {dishes[c] for c in cells if dishes[c] >= 0}
        if len(kinds) == 1:
            filled = sum(dishes[c] >= 0 for c in cells)
            best = max(best, filled / len(cells))
    return best


def dish_objective_value(code: int, player: int, all_dishes: list[list[int]]) -> float:
    """Estimated worth of an objective that depends only on dishes (children, teens, seniors)."""
    kind = OBJECTIVE_KINDS[code]
    dishes = all_dishes[player]
    if kind.kind == CHILDREN:
        return float(dish_counts(dishes)[kind.dish])
    if kind.kind == TEENS:
        counts = [dish_counts(table)[kind.dish] for table in all_dishes]
        mine, best_other = counts[player], max(c for p, c in enumerate(counts) if p != player)
        leading = mine >= 1 and mine >= best_other
        return kind.points * (0.8 if leading else 0.2 * mine / (best_other + 1)) + 0.3 * mine
    progress = shape_progress(dishes, SHAPES[kind.kind])
    return kind.points if progress == 1.0 else kind.points * PARTIAL_CREDIT * progress**2


def bowl_objective_value(code: int, bowls: list[int]) -> float:
    """Estimated worth of a masked guests' objective given the complete bowls per colour."""
    kind = OBJECTIVE_KINDS[code]
    count = max(bowls) if kind.kind == MASKED_THREE_SAME else sum(bowls)
    if count >= kind.target:
        return float(kind.points)
    return kind.points * PARTIAL_CREDIT * count / kind.target


def is_bowl_objective(code: int) -> bool:
    return OBJECTIVE_KINDS[code].kind in (MASKED_SIX, MASKED_FOUR, MASKED_THREE_SAME)


class GreedyPolicy(Policy):
    """Bids, places and turns its table for the best immediate value (see the module docstring)."""

    def act(self, observation: np.ndarray, action_mask: np.ndarray, game: FiestaMexicana, player: int) -> int:
        phase = game.phase
        if phase == AUCTION:
            action = self._auction(game, player)
        elif phase == PLACE:
            action = A.place_action(self._best_rotation(game, player, game.space_of(player, game.high_bid))[0])
        elif phase == ROTATE:
            action = self._rotation(game, player)
        elif phase == KEEP:
            action = self._keep(game, player)
        elif phase == ORIENT:
            action = A.orient_action(game.orient_step, 0)
        else:
            action = first_legal(action_mask)
        return action if action_mask[action] else first_legal(action_mask)

    # ------------------------------------------------------------------ valuation
    def _objective_value(
        self, game: FiestaMexicana, player: int, all_dishes: list[list[int]], bowls: list[int]
    ) -> float:
        total = 0.0
        for code in game.objectives[player]:
            if code < 0:
                continue
            if is_bowl_objective(code):
                total += bowl_objective_value(code, bowls)
            else:
                total += dish_objective_value(code, player, all_dishes)
        return total

    def _best_rotation(self, game: FiestaMexicana, player: int, space: int) -> tuple[int, float]:
        """The best view rotation for the dish on offer on ``space`` and the value it brings."""
        card = game.offer
        dishes, edges = game.dishes[player], game.edges[player]
        bowls = complete_bowls(dishes, edges)
        before = self._objective_value(game, player, game.dishes, bowls)
        all_after = [list(d) for d in game.dishes]
        all_after[player][space] = DISH_CARDS[card].dish
        orientation = game.orientation[player]
        best_rotation, best_value = 0, -1e9
        for rotation in range(4):
            new_edges = ROTATED_EDGES[card][(rotation + orientation) % 4]
            points = placement_points(dishes, edges, space, new_edges, DISH_CARDS[card].skulls)
            new_bowls = list(bowls)
            for direction, neighbour in NEIGHBOURS[space]:
                colour = new_edges[direction]
                if dishes[neighbour] >= 0 and colour >= 0 and colour == edges[neighbour][OPPOSITE[direction]]:
                    new_bowls[colour] += 1
            gained = max(points, -game.points[player])  # the score floor
            value = gained + self._objective_value(game, player, all_after, new_bowls) - before
            if value > best_value:
                best_rotation, best_value = rotation, value
        return best_rotation, best_value

    # ------------------------------------------------------------------ decisions
    def _auction(self, game: FiestaMexicana, player: int) -> int:
        bids = np.flatnonzero(game.legal_bids(player)) + 1
        values = {int(n): self._best_rotation(game, player, game.space_of(player, int(n)))[1] for n in bids}
        if not values:  # no free number above the high bid
            return A.PASS
        # the most valuable number; among equals the higher one (harder to outbid)
        number = max(values, key=lambda n: (values[n], n))
        value = values[number]
        if game.high_bid and value < MIN_BID_VALUE:
            return A.PASS
        if value >= RESERVE_VALUE and self._could_be_outbid(game, player, number):
            slot = self._weakest_objective(game, player)
            if slot is not None and slot[1] <= value - RESERVE_MARGIN:
                return A.reserve_action(number, slot[0])
        return A.bid_action(number)

    def _could_be_outbid(self, game: FiestaMexicana, player: int, number: int) -> bool:
        for other in range(game.num_players):
            if other != player:
                free = game.legal_bids(other)  # numbers above the current high bid
                if free[number:].any():
                    return True
        return False

    def _weakest_objective(self, game: FiestaMexicana, player: int) -> tuple[int, float] | None:
        """The objective slot worth least: its value now plus its prior worth times the table left."""
        bowls = complete_bowls(game.dishes[player], game.edges[player])
        table_left = 1.0 - game.filled[player] / NUM_SPACES
        held = []
        for slot, code in enumerate(game.objectives[player]):
            if code >= 0:
                if is_bowl_objective(code):
                    now = bowl_objective_value(code, bowls)
                else:
                    now = dish_objective_value(code, player, game.dishes)
                held.append((slot, now + PRIOR_VALUE[OBJECTIVE_KINDS[code].kind] * table_left))
        return min(held, key=lambda item: item[1]) if held else None

    def _rotation(self, game: FiestaMexicana, player: int) -> int:
        def openness(left_turns: int) -> tuple[int, ...]:
            orientation = (game.orientation[player] + left_turns) % 4
            free = [v + 1 for v in range(NUM_SPACES) if game.dishes[player][FIXED_OF[orientation][v]] < 0]
            return tuple(sorted(free, reverse=True)[:3])

        # "none" is listed last in ROTATIONS; prefer it on ties by checking it first
        order = [2, 0, 1]
        best = max(order, key=lambda i: (sum(openness(A.ROTATION_TURNS[i])), -order.index(i)))
        return A.ROTATE + best

    def _keep(self, game: FiestaMexicana, player: int) -> int:
        hand = game.hands[player]
        start_dishes = dish_counts(game.dishes[player])

        def worth(code: int) -> float:
            kind = OBJECTIVE_KINDS[code]
            bonus = start_dishes[kind.dish] if kind.kind in (CHILDREN, TEENS) else 0
            return PRIOR_VALUE[kind.kind] + 0.5 * bonus

        choices = valid_keeps(hand)
        best = max(choices, key=lambda i: sum(worth(hand[slot]) for slot in A.KEEP_CHOICES[i]))
        return A.KEEP + best


BASELINES: dict[str, type[Policy]] = {"greedy": GreedyPolicy}
