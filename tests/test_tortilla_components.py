"""Tortilla de Patatas: component data and the recipe checks (wildcards in the owner's favour)."""

from __future__ import annotations

import pytest

from fiesta_envs.tortilla.actions import ACTION_NAMES, NUM_ACTIONS
from fiesta_envs.tortilla.components import (
    CARD_COUNTS,
    CARD_INGREDIENTS,
    CARD_TYPES,
    DINER_COPIES,
    DINER_VALUES,
    MENUS,
    RECIPES,
)
from fiesta_envs.tortilla.omelettes import cards_missing, is_perfect, omelette_points

M, XL = 0, 1


def counts(**kw: int) -> tuple[int, ...]:
    """Counts per card type from keywords: p, e, o, pe, po, eo, peo."""
    return tuple(kw.get(key, 0) for key in ("p", "e", "o", "pe", "po", "eo", "peo"))


def test_the_deck_has_62_cards_with_our_distribution() -> None:
    assert dict(zip(CARD_TYPES, CARD_COUNTS, strict=True)) == {
        "potato": 26,
        "egg": 15,
        "onion": 11,
        "potato+egg": 3,
        "potato+onion": 2,
        "egg+onion": 2,
        "potato+egg+onion": 3,
    }
    assert sum(CARD_COUNTS) == 62 and sum(CARD_COUNTS[3:]) == 10
    assert [len(ingredients) for ingredients in CARD_INGREDIENTS] == [1, 1, 1, 2, 2, 2, 3]


def test_six_diner_cards_two_each_of_1_2_3() -> None:
    assert DINER_VALUES == (1, 2, 3) and DINER_COPIES == 2


def test_recipes_as_printed() -> None:
    m, xl = RECIPES
    assert (m.name, m.potatoes, m.eggs, m.onions, m.multiplier) == ("M", (3, 4), 2, 1, 1)
    assert (xl.name, xl.potatoes, xl.eggs, xl.onions, xl.multiplier) == ("XL", (5, 6), 3, 2, 2)


def test_menus() -> None:
    assert set(MENUS) == {"kids", "day", "gourmet"}
    assert (MENUS["kids"].stealing, MENUS["day"].stealing, MENUS["gourmet"].stealing) == (False, True, True)
    assert [MENUS[m].unserved_penalty for m in ("kids", "day", "gourmet")] == [0, -1, -1]
    assert [MENUS[m].gourmet_diners for m in ("kids", "day", "gourmet")] == [False, False, True]


@pytest.mark.parametrize(
    ("pile", "size", "perfect"),
    [
        (counts(p=3, e=2, o=1), M, True),
        (counts(p=4, e=2, o=1), M, True),
        (counts(p=2, e=2, o=1), M, False),
        (counts(p=5, e=2, o=1), M, False),
        (counts(p=3, e=3, o=1), M, False),
        (counts(p=3, e=2, o=2), M, False),
        (counts(p=3, e=2), M, False),
        (counts(p=5, e=3, o=2), XL, True),
        (counts(p=6, e=3, o=2), XL, True),
        (counts(p=4, e=3, o=2), XL, False),
        (counts(p=7, e=3, o=2), XL, False),
        (counts(p=6, e=2, o=2), XL, False),
        (counts(p=6, e=3, o=3), XL, False),
        (counts(p=3, e=2, o=1), XL, False),
    ],
)
def test_recipe_amounts(pile: tuple[int, ...], size: int, perfect: bool) -> None:
    assert is_perfect(pile, size) is perfect


@pytest.mark.parametrize(
    ("pile", "size", "perfect"),
    [
        (counts(p=3, e=2, po=1), M, True),  # the potato+onion stands for the onion
        (counts(p=2, e=2, o=1, po=1), M, True),  # ... or for the third potato
        (counts(p=3, e=1, pe=1, po=1), M, True),  # only pe=egg, po=onion works
        (counts(p=2, e=1, pe=1, po=1), M, False),  # no reading works
        (counts(p=3, e=1, eo=1), M, False),  # the egg+onion is one card, not both
        (counts(p=3, peo=3), M, True),  # egg, egg, onion
        (counts(p=4, e=3, o=2, peo=1), XL, True),
        (counts(p=6, e=3, o=2, pe=1), XL, False),  # a wildcard always counts as something
        (counts(p=6, e=3, o=2, peo=1), XL, False),
    ],
)
def test_wildcards_are_read_in_the_owners_favour(pile: tuple[int, ...], size: int, perfect: bool) -> None:
    assert is_perfect(pile, size) is perfect


def test_points_plus_or_minus_diners_doubled_for_xl() -> None:
    assert omelette_points(counts(p=3, e=2, o=1), M, 2) == 2
    assert omelette_points(counts(p=2, e=2, o=1), M, 2) == -2
    assert omelette_points(counts(p=5, e=4, o=1), XL, 1) == -2
    assert omelette_points(counts(p=6, e=3, o=2), XL, 3) == 6


def test_cards_missing() -> None:
    assert cards_missing(counts(), M) == 6
    assert cards_missing(counts(p=3, e=2, o=1), M) == 0
    assert cards_missing(counts(p=3, e=2), M) == 1
    assert cards_missing(counts(e=3), M) == -1  # too many eggs for M ...
    assert cards_missing(counts(e=3), XL) == 7  # ... but fine for XL
    assert cards_missing(counts(p=1, pe=1), M) == 4  # the wildcard as the first egg


def test_action_names_are_unique_and_complete() -> None:
    assert len(ACTION_NAMES) == NUM_ACTIONS == 54 and len(set(ACTION_NAMES)) == NUM_ACTIONS
    assert ACTION_NAMES[0] == "play potato on 0" and ACTION_NAMES[-1] == "start potato+egg+onion"
    assert "serve 2 XL with 3" in ACTION_NAMES and "steal from theirs 1" in ACTION_NAMES
