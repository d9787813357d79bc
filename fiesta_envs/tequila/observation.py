"""The observation vector of a Tequila seat (float32, every entry in [0, 1]).

Everything on the table is public (sheets are open), so a seat sees the whole table; the layout
puts its own sheet first and then the others in seat order after it. Blocks, in order (positions
in ``layout``):

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

How it is computed: each seat has an observation buffer (``Tequila.observation_buffers``). Its sheet
keeps blocks 1-3 there (``Sheet.view``), and its block 5 for the others (``Sheet.public``) in the
buffer of the seat before it, whose first other it is; it keeps them up to date itself, entry by
entry, as it changes. The game keeps block 4 there but for the decision entries
(``Tequila.table_view``). ``observe`` writes the decision entries (unless the buffer holds them
already: ``Tequila.decision_shown``) and the blocks of the others after the first into the buffer,
and returns a copy. The ``*_from_scratch`` functions build every block from the state alone: they
rebuild the blocks after a load (at the first ``observe``), and the tests compare the kept blocks
with them at every step of random games.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from fiesta_envs.tequila import components as C
from fiesta_envs.tequila import farm as F
from fiesta_envs.tequila import layout as L

if TYPE_CHECKING:
    from fiesta_envs.tequila.game import Tequila
    from fiesta_envs.tequila.sheet import Sheet

observation_size = L.observation_size
# the block sizes (positions in ``layout``)
PLANES, FARM_SIZE, OWN_SIZE, TABLE_SIZE, OTHER_SIZE = L.PLANES, L.FARM_SIZE, L.OWN_SIZE, L.TABLE_SIZE, L.OTHER_SIZE
DECISIONS, PURPOSES, TRACK = L.DECISIONS, L.PURPOSES, L.TRACK


def _mask_to_grid(mask: int) -> np.ndarray:
    return np.array([(mask >> x) & 1 for x in range(F.SPACES)], dtype=np.float32)


def _static_planes() -> np.ndarray:
    planes = np.zeros((L.PLANES, F.SPACES), dtype=np.float32)
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


def plane_entries(plane: int, spaces: int) -> np.ndarray:
    """Positions of a set of spaces on one farm plane (what a sheet writes when they change)."""
    return np.array([plane * F.SPACES + x for x in F.spaces_of(spaces)], dtype=np.intp)


#: Entries of each placement on each building plane, of each field on the fenced-off plane, of each
#: section on the section plane, and of each placement on the linked plane.
BUILDING_ENTRIES: tuple[np.ndarray, ...] = tuple(
    plane_entries(L.BUILDING_PLANE + p.kind, p.spaces) for p in F.PLACEMENTS
)
LINKED_ENTRIES: tuple[np.ndarray, ...] = tuple(plane_entries(L.LINKED_PLANE, p.spaces) for p in F.PLACEMENTS)
FENCED_OFF_ENTRIES: tuple[np.ndarray, ...] = tuple(plane_entries(L.FENCED_OFF_PLANE, m) for m in F.FIELD_SPACES)
SECTION_ENTRIES: tuple[np.ndarray, ...] = tuple(plane_entries(L.SECTION_PLANE, m) for m in F.SECTIONS)


def _bits(mask: int, size: int) -> list[float]:
    """The lowest ``size`` bits of ``mask`` as 0.0/1.0 floats."""
    return [float(mask >> i & 1) for i in range(size)]


#: One-hot jimador blocks: side A (None), then each side-B jimador.
JIMADOR_ONE_HOT: dict[str | None, tuple[float, ...]] = {
    name: tuple(float(i == k) for i in range(len(L.JIMADOR_CHOICES))) for k, name in enumerate(L.JIMADOR_CHOICES)
}
_DIE: tuple[tuple[float, ...], ...] = tuple(tuple(float(i == v) for i in range(6)) for v in range(6))


# ---------------------------------------------------------------- from scratch (the reference)
def own_view_from_scratch(sheet: Sheet) -> np.ndarray:
    """Blocks 1-3 of ``sheet``'s owner: farm planes, fences and own tracks."""
    planes = STATIC_PLANES.copy()
    for f in F.spaces_of(sheet.rewarded_fields):
        planes[L.FENCED_OFF_PLANE] += FIELD_GRIDS[f]
    for i, (kind, index) in enumerate(sheet.buildings):
        planes[L.BUILDING_PLANE + kind] += PLACEMENT_GRIDS[index]
        if sheet.links.linked[i]:
            planes[L.LINKED_PLANE] += PLACEMENT_GRIDS[index]
    for s in F.spaces_of(sheet.sections):
        planes[L.SECTION_PLANE] += SECTION_GRIDS[s]
    marked, crossed = sheet.marked, sheet.crossed
    tracks = [(m - c) / L.TRACK for m, c in zip(marked, crossed, strict=True)]
    tracks += [m / L.TRACK for m in marked]
    tracks.append(sheet.coins / C.COIN_TRACK_LENGTH)
    tracks += [p / C.PRODUCTION_TRACK_LENGTH for p in sheet.production]
    tracks.append(sheet.collections / C.COLLECTION_TRACK_LENGTH)
    tracks += _bits(sheet.market, L.MARKET_SPACES)
    tracks += _bits(sheet.bonuses, L.NUM_BONUSES)
    tracks += (
        min(sheet.extra_bought, L.EXTRA_CAP) / L.EXTRA_CAP,
        min(sheet.gears_unused, L.GEARS_UNUSED_CAP) / L.GEARS_UNUSED_CAP,
        min(sheet.fences_left, L.FENCES_LEFT_CAP) / L.FENCES_LEFT_CAP,
        min(sheet.builds_left, L.BUILDS_LEFT_CAP) / L.BUILDS_LEFT_CAP,
        min(sheet.gears_left, L.GEARS_LEFT_CAP) / L.GEARS_LEFT_CAP,
        min(sheet.credits, L.CREDITS_CAP) / L.CREDITS_CAP,
        float(sheet.free_road),
        float(sheet.virtual == 0),
        float(sheet.virtual == 1),
    )
    tracks += JIMADOR_ONE_HOT[sheet.jimador]
    out = np.empty(L.OWN_VIEW_SIZE, dtype=np.float32)
    out[: L.FENCES] = planes.ravel()
    out[L.FENCES : L.TRACKS] = _bits(sheet.fences, F.NUM_SEGMENTS)
    out[L.TRACKS :] = tracks
    return out


def public_from_scratch(sheet: Sheet) -> np.ndarray:
    """Block 5 for ``sheet``: what every other seat sees of it."""
    out = [sheet.held(r) / L.TRACK for r in range(len(C.RESOURCES))]
    out += [p / C.PRODUCTION_TRACK_LENGTH for p in sheet.production]
    out.append(sheet.collections / C.COLLECTION_TRACK_LENGTH)
    out.append(sheet.coins / C.COIN_TRACK_LENGTH)
    out += _bits(sheet.market, L.MARKET_SPACES)
    out += _bits(sheet.bonuses, L.NUM_BONUSES)
    out.append(F.bit_count(sheet.sections) / len(F.SECTIONS))
    out += [min(c, L.KIND_CAP) / L.KIND_CAP for c in sheet.kind_count]
    out.append(F.bit_count(sheet.rewarded_fields) / F.NUM_FIELDS)
    out += JIMADOR_ONE_HOT[sheet.jimador]
    return np.array(out, dtype=np.float32)


def decision_entries(decision: str, pay_left: int, pay_purpose: str, gain_left: int) -> tuple[float, ...]:
    """The decision part of block 4: decision one-hot, payments left, purpose one-hot, gains left."""
    return (
        *(float(decision == d) for d in L.DECISIONS),
        min(pay_left, L.PAY_CAP) / L.PAY_CAP,
        *(float(pay_purpose == p) for p in L.PURPOSES),
        min(gain_left, L.GAIN_CAP) / L.GAIN_CAP,
    )


def table_from_scratch(game: Tequila, player: int) -> np.ndarray:
    """Block 4 as ``player`` sees it."""
    n = game.num_players
    rounds = [0.0] * C.ROUNDS
    if game.round < C.ROUNDS:
        rounds[game.round] = 1.0
    die1, die2 = game.dice
    out = [*rounds, *_DIE[die1 - 1], *_DIE[die2 - 1]]
    out += decision_entries(game.decision, game.pay_left, game.pay_purpose, game.gain_left)
    out.append(float(game.start_player == player))
    out.append(((player - game.start_player) % n) / n)
    out += [float(r >= 0) for r in game.bonus_round]
    out += [float(r == game.round) for r in game.bonus_round]
    out.append(float(game.config["cask_tile"] == "B"))
    return np.array(out, dtype=np.float32)


def observe_from_scratch(game: Tequila, player: int) -> np.ndarray:
    """``observe`` computed from the state alone, without any kept block (the tests' reference)."""
    n = game.num_players
    parts = [own_view_from_scratch(game.sheets[player]), table_from_scratch(game, player)]
    parts += [public_from_scratch(game.sheets[(player + k) % n]) for k in range(1, n)]
    return np.concatenate(parts)


def empty_own_view(jimador: str | None) -> np.ndarray:
    """Blocks 1-3 of a new sheet: the printed farm and the jimador, nothing else yet."""
    out = np.zeros(L.OWN_VIEW_SIZE, dtype=np.float32)
    out[: L.FENCES] = STATIC_PLANES.ravel()
    out[L.JIMADOR : L.JIMADOR + len(L.JIMADOR_CHOICES)] = JIMADOR_ONE_HOT[jimador]
    return out


def empty_public(jimador: str | None) -> np.ndarray:
    """Block 5 of a new sheet: only the jimador."""
    out = np.zeros(L.OTHER_SIZE, dtype=np.float32)
    out[L.P_JIMADOR :] = JIMADOR_ONE_HOT[jimador]
    return out


#: Templates copied by every new sheet (a reset makes new sheets).
EMPTY_OWN_VIEWS = {j: empty_own_view(j) for j in L.JIMADOR_CHOICES}
EMPTY_PUBLIC = {j: empty_public(j) for j in L.JIMADOR_CHOICES}


# ---------------------------------------------------------------- block 4, kept by the game
#: The round one-hot of each round (round 8: the game is over, all zeros) and the dice one-hots.
ROUND_ROWS = np.eye(C.ROUNDS + 1, C.ROUNDS, dtype=np.float32)
DICE_ROWS = tuple(tuple(np.array((*_DIE[a], *_DIE[b]), dtype=np.float32) for b in range(6)) for a in range(6))


def new_table(cask_b: bool) -> np.ndarray:
    """Block 4 before the first round (the decision entries are written by ``observe``)."""
    table = np.zeros(L.TABLE_SIZE, dtype=np.float32)
    table[L.T_CASK_B] = cask_b
    return table


def show_seat(table: np.ndarray, player: int, start_player: int, num_players: int) -> None:
    """The seat's own entries: am I the starting player, my place in the round's order."""
    table[L.T_STARTING] = start_player == player
    table[L.T_PLACE] = ((player - start_player) % num_players) / num_players


def show_round(table: np.ndarray, round_: int) -> None:
    """A new round (or the end): its one-hot; no bonus has been taken in it yet."""
    table[L.T_ROUND : L.T_DICE] = ROUND_ROWS[round_]
    table[L.T_THIS_ROUND : L.T_CASK_B] = 0.0


def show_dice(table: np.ndarray, dice: list[int]) -> None:
    table[L.T_DICE : L.T_DECISION] = DICE_ROWS[dice[0] - 1][dice[1] - 1]


def show_bonus_taken(table: np.ndarray, bonus: int) -> None:
    """A "first to" bonus taken for the first time (so in this round)."""
    table[L.T_TAKEN + bonus] = table[L.T_THIS_ROUND + bonus] = 1.0


# ---------------------------------------------------------------- the fast path
#: Decision entries by (decision, payments left, purpose, gains left), for the counts that occur.
DECISION_ROWS: dict[tuple[str, int, str, int], np.ndarray] = {
    (decision, pay, purpose, gain): np.array(decision_entries(decision, pay, purpose, gain), dtype=np.float32)
    for decision in (*L.DECISIONS, "over")
    for pay in range(2 * L.PAY_CAP + 1)
    for purpose in ("", *L.PURPOSES)
    for gain in range(2 * L.GAIN_CAP + 1)
}
_DECISION_AT = L.TABLE + L.T_DECISION
_DECISION_END = L.TABLE + L.T_STARTING
#: The other seats in the order each seat sees them: ``_OTHERS[num_players][player]``.
_OTHERS = {n: tuple(tuple((p + k) % n for k in range(1, n)) for p in range(n)) for n in range(1, 9)}
#: The same but the first, whose block 5 is kept in the seat's buffer itself (``Tequila._attach_observation_buffers``).
_LATER_OTHERS = {n: tuple(others[1:] for others in seats) for n, seats in _OTHERS.items()}


def observe(game: Tequila, player: int) -> np.ndarray:
    """The observation of ``player`` (see the module docstring for the layout): a new array."""
    if game.observation_stale:
        game.rebuild_observations()
    sheets = game.sheets
    buffer = game.observation_buffers[player]  # blocks 1-4 are kept there (sheet.view, game.table_view)
    row = game.decision_row  # DECISION_ROWS[(decision, payments left, purpose, gains left)], kept by the game
    shown = game.decision_shown  # the decision row each buffer holds (None: unknown), to skip rewriting it
    if row is None:  # counts past the table's
        entries = decision_entries(game.decision, game.pay_left, game.pay_purpose, game.gain_left)
        buffer[_DECISION_AT:_DECISION_END] = entries
        shown[player] = None
    elif row is not shown[player]:
        buffer[_DECISION_AT:_DECISION_END] = row
        shown[player] = row
    at = L.OTHERS + L.OTHER_SIZE  # the first other's block is kept in place (``Sheet.public``)
    for seat in _LATER_OTHERS[len(sheets)][player]:
        buffer[at : at + L.OTHER_SIZE] = sheets[seat].public
        at += L.OTHER_SIZE
    return buffer.copy()
