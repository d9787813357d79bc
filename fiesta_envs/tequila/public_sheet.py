"""What the others see of a sheet during a round: its printed facts as they stood when the round began.

Tequila is played simultaneously ("Simultaneously, all players use the dice"): nothing a player does in
a round is seen by the others before the round ends. The engine lets seats act one after another, so it
keeps each sheet's public facts from the start of the round (``Tequila.shown_sheets``) and shows the
others those. A ``PublicSheet`` is that record: the farm (fences, fenced-off fields, buildings, filled
sections) and the tracks (resources, coins, production, collections, market, bonuses, extra free actions
bought, unused gears). It is saved in the state dict with the same field names as the sheet's.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from fiesta_envs.core.fields import FieldReader
from fiesta_envs.tequila import components as C
from fiesta_envs.tequila import farm as F
from fiesta_envs.tequila.layout import MARKET_SPACES, NUM_BONUSES

NUM_RESOURCES = len(C.RESOURCES)

#: Allowed ranges of a sheet's integer fields (others: any int >= 0).
FIELD_RANGES: dict[str, tuple[int, int]] = {
    "coins": (0, C.COIN_TRACK_LENGTH),
    "collections": (0, C.COLLECTION_TRACK_LENGTH),
    "market": (0, (1 << MARKET_SPACES) - 1),
    "fences": (0, (1 << F.NUM_SEGMENTS) - 1),
    "rewarded_fields": (0, (1 << F.NUM_FIELDS) - 1),
    "sections": (0, (1 << len(F.SECTIONS)) - 1),
    "bonuses": (0, (1 << NUM_BONUSES) - 1),
    "virtual": (-1, 1),
}
#: The integer fields of a public sheet (saved under these names).
PUBLIC_INT_FIELDS: tuple[str, ...] = (
    "coins",
    "collections",
    "market",
    "fences",
    "rewarded_fields",
    "sections",
    "bonuses",
    "extra_bought",
    "gears_unused",
)


@dataclass(frozen=True)
class PublicSheet:
    """A sheet's public facts at one moment (``Sheet.public_sheet``); ``linked`` follows from the buildings."""

    marked: tuple[int, ...]  # squares marked on each resource track
    crossed: tuple[int, ...]  # of those, crossed out (spent)
    coins: int
    production: tuple[int, ...]  # per tequila
    collections: int
    market: int  # mask of marked market spaces, bit row * 8 + col
    fences: int  # mask of fenced segments
    rewarded_fields: int  # mask of fenced-off fields
    sections: int  # mask of filled sections
    bonuses: int  # mask of "first to" bonuses gained
    extra_bought: int
    gears_unused: int
    buildings: tuple[tuple[int, int], ...]  # (kind, placement index) in building order
    linked: tuple[bool, ...]  # building i is connected to its chain partner (not saved)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {name: getattr(self, name) for name in PUBLIC_INT_FIELDS}
        data["marked"] = list(self.marked)
        data["crossed"] = list(self.crossed)
        data["production"] = list(self.production)
        data["buildings"] = [[kind, index] for kind, index in self.buildings]
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], path: str) -> PublicSheet:
        """Read a saved public sheet (``path`` names it in errors, e.g. ``shown_sheets[1]``)."""
        read = FieldReader(data, game="tequila", path=path)
        ints = {name: read.int(name, *FIELD_RANGES.get(name, (0, None))) for name in PUBLIC_INT_FIELDS}
        marked = read.int_list("marked", NUM_RESOURCES, 0, C.RESOURCE_TRACK_LENGTH)
        crossed = read.int_list("crossed", NUM_RESOURCES, 0, C.RESOURCE_TRACK_LENGTH)
        read.problem_if(any(c > m for c, m in zip(crossed, marked, strict=True)), f"{path}: more crossed than marked")
        production = read.int_list("production", len(C.TEQUILAS), 0, C.PRODUCTION_TRACK_LENGTH)
        buildings = tuple(
            (kind, index) for kind, index in read.int_matrix("buildings", cols=2, low=0, high=F.NUM_PLACEMENTS - 1)
        )
        read.problem_if(
            any(F.PLACEMENTS[index].kind != kind for kind, index in buildings),
            f"{path}: a building's kind is not its placement's",
        )
        occupied = 0
        for _, index in buildings:
            read.problem_if(bool(F.PLACEMENTS[index].spaces & occupied), f"{path}: buildings overlap")
            occupied |= F.PLACEMENTS[index].spaces
        return cls(
            marked=tuple(marked),
            crossed=tuple(crossed),
            production=tuple(production),
            buildings=buildings,
            linked=tuple(F.connections(list(buildings)).linked),
            **ints,
        )
