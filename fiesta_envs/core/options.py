"""Declaring and validating a game's options.

Each engine lists its options as ``{name: Option(...)}``. ``validate_options`` fills in the
defaults and refuses, with a message naming the option and the allowed values, anything
unknown or out of range. Nothing here knows about a particular game.
"""

from __future__ import annotations

import argparse
import difflib
import inspect
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from fiesta_envs.core.errors import InvalidOptionError


@dataclass(frozen=True)
class Option:
    """One option of a game.

    default: the value used when the option is not given.
    choices: the allowed values, or None when ``kind``/``check`` decide.
    kind: the allowed Python type(s) when there is no fixed list of choices.
    check: optional extra test; returns an error text, or None when the value is fine.
    doc: one line for the documentation and for error messages.
    """

    default: Any
    choices: tuple[Any, ...] | None = None
    kind: type | tuple[type, ...] | None = None
    check: Callable[[Any], str | None] | None = None
    doc: str = ""

    def allowed(self) -> str:
        if self.choices is not None:
            return ", ".join(repr(c) for c in self.choices)
        if self.kind is not None:
            kinds = self.kind if isinstance(self.kind, tuple) else (self.kind,)
            return "a value of type " + " or ".join(k.__name__ for k in kinds)
        return "see the game's documentation"

    def validate(self, game: str, name: str, value: Any) -> Any:
        if self.choices is not None:
            choice = _matching_choice(value, self.choices)
            if choice is _NO_CHOICE:
                raise InvalidOptionError(
                    f"{game}: option {name}={value!r} is not allowed; allowed values: {self.allowed()}"
                )
            value = choice  # store the declared value itself (2, not 2.0 or numpy's 2)
        if self.kind is not None and not isinstance(value, self.kind):
            raise InvalidOptionError(f"{game}: option {name}={value!r} has the wrong type; expected {self.allowed()}")
        if self.check is not None:
            problem = self.check(value)
            if problem:
                raise InvalidOptionError(f"{game}: option {name}={value!r}: {problem}")
        return value


_NO_CHOICE = object()


def _matching_choice(value: Any, choices: tuple[Any, ...]) -> Any:
    """The declared choice equal to ``value`` (``True`` is not taken for ``1`` nor ``1`` for ``True``)."""
    for choice in choices:
        if value == choice and isinstance(value, (bool, np.bool_)) == isinstance(choice, bool):
            return choice
    return _NO_CHOICE


def validate_options(game: str, declared: Mapping[str, Option], given: Mapping[str, Any]) -> dict[str, Any]:
    """Return the full option dict (defaults filled in) or raise ``InvalidOptionError``."""
    unknown = [name for name in given if name not in declared]
    if unknown:
        name = unknown[0]
        hint = difflib.get_close_matches(name, list(declared), n=1)
        did_you_mean = f" (did you mean {hint[0]!r}?)" if hint else ""
        known = ", ".join(sorted(declared)) or "none"
        raise InvalidOptionError(f"{game}: unknown option {name!r}{did_you_mean}; known options: {known}")
    values = {}
    for name, option in declared.items():
        value = given.get(name, option.default)
        values[name] = option.validate(game, name, value)
    return values


def keywords_of(function: Callable[..., Any], internal: Sequence[str] = ()) -> tuple[str, ...]:
    """The keyword arguments ``function`` names (not ``self``, ``*args``/``**kwargs`` nor ``internal``), in order:
    what an environment's constructor takes besides the game's options."""
    named = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    return tuple(
        name
        for name, parameter in inspect.signature(function).parameters.items()
        if parameter.kind in named and name != "self" and name not in internal
    )


def refuse_unknown_keywords(
    game: str,
    declared: Mapping[str, Option],
    given: Mapping[str, Any],
    constructor: Callable[..., Any],
    internal: Sequence[str] = (),
) -> None:
    """Refuse a keyword argument of an environment's ``constructor`` that landed in its ``**options`` (``given``)
    but is no game option, naming the closest allowed keyword and every allowed one (``InvalidOptionError``):
    the constructor's own keywords (``keywords_of``) and the game's options."""
    unknown = [name for name in given if name not in declared]
    if not unknown:
        return
    name = unknown[0]
    keywords = keywords_of(constructor, internal)
    hint = difflib.get_close_matches(name, [*keywords, *declared], n=1)
    did_you_mean = f" (did you mean {hint[0]!r}?)" if hint else ""
    known = ", ".join(sorted(declared)) or "none"
    raise InvalidOptionError(
        f"{game}: unknown option {name!r}{did_you_mean}; known options: {known}; "
        f"the environment also takes: {', '.join(keywords)}"
    )


def validate_player_count(game: str, allowed: tuple[int, ...], num_players: Any) -> int:
    """Return ``num_players`` as an int, or raise ``InvalidOptionError`` naming the allowed counts."""
    if isinstance(num_players, bool) or not isinstance(num_players, int) or num_players not in allowed:
        counts = ", ".join(str(n) for n in allowed)
        raise InvalidOptionError(f"{game}: num_players={num_players!r} is not supported; allowed: {counts}")
    return int(num_players)


# ---------------------------------------------------------------------- the command line's --option
OPTION_METAVAR = "NAME=VALUE"


def add_option_argument(parser: argparse.ArgumentParser, help_text: str = "a game option (repeatable)") -> None:
    """The ``--option NAME=VALUE`` argument every ``fiesta`` command that sets up a game shares."""
    parser.add_argument("--option", action="append", default=[], metavar=OPTION_METAVAR, help=help_text)


def parse_option(text: str) -> tuple[str, Any]:
    """``NAME=VALUE`` with the value read as JSON when it can be (``3``, ``true``, ``"x"``), else a string."""
    name, sep, value = text.partition("=")
    if not sep or not name.strip():
        raise InvalidOptionError(f"--option needs {OPTION_METAVAR}, got {text!r}")
    try:
        parsed = json.loads(value)
    except json.JSONDecodeError:
        parsed = value
    return name.strip(), parsed


def parse_options(texts: Iterable[str]) -> dict[str, Any]:
    """The options of repeated ``--option NAME=VALUE`` arguments (the last one of a name wins)."""
    return dict(parse_option(text) for text in texts)
