"""Building Tortilla de Patatas positions for scenario tests, readable against the rulebook.

``position(...)`` starts a game, then replaces its state with the cards given. Every one of the
62 cards must be somewhere, so the cards not named are put into the fridge under ``deck_top``
(in a fixed order), or, when ``deck`` gives the whole fridge, onto ``dump`` (a pile of team B,
by default its pan 2, used only to hold the rest of the cards).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fiesta_envs.tortilla.components import CARD_COUNTS, CARD_TYPES
from fiesta_envs.tortilla.game import TortillaDePatatas

NO_PANS: list[list[list[str]]] = [[[], [], []], [[], [], []]]


def position(
    menu: str = "day",
    num_players: int = 2,
    *,
    hands: Sequence[Sequence[str]] | None = None,
    pans: Sequence[Sequence[Sequence[str]]] = NO_PANS,
    door: str | None = "potato",
    deck_top: Sequence[str] = (),
    deck: Sequence[str] | None = None,
    dump: tuple[int, int] = (1, 2),
    diners_left: Sequence[int] = (2, 2, 2),
    served: Sequence[dict[str, Any]] = (),
    known: Sequence[Sequence[str]] | None = None,
    current: int = 0,
    phase: str = "play",
    served_this_turn: bool = False,
    seed: int = 0,
    observation: str = "information_state",
) -> TortillaDePatatas:
    game = TortillaDePatatas(num_players=num_players, seed=seed, menu=menu, observation=observation)
    if menu == "kids":
        door = None
    if hands is None:
        hands = [["potato", "egg", "onion"] for _ in range(num_players)]
    pans = [[list(pile) for pile in team] for team in pans]
    named = [*(c for h in hands for c in h), *(c for t in pans for p in t for c in p)]
    named += [c for dish in served for c in dish["cards"]]
    named += list(deck if deck is not None else deck_top)
    if door is not None:
        named.append(door)
    rest = [CARD_COUNTS[i] - named.count(name) for i, name in enumerate(CARD_TYPES)]
    assert min(rest) >= 0, f"more cards named than the game has: {rest}"
    rest_cards = [name for i, name in enumerate(CARD_TYPES) for _ in range(rest[i])]
    if deck is None:
        deck = [*deck_top, *rest_cards]
    else:
        team, pan = dump
        pans[team][pan] = rest_cards + pans[team][pan]
    data = game.state_dict()
    data["state"].update(
        phase=phase,
        current=current,
        turn=0,
        starts_placed=0 if phase == "setup" else 4,
        served_this_turn=served_this_turn,
        played_pan=None,
        hands=[sorted(h, key=CARD_TYPES.index) for h in hands],
        known=[list(k) for k in known] if known is not None else [[] for _ in range(num_players)],
        pans=pans,
        deck=list(deck),
        door=door,
        diners_left=list(diners_left),
        served=[dict(dish) for dish in served],
        events=[],  # nothing seen happen yet
        events_seen_from=[0] * num_players,
    )
    game.load_state_dict(data)
    return game


def pan(game: TortillaDePatatas, team: int, index: int) -> list[str]:
    """The cards of a pan by name, bottom first."""
    return [CARD_TYPES[card] for card in game.state.pans[team * 3 + index]]


def hand(game: TortillaDePatatas, seat: int) -> list[str]:
    return [CARD_TYPES[card] for card, count in enumerate(game.state.hands[seat]) for _ in range(count)]


def legal(game: TortillaDePatatas, prefix: str = "") -> list[str]:
    return [name for name in game.legal_action_names() if name.startswith(prefix)]
