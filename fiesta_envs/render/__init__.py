"""Pictures of the games (``render_mode="rgb_array"``), drawn with Pillow from each game's public state.

``fiesta_envs.render.<game>.draw(game)`` returns a ``uint8`` array (height x width x 3) of the whole table as
a spectator sees it: no hidden hands, objectives or deck order, except what the game reveals at its end. Each
module also gives ``private_lines(game, seat)``, what one seat alone knows, in text (``fiesta play`` shows it
to the person in that seat), and may give ``public_action(name)``, how an action looks to the other players
(the words written in Fiesta de los Muertos stay secret), ``square_boxes(game, seat)``, where the squares the
actions name are drawn (the web app makes them clickable), ``action_boxes(game, seat)``, where single
actions are drawn (a fence segment, a market space: clickable too), ``choice_picture(game, seat, action)``, a small
picture of what one choice would do (the web app makes those its buttons), and ``seen_by(game, seat)``, the
table as one seat sees it when that differs from the spectator's (Tequila's rounds are simultaneous: another
player's moves of the round under way are shown when it ends; Fiesta Mexicana's start cards are face up to their
owner only while they are oriented), and ``hidden_scores(game, seat)``, the players whose score that seat may not
see yet (Fiesta Mexicana's others' points while start cards are oriented). The functions here pick
the module through the registry (``GameSpec.drawing_module``), as the environments do (``GameSpec.picture``):
the engines draw nothing. Pillow is optional: ``pip install fiesta_envs[render]``.
"""

from __future__ import annotations

from typing import Any

import numpy as np


def module_for(game: Any) -> Any:
    """The drawing module of ``game`` (a ``Game`` or its name), as the registry's ``GameSpec.renderer`` names it."""
    from fiesta_envs.registry import game_spec

    return game_spec(game if isinstance(game, str) else game.name).drawing_module()


def draw(game: Any) -> np.ndarray:
    """The picture of ``game``'s table as an RGB ``uint8`` array."""
    return module_for(game).draw(game)


def private_lines(game: Any, seat: int) -> list[str]:
    """What ``seat`` alone may know now, as lines of text (empty when the game hides nothing)."""
    return list(module_for(game).private_lines(game, seat))


def square_boxes(game: Any, seat: int) -> dict[tuple[int, int], tuple[float, float, float, float]] | None:
    """Where the squares ``seat``'s actions name are drawn on the picture (pixels: left, top, right, bottom) by
    ``(row, column)``: Tequila's farm, Fiesta Mexicana's table; None for games without such squares."""
    boxes = getattr(module_for(game), "square_boxes", None)
    return boxes(game, seat) if boxes else None


def action_boxes(game: Any, seat: int) -> dict[str, tuple[float, float, float, float]]:
    """Where single actions of ``seat`` are drawn on the picture (pixels: left, top, right, bottom) by action
    name: Tequila's fence segments and market spaces; empty for games without such places."""
    boxes = getattr(module_for(game), "action_boxes", None)
    return boxes(game, seat) if boxes else {}


def pictured_choices(game: Any, seat: int) -> list[int]:
    """The legal actions of ``seat`` (to act now) that ``choice_picture`` draws, in order."""
    kinds: frozenset[str] = getattr(module_for(game), "CHOICE_PICTURES", frozenset())
    if not kinds or game.is_over or game.current_player != seat:
        return []
    return [a for a in game.legal_actions() if game.action_to_string(a).split(" ", 1)[0] in kinds]


def choice_picture(game: Any, seat: int, action: int) -> np.ndarray | None:
    """A small picture of what ``seat``'s legal ``action`` would do (Fiesta Mexicana: a card turned on its
    space with its points, a table turned with its new numbers), or None when the game draws none for it."""
    picture = getattr(module_for(game), "choice_picture", None)
    return picture(game, seat, action) if picture else None


def seen_by(game: Any, seat: int) -> Any:
    """The game as ``seat`` sees it now, to draw (``draw``), print (``render_text``) or score (``scores``):
    a copy without the others' moves that are not shown yet, or the game itself when there are none."""
    view = getattr(module_for(game), "seen_by", None)
    return view(game, seat) if view else game


def hidden_scores(game: Any, seat: int | None) -> set[int]:
    """The players whose score ``seat`` (``None``: a spectator) may not see now (their points would tell hidden
    cards): the web app's score column shows "?" and the terminal game tells no score change for them. Empty in
    most games."""
    hidden = getattr(module_for(game), "hidden_scores", None)
    return set(hidden(game, seat)) if hidden else set()


def public_action(game: Any, name: str) -> str:
    """How the action ``name`` looks to the other players (most games show it as it is)."""
    describe = getattr(module_for(game), "public_action", None)
    return describe(name) if describe else name
