"""The end-of-game breakdown (``Game.final_info``) as tables a person can read.

``final_info`` is plain data whose shape differs by game; it is laid out by shape alone:

* single values (``end_reason``, ``mood_text``) become a list of facts;
* lists with one value per seat (``final_scores``, ``objectives``) become the rows of one table
  with a column per seat;
* lists of records with one record per seat (Tequila's ``score_breakdown``) become a table with
  a row per seat; other lists of records (omelettes served, skull reports, rounds) a table with a
  row per record;
* nested mappings are flattened into facts (``team.flowers``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

#: Keys that make a list of records a list of things (not one record per seat).
ITEM_KEYS = ("number", "round", "seat", "owner", "team", "index")


@dataclass
class BreakdownTable:
    title: str
    header: list[str]
    rows: list[list[str]] = field(default_factory=list)


@dataclass
class Breakdown:
    facts: list[tuple[str, str]]
    tables: list[BreakdownTable]


def build_breakdown(info: Mapping[str, Any], seat_labels: Sequence[str]) -> Breakdown:
    """``info`` laid out as facts and tables; ``seat_labels`` name the columns of per-seat values."""
    seats = len(seat_labels)
    facts: list[tuple[str, str]] = []
    per_seat = BreakdownTable("by seat", ["", *seat_labels])
    tables: list[BreakdownTable] = []
    for key, value in info.items():
        title = key.replace("_", " ")
        if isinstance(value, Mapping):
            facts.extend(_flatten(title, value))
        elif _is_list(value) and value and all(isinstance(v, Mapping) for v in value):
            tables.append(_record_table(title, value, seat_labels))
        elif _is_list(value) and len(value) == seats and seats > 1:
            per_seat.rows.append([title, *(show(v) for v in value)])
        else:
            facts.append((title, show(value)))
    if per_seat.rows:
        tables.insert(0, per_seat)
    return Breakdown(facts, tables)


def _record_table(title: str, records: Sequence[Mapping[str, Any]], seat_labels: Sequence[str]) -> BreakdownTable:
    columns = list(dict.fromkeys(key for record in records for key in record))
    by_seat = len(records) == len(seat_labels) and not any(key in ITEM_KEYS for key in columns)
    first = "seat" if by_seat else "#"
    table = BreakdownTable(title, [first, *(c.replace("_", " ") for c in columns)])
    for i, record in enumerate(records):
        label = seat_labels[i] if by_seat else str(i + 1)
        table.rows.append([label, *(show(record.get(c, "")) for c in columns)])
    return table


def _flatten(prefix: str, mapping: Mapping[str, Any]) -> list[tuple[str, str]]:
    facts = []
    for key, value in mapping.items():
        name = f"{prefix}.{str(key).replace('_', ' ')}"
        if isinstance(value, Mapping):
            facts.extend(_flatten(name, value))
        else:
            facts.append((name, show(value)))
    return facts


def _is_list(value: Any) -> bool:
    return isinstance(value, (list, tuple))


def show(value: Any) -> str:
    """A value as short text: lists joined by commas, numbers without needless decimals."""
    if value is None:
        return "–"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:g}"
    if _is_list(value):
        return ", ".join(show(v) for v in value) if value else "none"
    if isinstance(value, Mapping):
        return "; ".join(f"{k}: {show(v)}" for k, v in value.items())
    return str(value)
