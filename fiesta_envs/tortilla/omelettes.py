"""Recipe checks: is a pile of cards a perfect omelette, and how far is it from one?

A pile is described by its counts per card type (7 numbers, see ``components.CARD_TYPES``).
Each wildcard counts as exactly one of its ingredients, chosen by the pile's owner at the end,
so a pile is perfect if ANY choice for its wildcards matches the recipe (the owner's favour).
Results are cached: a game sees few distinct piles.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import lru_cache

from fiesta_envs.tortilla.components import RECIPES, Recipe


def _assignments(counts: tuple[int, ...]) -> Iterator[tuple[int, int, int]]:
    """Every (potatoes, eggs, onions) the pile can stand for, over all wildcard choices."""
    potato, egg, onion, pe, po, eo, peo = counts
    for pe_potato in range(pe + 1):
        for po_potato in range(po + 1):
            for eo_egg in range(eo + 1):
                for peo_potato in range(peo + 1):
                    for peo_egg in range(peo - peo_potato + 1):
                        peo_onion = peo - peo_potato - peo_egg
                        yield (
                            potato + pe_potato + po_potato + peo_potato,
                            egg + (pe - pe_potato) + eo_egg + peo_egg,
                            onion + (po - po_potato) + (eo - eo_egg) + peo_onion,
                        )


def _matches(recipe: Recipe, potatoes: int, eggs: int, onions: int) -> bool:
    low, high = recipe.potatoes
    return low <= potatoes <= high and eggs == recipe.eggs and onions == recipe.onions


@lru_cache(maxsize=65536)
def _is_perfect(counts: tuple[int, ...], size: int) -> bool:
    recipe = RECIPES[size]
    return any(_matches(recipe, *amounts) for amounts in _assignments(counts))


def is_perfect(counts: Sequence[int], size: int) -> bool:
    """True if the pile can be read as the recipe ``RECIPES[size]`` (0 = M, 1 = XL)."""
    return _is_perfect(tuple(counts), size)


def omelette_points(counts: Sequence[int], size: int, diners: int) -> int:
    """Points of a served omelette: +/- diners, doubled for XL; + if perfect, - if badly made."""
    points = diners * RECIPES[size].multiplier
    return points if is_perfect(counts, size) else -points


@lru_cache(maxsize=65536)
def _cards_missing(counts: tuple[int, ...], size: int) -> int:
    recipe = RECIPES[size]
    low, high = recipe.potatoes
    best = -1
    for potatoes, eggs, onions in _assignments(counts):
        if potatoes > high or eggs > recipe.eggs or onions > recipe.onions:
            continue
        missing = max(low - potatoes, 0) + (recipe.eggs - eggs) + (recipe.onions - onions)
        if best < 0 or missing < best:
            best = missing
    return best


def cards_missing(counts: Sequence[int], size: int) -> int:
    """Fewest cards to add for the pile to become perfect at ``size``; -1 if adding cannot help.

    (-1 means some ingredient is already over the recipe whatever the wildcards stand for.)
    """
    return _cards_missing(tuple(counts), size)
