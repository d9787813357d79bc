"""Final scoring: majorities with their tie splits, the score breakdown, achievements, solo rank.

``score_breakdown`` works every source of points out from the sheets. ``score_totals`` gives the same totals
from a memo (the reward shaping asks for them after every step): the totals follow from a few facts of each
sheet (``scoring_facts``), and games repeat those facts far more often than they change them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fiesta_envs.tequila import components, farm, speedups
from fiesta_envs.tequila.sheet import MARKET_BONUS, MARKET_BONUS_COLUMNS, SECTION_BONUS, TEQUILA_BONUS, Sheet


def place_awards(counts: Sequence[int], values: Sequence[int]) -> list[int]:
    """Points per player for a majority: ``values[k]`` is worth place k (later places 0).

    Tied players add the values of the places they span and split them rounded down; the next
    place gains nothing. A count of 0 never takes a place.
    """
    awards = [0] * len(counts)
    position = 0
    for value in sorted({c for c in counts if c > 0}, reverse=True):
        tied = [i for i, c in enumerate(counts) if c == value]
        pot = sum(values[position : position + len(tied)])
        for i in tied:
            awards[i] = pot // len(tied)
        position += len(tied)
    return awards


def majority_awards(counts: Sequence[int], left: int, right: int, solo_minimum: int) -> list[int]:
    """Majority points for each player under the player-count rules.

    1 player: ``right`` when the count reaches ``solo_minimum``. 2 players: ``right`` for the
    most. 3-4 players: ``left`` for the most, ``right`` for second. 5 or more: each player
    contests only with their two neighbours, for ``right``.
    """
    n = len(counts)
    if n == 1:
        return [right if counts[0] >= solo_minimum else 0]
    if n == 2:
        return place_awards(counts, (right,))
    if n <= 4:
        return place_awards(counts, (left, right))
    awards = []
    for p in range(n):
        trio = ((p - 1) % n, p, (p + 1) % n)
        awards.append(place_awards([counts[q] for q in trio], (right,))[1])
    return awards


BREAKDOWN_KEYS: tuple[str, ...] = (
    "unused_gears",
    "coin_track",
    "production_tracks",
    "collections",
    "sections_first",
    "first_to_bonuses",
    "market_spaces",
    "tequila_majorities",
    "market_majority",
)


def majority_points(sheets: Sequence[Sheet]) -> tuple[list[int], list[int]]:
    """Each player's points from the tequila majorities, and from the market majority."""
    n = len(sheets)
    tequila_majority = [0] * n
    for t, (left, right) in enumerate(components.TEQUILA_MAJORITY):
        awards = majority_awards([s.production[t] for s in sheets], left, right, components.SOLO_TEQUILA_MINIMUM)
        tequila_majority = [a + b for a, b in zip(tequila_majority, awards, strict=True)]
    market_majority = majority_awards(
        [s.market_count() for s in sheets], *components.MARKET_MAJORITY, components.SOLO_MARKET_MINIMUM
    )
    return tequila_majority, market_majority


def own_points(s: Sheet) -> dict[str, int]:
    """A player's points by the sources their sheet alone decides (every source but the majorities)."""
    sections = sum(v for i, v in enumerate(components.SECTION_PRESTIGE) if s.bonuses >> (SECTION_BONUS + i) & 1)
    first_to = sum(
        v for t, v in enumerate(components.PRODUCTION_BONUS_PRESTIGE) if s.bonuses >> (TEQUILA_BONUS + t) & 1
    )
    first_to += sum(
        components.MARKET_COLUMN_BONUSES[col][1]
        for k, col in enumerate(MARKET_BONUS_COLUMNS)
        if s.bonuses >> (MARKET_BONUS + k) & 1
    )
    return {
        "unused_gears": s.gears_unused,
        "coin_track": s.coin_prestige(),
        "production_tracks": sum(s.production_prestige(t) for t in range(len(components.TEQUILAS))),
        "collections": s.collection_prestige(),
        "sections_first": sections,
        "first_to_bonuses": first_to,
        "market_spaces": s.market_count(),
    }


def score_breakdown(sheets: Sequence[Sheet]) -> list[dict[str, int]]:
    """Each player's points by source (the total is their sum)."""
    tequila_majority, market_majority = majority_points(sheets)
    return [
        {**own_points(s), "tequila_majorities": tequila_majority[p], "market_majority": market_majority[p]}
        for p, s in enumerate(sheets)
    ]


def scoring_facts(sheet: Sheet) -> tuple[int, ...]:
    """Everything of a sheet that ``score_breakdown`` reads (the gears left unused, the coin track, the
    collections, the "first to" bonuses, the market, the production tracks)."""
    return (sheet.gears_unused, sheet.coins, sheet.collections, sheet.bonuses, sheet.market, *sheet.production)


_MARKET_FACT = 4  # where the market is in the scoring facts (the production tracks follow)


#: Each player's total by the scoring facts of every sheet, in seat order; a sheet's own points by its
#: scoring facts; the majority points by the production tracks and market of every sheet. Each emptied when full.
_TOTALS: dict[tuple[tuple[int, ...], ...], tuple[int, ...]] = {}
_OWN: dict[tuple[int, ...], int] = {}
_MAJORITIES: dict[tuple[tuple[int, ...], ...], tuple[list[int], list[int]]] = {}
_LIMIT = 1 << 16


def _remember(memo: dict, key: Any, value: Any) -> Any:
    if len(memo) >= _LIMIT:
        memo.clear()
    memo[key] = value
    return value


def score_totals(sheets: Sequence[Sheet]) -> tuple[int, ...]:
    """Each player's total: the sum of their ``score_breakdown`` (kept by the sheets' scoring facts while
    the speed-ups are on: a sheet's own points by its facts, the majorities by the tracks they count)."""
    if not speedups.ENABLED:
        return tuple(sum(b.values()) for b in score_breakdown(sheets))
    facts = [scoring_facts(sheet) for sheet in sheets]
    key = tuple(facts)
    totals = _TOTALS.get(key)
    if totals is not None:
        return totals
    counted = tuple(f[_MARKET_FACT:] for f in facts)  # the market, then the production tracks
    majorities = _MAJORITIES.get(counted)
    if majorities is None:
        majorities = _remember(_MAJORITIES, counted, majority_points(sheets))
    own = []
    for sheet_facts, sheet in zip(facts, sheets, strict=True):
        points = _OWN.get(sheet_facts)
        if points is None:
            points = _remember(_OWN, sheet_facts, sum(own_points(sheet).values()))
        own.append(points)
    tequila_majority, market_majority = majorities
    return _remember(_TOTALS, key, tuple(map(sum, zip(own, tequila_majority, market_majority, strict=True))))


def solo_rank(score: int) -> str:
    return next(title for low, title in components.SOLO_RANKS if score >= low)


def achievements(sheet: Sheet, score: int) -> list[str]:
    """The rulebook's achievements this sheet earned (reported, not scored), in the rulebook's order."""
    fenced_houses = farm.bit_count(sheet.rewarded_fields & farm.HOUSE_FIELDS)
    fenced_spaces = farm.bit_count(sheet.rewarded_fields) * components.FIELD_SIZE * components.FIELD_SIZE
    earned = (
        sheet.collections >= components.COLLECTION_TRACK_LENGTH,
        sheet.production[components.PINK] >= components.PRODUCTION_TRACK_LENGTH,
        sheet.coins >= components.COIN_TRACK_LENGTH,
        sheet.extra_bought >= components.ACHIEVEMENT_EXTRA_ACTIONS,
        farm.bit_count(sheet.sections) >= components.ACHIEVEMENT_SECTIONS,
        sheet.market_count() >= components.ACHIEVEMENT_MARKET_SPACES,
        sheet.coins_earned >= components.ACHIEVEMENT_COINS,
        fenced_houses >= components.ACHIEVEMENT_HOUSES,
        fenced_spaces >= components.ACHIEVEMENT_FIELD_SPACES,
        score >= components.ACHIEVEMENT_SCORE,
    )
    return [name for name, ok in zip(components.ACHIEVEMENTS, earned, strict=True) if ok]
