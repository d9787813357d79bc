"""The configurations of a game: (player count, options) pairs to test, fuzz, benchmark or record.

One enumerator for every user. ``configurations(game_class)`` lists every supported player count
with the default options, then each option that has a list of ``choices`` set to each of its
non-default choices, in the order the game declares them; ``depth`` > 1 adds combinations of up to
``depth`` non-default options. A variant is tried at every player count (``every_count=True``, what
the fuzzer runs) or once, at the default player count or else the first count that accepts it
(``every_count=False``, what the registry's ``GameSpec.configurations`` gives the API tests, the
golden playthroughs and the benchmark). Pairs the game refuses (``InvalidOptionError``, e.g. a
variant that exists for 4 players only) are left out.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from typing import Any

from fiesta_envs.core.errors import InvalidOptionError
from fiesta_envs.core.game import Game

Configuration = tuple[int, dict[str, Any]]


def accepts(game_class: type[Game], num_players: int, options: dict[str, Any]) -> bool:
    """Whether ``game_class`` can be set up for ``num_players`` with ``options``."""
    try:
        game_class(num_players=num_players, seed=0, **options)
    except InvalidOptionError:
        return False
    return True


def variants(game_class: type[Game], depth: int | None = 1, skip: Iterable[str] = ()) -> list[dict[str, Any]]:
    """Every choice of non-default options, at most ``depth`` of them (``None``: any number), fewest first.

    Options without ``choices`` and the options named in ``skip`` keep their default.
    """
    skipped = set(skip)
    varied = {
        name: [choice for choice in option.choices if choice != option.default]
        for name, option in game_class.options.items()
        if option.choices and name not in skipped
    }
    most = len(varied) if depth is None else min(depth, len(varied))
    found: list[dict[str, Any]] = [{}]
    for size in range(1, most + 1):
        for names in itertools.combinations(varied, size):
            for values in itertools.product(*(varied[name] for name in names)):
                found.append(dict(zip(names, values, strict=True)))
    return found


def configurations(
    game_class: type[Game],
    *,
    players: Iterable[int] | None = None,
    depth: int | None = 1,
    every_count: bool = True,
    skip: Iterable[str] = (),
    max_configs: int | None = None,
) -> list[Configuration]:
    """The (player count, options) pairs of ``game_class``, the plainest first (see the module docstring).

    ``players`` limits the player counts; ``max_configs`` keeps the first ones (every player count
    with the defaults first, then single variants before combinations).
    """
    counts = list(game_class.player_counts) if players is None else list(players)
    default_first = list(dict.fromkeys([game_class.default_players, *counts]))
    result: list[Configuration] = []
    for options in variants(game_class, depth, skip):
        for n in counts if every_count or not options else default_first:
            if accepts(game_class, n, options):
                result.append((n, options))
                if not every_count and options:
                    break
            if max_configs and len(result) >= max_configs:
                return result
    return result
