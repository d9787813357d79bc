"""What a person needs told about each game while playing it, in the terminal or the browser.

A ``GameGuide`` holds the game's printed name, a short guide, a legend of the text board's
abbreviations, the action groups (first words of action names) whose outcome may be previewed
(``tools.preview``: placing a card, building on one's own farm, serving a pan;
never a card drawn, a die rolled or a secret word), and ``hint``: a line about the decision at hand
that the board does not spell out (which start card is being turned, which dish was won).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class GameGuide:
    title: str  # the game's printed name
    preview_groups: frozenset[str]  # first words of the actions that get a preview
    guide: str  # one or two sentences for the person playing
    legend: str = ""  # the text board's abbreviations
    hint: Callable[[Any, int], str | None] = field(default=lambda game, seat: None)
    #: A cooperative game's result in words (its end reason and mood), from ``final_info``; None: the scores say it.
    outcome: Callable[[dict[str, Any]], str] | None = None
    #: Action names typical of the game, for ``help`` (each one a name of the game's actions).
    examples: tuple[str, ...] = ()


# ---------------------------------------------------------------------- Fiesta Mexicana
def _fiesta_mexicana_legend() -> str:
    from fiesta_envs.fiesta_mexicana.components import DISHES, SAUCES

    dishes = ", ".join(f"{dish[:3]} = {dish}" for dish in DISHES)
    sauces = ", ".join(f"{sauce[0]} = {sauce}" for sauce in SAUCES)
    return (
        "Table cells read 'tos1 g.b.': the dish (first three letters: " + dishes + "), its skulls, then the "
        "sauce of its halves on the North, East, South and West edges as you see the table "
        "(" + sauces + ", '.' none); '---------' is an empty space. Spaces are numbered 1-16 as the table is "
        "turned now."
    )


def _fiesta_mexicana_hint(game: Any, seat: int) -> str | None:
    from fiesta_envs.fiesta_mexicana.components import describe_card

    state = game.state_dict()["state"]
    phase = state["phase"]
    if phase == "orient":
        step = state["orient_step"]
        card = state["start_cards"][seat][step]
        space = (6, 11)[step]
        return (
            f"start card {step} (it goes on the space reading {space}): {describe_card(card)}; "
            f"'orient {step} R' turns it R quarter turns clockwise"
        )
    if phase == "place" and state["offer"] >= 0:
        from fiesta_envs.render.fiesta_mexicana import choice_outcome, points_text

        bid = state["high_bid"]
        points = ", ".join(
            f"{game.action_to_string(a)}: {points_text(outcome.points)}"
            for a in game.legal_actions()
            if (outcome := choice_outcome(game, seat, a)) is not None and outcome.points is not None
        )
        return (
            f"you won {describe_card(state['offer'])} with the bid {bid}: it goes on the space reading {bid}; "
            f"'place R' turns it R quarter turns clockwise ({points}; preview one to see the table after it)"
        )
    if phase == "rotate":
        return "turn your table or leave it; free spaces by number: " + "; ".join(
            f"{turn}: {_free_numbers(state, seat, turn)}" for turn in ("none", "left", "right")
        )
    if phase == "auction":
        return "bid on a free space's number above the high bid; 'reserve N drop K' bids N and discards objective K"
    return None


def _free_numbers(state: dict[str, Any], seat: int, turn: str) -> str:
    """The numbers ``seat``'s free spaces will read after the table turn ``turn`` (the tables turn together
    once every player has chosen)."""
    from fiesta_envs.render.fiesta_mexicana import free_numbers, turned_orientation

    return " ".join(map(str, free_numbers(state, seat, turned_orientation(state["orientation"][seat], turn))))


# ---------------------------------------------------------------------- Tortilla de Patatas
TORTILLA_RECIPES = (
    "Recipes: M = 3 or 4 potatoes, exactly 2 eggs and 1 onion; XL = 5 or 6 potatoes, 3 eggs and 2 onions. "
    "A served omelette scores +diners if perfect, -diners if badly made (doubled for XL)."
)


# ---------------------------------------------------------------------- Tequila
def _tequila_legend() -> str:
    from fiesta_envs.tequila.render import LEGEND

    return (
        LEGEND + " 'build road at 2 3 as 0' builds on row 2, column 3; a larger building's 'at R C' is the top "
        "left square of its box and 'as O' its orientation (pictures are shown when you may build)."
    )


def _tequila_hint(game: Any, seat: int) -> str | None:
    from fiesta_envs.tequila import components
    from fiesta_envs.tequila.render import orientation_lines
    from fiesta_envs.tequila.state import Phase

    decision, state = game.decision, game.state
    if decision == Phase.REROLL:
        low = ", ".join(map(str, sorted(components.FENCE_DIE_VALUES)))
        return (
            f"you start the round: re-roll none, one or both dice (now {state.dice[0]} {state.dice[1]}); each die "
            f"gives every player its cask-tile resource, dice showing {low} go to fencing, the others to building"
        )
    if decision == Phase.VIRTUAL:
        return "your virtual die (no resource) joins the fencing dice or the building dice this round"
    if decision == Phase.PAY:
        purpose = {"road": "road", "extra": "extra free action", "shop": "shop sale"}.get(state.pay_purpose, "payment")
        return f"pay one resource of your choice for the {purpose} ({state.pay_left} left to pay)"
    if decision == Phase.GAIN:
        return f"gain one resource of your choice ({state.gain_left} left to gain)"
    if decision == Phase.CASK:
        return "end of your round: fill your casks (1 agave, barrels for each cask connected to a distiller)?"
    if decision == Phase.SHOP:
        return "then: sell in your shops (1 resource of your choice)?"
    if decision != Phase.MAIN:
        return None
    names = [game.action_to_string(a) for a in game.legal_actions()]
    kinds = sorted({components.BUILDINGS.index(name.split()[1]) for name in names if name.startswith("build ")})
    if not kinds:
        return "your main phase: fence, use free actions, or 'end'"
    pictures = orientation_lines(kinds)
    text = "your main phase: 'build KIND at R C as O' builds with its box's top left square on row R, column C"
    if pictures:
        text += "; the orientations O:\n" + "\n".join(pictures)
    return text


# ---------------------------------------------------------------------- Fiesta de los Muertos, La Catrina
def _muertos_hint(game: Any, seat: int) -> str | None:
    """Names the skull whose yellow-box reward is chosen now (La Catrina)."""
    from fiesta_envs.muertos.components import Phase

    table = game.state_dict()["state"]["round"]
    if table["phase"] != Phase.YELLOW or not table["pending"]:
        return None
    report = game.state.round.skull_reports()[table["pending"][0]]
    return (
        f"skull {report['number']} (player_{report['owner']}'s, {report['character']}) checked its yellow box: "
        "take a flower for La Catrina's hat ('flower') or a Memory Bone ('memory')"
    )


def _muertos_outcome(info: dict[str, Any]) -> str:
    return f"{info['appeased']} of {info['skulls']} skulls appeased ({info['result_band']}): {info['result_text']}"


def _catrina_outcome(info: dict[str, Any]) -> str:
    reasons = {"failed round": "a round failed", "after round 4": "after round 4", "13 flowers": "13 flowers reached"}
    ended = reasons.get(info["end_reason"], info["end_reason"])
    return (
        f"the campaign ended ({ended}) after {info['rounds_played']} round(s) with {info['flowers']} flowers; "
        f"La Catrina's mood: {info['mood_band']}. {info['mood_text']}"
    )


GUIDES: dict[str, GameGuide] = {
    "fiesta_mexicana": GameGuide(
        "Fiesta Mexicana",
        frozenset({"orient", "place"}),  # a table turn waits for everybody's: its numbers are told instead
        "Bid for the dish on offer (reserve a bid to keep objectives in play), place the won dish on its space, "
        "then turn your table. Preview a placement to see the points it scores and your table after it.",
        legend="",  # built on first use: see guide_for
        hint=_fiesta_mexicana_hint,
        examples=("bid 9", "reserve 13 drop 2", "place 1", "rotate left"),
    ),
    "tortilla_de_patatas": GameGuide(
        "Tortilla de Patatas",
        frozenset({"start", "play", "serve"}),
        "Play ingredient cards onto your pans (a card equal to a neighbouring top card steals it), and serve "
        "omelettes to the diner cards: 'serve P SIZE with D' serves pan P as size SIZE to the D-diner card. "
        "Preview a serve to see its points. " + TORTILLA_RECIPES,
        legend="Pans are named from your side: 'mine P' are your team's pans, 'theirs P' the other team's.",
        examples=("play potato+egg on 0", "serve 1 XL with 2", "draw deck"),
    ),
    "tequila": GameGuide(
        "Tequila",
        frozenset({"build", "fence", "sell", "pay", "gain", "virtual", "extra"}),
        "Use your dice to build on your farm (roads, fields, distillers, casks...), fence fields and sell "
        "tequila ('as 0..3' turns a building 0-3 quarter turns). Preview a building or a fence to see the farm "
        "after it.",
        legend="",  # built on first use: see guide_for
        hint=_tequila_hint,
        examples=("build kiln at 1 4 as 0", "fence 7", "virtual build", "end"),
    ),
    "fiesta_de_los_muertos": GameGuide(
        "Fiesta de los Muertos",
        frozenset(),
        "Cooperative: write a word that links the word you received to the character on your skull; at the end, "
        "match every chain of words to its character.",
        hint=_muertos_hint,
        outcome=_muertos_outcome,
        examples=("write apple", "match 1 to 3"),
    ),
    "la_catrina": GameGuide(
        "La Catrina (campaign)",
        frozenset(),
        "Four rounds of Fiesta de los Muertos with La Catrina's constraints; keep her mood up.",
        hint=_muertos_hint,
        outcome=_catrina_outcome,
        examples=("write apple", "match 1 to 3", "flower"),
    ),
}

_LEGENDS: dict[str, Callable[[], str]] = {"fiesta_mexicana": _fiesta_mexicana_legend, "tequila": _tequila_legend}


def guide_for(game_name: str) -> GameGuide:
    """The guide of a game by its engine name (a plain one for games without a guide)."""
    guide = GUIDES.get(game_name)
    if guide is None:
        return GameGuide(game_name.replace("_", " ").title(), frozenset(), "")
    if not guide.legend and game_name in _LEGENDS:
        guide = GUIDES[game_name] = dataclasses.replace(guide, legend=_LEGENDS[game_name]())
    return guide


def decision_hint(game: Any, seat: int) -> str | None:
    """A line about the decision ``seat`` faces now, where the game's guide has one."""
    if game.is_over or game.current_player != seat:
        return None
    return guide_for(game.name).hint(game, seat)


def outcome_text(game: Any) -> str:
    """A finished cooperative game's result in words: its guide's ``outcome`` (why it ended, the mood) where
    it has one, else the team's score."""
    outcome = guide_for(game.name).outcome
    return outcome(game.final_info()) if outcome else f"the team's result is {float(game.scores()[0]):g}"
