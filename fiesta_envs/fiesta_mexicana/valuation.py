"""What a dish is worth to a player: the estimates that the ``greedy`` player and the action features share.

Every function reads only what the valuing player may know: the public tables and its own objectives.

- ``placement_values``: for the dish on offer on one space, each of the four turns of the card as
  (points the placement brings now, after the score floor; points plus the change in the estimated
  worth of the player's objectives).
- ``objective_worths``: each held objective slot's estimated worth (what a reserve would give up).

Computed once per table position: ``position_memo`` keeps every answer on the engine until a dish is put on
a table (with its points) or the tables turn, so the action features of every seat, ``greedy`` and the
search read the same numbers during an auction's bids and passes. ``placements_table`` values the dish on
every space at once, ``best_by_number`` its best turn on each number, ``best_points`` the points anybody can
work out for an opponent. What one table alone decides (its bowls, dish counts, seniors' lines, the halves
facing each space, its free numbers as read turned each way: ``table_view``) is kept longer, in ``table_memo``,
until a dish is put on that table; the engine keeps each table's ``facing_halves`` up to date as dishes are
placed. ``reference`` computes every answer from
scratch, without any of these: the tests compare the two at every step of fuzzed games.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

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
    DISHES,
    MASKED_FOUR,
    MASKED_SIX,
    MASKED_THREE_SAME,
    NUM_SPACES,
    OBJECTIVE_KINDS,
    SAUCES,
    SENIORS_LINE_3,
    SENIORS_LINE_4,
    SENIORS_SQUARE,
    TEENS,
)
from fiesta_envs.fiesta_mexicana.scoring import complete_bowls, dish_counts, edge_points

if TYPE_CHECKING:
    from fiesta_envs.fiesta_mexicana.position import FiestaMexicanaPosition as Game  # the engine, as read here

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
        return teens_value(code, player, [dish_counts(table)[kind.dish] for table in all_dishes])
    return shape_value(code, shape_progress(dishes, SHAPES[kind.kind]))


def teens_value(code: int, player: int, counts: list[int]) -> float:
    """Estimated worth of a teens objective given every table's count of its dish."""
    kind = OBJECTIVE_KINDS[code]
    mine, best_other = counts[player], max(c for p, c in enumerate(counts) if p != player)
    leading = mine >= 1 and mine >= best_other
    return kind.points * (0.8 if leading else 0.2 * mine / (best_other + 1)) + 0.3 * mine


def shape_value(code: int, progress: float) -> float:
    """Estimated worth of a seniors objective given its ``shape_progress``."""
    kind = OBJECTIVE_KINDS[code]
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


def objective_value(code: int, player: int, all_dishes: list[list[int]], bowls: list[int]) -> float:
    """Estimated worth of objective ``code`` now for ``player`` (``bowls``: the player's complete bowls)."""
    if is_bowl_objective(code):
        return bowl_objective_value(code, bowls)
    return dish_objective_value(code, player, all_dishes)


def objectives_value(game: Game, player: int, all_dishes: list[list[int]], bowls: list[int]) -> float:
    """Estimated worth of all of ``player``'s held objectives."""
    return sum(objective_value(code, player, all_dishes, bowls) for code in game.state.objectives[player] if code >= 0)


def objective_value_now(game: Game, code: int, player: int) -> float:
    """``objective_value`` of ``code`` for ``player`` in the game's position (once per table position)."""
    values = position_memo(game).objective_values
    value = values.get((player, code))
    if value is None:
        value = values[(player, code)] = _objective_value_now(game, code, player)
    return value


def _objective_value_now(game: Game, code: int, player: int) -> float:
    kind = OBJECTIVE_KINDS[code]
    if is_bowl_objective(code):
        return bowl_objective_value(code, table_bowls(game, player))
    if kind.kind == CHILDREN:
        return float(table_memo(game, player).counts()[kind.dish])
    if kind.kind == TEENS:
        return teens_value(code, player, [table_memo(game, p).counts()[kind.dish] for p in range(game.num_players)])
    return shape_value(code, table_memo(game, player).shape_progress(kind.kind))


# ---------------------------------------------------------------------------------- placement tables
ALL_SPACES = np.arange(NUM_SPACES)
#: NEIGHBOUR[s, d]: the space next to fixed space s in direction d (N, E, S, W), or NUM_SPACES outside.
NEIGHBOUR = np.full((NUM_SPACES, 4), NUM_SPACES, dtype=np.intp)
for _space in range(NUM_SPACES):
    for _direction, _other in NEIGHBOURS[_space]:
        NEIGHBOUR[_space, _direction] = _other
#: FACING[d]: the edge of the neighbour in direction d that touches (its opposite edge).
FACING = np.array(OPPOSITE, dtype=np.intp)
#: EDGE_POINTS[mine + 1, theirs + 2]: one touching edge's points (``scoring.edge_points``); theirs = -2
#: means no card there (nothing scores), -1 a card without a half on that edge.
EDGE_POINTS = np.array(
    [[0] + [edge_points(mine, theirs) for theirs in range(-1, len(SAUCES))] for mine in range(-1, len(SAUCES))],
    dtype=np.int64,
)
#: CARD_EDGES[card, r]: the card's halves N, E, S, W after r clockwise quarter turns (fixed frame).
CARD_EDGES = np.array(ROTATED_EDGES, dtype=np.int64)
SHAPE_CELLS = {kind: np.array(cells, dtype=np.intp) for kind, cells in SHAPES.items()}
#: SHAPE_MEMBER[kind][s, line]: fixed space s is one of the cells of that shape's line.
SHAPE_MEMBER = {
    kind: (cells[None, :, :] == ALL_SPACES[:, None, None]).any(axis=2) for kind, cells in SHAPE_CELLS.items()
}
#: MINE[card, o, r]: the card's halves N, E, S, W (fixed frame) when a player whose table is turned o times left
#: places it turned r times clockwise as seen (``place r``).
MINE = CARD_EDGES[:, (np.arange(4)[:, None] + np.arange(4)[None, :]) % 4]
#: EDGE_PARTS[card, o, d, theirs + 2, r]: what edge d of that placement scores against the half ``theirs``.
EDGE_PARTS = np.ascontiguousarray(np.moveaxis(EDGE_POINTS[MINE + 1], 2, -1))
#: EDGE_PARTS_BY_HALF[card, o, 6 * d + theirs + 2, r]: ``EDGE_PARTS`` with each edge's six halves in one axis, to
#: multiply with a table's ``TableMemo.facing_one_hot``.
EDGE_PARTS_BY_HALF = np.ascontiguousarray(EDGE_PARTS.reshape(len(DISH_CARDS), 4, 4 * (len(SAUCES) + 2), 4))
SKULLS = np.array([card.skulls for card in DISH_CARDS], dtype=np.int64)
#: HALF_ONE_HOT[h + 2]: the six possible halves facing an edge (``facing_halves``), one-hot.
HALF_ONE_HOT = np.eye(len(SAUCES) + 2, dtype=np.int64)
#: JOINS[card, o, r, d, c]: 1 when that placement (as in ``MINE``) has a half of colour c on edge d: it closes a
#: bowl of colour c wherever the neighbour's half facing edge d has that colour.
JOINS = ((MINE >= 0)[..., None] & (MINE[..., None] == np.arange(len(SAUCES)))).astype(np.int64)
#: JOINS_BY_HALF[card, o, 6 * d + theirs + 2, r]: 1 when that placement closes a bowl against the half ``theirs``
#: facing edge d (all colours together: a table's ``facing_one_hot`` times this counts the bowls it closes).
#: JOINS_BY_COLOUR[card, o, 6 * d + theirs + 2, 4 * r + c]: 1 when that placement closes a bowl of colour c against
#: the half ``theirs`` facing edge d (a table's ``facing_one_hot`` times this counts the bowls closed per colour).
JOINS_BY_COLOUR = np.zeros((len(DISH_CARDS), 4, 4 * (len(SAUCES) + 2), 4 * len(SAUCES)), dtype=np.int64)
for _d in range(4):
    for _c in range(len(SAUCES)):
        JOINS_BY_COLOUR[:, :, 6 * _d + _c + 2, _c :: len(SAUCES)] = JOINS[:, :, :, _d, _c]
JOINS_BY_HALF = np.ascontiguousarray(
    np.pad(np.moveaxis(JOINS, 2, -1), [(0, 0), (0, 0), (0, 0), (2, 0), (0, 0)]).reshape(len(DISH_CARDS), 4, -1, 4)
)
DIRECTIONS = np.arange(4)[None, :]  # broadcast against a table's (16, 4) halves
#: FIXED_OF_ARRAY[o, v]: the fixed space read as number v + 1 on a table turned o times left.
FIXED_OF_ARRAY = np.array(FIXED_OF, dtype=np.intp)


def facing_halves(game: Game, player: int) -> np.ndarray:
    """(16, 4): for each fixed space and direction, the half that a card placed there would touch
    (-2: no card there or the border, -1: a card without a half on that edge, else its colour).
    The engine's array (``FiestaMexicana.facing``), kept up to date as dishes are placed: read, do not keep."""
    return game.facing[player]


def facing_of_table(dishes: list[int], edges: list[tuple[int, int, int, int]]) -> np.ndarray:
    """``facing_halves`` of one table computed from its dishes and edges (a new, writable array)."""
    dishes_with_border = np.append(np.asarray(dishes), -1)
    edges_with_border = np.vstack([np.asarray(edges, dtype=np.int64), np.full((1, 4), -1)])
    halves = edges_with_border[NEIGHBOUR, FACING]
    return np.where(dishes_with_border[NEIGHBOUR] >= 0, halves, -2)


def put_facing(facing: np.ndarray, space: int, edges: tuple[int, int, int, int]) -> None:
    """Update a table's ``facing_halves`` for a card with ``edges`` (fixed frame) put on ``space``."""
    for direction, neighbour in NEIGHBOURS[space]:
        facing[neighbour, OPPOSITE[direction]] = edges[direction]


def placement_points_table(game: Game, player: int, card: int) -> np.ndarray:
    """(16, 4) int: points ``card`` brings on each fixed space of ``player``'s table turned r clockwise
    quarter turns in the player's view (``place r``), before the score floor (covered spaces included).
    Computed once per table position (``position_memo``): read it, do not change it."""
    memo = position_memo(game)
    table = memo.points_tables.get((player, card))
    if table is None:
        parts = EDGE_PARTS_BY_HALF[card, game.state.orientation[player]]
        table = SKULLS[card] + table_memo(game, player).facing_one_hot() @ parts
        memo.points_tables[(player, card)] = read_only(table)
    return table


def _shape_progress_after(dishes: list[int], kind: str, spaces: np.ndarray, dish: int) -> np.ndarray:
    """``shape_progress`` of each table that has ``dish`` put on one of ``spaces`` (one value per space)."""
    cells = SHAPE_CELLS[kind]  # (L, k)
    placed = np.where(cells[None, :, :] == spaces[:, None, None], dish, np.asarray(dishes)[cells][None, :, :])
    present = placed >= 0
    filled = present.sum(axis=2)
    one_kind = (filled > 0) & (placed.max(axis=2) == np.where(present, placed, len(DISHES)).min(axis=2))
    return np.where(one_kind, filled / cells.shape[1], 0.0).max(axis=1)


def placements_values(
    game: Game, player: int, spaces: list[int], card: int, objectives: list[int] | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """For ``card`` on each of the fixed ``spaces`` (uncovered) of ``player``'s table, per view rotation
    0..3 (``place R``): the points it brings now after the score floor (int, (S, 4)) and those points plus
    the change in the estimated worth of the player's objectives (float, (S, 4)).

    ``objectives`` (codes) replaces the objectives the player holds: a subset values the dish as if the
    others were given up (a reserve), ``[]`` values points only (what anybody can work out for an opponent).
    The same numbers as valuing each placement on its own (``objectives_value`` before and after), computed
    for all spaces and turns at once, and for every uncovered space once per table position
    (``position_memo``): the action features, ``greedy`` and the search read the same table.
    """
    held = game.state.objectives[player] if objectives is None else objectives
    codes = tuple(code for code in held if code >= 0)
    where = np.asarray(spaces, dtype=np.intp)
    points_of, values_of, free = placements_table(game, player, card, codes)
    if not free[where].all():  # a covered space: valued on its own, as asked
        return _placements_values(game, player, where, card, codes)
    return points_of[where], values_of[where]


def placements_table(
    game: Game, player: int, card: int, codes: tuple[int, ...]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``placements_values`` of every fixed space (rows of covered spaces hold nothing meaningful), with the
    objectives ``codes``, and which spaces are uncovered (bool, (16,)); once per table position: read only."""
    memo = position_memo(game)
    key = (player, card, codes)
    found = memo.placements.get(key)
    if found is None:
        table = table_memo(game, player)
        spaces = table.free_spaces()
        if not codes:  # points only: every space at once
            points, values = _placements_values(game, player, ALL_SPACES, card, codes)
        else:  # the uncovered spaces only: nobody reads the rows of covered ones
            points, values = np.zeros((NUM_SPACES, 4), dtype=np.int64), np.zeros((NUM_SPACES, 4))
            if len(spaces):
                points[spaces], values[spaces] = _placements_values(game, player, spaces, card, codes, all_free=True)
        found = memo.placements[key] = (read_only(points), read_only(values), table.free())
    return found


def _placements_values(
    game: Game, player: int, where: np.ndarray, card: int, codes: tuple[int, ...], all_free: bool = False
) -> tuple[np.ndarray, np.ndarray]:
    """``placements_values`` of the fixed spaces ``where`` with the objectives ``codes``, computed now. Each row
    is computed on its own (any ``where`` gives the same row for a space); the dish counts after the placement
    take the dish on the first of ``where`` (replacing a dish there). ``all_free``: ``where`` are the table's
    uncovered spaces (``TableMemo.free_spaces``), whose shapes the table's memo keeps line by line."""
    gained = np.maximum(placement_points_table(game, player, card)[where], -game.state.points[player])
    if not codes or len(where) == 0:
        return gained, gained.astype(float)
    before = sum(objective_value_now(game, code, player) for code in codes)
    dish = DISH_CARDS[card].dish
    total_bowls: np.ndarray | None = None
    counts_after: list[list[int]] | None = None
    after: Any = 0
    for code in codes:
        kind = OBJECTIVE_KINDS[code]
        worth: np.ndarray | float  # per placement, or the same for every one (children and teens)
        if is_bowl_objective(code):
            if kind.kind == MASKED_THREE_SAME:
                joins = JOINS_BY_COLOUR[card, game.state.orientation[player]]
                closed = table_memo(game, player).facing_one_hot()[where] @ joins  # (S, r * colour)
                count = (table_bowls(game, player) + closed.reshape(len(where), 4, len(SAUCES))).max(axis=2)
            else:  # all colours together: the bowls there are, plus those the placement closes
                if total_bowls is None:
                    joins = JOINS_BY_HALF[card, game.state.orientation[player]]
                    total_bowls = (
                        sum(table_bowls(game, player)) + table_memo(game, player).facing_one_hot()[where] @ joins
                    )
                count = total_bowls
            worth = np.where(
                count >= kind.target, float(kind.points), kind.points * PARTIAL_CREDIT * count / kind.target
            )
        elif kind.kind in SHAPES:
            if all_free:
                progress = table_memo(game, player).shape_progress_after(kind.kind, dish)[:, None]
            else:
                progress = _shape_progress_after(game.dishes[player], kind.kind, where, dish)[:, None]
            worth = np.where(progress == 1.0, float(kind.points), kind.points * PARTIAL_CREDIT * progress**2)
        else:  # children and teens: the same wherever the dish goes
            if counts_after is None:
                counts_after = _counts_after(game, player, int(where[0]), dish)
            counts = [table[kind.dish] for table in counts_after]
            worth = float(counts[player]) if kind.kind == CHILDREN else teens_value(code, player, counts)
        after = after + worth
    return gained, gained + after - before


def _counts_after(game: Game, player: int, space: int, dish: int) -> list[list[int]]:
    """Every table's ``dish_counts`` once ``dish`` is put on ``space`` of ``player``'s table (replacing any dish)."""
    counts = [table_memo(game, p).counts() for p in range(game.num_players)]
    mine = list(counts[player])
    mine[dish] += 1
    replaced = game.dishes[player][space]
    if replaced >= 0:
        mine[replaced] -= 1
    counts[player] = mine
    return counts


def bowls_after(card: int, orientation: int, facing: np.ndarray, where: np.ndarray, bowls: list[int]) -> np.ndarray:
    """(S, r, colour): the complete bowls of a table turned ``orientation`` times left, with ``facing`` halves
    (``facing_halves``) and ``bowls`` complete, once ``card`` is put on each of ``where`` in each turn r."""
    mine = MINE[card, orientation]  # (r, d)
    theirs = facing[where]  # (S, d)
    joined = (mine[None, :, :] >= 0) & (mine[None, :, :] == theirs[:, None, :])  # (S, r, d): complete bowls
    return np.asarray(bowls)[None, None, :] + (
        joined[..., None] & (mine[None, :, :, None] == np.arange(len(SAUCES)))
    ).sum(axis=2)


def points_table(card: int, orientation: int, facing: np.ndarray) -> np.ndarray:
    """(16, 4) int: ``placement_points_table`` of a table turned ``orientation`` times left with ``facing`` halves."""
    parts = EDGE_PARTS[card, orientation]  # (d, theirs + 2, r)
    return SKULLS[card] + parts[DIRECTIONS, facing + 2].sum(axis=1)


def placement_values(game: Game, player: int, space: int, card: int) -> list[tuple[int, float]]:
    """``placements_values`` for one space, as (points, value) per view rotation 0..3."""
    points, values = placements_values(game, player, [space], card)
    return [(int(p), float(v)) for p, v in zip(points[0], values[0], strict=True)]


def best_rotation(game: Game, player: int, space: int) -> tuple[int, float]:
    """The best view rotation for the dish on offer on ``space`` and the value it brings (first of equals)."""
    values = [value for _, value in placement_values(game, player, space, game.state.offer)]
    best = max(range(4), key=lambda r: (values[r], -r))
    return best, values[best]


def objective_worths(game: Game, player: int) -> list[float | None]:
    """Per objective slot 0..2, its worth now plus its prior worth times the share of the table left
    (None for an empty slot): what discarding it with a reserve gives up (once per table position)."""
    memo = position_memo(game)
    key = (player, tuple(game.state.objectives[player]))
    worths = memo.worths.get(key)
    if worths is None:
        worths = memo.worths[key] = _objective_worths(game, player)
    return list(worths)


def best_points(game: Game, player: int, card: int) -> np.ndarray:
    """For ``card`` on each fixed space of ``player``'s table, the points of its best turn after the score floor
    (what anybody can work out for an opponent; covered spaces included). Once per table position: read only."""
    memo = position_memo(game)
    key = (player, card)
    found = memo.best_points.get(key)
    if found is None:
        best = np.maximum(placement_points_table(game, player, card).max(axis=1), -game.state.points[player])
        found = memo.best_points[key] = read_only(best)
    return found


def _objective_worths(game: Game, player: int) -> list[float | None]:
    table_left = 1.0 - game.filled[player] / NUM_SPACES
    worths: list[float | None] = []
    for code in game.state.objectives[player]:
        if code < 0:
            worths.append(None)
            continue
        now = objective_value_now(game, code, player)
        worths.append(now + PRIOR_VALUE[OBJECTIVE_KINDS[code].kind] * table_left)
    return worths


def best_by_number(game: Game, player: int, card: int, codes: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """For ``card`` on the space reading each number 1..16 of ``player``'s table (entry n - 1), its best turn's
    points and value (``placements_table``'s rows maximised, in the order the player reads the numbers; entries
    of covered numbers hold nothing meaningful): the bid features and ``greedy``'s bids read the same arrays.
    Once per table position: read only."""
    memo = position_memo(game)
    key = (player, card, codes)
    found = memo.best.get(key)
    if found is None:
        view = FIXED_OF_ARRAY[game.state.orientation[player]]
        if codes:
            points, values, _ = placements_table(game, player, card, codes)
            top_points, top_values = points.max(axis=1)[view], values.max(axis=1)[view]
        else:  # the values are the points: those anybody can work out (``best_points``)
            top_points = best_points(game, player, card)[view]
            top_values = top_points.astype(float)
        found = memo.best[key] = (read_only(top_points), read_only(top_values))
    return found


# ---------------------------------------------------------------------------------- once per position
class PositionMemo:
    """What the valuation computed for one table position: every player's tables, table turns and points as
    they stand. Bids and passes leave it valid (an auction values the same dish on the same tables again and
    again); the engine drops it when a dish is put on a table (scoring its points) or the tables turn, and when
    it loads a position (``forget_position_memo``)."""

    __slots__ = ("best", "best_points", "derived", "objective_values", "placements", "points_tables", "worths")

    def __init__(self) -> None:
        self.points_tables: dict[tuple[int, int], np.ndarray] = {}
        self.placements: dict[tuple[Any, ...], tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        self.best: dict[tuple[Any, ...], tuple[np.ndarray, np.ndarray]] = {}
        self.best_points: dict[tuple[int, int], np.ndarray] = {}
        self.worths: dict[tuple[Any, ...], list[float | None]] = {}
        self.objective_values: dict[tuple[int, int], float] = {}
        #: what other modules derive from the same position (the action features), under keys of their own
        self.derived: dict[tuple[Any, ...], Any] = {}


class TableMemo:
    """What one table's dishes and halves alone decide, computed when first asked: kept by the engine
    (``table_memo``) until a dish is put on that table, however the tables turn or the points change."""

    __slots__ = (
        "_bowls",
        "_counts",
        "_dishes",
        "_edges",
        "_facing",
        "_free",
        "_lines",
        "_one_hot",
        "_progress",
        "views",
    )

    def __init__(self, dishes: list[int], edges: list[tuple[int, int, int, int]], facing: np.ndarray) -> None:
        self._dishes, self._edges, self._facing = dishes, edges, facing
        self._bowls: list[int] | None = None
        self._counts: list[int] | None = None
        self._free: tuple[np.ndarray, np.ndarray] | None = None
        self._progress: dict[str, float] = {}
        self._lines: dict[str, ShapeLines] = {}
        self._one_hot: np.ndarray | None = None
        #: ``table_view`` per orientation
        self.views: dict[int, TableView] = {}

    def bowls(self) -> list[int]:
        """``scoring.complete_bowls`` of the table (read, do not change)."""
        if self._bowls is None:
            self._bowls = complete_bowls(self._dishes, self._edges)
        return self._bowls

    def counts(self) -> list[int]:
        """``scoring.dish_counts`` of the table (read, do not change)."""
        if self._counts is None:
            self._counts = dish_counts(self._dishes)
        return self._counts

    def shape_progress(self, kind: str) -> float:
        """``shape_progress`` of the table for the seniors' shape ``kind`` (its best line now)."""
        progress = self._progress.get(kind)
        if progress is None:
            progress = self._progress[kind] = float(self._shape_lines(kind).now.max())
        return progress

    def free(self) -> np.ndarray:
        """bool (16,): the uncovered fixed spaces (read only)."""
        return self._free_spaces()[0]

    def free_spaces(self) -> np.ndarray:
        """The uncovered fixed spaces, rising (read only)."""
        return self._free_spaces()[1]

    def _free_spaces(self) -> tuple[np.ndarray, np.ndarray]:
        if self._free is None:
            free = [dish < 0 for dish in self._dishes]
            spaces = [space for space, uncovered in enumerate(free) if uncovered]
            self._free = (read_only(np.array(free)), read_only(np.array(spaces, dtype=np.intp)))
        return self._free

    def facing_one_hot(self) -> np.ndarray:
        """int (16, 24): 1 at column 6 * d + h + 2 where the half facing fixed space s in direction d is h
        (``facing_halves``: -2 nothing, -1 no half, else a colour)."""
        if self._one_hot is None:
            self._one_hot = read_only(HALF_ONE_HOT[self._facing + 2].reshape(NUM_SPACES, -1))
        return self._one_hot

    def shape_progress_after(self, kind: str, dish: int) -> np.ndarray:
        """``_shape_progress_after`` of ``dish`` on each uncovered space (``free_spaces``), from the lines."""
        return self._shape_lines(kind).progress_after(dish)

    def _shape_lines(self, kind: str) -> ShapeLines:
        lines = self._lines.get(kind)
        if lines is None:
            lines = self._lines[kind] = ShapeLines(self._dishes, kind, self.free_spaces())
        return lines


class ShapeLines:
    """The lines of one seniors' shape on a table: how far each is filled with one dish, now and once a dish is
    put on an uncovered space of it (``TableMemo.shape_progress_after``)."""

    __slots__ = ("empty", "grown", "member", "now", "single")

    def __init__(self, dishes: list[int], kind: str, free_spaces: np.ndarray) -> None:
        cells = SHAPE_CELLS[kind]
        on_cells = np.asarray(dishes)[cells]  # (L, k)
        present = on_cells >= 0
        filled = present.sum(axis=1)
        lowest, highest = np.where(present, on_cells, len(DISHES)).min(axis=1), on_cells.max(axis=1)
        one_kind = (filled > 0) & (lowest == highest)
        #: bool (S, L): uncovered space S lies on the line
        self.member = SHAPE_MEMBER[kind][free_spaces]
        #: each line's ``shape_progress`` now (share filled with one dish, else 0)
        self.now = np.where(one_kind, filled / cells.shape[1], 0.0)
        #: the line's share once one more cell is covered
        self.grown = (filled + 1) / cells.shape[1]
        #: lines with nothing on them yet, and the one dish on each line holding only that dish (else -1)
        self.empty, self.single = filled == 0, np.where(one_kind, lowest, -1)

    def progress_after(self, dish: int) -> np.ndarray:
        """``shape_progress`` once ``dish`` is put on each uncovered space: each line through the space grows if
        it held nothing or only ``dish``, and is worth nothing otherwise; the others stay as they are."""
        after = np.where(self.empty | (self.single == dish), self.grown, 0.0)
        return np.where(self.member, after, self.now).max(axis=1)


class TableView:
    """One table's uncovered spaces as its owner reads them with the table turned one way: what bids, the bid
    features and table turns read (``table_view``: kept per table and orientation until a dish is put on it)."""

    __slots__ = ("_flags", "_twice", "free", "highest", "indices", "top_three")

    def __init__(self, dishes: list[int], orientation: int) -> None:
        #: n - 1 for each free number n, rising
        self.indices = tuple(v for v, space in enumerate(FIXED_OF[orientation]) if dishes[space] < 0)
        #: the uncovered spaces
        self.free = len(self.indices)
        #: the highest free number (0: none)
        self.highest = self.indices[-1] + 1 if self.indices else 0
        #: the three highest free numbers, summed
        self.top_three = sum(self.indices[-3:]) + len(self.indices[-3:])
        self._flags: list[float] | None = None
        self._twice: np.ndarray | None = None

    def free_flags(self) -> list[float]:
        """1.0 for each free number 1..16, else 0.0 (the ``bid N`` free block; read, do not change)."""
        if self._flags is None:
            flags = [0.0] * NUM_SPACES
            for v in self.indices:
                flags[v] = 1.0
            self._flags = flags
        return self._flags

    def free_twice(self) -> np.ndarray:
        """``free_flags`` twice, to zero both bid blocks of covered numbers at once (read only)."""
        if self._twice is None:
            self._twice = read_only(np.array(self.free_flags() * 2))
        return self._twice


def table_view(game: Game, player: int, orientation: int) -> TableView:
    """``player``'s table as read turned ``orientation`` times left (``TableView``; kept in its ``table_memo``)."""
    views = table_memo(game, player).views
    view = views.get(orientation)
    if view is None:
        view = views[orientation] = TableView(game.dishes[player], orientation)
    return view


def table_memo(game: Game, player: int) -> TableMemo:
    """``player``'s ``TableMemo`` (a new one after the engine dropped the last: a dish was put on the table)."""
    memo: TableMemo | None = game.table_memos[player]
    if memo is None:
        memo = game.table_memos[player] = TableMemo(game.dishes[player], game.edges[player], game.facing[player])
    return memo


def position_memo(game: Game) -> PositionMemo:
    """The game's ``PositionMemo`` (its ``valuation_memo``; a new one after the engine dropped the last)."""
    memo: PositionMemo | None = game.valuation_memo
    if memo is None:
        memo = game.valuation_memo = PositionMemo()
    return memo


def forget_position_memo(game: Game) -> None:
    """Drop what was computed for the position held so far (the tables, their turns or the points changed)."""
    game.valuation_memo = None


def table_bowls(game: Game, player: int) -> list[int]:
    """``scoring.complete_bowls`` of ``player``'s table (``table_memo``: read, do not change)."""
    return table_memo(game, player).bowls()


def read_only(array: np.ndarray) -> np.ndarray:
    """``array``, made read-only (a memo's entries are shared by every reader)."""
    array.flags.writeable = False
    return array
