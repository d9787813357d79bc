"""What the others see of a sheet during a round: its printed facts as they stood when the round began.

Tequila is played simultaneously ("Simultaneously, all players use the dice"): nothing a player does in
a round is seen by the others before the round ends. The engine lets seats act one after another, so it
keeps each sheet's public facts from the start of the round (``Tequila.shown_sheets``) and shows the
others those. A ``PublicSheet`` is that record: the farm (fences, fenced-off fields, buildings, filled
sections) and the tracks (resources, coins, production, collections, market, bonuses, extra free actions
bought, unused gears). It is saved in the state dict with the same field names as the sheet's
(``state.SheetState``), and ``read_public_facts`` reads those fields for both.
"""

from __future__ import annotations

import dataclasses
import operator
from collections.abc import Sequence
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

from fiesta_envs.core.state_fields import FieldReader, to_json_safe
from fiesta_envs.tequila import components, farm
from fiesta_envs.tequila.observation_layout import MARKET_SPACES, NUM_BONUSES

NUM_RESOURCES = len(components.RESOURCES)

#: The allowed range of each public integer field of a saved sheet (None: no upper bound).
PUBLIC_INT_RANGES: dict[str, tuple[int, int | None]] = {
    "coins": (0, components.COIN_TRACK_LENGTH),
    "collections": (0, components.COLLECTION_TRACK_LENGTH),
    "market": (0, (1 << MARKET_SPACES) - 1),
    "fences": (0, (1 << farm.NUM_SEGMENTS) - 1),
    "rewarded_fields": (0, (1 << farm.NUM_FIELDS) - 1),
    "sections": (0, (1 << len(farm.SECTIONS)) - 1),
    "bonuses": (0, (1 << NUM_BONUSES) - 1),
    "extra_bought": (0, None),
    "gears_unused": (0, None),
}


@dataclass(frozen=True)
class PublicSheet:
    """A sheet's public facts at one moment (``Sheet.public_sheet``); ``linked`` follows from the buildings."""

    coins: int
    collections: int
    market: int  # mask of marked market spaces, bit row * 8 + col
    fences: int  # mask of fenced segments
    rewarded_fields: int  # mask of fenced-off fields
    sections: int  # mask of filled sections
    bonuses: int  # mask of "first to" bonuses gained
    extra_bought: int
    gears_unused: int
    marked: tuple[int, ...]  # squares marked on each resource track
    crossed: tuple[int, ...]  # of those, crossed out (spent)
    production: tuple[int, ...]  # per tequila
    buildings: tuple[tuple[int, int], ...]  # (kind, placement index) in building order
    linked: tuple[bool, ...]  # building i is connected to its chain partner (not saved)

    @classmethod
    def of(cls, sheet: Any, linked: Sequence[bool]) -> PublicSheet:
        """The public facts of ``sheet`` (anything with the saved fields: a live ``Sheet``, a ``SheetState``)."""
        values: list[Any] = [tuple(value) if isinstance(value, list) else value for value in _public_values(sheet)]
        return cls(**dict(zip(PUBLIC_FIELDS, values, strict=True)), linked=tuple(linked))

    def to_dict(self) -> dict[str, Any]:
        return {name: to_json_safe(getattr(self, name)) for name in PUBLIC_FIELDS}

    @classmethod
    def read(cls, read: FieldReader) -> PublicSheet:
        """Read a saved public sheet (a ``shown_sheets`` entry; errors name ``shown_sheets[1].coins``...)."""
        facts = read_public_facts(read)
        return cls.of(SimpleNamespace(**facts), farm.connections(facts["buildings"]).linked)


#: The saved fields of a public sheet, in state-dict order (all but ``linked``, the last).
PUBLIC_FIELDS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(PublicSheet))[:-1]
#: Their values read from a sheet, as a tuple in that order.
_public_values = operator.attrgetter(*PUBLIC_FIELDS)


def read_public_facts(read: FieldReader) -> dict[str, Any]:
    """The public fields of a saved sheet (a ``sheets`` or ``shown_sheets`` entry), checked: every range,
    no more crossed than marked, each building's kind that of its placement, no two buildings overlapping."""
    facts: dict[str, Any] = {name: read.int(name, low, high) for name, (low, high) in PUBLIC_INT_RANGES.items()}
    track = components.RESOURCE_TRACK_LENGTH
    facts["marked"] = marked = read.int_list("marked", NUM_RESOURCES, 0, track)
    facts["crossed"] = crossed = read.int_list("crossed", NUM_RESOURCES, 0, track)
    read.problem_if(any(c > m for c, m in zip(crossed, marked, strict=True)), f"{read.path}: more crossed than marked")
    facts["production"] = read.int_list("production", len(components.TEQUILAS), 0, components.PRODUCTION_TRACK_LENGTH)
    rows = read.int_matrix("buildings", cols=2, low=0, high=farm.NUM_PLACEMENTS - 1)
    buildings = [(kind, index) for kind, index in rows]
    read.problem_if(
        any(farm.PLACEMENTS[index].kind != kind for kind, index in buildings),
        f"{read.path}: a building's kind is not its placement's",
    )
    occupied = 0
    for _, index in buildings:
        read.problem_if(bool(farm.PLACEMENTS[index].spaces & occupied), f"{read.path}: buildings overlap")
        occupied |= farm.PLACEMENTS[index].spaces
    facts["buildings"] = buildings
    return facts
