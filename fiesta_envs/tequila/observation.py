"""The observation of a Tequila seat (float32, every entry in [0, 1]): ``TequilaObserver``.

Every sheet is public, so a seat sees the whole table: the table blocks, then its own sheet, then the
others in seat order after it (block names and sizes in ``layout``; the documentation page describes
each). The others' sheets are shown as they stood at the start of the round (``Tequila.shown_sheets``):
the round is simultaneous in the printed game, so nothing another player does in it is seen before it
ends. Its own sheet a seat sees as it is now.

``encode`` builds the vector from the state alone (the reference). ``observe`` is the same but keeps
the encoded start-of-round sheets until the game shows new ones (a new round, a load).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import numpy as np

from fiesta_envs.core.observer import ObservationLayout, Observer
from fiesta_envs.tequila import components, farm, observation_layout
from fiesta_envs.tequila.public_sheet import PublicSheet
from fiesta_envs.tequila.sheet import Sheet
from fiesta_envs.tequila.state import Phase, TequilaState


class Table(Protocol):
    """What the observer reads of a game (a ``Tequila`` engine provides it; the observer never plays)."""

    num_players: int
    config: dict[str, Any]
    decision: Phase
    #: The position: its ``sheets`` as they are now, its ``shown_sheets`` as the others see them (as they
    #: stood when the round began).
    state: TequilaState[Sheet]


class LineBits(Protocol):
    """The fences, market spaces and bonuses of a sheet (a ``PublicSheet`` or a live ``Sheet``), as masks."""

    @property
    def fences(self) -> int: ...
    @property
    def market(self) -> int: ...
    @property
    def bonuses(self) -> int: ...


class TrackCounts(Protocol):
    """The counted tracks of a sheet (a ``PublicSheet`` or a live ``Sheet``)."""

    @property
    def marked(self) -> Sequence[int]: ...
    @property
    def crossed(self) -> Sequence[int]: ...
    @property
    def coins(self) -> int: ...
    @property
    def production(self) -> Sequence[int]: ...
    @property
    def collections(self) -> int: ...
    @property
    def extra_bought(self) -> int: ...
    @property
    def gears_unused(self) -> int: ...


class RoundActions(Protocol):
    """What is left of a seat's own round (a ``Sheet``)."""

    fences_left: int
    builds_left: int
    gears_left: int
    credits: int
    free_road: bool
    virtual: int


def _bit_rows(masks: list[int], width: int) -> np.ndarray:
    """Bits 0 to ``width - 1`` of each mask (each below 2**64), one row per mask (uint8)."""
    raw = np.array(masks, dtype="<u8").view(np.uint8)
    return np.unpackbits(raw, bitorder="little").reshape(len(masks), 64)[:, :width]


def _farm_masks(sheet: PublicSheet) -> list[int]:
    """The spaces of each farm plane (``observation_layout.FARM_PLANES``) as masks."""
    fenced_off = 0
    for field in farm.spaces_of(sheet.rewarded_fields):
        fenced_off |= farm.FIELD_SPACES[field]
    kinds = [0] * len(components.BUILDINGS)
    linked = 0
    for (kind, index), is_linked in zip(sheet.buildings, sheet.linked, strict=True):
        spaces = farm.PLACEMENTS[index].spaces
        kinds[kind] |= spaces
        if is_linked:
            linked |= spaces
    sections = 0
    for section in farm.spaces_of(sheet.sections):
        sections |= farm.SECTIONS[section]
    return [fenced_off, *kinds, linked, sections]


def _counts(sheet: TrackCounts) -> list[float]:
    """The counted entries of the ``tracks`` block (``observation_layout.TRACK_PARTS``) before the market."""
    held = [(m - c) / observation_layout.TRACK for m, c in zip(sheet.marked, sheet.crossed, strict=True)]
    marked = [m / observation_layout.TRACK for m in sheet.marked]
    production = [p / components.PRODUCTION_TRACK_LENGTH for p in sheet.production]
    coins, collections = (
        sheet.coins / components.COIN_TRACK_LENGTH,
        sheet.collections / components.COLLECTION_TRACK_LENGTH,
    )
    return [*held, *marked, coins, *production, collections]


_MARKET_AT = sum(
    size
    for name, size in observation_layout.TRACK_PARTS[: [n for n, _ in observation_layout.TRACK_PARTS].index("market")]
)
_BONUSES_AT = _MARKET_AT + observation_layout.MARKET_SPACES
_FARM_SIZE, _FENCES_SIZE, _TRACKS_SIZE, _ = (
    part.stop - part.start for part in ObservationLayout(observation_layout.SHEET_BLOCKS).blocks.values()
)
_TRACKS_AT = _FARM_SIZE + _FENCES_SIZE
_LAST_COUNTS_AT = _TRACKS_AT + _TRACKS_SIZE - 2  # extra free actions bought, unused gears
#: One-hot jimador blocks: side A (None), then each side-B jimador.
JIMADOR_ONE_HOT: dict[str | None, np.ndarray] = {
    name: np.eye(len(observation_layout.JIMADOR_CHOICES), dtype=np.float32)[k]
    for k, name in enumerate(observation_layout.JIMADOR_CHOICES)
}


def encode_sheet(sheet: PublicSheet, jimador: str | None) -> np.ndarray:
    """The four blocks of one sheet (farm, fences, tracks, jimador) as one vector."""
    out = np.empty(observation_layout.SHEET_SIZE, dtype=np.float32)
    masks = [*_farm_masks(sheet), sheet.fences, sheet.market, sheet.bonuses]
    bits = _bit_rows(masks, farm.SPACES)
    planes = len(observation_layout.FARM_PLANES)
    out[:_FARM_SIZE] = bits[:planes].ravel()
    _write_bits(bits[planes:], out)
    write_counts(sheet, out)
    out[_TRACKS_AT + _TRACKS_SIZE :] = JIMADOR_ONE_HOT[jimador]
    return out


def _write_bits(bits: np.ndarray, out: np.ndarray) -> None:
    """Write the rows of bits of the fences, market and bonuses into a sheet's encoded block ``out``."""
    out[_FARM_SIZE:_TRACKS_AT] = bits[0, : farm.NUM_SEGMENTS]
    tracks = out[_TRACKS_AT : _TRACKS_AT + _TRACKS_SIZE]
    tracks[_MARKET_AT:_BONUSES_AT] = bits[1, : observation_layout.MARKET_SPACES]
    tracks[_BONUSES_AT : _BONUSES_AT + observation_layout.NUM_BONUSES] = bits[2, : observation_layout.NUM_BONUSES]


def write_line_bits(sheet: LineBits, out: np.ndarray) -> None:
    """Rewrite the bits of the fences, market and bonuses of ``sheet`` into its encoded block ``out`` (the
    farm's planes are left as they are)."""
    _write_bits(_bit_rows([sheet.fences, sheet.market, sheet.bonuses], farm.SPACES), out)


def write_counts(sheet: TrackCounts, out: np.ndarray) -> None:
    """Write the counted track entries of ``sheet`` into its encoded block ``out`` (the rest are bits)."""
    out[_TRACKS_AT : _TRACKS_AT + _MARKET_AT] = _counts(sheet)
    out[_LAST_COUNTS_AT] = min(sheet.extra_bought, observation_layout.EXTRA_CAP) / observation_layout.EXTRA_CAP
    out[_LAST_COUNTS_AT + 1] = (
        min(sheet.gears_unused, observation_layout.GEARS_UNUSED_CAP) / observation_layout.GEARS_UNUSED_CAP
    )


def my_round_entries(sheet: RoundActions) -> list[float]:
    """The ``my round`` block (``observation_layout.MY_ROUND_PARTS``)."""
    return [
        min(sheet.fences_left, observation_layout.FENCES_LEFT_CAP) / observation_layout.FENCES_LEFT_CAP,
        min(sheet.builds_left, observation_layout.BUILDS_LEFT_CAP) / observation_layout.BUILDS_LEFT_CAP,
        min(sheet.gears_left, observation_layout.GEARS_LEFT_CAP) / observation_layout.GEARS_LEFT_CAP,
        min(sheet.credits, observation_layout.CREDITS_CAP) / observation_layout.CREDITS_CAP,
        float(sheet.free_road),
        float(sheet.virtual == 0),
        float(sheet.virtual == 1),
    ]


_ROUND_ONE_HOT = [
    [float(i == r) for i in range(components.ROUNDS)] for r in range(components.ROUNDS + 1)
]  # round 8: all zeros
_DIE_ONE_HOT = [[float(i == v) for i in range(6)] for v in range(6)]
#: Indexed by the decision (a ``Phase``); "next" (a seat done with its part of a simultaneous round, Parallel
#: API) and "over" ask nothing: all zeros.
_DECISION_ONE_HOT = tuple(
    [float(phase.label == decision) for decision in observation_layout.DECISIONS] for phase in Phase
)
_PURPOSE_ONE_HOT = {
    p: [float(p == other) for other in observation_layout.PURPOSES] for p in ("", *observation_layout.PURPOSES)
}


def table_entries(game: Table, seat: int) -> list[float]:
    """The table blocks (``observation_layout.TABLE_BLOCKS``) as ``seat`` sees them."""
    state = game.state
    n = game.num_players
    die1, die2 = state.dice
    # a bonus first gained in this round is not seen before the round ends (unless by the seat itself)
    now = state.round
    return [
        *_ROUND_ONE_HOT[now],
        *_DIE_ONE_HOT[die1 - 1],
        *_DIE_ONE_HOT[die2 - 1],
        *_DECISION_ONE_HOT[game.decision],
        min(state.pay_left, observation_layout.PAY_CAP) / observation_layout.PAY_CAP,
        *_PURPOSE_ONE_HOT[state.pay_purpose],
        min(state.gain_left, observation_layout.GAIN_CAP) / observation_layout.GAIN_CAP,
        float(state.start_player == seat),
        ((seat - state.start_player) % n) / n,
        *[float(0 <= first < now) for first in state.bonus_round],
        float(game.config["cask_tile"] == "B"),
        *my_round_entries(state.sheets[seat]),
    ]


class TequilaObserver(Observer[Table]):
    """Tequila observations for one player count (see the module docstring)."""

    def __init__(self, num_players: int) -> None:
        super().__init__(observation_layout.observation_layout(num_players))
        self.num_players = num_players
        self.reset()

    def reset(self) -> None:
        self._shown_source: Sequence[PublicSheet] | None = None  # the game's shown sheets encoded below
        self._shown_encoded: list[np.ndarray] = []
        # per seat: its own sheet encoded, and the facts behind its bits then (farm, fences, market, bonuses)
        self._own_encoded: list[np.ndarray | None] = [None] * self.num_players
        self._own_bits_of: list[tuple[int, ...] | None] = [None] * self.num_players

    def _others(self, seat: int) -> list[int]:
        return [(seat + k) % self.num_players for k in range(1, self.num_players)]

    def encode(self, game: Table, seat: int, out: np.ndarray) -> None:
        state = game.state
        out[: observation_layout.TABLE_SIZE] = table_entries(game, seat)
        at = observation_layout.TABLE_SIZE
        out[at : at + observation_layout.SHEET_SIZE] = encode_sheet(
            state.sheets[seat].public_sheet(), state.jimadores[seat]
        )
        for other in self._others(seat):
            at += observation_layout.SHEET_SIZE
            out[at : at + observation_layout.SHEET_SIZE] = encode_sheet(
                state.shown_sheets[other], state.jimadores[other]
            )

    def observe(self, game: Table, seat: int) -> np.ndarray:
        """The reference, pulling what changed: the others' start-of-round sheets are encoded once per round,
        the seat's own sheet again only when a fact behind its farm's planes changed (the buildings, the
        fenced-off fields, sections); else only the bits of its fences, market and bonuses, when one of them
        changed, and its counts are rewritten."""
        state = game.state
        if state.shown_sheets is not self._shown_source:
            self._shown_source = state.shown_sheets
            self._shown_encoded = [
                encode_sheet(sheet, jimador) for sheet, jimador in zip(state.shown_sheets, state.jimadores, strict=True)
            ]
        out = np.empty(self.layout.size, dtype=np.float32)
        out[: observation_layout.TABLE_SIZE] = table_entries(game, seat)
        at = observation_layout.TABLE_SIZE
        sheet = state.sheets[seat]
        # buildings are only ever added, and never overlap: the occupied spaces change with each one
        bits_of = (sheet.occupied, sheet.rewarded_fields, sheet.sections, sheet.fences, sheet.market, sheet.bonuses)
        own, before = self._own_encoded[seat], self._own_bits_of[seat]
        if own is None or before is None or bits_of[:3] != before[:3]:  # the farm's planes changed
            own = self._own_encoded[seat] = encode_sheet(sheet.public_sheet(), state.jimadores[seat])
            self._own_bits_of[seat] = bits_of
        else:
            if bits_of != before:  # only fences, market spaces or bonuses
                write_line_bits(sheet, own)
                self._own_bits_of[seat] = bits_of
            write_counts(sheet, own)
        out[at : at + observation_layout.SHEET_SIZE] = own
        for other in self._others(seat):
            at += observation_layout.SHEET_SIZE
            out[at : at + observation_layout.SHEET_SIZE] = self._shown_encoded[other]
        return out
