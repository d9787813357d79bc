"""Checked readers for state dicts: one error style for every game.

A game's saved position is a dataclass (``<game>/state.py``) that holds exactly what its state dict
holds. Writing it is generic (``to_json_safe``); reading it back goes field by field through a
``FieldReader``, which checks each value's type, range and length and names the field in its error::

    read = FieldReader(data, game="fiesta_mexicana")
    turn = read.int("turn", -1, num_players - 1)
    cards = read.int_matrix("cards", rows=num_players, cols=16, low=-1, high=51)
    read.problem_if(turn < 0 and phase != "over", "a game in play needs a seat to act")

Every error is an ``InvalidStateError`` such as ``fiesta_mexicana: state field 'cards[1][3]': expected an
int in [-1, 51], got 99``. Cross-field rules raise through ``problem_if`` in the same style.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import math
from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

from fiesta_envs.core.errors import InvalidStateError

#: Values saved as they are (exact types: a bool or an IntEnum is not an int here).
_PLAIN_TYPES = frozenset({int, float, str, bool, type(None)})


def to_json_safe(value: Any) -> Any:
    """A dataclass (or nested lists, tuples and dicts of plain values) as JSON-safe data."""
    kind = type(value)
    if kind in _PLAIN_TYPES:
        return value
    if kind is list or kind is tuple:  # the common case, without the general checks below
        return [item if type(item) in _PLAIN_TYPES else to_json_safe(item) for item in value]
    if isinstance(value, enum.Enum):  # (an IntEnum phase is saved as its number)
        return to_json_safe(value.value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {name: to_json_safe(getattr(value, name)) for name in _field_names(type(value))}
    if isinstance(value, Mapping):
        return {str(key): to_json_safe(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_json_safe(item) for item in value]
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):  # numpy scalars
        return value.item()
    return value


def first_unknown_key(given: Any, written: Any, path: str = "") -> str | None:
    """The path (``sheets[1].marked``) of the first key of ``given`` that ``written`` -- the same position as
    ``state_dict`` writes it -- does not have, looking into every mapping and every list of equal length;
    None when there is none."""
    if isinstance(given, Mapping) and isinstance(written, Mapping):
        for key, value in given.items():
            name = f"{path}.{key}" if path else str(key)
            if key not in written:
                return name
            found = first_unknown_key(value, written[key], name)
            if found is not None:
                return found
    elif (
        isinstance(given, list)
        and isinstance(written, list)
        and len(given) == len(written)
        and isinstance(given[0] if given else None, (Mapping, list))  # lists are of one kind: skip plain values
    ):
        for index, (value, expected) in enumerate(zip(given, written, strict=True)):
            found = first_unknown_key(value, expected, f"{path}[{index}]")
            if found is not None:
                return found
    return None


@functools.cache
def _field_names(dataclass_type: type) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(dataclass_type))


#: A value among given choices (``FieldReader.choice_list``).
ChoiceT = TypeVar("ChoiceT")


class FieldReader:
    """Reads the fields of one state dict (or a nested part of it), checking each value."""

    def __init__(self, data: Any, game: str, path: str = "") -> None:
        if not isinstance(data, Mapping):
            if not path:
                raise InvalidStateError(f"{game}: malformed state: expected a mapping, got {type(data).__name__}")
            raise InvalidStateError(f"{game}: state {path!r} must be a mapping, got {type(data).__name__}")
        self.data = data
        self.game = game
        self.path = path

    # ------------------------------------------------------------------ errors
    def _name(self, key: str) -> str:
        return f"{self.path}.{key}" if self.path else key

    def fail(self, field: str, expected: str, value: Any) -> InvalidStateError:
        return InvalidStateError(f"{self.game}: state field {field!r}: expected {expected}, got {value!r:.80}")

    def problem_if(self, condition: bool, problem: str) -> None:
        """Refuse a position whose fields are each fine but do not fit together."""
        if condition:
            raise InvalidStateError(f"{self.game}: malformed state: {problem}")

    def refuse_unknown_keys(self, allowed: Sequence[str]) -> None:
        """Refuse a key of this mapping that is not one of ``allowed``, naming it and the allowed ones."""
        for key in self.data:
            if key not in allowed:
                raise InvalidStateError(
                    f"{self.game}: unknown key {self._name(str(key))!r} in the state dict; "
                    f"allowed: {', '.join(map(self._name, allowed))}"
                )

    def raw(self, key: str) -> Any:
        if key not in self.data:
            raise InvalidStateError(f"{self.game}: state field {self._name(key)!r} is missing")
        return self.data[key]

    # ------------------------------------------------------------------ scalars
    def _int(self, value: Any, field: str, low: int | None, high: int | None) -> int:
        if type(value) is int and (low is None or value >= low) and (high is None or value <= high):
            return value  # the common case first (a bool is not an int here)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(field, "an int", value)
        if (low is not None and value < low) or (high is not None and value > high):
            raise self.fail(
                field, f"an int in [{'-inf' if low is None else low}, {'inf' if high is None else high}]", value
            )
        return value

    def number(self, key: str) -> float:
        """A finite int or float, returned as a float (``True``/``False`` are not numbers here)."""
        value = self.raw(key)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise self.fail(self._name(key), "a finite number", value)
        return float(value)

    def optional_int(self, key: str, low: int | None = None, high: int | None = None) -> int | None:
        """An int, or None (JSON null) for "none"."""
        value = self.raw(key)
        return None if value is None else self._int(value, self._name(key), low, high)

    def choice(self, key: str, choices: Sequence[str]) -> str:
        value = self.raw(key)
        if value not in choices:
            raise self.fail(self._name(key), f"one of {', '.join(map(repr, choices))}", value)
        return value

    def optional_choice_index(self, key: str, choices: Sequence[str]) -> int:
        """The position of the value in ``choices``, or -1 for None (JSON null)."""
        return -1 if self.raw(key) is None else self.choice_index(key, choices)

    def choice_index(self, key: str, choices: Sequence[str]) -> int:
        """The position of the value in ``choices`` (for phases stored by name, kept as an int)."""
        return list(choices).index(self.choice(key, choices))

    # ------------------------------------------------------------------ sequences
    def _list(self, value: Any, field: str, length: int | None) -> list:
        if not isinstance(value, list) or (length is not None and len(value) != length):
            expected = "a list" if length is None else f"a list of {length} entries"
            raise self.fail(field, expected, value)
        return value

    def choice_list(self, key: str, choices: Sequence[ChoiceT], length: int | None = None) -> list[ChoiceT]:
        """A list whose every entry is one of ``choices``."""
        field = self._name(key)
        values = self._list(self.raw(key), field, length)
        for i, v in enumerate(values):
            if v not in choices:
                raise self.fail(f"{field}[{i}]", f"one of {', '.join(map(repr, choices))}", v)
        return list(values)

    def choice_indices(self, key: str, choices: Sequence[str], length: int | None = None) -> list[int]:
        """A list of values from ``choices`` (names of cards...), as their positions in ``choices``."""
        return [list(choices).index(value) for value in self.choice_list(key, choices, length)]

    def choice_matrix(self, key: str, choices: Sequence[str], rows: int | None = None) -> list[list[int]]:
        """A list of lists of values from ``choices`` (rows may differ in length), as their positions."""
        field = self._name(key)
        result = []
        for r, row in enumerate(self._list(self.raw(key), field, rows)):
            for c, value in enumerate(self._list(row, f"{field}[{r}]", None)):
                if value not in choices:
                    raise self.fail(f"{field}[{r}][{c}]", f"one of {', '.join(map(repr, choices))}", value)
            result.append([list(choices).index(value) for value in row])
        return result

    def int_list(
        self, key: str, length: int | None = None, low: int | None = None, high: int | None = None
    ) -> list[int]:
        field = self._name(key)
        return self._ints(self._list(self.raw(key), field, length), field, low, high)

    def bool_list(self, key: str, length: int | None = None) -> list[bool]:
        field = self._name(key)
        values = self._list(self.raw(key), field, length)
        for i, v in enumerate(values):
            if not isinstance(v, bool):
                raise self.fail(f"{field}[{i}]", "true or false", v)
        return list(values)

    def int_matrix(
        self,
        key: str,
        *,
        rows: int | None = None,
        cols: int | None = None,
        low: int | None = None,
        high: int | None = None,
    ) -> list[list[int]]:
        """A list of int lists (``cols=None`` lets the rows differ in length)."""
        field = self._name(key)
        table = self._list(self.raw(key), field, rows)
        result = []
        for r, row in enumerate(table):
            row_field = f"{field}[{r}]"
            result.append(self._ints(self._list(row, row_field, cols), row_field, low, high))
        return result

    def _ints(self, values: list, field: str, low: int | None, high: int | None) -> list[int]:
        """The entries of ``values`` checked as ints in [low, high] (errors name ``field[i]``)."""
        floor = -math.inf if low is None else low
        ceiling = math.inf if high is None else high
        if all(type(v) is int and floor <= v <= ceiling for v in values):  # the common case, in one pass
            return list(values)
        return [self._int(v, f"{field}[{i}]", low, high) for i, v in enumerate(values)]

    def permutation(self, key: str, size: int) -> list[int]:
        values = self.int_list(key, size, 0, size - 1)
        if sorted(values) != list(range(size)):
            raise self.fail(self._name(key), f"a permutation of 0..{size - 1}", values)
        return values

    # ------------------------------------------------------------------ nesting
    def part(self, key: str) -> FieldReader:
        """A reader for the nested mapping under ``key`` (errors name ``key.field``)."""
        return FieldReader(self.raw(key), self.game, self._name(key))

    def parts(self, key: str, length: int | None = None) -> list[FieldReader]:
        """Readers for a list of nested mappings (errors name ``key[i].field``)."""
        field = self._name(key)
        return [
            FieldReader(item, self.game, f"{field}[{i}]")
            for i, item in enumerate(self._list(self.raw(key), field, length))
        ]

    # ------------------------------------------------------------------ single values named after builtins
    # Last in the class: above them, the annotations int, bool, str and list still name the builtins.
    def list(self, key: str, length: int | None = None) -> list:
        return self._list(self.raw(key), self._name(key), length)

    def int(self, key: str, low: int | None = None, high: int | None = None) -> int:
        return self._int(self.raw(key), self._name(key), low, high)

    def bool(self, key: str) -> bool:
        value = self.raw(key)
        if not isinstance(value, bool):
            raise self.fail(self._name(key), "true or false", value)
        return value

    def str(self, key: str) -> str:
        value = self.raw(key)
        if not isinstance(value, str):
            raise self.fail(self._name(key), "a string", value)
        return value
