"""Fiesta Mexicana's components: the dish cards, the objective cards and the tables' special spaces.

Constants only, no rules. The printed faces of the cards are not published, so the 66 dish cards
below are our committed table (rulings, "Cards"): six dishes with 11 cards each; 1-3 skulls in the
proportion 36 : 24 : 6; 0-3 half sauce bowls per card (mean 1.64) in four sauce colours, 27 halves of
each colour; 12 start cards, one of each dish per piñata colour. A player holding the printed game
can correct any card here, in this one place.

Edges are listed in the card's own frame as (north, east, south, west); ``None`` is an edge without
a half bowl. Table spaces are numbered 0..15 in the table's starting orientation (maracas bottom
right), row by row: space ``s`` reads the number ``s + 1`` in that orientation.
"""

from __future__ import annotations

from dataclasses import dataclass

# ---------------------------------------------------------------------------------------- dishes
DISHES: tuple[str, ...] = ("tostada", "elotes", "burritos", "chilis", "salad", "tacos")

#: Sauce colours of the half bowls: guacamole (green), mole poblano (brown), mole blanco (white),
#: pico de gallo (red).
SAUCES: tuple[str, ...] = ("green", "brown", "white", "red")
SAUCE_NAMES: dict[str, str] = {
    "green": "guacamole",
    "brown": "mole poblano",
    "white": "mole blanco",
    "red": "pico de gallo",
}

#: The two piñata colours marking the start cards, in the order their spaces are filled.
PINATA_COLOURS: tuple[str, ...] = ("pink", "yellow")

#: Edge directions, in the order edges are listed: north, east, south, west.
DIRECTIONS: tuple[str, ...] = ("N", "E", "S", "W")

#: (dish, skulls, (north, east, south, west) sauce halves, piñata colour or None).
DISH_CARD_TABLE: tuple[tuple[str, int, tuple[str | None, str | None, str | None, str | None], str | None], ...] = (
    ("tostada", 1, ("green", None, "brown", None), "pink"),
    ("tostada", 1, ("white", None, None, "red"), "yellow"),
    ("tostada", 3, ("green", None, None, "brown"), None),
    ("tostada", 1, (None, None, "white", None), None),
    ("tostada", 2, (None, None, None, "red"), None),
    ("tostada", 1, ("green", "brown", "white", None), None),
    ("tostada", 2, (None, None, None, None), None),
    ("tostada", 1, (None, None, "red", None), None),
    ("tostada", 2, ("green", None, None, "brown"), None),
    ("tostada", 1, ("white", None, None, "red"), None),
    ("tostada", 2, (None, None, "green", "brown"), None),
    ("elotes", 1, ("white", None, None, "red"), "pink"),
    ("elotes", 1, (None, "green", None, None), "yellow"),
    ("elotes", 3, ("brown", "white", "red", None), None),
    ("elotes", 1, (None, None, None, "green"), None),
    ("elotes", 2, (None, "brown", None, "white"), None),
    ("elotes", 1, (None, "red", None, "green"), None),
    ("elotes", 2, ("brown", "white", None, None), None),
    ("elotes", 1, (None, "red", None, "green"), None),
    ("elotes", 2, (None, "brown", None, "white"), None),
    ("elotes", 1, ("red", None, None, None), None),
    ("elotes", 2, (None, None, None, None), None),
    ("burritos", 1, ("green", "brown", None, None), "pink"),
    ("burritos", 1, ("white", "red", None, "green"), "yellow"),
    ("burritos", 3, ("brown", None, None, "white"), None),
    ("burritos", 1, ("red", None, "green", None), None),
    ("burritos", 2, (None, "brown", "white", None), None),
    ("burritos", 1, (None, None, None, None), None),
    ("burritos", 2, (None, "red", "green", None), None),
    ("burritos", 1, (None, "brown", None, None), None),
    ("burritos", 2, (None, None, "white", None), None),
    ("burritos", 1, (None, "red", None, "green"), None),
    ("burritos", 2, ("brown", None, None, None), None),
    ("chilis", 1, (None, None, None, None), "pink"),
    ("chilis", 1, ("white", None, "red", None), "yellow"),
    ("chilis", 3, ("green", None, None, None), None),
    ("chilis", 1, ("brown", "white", None, None), None),
    ("chilis", 2, ("red", None, None, None), None),
    ("chilis", 1, ("green", None, None, "brown"), None),
    ("chilis", 2, ("white", "red", None, None), None),
    ("chilis", 1, (None, "green", None, None), None),
    ("chilis", 2, ("brown", "white", None, "red"), None),
    ("chilis", 1, ("green", None, None, "brown"), None),
    ("chilis", 2, (None, "white", None, "red"), None),
    ("salad", 1, ("green", None, None, "brown"), "pink"),
    ("salad", 1, (None, None, None, None), "yellow"),
    ("salad", 3, ("white", None, None, "red"), None),
    ("salad", 1, (None, None, "green", None), None),
    ("salad", 2, (None, "brown", None, None), None),
    ("salad", 1, ("white", "red", None, None), None),
    ("salad", 2, (None, "green", None, None), None),
    ("salad", 1, ("brown", None, None, "white"), None),
    ("salad", 2, (None, None, "red", "green"), None),
    ("salad", 1, ("brown", None, "white", None), None),
    ("salad", 2, ("red", "green", None, "brown"), None),
    ("tacos", 1, (None, "white", "red", None), "pink"),
    ("tacos", 1, ("green", "brown", None, "white"), "yellow"),
    ("tacos", 3, (None, None, "red", None), None),
    ("tacos", 1, ("green", "brown", None, None), None),
    ("tacos", 2, (None, "white", None, None), None),
    ("tacos", 1, ("red", None, None, "green"), None),
    ("tacos", 2, ("brown", None, None, None), None),
    ("tacos", 1, ("white", None, "red", None), None),
    ("tacos", 2, (None, "green", None, "brown"), None),
    ("tacos", 1, (None, None, None, None), None),
    ("tacos", 2, (None, "white", None, "red"), None),
)


@dataclass(frozen=True)
class DishCard:
    """One dish card; ``edges`` hold sauce indices into ``SAUCES`` or -1 for no half bowl."""

    index: int
    dish: int
    skulls: int
    edges: tuple[int, int, int, int]
    pinata: int  # index into PINATA_COLOURS, or -1 for an ordinary card

    @property
    def dish_name(self) -> str:
        return DISHES[self.dish]


def _half(sauce: str | None) -> int:
    return -1 if sauce is None else SAUCES.index(sauce)


def _dish_card(index: int, row: tuple) -> DishCard:
    dish, skulls, edges, pinata = row
    north, east, south, west = edges
    return DishCard(
        index=index,
        dish=DISHES.index(dish),
        skulls=skulls,
        edges=(_half(north), _half(east), _half(south), _half(west)),
        pinata=-1 if pinata is None else PINATA_COLOURS.index(pinata),
    )


DISH_CARDS: tuple[DishCard, ...] = tuple(_dish_card(i, row) for i, row in enumerate(DISH_CARD_TABLE))


def describe_card(card: int) -> str:
    """``"tacos, 2 skulls, halves N:green E:- S:red W:-"``: a dish card in words, as printed."""
    c = DISH_CARDS[card]
    halves = " ".join(f"{d}:{SAUCES[e] if e >= 0 else '-'}" for d, e in zip(DIRECTIONS, c.edges, strict=True))
    return f"{DISHES[c.dish]}, {c.skulls} skull{'s' if c.skulls > 1 else ''}, halves {halves}"


NUM_DISH_CARDS = len(DISH_CARDS)
#: The start cards of each piñata colour (the pile dealt for the space ``PINATA_SPACES[colour]``), by index.
START_PILES: tuple[tuple[int, ...], ...] = tuple(
    tuple(card.index for card in DISH_CARDS if card.pinata == colour) for colour in range(len(PINATA_COLOURS))
)
MAX_SKULLS = 3

# ------------------------------------------------------------------------------ objective cards
#: Objective kinds. Children and teens name a dish; seniors and masked guests carry their points.
CHILDREN, TEENS = "children", "teens"
SENIORS_SQUARE, SENIORS_LINE_4, SENIORS_LINE_3 = "square of 4", "line of 4", "line of 3"
MASKED_SIX, MASKED_FOUR, MASKED_THREE_SAME = "6 bowls", "4 bowls", "3 bowls of one colour"

#: Card colour of each group (a player keeps three objectives of three different colours).
OBJECTIVE_COLOURS: tuple[str, ...] = ("red", "white", "blue", "green")

CHILDREN_POINTS_PER_DISH = 1
TEENS_POINTS = 5


@dataclass(frozen=True)
class ObjectiveKind:
    """One kind of objective card; ``code`` numbers the 18 kinds for observations."""

    code: int
    colour: int  # index into OBJECTIVE_COLOURS
    kind: str
    dish: int  # the dish for children and teens, else -1
    points: int  # points when met (children: per dish)
    target: int  # seniors: cells in the shape; masked guests: bowls needed; else 0

    @property
    def label(self) -> str:
        if self.dish >= 0:
            return f"{self.kind}: {DISHES[self.dish]}"
        return f"{self.kind}: {self.points}"


def _objective_kinds() -> tuple[ObjectiveKind, ...]:
    def card(code: int, colour: int, kind: str, *, dish: int = -1, points: int, target: int = 0) -> ObjectiveKind:
        return ObjectiveKind(code, colour, kind, dish, points, target)

    kinds = [card(d, 0, CHILDREN, dish=d, points=CHILDREN_POINTS_PER_DISH) for d in range(len(DISHES))]
    kinds += [card(6 + d, 1, TEENS, dish=d, points=TEENS_POINTS) for d in range(len(DISHES))]
    kinds += [
        card(12, 2, SENIORS_SQUARE, points=6, target=4),
        card(13, 2, SENIORS_LINE_4, points=6, target=4),
        card(14, 2, SENIORS_LINE_3, points=4, target=3),
        card(15, 3, MASKED_SIX, points=6, target=6),
        card(16, 3, MASKED_FOUR, points=4, target=4),
        card(17, 3, MASKED_THREE_SAME, points=6, target=3),
    ]
    return tuple(kinds)


OBJECTIVE_KINDS: tuple[ObjectiveKind, ...] = _objective_kinds()
NUM_OBJECTIVE_KINDS = len(OBJECTIVE_KINDS)

#: The 24 objective cards, as kind codes: one children and one teens card per dish, two of each
#: seniors and masked-guests card.
OBJECTIVE_DECK: tuple[int, ...] = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 12, 13, 13, 14, 14, 15, 15, 16, 16, 17, 17)
NUM_OBJECTIVE_CARDS = len(OBJECTIVE_DECK)
OBJECTIVES_DEALT = 5
OBJECTIVES_KEPT = 3

# --------------------------------------------------------------------------------------- tables
TABLE_SIDE = 4
NUM_SPACES = TABLE_SIDE * TABLE_SIDE

#: Spaces of the start cards, by piñata colour (the spaces reading 6 and 11 at the start).
PINATA_SPACES: tuple[int, ...] = (5, 10)

#: Variant "confirmed waiters": uncovered-space penalties by space (reading 6, 11 and 16 at the start).
VARIANT_PENALTIES: dict[int, int] = {5: 5, 10: 5, 15: 3}
MAX_PENALTY = 5
