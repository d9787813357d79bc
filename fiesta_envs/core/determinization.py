"""Determinisation for search: a copy of a game as one seat may believe it to be.

A search that plays ahead on ``game.clone()`` would see the future: a clone holds the other hands, the
deck order and the random generator that will roll the next dice. ``Game.determinize(seat, rng)``
returns instead a copy in which everything hidden from ``seat`` is drawn afresh from ``rng``,
consistently with what the seat knows (the cards it has not seen are dealt into the places it cannot
see, in the numbers it can see), and the copy's own generator is seeded from ``rng``, so its future
dice and draws are not the game's. The copy is built from the seat's knowledge only: two positions that
differ only in what ``seat`` cannot know give the same copy for the same ``rng`` (tested per game).

The helpers below are what every game's determinisation shares: a game rewrites the hidden fields of
its saved position and hands it to ``rebuilt``, which checks it like any loaded state dict.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from fiesta_envs.core.rng import generator_state

if TYPE_CHECKING:
    from fiesta_envs.core.game import Game


def reseeded_generator(rng: np.random.Generator) -> np.random.Generator:
    """A new generator seeded from ``rng``: the copy's chance, unrelated to the game's own generator."""
    return np.random.default_rng(int(rng.integers(1 << 63)))


def shuffled(cards: Iterable[int], rng: np.random.Generator) -> list[int]:
    """``cards`` in a random order drawn from ``rng``. The cards are sorted first, so the result depends
    only on which cards there are (never on the order the true position kept them in)."""
    ordered = np.array(sorted(int(card) for card in cards), dtype=np.int64)
    return rng.permutation(ordered).tolist()


def cards_of_counts(counts: Sequence[int]) -> list[int]:
    """Card types repeated by their counts: ``[2, 0, 1]`` gives ``[0, 0, 2]``."""
    return [card for card, count in enumerate(counts) for _ in range(count)]


def without(cards: Iterable[int], taken: Iterable[int]) -> list[int]:
    """The multiset ``cards`` minus the multiset ``taken`` (each taken card removes one copy);
    ``ValueError`` when ``taken`` holds a card ``cards`` does not have."""
    left = sorted(int(card) for card in cards)
    for card in taken:
        left.remove(int(card))
    return left


def rebuilt(game: Game, state: Mapping[str, Any], rng: np.random.Generator) -> Game:
    """A new game of the same kind, player count and options at the position ``state`` (the game's
    ``_state_to_dict`` form, its hidden fields already resampled), with a generator seeded from ``rng``.

    It is loaded as any state dict is, so a resampled position that breaks a rule is refused here
    (``InvalidStateError``) instead of being searched.
    """
    data = {
        "game": game.name,
        "version": game.version,
        "num_players": game.num_players,
        "options": dict(game.config),
        "rng": generator_state(reseeded_generator(rng)),
        "state": state,
    }
    return type(game).from_state_dict(data, check_keys=False)  # written just above
