"""The observation vector of a Tequila seat (float32, every entry in [0, 1]).

Everything on the table is public (sheets are open), so a seat sees the whole table; the layout
puts its own sheet first and then the others in seat order after it. Blocks, in order:

1. Own farm, 16 planes of 8x8 (row-major), 1024 entries: 0 water; 1-5 the resource shown
   (agave, water, worker, donkey, barrel); 6 field with a house; 7 fenced-off field; 8-13 buildings
   by kind (road, agave field, kiln, distiller, cask, shop); 14 building connected to its chain
   partner (kiln-agave field, distiller-kiln, cask-distiller, shop-cask); 15 filled section.
2. Own fences: 40 segments (1 = fenced).
3. Own tracks (68): held resources (5, /24), marked squares (5, /24), coins (/15), production (4, /8),
   collections (/6), market spaces (24, row-major), "first to" bonuses gained (14: 7 sections,
   4 tequilas, market columns 3, 5, 7), extras bought (/12, capped), unused gears so far (/15),
   fences left (/10), building actions left (/5), gears left (/3), bought free actions left (/4,
   capped), free road (1), virtual die on fence / build (2), jimador (5: side A, purple, red, orange,
   green).
4. The table (63): round (8, one-hot), each die's value (2 x 6 one-hot), decision (7: reroll,
   virtual, main, cask, shop, pay, gain), payments of choice left (/4), payment purpose (3: road,
   extra, shop), gains of choice left (/4, capped), I am the starting player, my place in this
   round's order (/players), bonuses taken by anyone (14), bonuses first taken this round (14),
   cask tile B.
5. Each other player, in seat order after me, 62 each: held resources (5), production (4),
   collections, coins, market spaces (24), bonuses gained (14), filled sections (/7), buildings
   by kind (6, /10 capped), fenced-off fields (/16), jimador (5).
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

from fiesta_envs.tequila import components as C
from fiesta_envs.tequila import farm as F
from fiesta_envs.tequila.sheet import MARKET_SPACES, NUM_BONUSES, Sheet

if TYPE_CHECKING:
    from fiesta_envs.tequila.game import Tequila

PLANES = 16
FARM_SIZE = PLANES * F.SPACES
OWN_SIZE = 68
TABLE_SIZE = 63
OTHER_SIZE = 62
DECISIONS = ("reroll", "virtual", "main", "cask", "shop", "pay", "gain")
PURPOSES = ("road", "extra", "shop")
TRACK = float(C.RESOURCE_TRACK_LENGTH)


def observation_size(num_players: int) -> int:
    return FARM_SIZE + F.NUM_SEGMENTS + OWN_SIZE + TABLE_SIZE + OTHER_SIZE * (num_players - 1)


def _mask_to_grid(mask: int) -> np.ndarray:
    return np.array([(mask >> x) & 1 for x in range(F.SPACES)], dtype=np.float32)


def _static_planes() -> np.ndarray:
    planes = np.zeros((PLANES, F.SPACES), dtype=np.float32)
    planes[0] = _mask_to_grid(F.WATER_SPACES)
    for x, resource in enumerate(F.SPACE_RESOURCE):
        if resource is not None:
            planes[1 + resource, x] = 1
    for f in F.spaces_of(F.HOUSE_FIELDS):
        planes[6] += _mask_to_grid(F.FIELD_SPACES[f])
    return planes


STATIC_PLANES = _static_planes()
PLACEMENT_GRIDS = np.array([_mask_to_grid(p.spaces) for p in F.PLACEMENTS], dtype=np.float32)
FIELD_GRIDS = np.array([_mask_to_grid(m) for m in F.FIELD_SPACES], dtype=np.float32)
SECTION_GRIDS = np.array([_mask_to_grid(m) for m in F.SECTIONS], dtype=np.float32)


@lru_cache(maxsize=4096)
def _bits(mask: int, size: int) -> tuple[float, ...]:
    """The lowest ``size`` bits of ``mask`` as 0.0/1.0 floats (cached: masks repeat a lot)."""
    return tuple(float(mask >> i & 1) for i in range(size))


_SHIFTS = np.arange(64, dtype=np.uint64)


def _bit_array(mask: int, size: int) -> np.ndarray:
    """``_bits`` as a float32 array (for masks too varied to cache, like the fences)."""
    return ((np.uint64(mask) >> _SHIFTS[:size]) & np.uint64(1)).astype(np.float32)


#: One-hot jimador blocks: side A (None), then each side-B jimador.
_JIMADOR: dict[str | None, tuple[float, ...]] = {
    name: tuple(float(i == k) for i in range(5)) for k, name in enumerate((None, *C.JIMADORES))
}
_DIE: tuple[tuple[float, ...], ...] = tuple(tuple(float(i == v) for i in range(6)) for v in range(6))


def _farm(sheet: Sheet) -> np.ndarray:
    """The farm planes, cached on the sheet until a building, a fenced-off field or a section changes."""
    key = (len(sheet.buildings), sheet.rewarded_fields, sheet.sections)
    cached = sheet.farm_planes_cache
    if cached is not None and cached[0] == key:
        return cached[1]
    planes = STATIC_PLANES.copy()
    for f in F.spaces_of(sheet.rewarded_fields):
        planes[7] += FIELD_GRIDS[f]
    for i, (kind, index) in enumerate(sheet.buildings):
        planes[8 + kind] += PLACEMENT_GRIDS[index]
        if sheet.links.linked[i]:
            planes[14] += PLACEMENT_GRIDS[index]
    for s in F.spaces_of(sheet.sections):
        planes[15] += SECTION_GRIDS[s]
    flat = planes.ravel()
    sheet.farm_planes_cache = (key, flat)
    return flat


def _own(game: Tequila, player: int, sheet: Sheet) -> list[float]:
    marked, crossed = sheet.marked, sheet.crossed
    out = [(m - c) / TRACK for m, c in zip(marked, crossed, strict=True)]
    out += [m / TRACK for m in marked]
    out.append(sheet.coins / C.COIN_TRACK_LENGTH)
    out += [p / C.PRODUCTION_TRACK_LENGTH for p in sheet.production]
    out.append(sheet.collections / C.COLLECTION_TRACK_LENGTH)
    out += _bits(sheet.market, MARKET_SPACES)
    out += _bits(sheet.bonuses, NUM_BONUSES)
    out += (
        min(sheet.extra_bought, 12) / 12,
        min(sheet.gears_unused, 15) / 15,
        min(sheet.fences_left, 10) / 10,
        min(sheet.builds_left, 5) / 5,
        min(sheet.gears_left, 3) / 3,
        min(sheet.credits, 4) / 4,
        float(sheet.free_road),
        float(sheet.virtual == 0),
        float(sheet.virtual == 1),
    )
    out += _JIMADOR[game.jimadores[player]]
    return out


@lru_cache(maxsize=1024)
def _table_dice(round_: int, die1: int, die2: int) -> tuple[float, ...]:
    rounds = [0.0] * 8
    if round_ < C.ROUNDS:
        rounds[round_] = 1.0
    return (*rounds, *_DIE[die1 - 1], *_DIE[die2 - 1])


@lru_cache(maxsize=1024)
def _table_decision(decision: str, pay_left: int, pay_purpose: str, gain_left: int) -> tuple[float, ...]:
    return (
        *(float(decision == d) for d in DECISIONS),
        min(pay_left, 4) / 4,
        *(float(pay_purpose == p) for p in PURPOSES),
        min(gain_left, 4) / 4,
    )


@lru_cache(maxsize=4096)
def _table_order(
    starting: bool, place: float, bonus_round: tuple[int, ...], round_: int, cask_b: bool
) -> tuple[float, ...]:
    return (
        float(starting),
        place,
        *(float(r >= 0) for r in bonus_round),
        *(float(r == round_) for r in bonus_round),
        float(cask_b),
    )


def _table(game: Tequila, player: int, out: list[float]) -> None:
    """Append the table block to ``out`` (its pieces are cached by the values they encode)."""
    n = game.num_players
    out += _table_dice(game.round, *game.dice)
    out += _table_decision(game.decision, game.pay_left, game.pay_purpose, game.gain_left)
    out += _table_order(
        game.start_player == player,
        ((player - game.start_player) % n) / n,
        tuple(game.bonus_round),
        game.round,
        game.config["cask_tile"] == "B",
    )


def _other(game: Tequila, seat: int) -> np.ndarray:
    """What everyone sees of ``seat``'s sheet; cached on the sheet, keyed by every field it reads
    (the jimador is fixed for a game and a new game or a load makes new sheets)."""
    sheet = game.sheets[seat]
    key = (
        tuple(sheet.marked),
        tuple(sheet.crossed),
        tuple(sheet.production),
        sheet.collections,
        sheet.coins,
        sheet.market,
        sheet.bonuses,
        sheet.sections,
        len(sheet.buildings),
        sheet.rewarded_fields,
    )
    cached = sheet.public_obs_cache
    if cached is not None and cached[0] == key:
        return cached[1]
    out = [sheet.held(r) / TRACK for r in range(5)]
    out += [p / C.PRODUCTION_TRACK_LENGTH for p in sheet.production]
    out.append(sheet.collections / C.COLLECTION_TRACK_LENGTH)
    out.append(sheet.coins / C.COIN_TRACK_LENGTH)
    out += _bits(sheet.market, MARKET_SPACES)
    out += _bits(sheet.bonuses, NUM_BONUSES)
    out.append(F.bit_count(sheet.sections) / len(F.SECTIONS))
    out += [min(c, 10) / 10 for c in sheet.kind_count]
    out.append(F.bit_count(sheet.rewarded_fields) / F.NUM_FIELDS)
    out += _JIMADOR[game.jimadores[seat]]
    block = np.array(out, dtype=np.float32)
    sheet.public_obs_cache = (key, block)
    return block


_FENCES_START = FARM_SIZE
_OWN_START = _FENCES_START + F.NUM_SEGMENTS
_OTHERS_START = _OWN_START + OWN_SIZE + TABLE_SIZE


def observe(game: Tequila, player: int) -> np.ndarray:
    """The observation of ``player`` (see the module docstring for the layout)."""
    sheet = game.sheets[player]
    n = game.num_players
    out = np.empty(_OTHERS_START + OTHER_SIZE * (n - 1), dtype=np.float32)
    out[:_FENCES_START] = _farm(sheet)
    out[_FENCES_START:_OWN_START] = _bit_array(sheet.fences, F.NUM_SEGMENTS)
    own_and_table = _own(game, player, sheet)
    _table(game, player, own_and_table)
    out[_OWN_START:_OTHERS_START] = own_and_table
    at = _OTHERS_START
    for k in range(1, n):
        out[at : at + OTHER_SIZE] = _other(game, (player + k) % n)
        at += OTHER_SIZE
    return out
