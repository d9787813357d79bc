"""The components of Tortilla de Patatas as data: ingredient cards, diner cards, recipes, menus.

Nothing here is rule code. The card distribution is our ruling (the publisher does not print
it): 62 ingredient cards = 26 potato, 15 egg, 11 onion and 10 wildcards (3 potato+egg,
2 potato+onion, 2 egg+onion, 3 potato+egg+onion). Six diner cards: two each of 1, 2 and 3.
"""

from __future__ import annotations

from dataclasses import dataclass

# ---------------------------------------------------------------- ingredients
POTATO, EGG, ONION = 0, 1, 2
INGREDIENTS: tuple[str, ...] = ("potato", "egg", "onion")

#: Card types, index = type id. The first three are plain ingredients, the rest wildcards.
CARD_TYPES: tuple[str, ...] = (
    "potato",
    "egg",
    "onion",
    "potato+egg",
    "potato+onion",
    "egg+onion",
    "potato+egg+onion",
)
NUM_CARD_TYPES = len(CARD_TYPES)
CARD_TYPE_INDEX: dict[str, int] = {name: i for i, name in enumerate(CARD_TYPES)}

#: The ingredients each card type can stand for (a wildcard counts as exactly one of them).
CARD_INGREDIENTS: tuple[tuple[int, ...], ...] = (
    (POTATO,),
    (EGG,),
    (ONION,),
    (POTATO, EGG),
    (POTATO, ONION),
    (EGG, ONION),
    (POTATO, EGG, ONION),
)
PLAIN_TYPES: tuple[int, ...] = (POTATO, EGG, ONION)
WILDCARD_TYPES: tuple[int, ...] = (3, 4, 5, 6)

#: How many cards of each type the 62-card deck holds (our ruling; see the module docstring).
CARD_COUNTS: tuple[int, ...] = (26, 15, 11, 3, 2, 2, 3)
DECK_SIZE = sum(CARD_COUNTS)
assert DECK_SIZE == 62

# ---------------------------------------------------------------- diner cards
#: Diner card values; there are DINER_COPIES cards of each value.
DINER_VALUES: tuple[int, ...] = (1, 2, 3)
DINER_COPIES = 2
NUM_DINER_CARDS = len(DINER_VALUES) * DINER_COPIES


# ---------------------------------------------------------------- recipes
@dataclass(frozen=True)
class Recipe:
    """One omelette size: a range of potatoes, exact eggs and onions, and a points multiplier."""

    name: str
    potatoes: tuple[int, int]  # inclusive range: the printed "3/4" means 3 or 4
    eggs: int
    onions: int
    multiplier: int


RECIPES: tuple[Recipe, ...] = (
    Recipe("M", potatoes=(3, 4), eggs=2, onions=1, multiplier=1),
    Recipe("XL", potatoes=(5, 6), eggs=3, onions=2, multiplier=2),
)
SIZE_NAMES: tuple[str, ...] = tuple(recipe.name for recipe in RECIPES)

# ---------------------------------------------------------------- table and menus
HAND_SIZE = 3
PANS_PER_TEAM = 3
NUM_TEAMS = 2
STARTING_PANS = 2  # pans 0 and 1 of each chef start with one card


@dataclass(frozen=True)
class Menu:
    """How a menu sets up and which rules it adds."""

    name: str
    chef_deal: int  # cards dealt to each chef
    assistant_deal: int  # cards dealt to each kitchen assistant
    starts_from_deck: bool  # starting pan cards come from the fridge (Kids') or the chef's hand
    fridge_door: bool  # a face-up card next to the fridge that may be drawn
    stealing: bool
    unserved_penalty: int  # points per pan still holding cards at the end
    gourmet_diners: bool  # the diner card is limited by the number of pans holding cards


MENUS: dict[str, Menu] = {
    "kids": Menu(
        "kids",
        chef_deal=3,
        assistant_deal=3,
        starts_from_deck=True,
        fridge_door=False,
        stealing=False,
        unserved_penalty=0,
        gourmet_diners=False,
    ),
    "day": Menu(
        "day",
        chef_deal=5,
        assistant_deal=3,
        starts_from_deck=False,
        fridge_door=True,
        stealing=True,
        unserved_penalty=-1,
        gourmet_diners=False,
    ),
    "gourmet": Menu(
        "gourmet",
        chef_deal=5,
        assistant_deal=3,
        starts_from_deck=False,
        fridge_door=True,
        stealing=True,
        unserved_penalty=-1,
        gourmet_diners=True,
    ),
}
