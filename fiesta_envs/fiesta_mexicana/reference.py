"""Fiesta Mexicana's valuations and action features computed from scratch: what the fast paths must equal.

``valuation`` and ``features`` keep what they compute (once per table position, once per table, in step with
the game) and share it between the action features of every seat, ``greedy`` and the search. The functions
here compute the same numbers from the position alone, plainly, reading no memo and none of the tables the
engine keeps up to date (``facing``): the tests compare the two at every step of fuzzed games, value for value
and byte for byte. Nothing at run time calls them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from fiesta_envs.fiesta_mexicana import actions
from fiesta_envs.fiesta_mexicana.board import FIXED_OF
from fiesta_envs.fiesta_mexicana.components import DISH_CARDS, NUM_SPACES, OBJECTIVE_KINDS
from fiesta_envs.fiesta_mexicana.features import (
    BID_FREE,
    BID_OUTBID,
    BID_POINTS,
    BID_VALUE,
    DISH_VALID,
    FEATURES_SIZE,
    FREE_SPACES,
    OTHER_HIGHEST,
    OTHER_POINTS,
    PLACE_POINTS,
    PLACE_VALUE,
    ROTATE_OPENNESS,
    SLOT_HELD,
    SLOT_WORTH,
)
from fiesta_envs.fiesta_mexicana.scoring import complete_bowls
from fiesta_envs.fiesta_mexicana.valuation import (
    ALL_SPACES,
    FIXED_OF_ARRAY,
    MASKED_THREE_SAME,
    PARTIAL_CREDIT,
    PRIOR_VALUE,
    SHAPES,
    _shape_progress_after,
    bowls_after,
    dish_objective_value,
    facing_of_table,
    is_bowl_objective,
    objective_value,
    points_table,
)

if TYPE_CHECKING:
    from fiesta_envs.fiesta_mexicana.position import FiestaMexicanaPosition as Game


# ---------------------------------------------------------------------------------- valuation
def placement_points_table(game: Game, player: int, card: int) -> np.ndarray:
    """``valuation.placement_points_table``, from the table's dishes and halves."""
    facing = facing_of_table(game.dishes[player], game.edges[player])
    return points_table(card, game.state.orientation[player], facing)


def placements_values(
    game: Game, player: int, where: np.ndarray, card: int, codes: tuple[int, ...], free_space: int | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """``valuation.placements_values`` of the fixed spaces ``where`` with the objectives ``codes`` (the dish
    counts after the placement take the dish on ``free_space``; default: the first of ``where``)."""
    gained = np.maximum(placement_points_table(game, player, card)[where], -game.state.points[player])
    if not codes or len(where) == 0:
        return gained, gained.astype(float)
    dishes = game.dishes[player]
    bowls = complete_bowls(dishes, game.edges[player])
    before = sum(objective_value(code, player, game.dishes, bowls) for code in codes)
    dish = DISH_CARDS[card].dish
    facing = facing_of_table(dishes, game.edges[player])
    new_bowls: np.ndarray | None = None
    all_after: list[list[int]] | None = None
    after: Any = 0
    for code in codes:
        kind = OBJECTIVE_KINDS[code]
        worth: np.ndarray | float
        if is_bowl_objective(code):
            if new_bowls is None:
                new_bowls = bowls_after(card, game.state.orientation[player], facing, where, bowls)
            count = new_bowls.max(axis=2) if kind.kind == MASKED_THREE_SAME else new_bowls.sum(axis=2)
            worth = np.where(
                count >= kind.target, float(kind.points), kind.points * PARTIAL_CREDIT * count / kind.target
            )
        elif kind.kind in SHAPES:
            progress = _shape_progress_after(dishes, kind.kind, where, dish)[:, None]
            worth = np.where(progress == 1.0, float(kind.points), kind.points * PARTIAL_CREDIT * progress**2)
        else:
            if all_after is None:
                all_after = [list(d) for d in game.dishes]
                all_after[player][int(where[0]) if free_space is None else free_space] = dish
            worth = dish_objective_value(code, player, all_after)
        after = after + worth
    return gained, gained + np.broadcast_to(after, gained.shape) - before


def placements_table(game: Game, player: int, card: int, codes: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """``valuation.placements_table``'s points and values (rows of covered spaces: nothing meaningful)."""
    free = np.asarray(game.dishes[player]) < 0
    if not free.any():
        return np.zeros((NUM_SPACES, 4), dtype=np.int64), np.zeros((NUM_SPACES, 4))
    return placements_values(game, player, ALL_SPACES, card, codes, int(free.argmax()))


def best_points(game: Game, player: int, card: int) -> np.ndarray:
    """``valuation.best_points``: the best turn's points after the score floor on each fixed space."""
    gained = np.maximum(placement_points_table(game, player, card), -game.state.points[player])
    return gained.max(axis=1)


def best_by_number(game: Game, player: int, card: int, codes: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """``valuation.best_by_number``: the best turn's points and value on the space reading each number."""
    points, values = placements_table(game, player, card, codes)
    view = FIXED_OF_ARRAY[game.state.orientation[player]]
    return points.max(axis=1)[view], values.max(axis=1)[view]


def best_rotation(game: Game, player: int, space: int) -> tuple[int, float]:
    """``valuation.best_rotation``: the best view rotation for the dish on offer on ``space``, and its value."""
    held = tuple(code for code in game.state.objectives[player] if code >= 0)
    _, values = placements_values(game, player, np.array([space], dtype=np.intp), game.state.offer, held)
    best = max(range(4), key=lambda r: (float(values[0, r]), -r))
    return best, float(values[0, best])


def objective_worths(game: Game, player: int) -> list[float | None]:
    """``valuation.objective_worths``: each slot's worth now plus its prior worth times the share of the table left."""
    bowls = complete_bowls(game.dishes[player], game.edges[player])
    table_left = 1.0 - game.filled[player] / NUM_SPACES
    worths: list[float | None] = []
    for code in game.state.objectives[player]:
        if code < 0:
            worths.append(None)
            continue
        now = objective_value(code, player, game.dishes, bowls)
        worths.append(now + PRIOR_VALUE[OBJECTIVE_KINDS[code].kind] * table_left)
    return worths


# ---------------------------------------------------------------------------------- action features
def _points(points: float) -> float:
    return min(max((points + 4.0) / 20.0, 0.0), 1.0)


def action_features(game: Game, player: int) -> np.ndarray:
    """``features.action_features`` of ``player`` now, every entry computed from the position."""
    state = game.state
    card = state.offer
    n = game.num_players
    seats = [(player + k) % n for k in range(n)]
    orientation = state.orientation[player]
    readable = [[game.dishes[seat][space] < 0 for space in FIXED_OF[state.orientation[seat] % 4]] for seat in seats]
    out = [0.0] * FEATURES_SIZE
    mine = readable[0]
    out[BID_FREE : BID_FREE + NUM_SPACES] = [1.0 if free else 0.0 for free in mine]
    highest = [max((v + 1 for v, free in enumerate(numbers) if free), default=0) for numbers in readable[1:]]
    if highest:
        above = [0] * NUM_SPACES
        for h in highest:
            for v in range(h - 1):
                above[v] += 1
        out[BID_OUTBID : BID_OUTBID + NUM_SPACES] = [count / len(highest) for count in above]
        out[OTHER_HIGHEST : OTHER_HIGHEST + len(highest)] = [h / NUM_SPACES for h in highest]
    out[FREE_SPACES : FREE_SPACES + n] = [sum(numbers) / NUM_SPACES for numbers in readable]
    for slot, worth in enumerate(objective_worths(game, player)):
        if worth is not None:
            out[SLOT_WORTH + slot] = min(worth / 10.0, 1.0)
            out[SLOT_HELD + slot] = 1.0
    dishes = game.dishes[player]
    for choice, turns in enumerate(actions.ROTATION_TURNS):
        numbers = [v + 1 for v, space in enumerate(FIXED_OF[(orientation + turns) % 4]) if dishes[space] < 0]
        out[ROTATE_OPENNESS + choice] = sum(numbers[-3:]) / 45.0
    vector = np.array(out, dtype=np.float32)
    if card < 0:
        return vector
    vector[DISH_VALID] = 1.0
    if any(mine):
        held = tuple(code for code in state.objectives[player] if code >= 0)
        points, values = placements_table(game, player, card, held)
        view = FIXED_OF_ARRAY[orientation % 4]
        block = np.empty(2 * NUM_SPACES)
        block[:NUM_SPACES] = (points.max(axis=1)[view] + 4.0) / 20.0
        block[NUM_SPACES:] = (values.max(axis=1)[view] + 5.0) / 25.0
        np.minimum(np.maximum(block, 0.0, out=block), 1.0, out=block)
        block *= out[BID_FREE : BID_FREE + NUM_SPACES] * 2
        vector[BID_POINTS : BID_VALUE + NUM_SPACES] = block
    for k, other in enumerate(seats[1:]):
        if any(readable[k + 1]):
            other_free = np.asarray(game.dishes[other]) < 0
            best = placement_points_table(game, other, card).max(axis=1)[other_free].max()
            vector[OTHER_POINTS + k] = _points(max(int(best), -state.points[other]))
    if game.phase_name == "place" and state.high_bidder == player:
        space = FIXED_OF[orientation][state.high_bid - 1]
        held = tuple(code for code in state.objectives[player] if code >= 0)
        points, values = placements_values(game, player, np.array([space], dtype=np.intp), card, held)
        vector[PLACE_POINTS : PLACE_POINTS + 4] = np.clip((points[0] + 4.0) / 20.0, 0.0, 1.0)
        vector[PLACE_VALUE : PLACE_VALUE + 4] = np.clip((values[0] + 5.0) / 25.0, 0.0, 1.0)
    return vector
