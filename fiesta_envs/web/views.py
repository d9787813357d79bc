"""What each game adds to the generic web page: which choices get a preview, and a short guide.

A preview plays the choice on a copy of the game. It is offered only for the action groups
(first words of action names) listed here, whose outcome the player could work out from what
they see: placing a card, turning the table, building on one's own farm, serving a pan.
Choices that draw a card, roll a die or write a secret word get none (``preview`` also checks
this at run time, see there).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class GameView:
    title: str  # the game's printed name
    preview_groups: frozenset[str]  # first words of the actions that get a preview
    guide: str  # one or two sentences for the person playing


DEFAULT_VIEW = GameView("", frozenset(), "")

VIEWS: dict[str, GameView] = {
    "fiesta_mexicana": GameView(
        "Fiesta Mexicana",
        frozenset({"orient", "place", "rotate"}),
        "Bid for the dish on offer (reserve a bid to keep objectives in play), place the won dish on a space, "
        "then turn your card. Preview a placement or a turn to see the points it scores.",
    ),
    "tortilla_de_patatas": GameView(
        "Tortilla de Patatas",
        frozenset({"start", "play", "serve"}),
        "Play ingredient cards onto your pans, steal from a neighbour's pan with the same top card, and serve "
        "omelettes to the diner cards. Preview a serve to see its points.",
    ),
    "tequila": GameView(
        "Tequila",
        frozenset({"build", "fence", "sell", "pay", "gain", "virtual", "extra"}),
        "Use your dice to build on your farm (roads, fields, distillers, casks...), fence fields and sell "
        "tequila. Orientation 'as 0..3' turns a building a quarter at a time. Preview a building to see it.",
    ),
    "fiesta_de_los_muertos": GameView(
        "Fiesta de los Muertos",
        frozenset(),
        "Cooperative: write a word that links the word you received to the character on your skull; at the end, "
        "match every chain of words to its character.",
    ),
    "la_catrina": GameView(
        "La Catrina (campaign)",
        frozenset(),
        "Four rounds of Fiesta de los Muertos with La Catrina's constraints; keep her mood up.",
    ),
}


def view_for(game_name: str) -> GameView:
    view = VIEWS.get(game_name)
    if view is None:
        return GameView(game_name.replace("_", " ").title(), DEFAULT_VIEW.preview_groups, DEFAULT_VIEW.guide)
    return view
