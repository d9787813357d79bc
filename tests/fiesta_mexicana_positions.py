"""Building Fiesta Mexicana positions for scenario tests, from a state dict a reader can check.

Cards are picked by what is printed on them (``card("salad", 1, ("green", None, None, "brown"))``)
or by a property (``card_with("chilis", half="red")``), tables are filled space by space in the
owner's current view (``{number: (card, rotation)}``), and everything else comes from a fresh game.
``face_up_spaces`` reads a picture of the table: which spaces it draws face up.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import numpy as np

from fiesta_envs.fiesta_mexicana.board import space_of_number
from fiesta_envs.fiesta_mexicana.components import DISH_CARDS, DISHES, OBJECTIVE_KINDS, SAUCES
from fiesta_envs.fiesta_mexicana.game import FiestaMexicana

Placement = tuple[int, int]  # (card, rotation in the owner's view, quarter turns clockwise)


def card(dish: str, skulls: int, halves: tuple[str | None, str | None, str | None, str | None]) -> int:
    """The first card of the table printed with this dish, skulls and halves (N, E, S, W)."""
    edges = tuple(-1 if h is None else SAUCES.index(h) for h in halves)
    for c in DISH_CARDS:
        if c.dish == DISHES.index(dish) and c.skulls == skulls and c.edges == edges:
            return c.index
    raise LookupError(f"no card {dish} {skulls} {halves}")


def card_with(dish: str, half: str | None = None, skulls: int | None = None, exclude: Iterable[int] = ()) -> int:
    """A card of ``dish`` (with a half of colour ``half`` and ``skulls`` if given) not in ``exclude``."""
    excluded = set(exclude)
    for c in DISH_CARDS:
        if c.index in excluded or c.dish != DISHES.index(dish):
            continue
        if half is not None and SAUCES.index(half) not in c.edges:
            continue
        if skulls is not None and c.skulls != skulls:
            continue
        return c.index
    raise LookupError(f"no free {dish} card with half {half}")


def turn_to_face(card_index: int, colour: str, direction: str) -> int:
    """The clockwise turn that makes the card's half of ``colour`` face ``direction`` ("N", "E"...)."""
    edge = DISH_CARDS[card_index].edges.index(SAUCES.index(colour))
    return ("NESW".index(direction) - edge) % 4


def objective(kind: str, dish: str | None = None) -> int:
    """The code of an objective kind: ``objective("teens", "chilis")``, ``objective("line of 3")``."""
    for k in OBJECTIVE_KINDS:
        if k.kind == kind and (dish is None or k.dish == DISHES.index(dish)):
            return k.code
    raise LookupError(f"no objective {kind} {dish}")


def position(
    num_players: int = 2,
    *,
    variant: str = "standard",
    tables: Mapping[int, Mapping[int, Placement]] | None = None,
    orientation: list[int] | None = None,
    objectives: Mapping[int, list[int]] | None = None,
    points: list[int] | None = None,
    offer: int | None = None,
    phase: str = "auction",
    turn: int = 0,
    seed: int = 0,
) -> FiestaMexicana:
    """A game at the start of an auction (by default) with the given tables and hands.

    Tables start empty (also in the standard game: place start cards explicitly when they matter);
    every card not on a table nor on offer is in the deck. Objectives default to empty slots.
    """
    game = FiestaMexicana(num_players=num_players, seed=seed, variant=variant)
    data = game.state_dict()
    state = data["state"]
    orientation = orientation or [0] * num_players
    cards = [[-1] * 16 for _ in range(num_players)]
    rotations = [[-1] * 16 for _ in range(num_players)]
    for player, placements in (tables or {}).items():
        for number, (card_index, rotation) in placements.items():
            space = space_of_number(orientation[player], number)
            cards[player][space] = card_index
            rotations[player][space] = (rotation + orientation[player]) % 4
    used = {c for row in cards for c in row if c >= 0}
    if offer is None:
        offer = next(c.index for c in DISH_CARDS if c.index not in used)
    used.add(offer)
    state.update(
        phase=phase,
        turn=turn,
        orientation=orientation,
        cards=cards,
        rotations=rotations,
        points=points or [0] * num_players,
        deck=[c.index for c in DISH_CARDS if c.index not in used],
        start_cards=[[] for _ in range(num_players)],
        orient_step=0,
        hands=[[] for _ in range(num_players)],
        objectives=[list((objectives or {}).get(p, [-1, -1, -1])) for p in range(num_players)],
        offer=offer if phase in ("auction", "place") else -1,
        high_bid=0,
        high_bidder=-1,
        passed=[False] * num_players,
        opener=max(turn, 0),
        rotation_queue=[],
    )
    game.load_state_dict(data)
    return game


def face_up_spaces(picture: np.ndarray, game: FiestaMexicana) -> list[list[int]]:
    """Per table, the numbers of the spaces that ``picture`` (``render.draw`` of ``game``, perhaps as one seat
    sees it) draws face up: in their dish's colour, not face down nor empty."""
    from fiesta_envs.render import square_boxes
    from fiesta_envs.render.fiesta_mexicana import DISH_COLOURS

    colours = set(DISH_COLOURS.values())
    return [
        [
            row * 4 + col + 1
            for (row, col), (_, _, right, bottom) in (square_boxes(game, table) or {}).items()
            if tuple(int(v) for v in picture[int(bottom) - 6, int(right) - 6]) in colours
        ]
        for table in range(game.num_players)
    ]
