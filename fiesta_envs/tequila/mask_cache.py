"""Tequila's legal masks, fast: shared read-only precomputed masks for the small decisions, and in the main
phase a kept mask per seat (``MainMask``) patched part by part.

The parts of the main mask come from what the hand can pay for (``affordable``, cached by hand) and from
facts the sheet keeps (legal fences, tequilas ready, open market spaces) or caches until its next building
(placements on free spaces, free roads, market requirements met); each part is rewritten only when what it
is computed from changed. ``tequila.reference_mask`` builds the same masks rule by rule, and the game uses
it instead when the speed-ups are off (``tequila.speedups``).
"""

from __future__ import annotations

import numpy as np

from fiesta_envs.tequila import actions, components, farm
from fiesta_envs.tequila.position import Position
from fiesta_envs.tequila.sheet import MARKET_REQUIREMENTS, Sheet
from fiesta_envs.tequila.state import Phase


def _mask_of(*ranges: tuple[int, int], bits: int = -1) -> np.ndarray:
    """A read-only legal-action mask with the actions of ``ranges`` (start, size) whose bit is set in
    ``bits`` (handed out as it is: ``legal_mask`` callers copy what they keep or change)."""
    mask = np.zeros(actions.NUM_ACTIONS, dtype=np.int8)
    for start, size in ranges:
        for i in range(size):
            mask[start + i] = bits >> i & 1
    mask.flags.writeable = False
    return mask


# Masks of the decisions that do not depend on the farm, shared by every position: by the resources
# held (pay) or the tracks with room (gain), by whether the answer yes is worth it (cask, shop).
_NUM_RESOURCES = len(components.RESOURCES)
_PAY_MASKS = tuple(_mask_of((actions.PAY, _NUM_RESOURCES), bits=b) for b in range(1 << _NUM_RESOURCES))
_GAIN_MASKS = tuple(_mask_of((actions.GAIN, _NUM_RESOURCES), bits=b) for b in range(1 << _NUM_RESOURCES))
_REROLL_MASK = _mask_of((actions.REROLL, len(actions.REROLL_CHOICES)))
_VIRTUAL_MASK = _mask_of((actions.VIRTUAL, len(actions.VIRTUAL_CHOICES)))
_CASK_MASKS = (_mask_of((actions.CASK + actions.NO, 1)), _mask_of((actions.CASK, 2)))
_SHOP_MASKS = (_mask_of((actions.SHOP + actions.NO, 1)), _mask_of((actions.SHOP, 2)))
_END_MASK = _mask_of((actions.END, 1))
NO_ACTION = _mask_of()
#: ``_PLACEMENTS_OF_KINDS[kinds]``: the placements of the building kinds whose bits are set.
_PLACEMENTS_OF_KINDS = (np.left_shift(1, farm.PLACEMENT_KIND) & np.arange(1 << len(components.BUILDINGS))[:, None]) != 0
_SPACE_BITS = np.left_shift(np.uint64(1), np.arange(farm.SPACES, dtype=np.uint64))
_ROW2 = components.MARKET_REQUIREMENT_ROW * components.MARKET_COLUMNS  # the first space of the requirement row
#: ``MARKET_REQUIREMENTS`` with each column's space of the requirement row as a bit of the market.
_REQUIREMENT_SPACES = tuple(
    tuple((1 << (_ROW2 + col), requirement) for col, requirement in enumerate(requirements))
    for requirements in MARKET_REQUIREMENTS
)
_FENCES = slice(actions.FENCE, actions.FENCE + farm.NUM_SEGMENTS)
_PLACEMENTS = slice(actions.BUILD, actions.BUILD + farm.NUM_PLACEMENTS)
_FREE_ROADS = slice(actions.FREE_ROAD, actions.FREE_ROAD + farm.SPACES)


def _write_bits(mask: np.ndarray, start: int, bits: int, before: int) -> None:
    """Set ``mask[start + i]`` to bit ``i`` of ``bits`` where it differs from ``before``."""
    changed = bits ^ before
    while changed:
        low = changed & -changed
        i = low.bit_length() - 1
        mask[start + i] = bits >> i & 1
        changed ^= low


class MainMask:
    """One seat's main-phase mask, kept between its steps and patched part by part: each part is rewritten
    only when its key (what it is computed from) changed. A new one has every part empty but ``end``."""

    __slots__ = (
        "build_occupied",
        "extra",
        "fences",
        "free_road",
        "kinds",
        "mask",
        "produce",
        "road_occupied",
        "sell",
    )

    def __init__(self) -> None:
        self.mask = _END_MASK.copy()
        self.fences = 0  # the legal fence segments shown (0: no fence offered)
        self.kinds = 0  # the building kinds offered (0: no building action or none affordable)...
        self.build_occupied = 0  # ...on the sheet's free spaces then
        self.free_road = False  # a free road offered...
        self.road_occupied = 0  # ...on the sheet's free spaces then
        self.produce = 0  # the tequilas offered
        self.sell = 0  # the market spaces offered
        self.extra = False  # an extra free action offered

    def update(self, sheet: Sheet, green: bool) -> np.ndarray:
        """The main-phase mask of ``sheet`` (the green jimador's if ``green``): the kept mask, patched where
        what a part is computed from changed, copied."""
        mask = self.mask
        can = sheet.affordable()
        fences = sheet.legal_fence_bits if sheet.fences_left else 0
        if fences != self.fences:
            if fences and self.fences:  # a fence drawn: only a few segments changed
                _write_bits(mask, actions.FENCE, fences, self.fences)
            else:  # fences offered from now on, or no more
                mask[_FENCES] = sheet.fence_mask if fences else 0
            self.fences = fences
        kinds = can.buildings if sheet.builds_left else 0
        if kinds != self.kinds or (kinds and sheet.occupied != self.build_occupied):
            if kinds:
                placements = sheet.build_masks.get(kinds)
                if placements is None:
                    placements = sheet.build_masks[kinds] = _placements(sheet, kinds)
                mask[_PLACEMENTS] = placements
            else:
                mask[_PLACEMENTS] = 0
            self.kinds, self.build_occupied = kinds, sheet.occupied
        if sheet.free_road != self.free_road or (sheet.free_road and sheet.occupied != self.road_occupied):
            if sheet.free_road:
                if sheet.road_mask is None:
                    sheet.road_mask = (_SPACE_BITS & np.uint64(sheet.occupied)) == 0  # free spaces
                mask[_FREE_ROADS] = sheet.road_mask
            else:
                mask[_FREE_ROADS] = 0
            self.free_road, self.road_occupied = sheet.free_road, sheet.occupied
        produce = sell = 0
        if sheet.credits + sheet.gears_left:  # a free action is left (sheet.free_actions())
            produce = can.tequilas & sheet.tequilas_ready
            if sheet.requirements_met is None:
                sheet.requirements_met = _requirements_met(sheet, green)
            payable = can.green_market if green else can.market
            sell = sheet.open_market & (payable | sheet.requirements_met)
        if produce != self.produce:
            _write_bits(mask, actions.PRODUCE, produce, self.produce)
            self.produce = produce
        if sell != self.sell:
            _write_bits(mask, actions.SELL, sell, self.sell)
            self.sell = sell
        if can.extra != self.extra:
            mask[actions.EXTRA] = self.extra = can.extra
        return mask.copy()


def _placements(sheet: Sheet, kinds: int) -> np.ndarray:
    """Placements of the building ``kinds`` (bits) on free spaces."""
    if sheet.free_placements is None:
        sheet.free_placements = (farm.PLACEMENT_SPACES & np.uint64(sheet.occupied)) == 0
    return sheet.free_placements & _PLACEMENTS_OF_KINDS[kinds]


def _requirements_met(sheet: Sheet, green: bool) -> int:
    """Spaces of the requirement row whose requirement the sheet meets (``Sheet.requirement_met`` for every
    column at once: buildings of each kind drawn, road spaces for roads)."""
    drawn = sheet.kind_count.copy()
    drawn[components.ROAD] = sheet.road_spaces
    met = 0
    for space, (kind, amount) in _REQUIREMENT_SPACES[green]:
        if drawn[kind] >= amount:
            met |= space
    return met


class MaskCache:
    """The masks a game hands out: the shared precomputed ones, and each seat's kept main mask. A new game
    or a load makes a new cache; a seat whose sheet is replaced (simultaneous rounds) is ``forget``-ed."""

    __slots__ = ("main",)

    def __init__(self, num_players: int) -> None:
        self.main = [MainMask() for _ in range(num_players)]

    def forget(self, seat: int) -> None:
        """Start the seat's main mask afresh (its sheet was replaced)."""
        self.main[seat] = MainMask()

    def legal_mask(self, game: Position) -> np.ndarray:
        """The legal mask of the decision ``game`` asks now (a shared read-only mask, or in the main phase
        a copy of the seat's kept one)."""
        decision = game.decision
        player = game.current_player
        if decision == Phase.MAIN:
            return self.main[player].update(game.state.sheets[player], game.state.jimadores[player] == "green")
        if decision in (Phase.OVER, Phase.TURN_DONE):  # turn done: a copy whose seat is done (``split_simultaneous``)
            return NO_ACTION
        sheet = game.state.sheets[player]
        if decision == Phase.PAY:
            return _PAY_MASKS[sheet.affordable().held]
        if decision == Phase.GAIN:
            room = 0
            for r, marked in enumerate(sheet.marked):
                if marked < components.RESOURCE_TRACK_LENGTH:
                    room |= 1 << r
            return _GAIN_MASKS[room]
        if decision == Phase.REROLL:
            return _REROLL_MASK
        if decision == Phase.VIRTUAL:
            return _VIRTUAL_MASK
        if decision == Phase.CASK:
            return _CASK_MASKS[sheet.cask_worthwhile()]
        return _SHOP_MASKS[sheet.shop_worthwhile()]
