"""Action features of Fiesta Mexicana (option ``action_features=True``): what each action would bring.

The plain observation describes the tables as printed; what a bid or a turn of the card would score
has to be computed from it (the dish's halves against each neighbour's, in the right frame), which is
a local calculation a small network learns badly. These ``FEATURES_SIZE = 92`` entries give it
directly, aligned with the actions, every entry in [0, 1]. Only what the observer may know goes in:
the public tables and its own objectives. Seats are relative (1 = next clockwise), padded to 3.

=======  ====  ======================================================================================
start    size  entries
=======  ====  ======================================================================================
0        16    ``bid N``: best points the dish on offer brings now on the space reading N (over its
               four turns, after the score floor), ``(points + 4) / 20``; 0 when the space is covered
16       16    ``bid N``: the same plus the change in the estimated worth of the observer's
               objectives (``valuation.placement_values``), ``(value + 5) / 25`` clipped
32       16    ``bid N``: 1 when the space reading N is uncovered
48       16    ``bid N``: share of the other players who have an uncovered number above N (could outbid)
64       4     ``place R``: points of that turn on the winning space (the winner, while placing)
68       4     ``place R``: points plus the change in the objectives' worth, scaled as above
72       3     ``reserve N drop K``: estimated worth of objective slot K (what discarding it gives up) / 10
75       3     slot K holds an objective
78       3     each other player: best points the dish on offer would bring them, ``(points + 4) / 20``
81       3     each other player: their highest uncovered number / 16
84       3     ``rotate left|right|none``: the three highest uncovered numbers after the turn, summed / 45
87       4     uncovered spaces / 16: the observer, then each other player (how near the end is)
91       1     1 while a dish is on offer or being placed (the dish blocks are meaningful)
=======  ====  ======================================================================================
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

import numpy as np

from fiesta_envs.fiesta_mexicana import actions
from fiesta_envs.fiesta_mexicana.components import NUM_SPACES
from fiesta_envs.fiesta_mexicana.valuation import (
    FIXED_OF_ARRAY,
    best_by_number,
    best_points,
    objective_worths,
    placements_values,
    position_memo,
    read_only,
    table_memo,
    table_view,
)

if TYPE_CHECKING:
    from fiesta_envs.fiesta_mexicana.position import FiestaMexicanaPosition as Game  # the engine, as read here

MAX_OTHERS = 3
BID_POINTS, BID_VALUE, BID_FREE, BID_OUTBID = 0, 16, 32, 48
PLACE_POINTS, PLACE_VALUE = 64, 68
SLOT_WORTH, SLOT_HELD = 72, 75
OTHER_POINTS, OTHER_HIGHEST = 78, 81
ROTATE_OPENNESS = 84
FREE_SPACES = 87
DISH_VALID = 91
FEATURES_SIZE = 92


def _points(points: float) -> float:
    return min(max((points + 4.0) / 20.0, 0.0), 1.0)


def action_features(game: Game, player: int) -> np.ndarray:
    """The ``FEATURES_SIZE`` action features of ``player`` now (see the module docstring).

    Everything but the ``place R`` entries depends only on the tables, the dish on offer and the player's
    objectives, which bids and passes leave alone: that part is computed once per table position
    (``valuation.position_memo``) and copied; the ``place R`` entries are added while the player places.
    ``reference.action_features`` computes the same from scratch.
    """
    card = game.state.offer
    memo = position_memo(game)
    key = (FEATURES_SIZE, player, card, tuple(game.state.objectives[player]))
    known = memo.derived.get(key)
    if known is None:
        known = memo.derived[key] = read_only(_position_features(game, player, card))
    out = known.copy()
    if card >= 0 and game.phase_name == "place" and game.state.high_bidder == player:
        _place_features(game, player, card, out)
    return out


def _place_features(game: Game, player: int, card: int, out: np.ndarray) -> None:
    """The ``place R`` entries of the winner placing ``card``."""
    view = FIXED_OF_ARRAY[game.state.orientation[player]]
    points, values = placements_values(game, player, [view[game.state.high_bid - 1]], card)
    place = (np.concatenate((points[0], values[0])) + _PLACE_OFFSETS) / _PLACE_SCALES  # as the bid blocks
    out[PLACE_POINTS : PLACE_VALUE + 4] = np.minimum(np.maximum(place, 0.0), 1.0)


_BID_OFFSETS = np.repeat([4.0, 5.0], NUM_SPACES)
_BID_SCALES = np.repeat([20.0, 25.0], NUM_SPACES)
_PLACE_OFFSETS = np.repeat([4.0, 5.0], 4)
_PLACE_SCALES = np.repeat([20.0, 25.0], 4)


@functools.lru_cache(maxsize=1024)
def _outbid_shares(highest: tuple[int, ...]) -> tuple[float, ...]:
    """The ``bid N`` outbid block: per number, the share of the other players whose ``highest`` free number is
    above it."""
    above = [0] * NUM_SPACES  # above[v]: the other players with a free number above v + 1
    for h in highest:
        for v in range(h - 1):
            above[v] += 1
    return tuple(count / len(highest) for count in above)


def _position_features(game: Game, player: int, card: int) -> np.ndarray:
    """Every entry but ``place R``: what the tables, the dish ``card`` on offer and the objectives give.

    The blocks of 16 or fewer entries are worked out on lists (faster than arrays that small), every value
    as a float64 that becomes the same float32 as it would assigned into an array."""
    state = game.state
    n = game.num_players
    seats = [(player + k) % n for k in range(n)]  # the observer first, then clockwise
    orientation = state.orientation[player]
    views = [table_view(game, seat, state.orientation[seat]) for seat in seats]
    mine = views[0]
    out = [0.0] * FEATURES_SIZE
    out[BID_FREE : BID_FREE + NUM_SPACES] = mine.free_flags()
    highest = tuple(view.highest for view in views[1:])
    if highest:
        out[BID_OUTBID : BID_OUTBID + NUM_SPACES] = _outbid_shares(highest)
        out[OTHER_HIGHEST : OTHER_HIGHEST + len(highest)] = [h / NUM_SPACES for h in highest]
    out[FREE_SPACES : FREE_SPACES + n] = [view.free / NUM_SPACES for view in views]
    for slot, worth in enumerate(objective_worths(game, player)):
        if worth is not None:
            out[SLOT_WORTH + slot] = min(worth / 10.0, 1.0)
            out[SLOT_HELD + slot] = 1.0
    for choice, turns in enumerate(actions.ROTATION_TURNS):
        out[ROTATE_OPENNESS + choice] = table_view(game, player, (orientation + turns) % 4).top_three / 45.0
    vector = np.array(out, dtype=np.float32)
    if card < 0:
        return vector
    vector[DISH_VALID] = 1.0
    if mine.free:  # each free number: the best turn on the space it reads (every space valued once, in memo)
        held = tuple(code for code in state.objectives[player] if code >= 0)
        # bid N: points, then value, of the best turn on the space reading N: (points + 4) / 20, (value + 5) / 25
        block = (np.concatenate(best_by_number(game, player, card, held)) + _BID_OFFSETS) / _BID_SCALES
        np.minimum(np.maximum(block, 0.0, out=block), 1.0, out=block)  # clipped to [0, 1], so 0 * entry is 0.0
        block *= mine.free_twice()  # covered numbers: 0
        vector[BID_POINTS : BID_VALUE + NUM_SPACES] = block
    for k, other in enumerate(seats[1:]):
        if views[k + 1].free:
            best = best_points(game, other, card)[table_memo(game, other).free()].max()
            vector[OTHER_POINTS + k] = _points(int(best))
    return vector
