"""The table as ``fiesta play`` prints it for the person in one seat: a status line, then the table in parts.

The status line says in plain words where the game stands and what the person decides now
(``Tequila, round 1 of 8, dice 5 and 1, you start the round. Your move: choose which dice to roll
again.``); it replaces the engine's first line(s), which name phases as the state dicts do
(``player_0 to virtual``). The rest of the engine's text board (``render_text``, as the seat sees it:
``render.seen_by``) is split into parts: the table everyone shares and, where the game has one,
each player's own area (a Tequila farm, a Fiesta Mexicana table). ``fiesta play`` shows the person's
own area and the shared table at every decision, another player's area when it changed since the
person last saw it, and all of it on ``board``. The legend of the symbols is not part of the table:
``tools.guides`` has it (shown once, and on ``legend``).

The engines' ``render_text`` (``render_mode="ansi"``) is left as it is; only what the terminal game
shows is built here.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from fiesta_envs.tools.guides import guide_for


@dataclass(frozen=True)
class Part:
    """A piece of the table: ``title`` names it in a sentence ("player_1's farm"), ``seat`` its owner
    (None: the table everyone shares), ``lines`` the text."""

    title: str
    seat: int | None
    lines: tuple[str, ...]


@dataclass(frozen=True)
class TableText:
    """What the terminal shows of the table to one seat: the status line, then the parts in order."""

    status: str
    parts: tuple[Part, ...]


# ---------------------------------------------------------------------- phase words
#: What the person is asked in each phase, in plain words (by the phase's name in the state dicts).
PHASE_WORDS: dict[str, dict[str, str]] = {
    "tequila": {
        "reroll": "choose which dice to roll again (none, one or both)",
        "virtual": "choose where your virtual die goes: to fencing or to building",
        "main": "build, fence, make tequila or sell at the market, then 'end' your round",
        "cask": "fill your casks or not (end of your round)",
        "shop": "sell in your shops or not (end of your round)",
        "pay": "pay a resource of your choice",
        "gain": "gain a resource of your choice",
    },
    "fiesta_mexicana": {
        "orient": "turn your start cards before they go on your table",
        "keep": "choose the three objectives you keep",
        "auction": "bid for the dish on offer, pass, or reserve a bid",
        "place": "place the dish you won on your table",
        "rotate": "turn your table or leave it",
    },
    "tortilla_de_patatas": {
        "setup": "put a starting card on one of your team's pans",
        "play": "play a card on a pan (or serve an omelette first)",
        "steal": "choose which pan you steal the top card from",
        "after": "serve an omelette or refill your hand (drawing ends your turn)",
    },
    "fiesta_de_los_muertos": {
        "draw": "keep one of the two characters you drew",
        "write": "write a word on the skull in your hands",
        "deduce": "match each skull to a character",
        "yellow": "choose a flower or a Memory Bone for a checked yellow box",
        "spend": "spend the team's bones, or finish the round ('done')",
    },
}
PHASE_WORDS["la_catrina"] = PHASE_WORDS["fiesta_de_los_muertos"]


#: Said for a phase without words (never its internal name; ``PHASE_WORDS`` covers every phase a person is asked in).
ANY_ACTION = "choose one of the legal actions below"


def phase_words(game_name: str, phase: str) -> str:
    """What the person decides in ``phase`` of ``game_name``, in words."""
    return PHASE_WORDS.get(game_name, {}).get(phase, ANY_ACTION)


def _status(where: list[str], game: Any, seat: int, phase: str) -> str:
    """``Title, where... Your move: what.`` (or who moves, or that the game is over); the title is the game's
    printed name (``tools.guides``)."""
    text = ", ".join([guide_for(game.name).title, *where])
    if game.is_over:
        return text + ": game over."
    if game.current_player != seat:
        return text + f". player_{game.current_player} is to play."
    return text + f". Your move: {phase_words(game.name, phase)}."


# ---------------------------------------------------------------------- per game
def _tequila(game: Any, seat: int) -> TableText:
    from fiesta_envs.render import seen_by
    from fiesta_envs.tequila import components
    from fiesta_envs.tequila.render import sheet_lines

    view = seen_by(game, seat)
    starter = "you start" if game.state.start_player == seat else f"player_{game.state.start_player} starts"
    where = [] if game.is_over else [f"round {game.state.round + 1} of {components.ROUNDS}"]
    if not game.is_over:
        where.append(f"dice {game.state.dice[0]} and {game.state.dice[1]} ({starter} the round)")
    status = _status(where, game, seat, game.decision.label)
    parts = [Part(_owned(s, seat, "farm"), s, tuple(sheet_lines(view, s))) for s in _own_first(game, seat)]
    return TableText(status, tuple(parts))


_FIESTA_MEXICANA_PLAYER = re.compile(r"player (\d+): ")


def _fiesta_mexicana(game: Any, seat: int) -> TableText:
    from fiesta_envs.render import seen_by

    lines = _without_head(seen_by(game, seat).render_text(), ("Fiesta Mexicana (",))
    shared: list[str] = []
    tables: dict[int, list[str]] = {}
    owner: int | None = None
    for line in lines:
        found = _FIESTA_MEXICANA_PLAYER.match(line)
        if found:
            owner = int(found.group(1))
            tables[owner] = []
        if owner is None or line.startswith("final scores"):
            shared.append(line)
        else:
            tables[owner].append(line)
    where = [f"{game.config['variant'].replace('_', ' ')} rules", f"{len(game.state.deck)} dishes left in the deck"]
    status = _status(where, game, seat, game.phase_name)
    parts = [Part("the table", None, tuple(shared))] if shared else []
    parts += [Part(_owned(s, seat, "table"), s, tuple(tables[s])) for s in _own_first(game, seat) if s in tables]
    return TableText(status, tuple(parts))


def _tortilla(game: Any, seat: int) -> TableText:
    from fiesta_envs.render import seen_by
    from fiesta_envs.tortilla.game import MENU_TITLES, TEAM_NAMES

    lines = _without_head(seen_by(game, seat).render_text(), ("Tortilla de Patatas, ", "player_", "game over"))
    phase = game.state.phase.label
    if phase == "setup":
        where = [MENU_TITLES[game.menu.name], "setting up the pans"]
    else:
        where = [MENU_TITLES[game.menu.name], f"turn {game.state.turn + 1}"]
    if not game.is_over:
        role = "chef" if game.is_chef(seat) else "kitchen assistant"
        where.append(f"you are the {role} of team {TEAM_NAMES[game.team_of(seat)]}")
    status = _status(where, game, seat, phase)
    return TableText(status, (Part("the table", None, tuple(lines)),))


def _muertos(game: Any, seat: int) -> TableText:
    """Fiesta de los Muertos and La Catrina: the round, the team's bones (and flowers), one shared table."""
    from fiesta_envs.render import seen_by

    lines = _without_head(seen_by(game, seat).render_text(), (f"{game.name}, ", "phase "))
    team = game.state.team
    where = [f"round {game.state.round_index + 1} of {game.max_rounds}", f"Memory Bones {team.memory}"]
    if game.catrina:
        where += [f"Limbo Bones {team.limbo}", f"flowers {team.flowers} of 13"]
    phase = game.state.round.phase.name.lower()
    status = _status(where, game, seat, phase)
    if not game.is_over and phase in ("yellow", "spend") and game.current_player == seat:
        status += " You decide for the team this round."
    return TableText(status, (Part("the table", None, tuple(lines)),))


TABLES: Mapping[str, Callable[[Any, int], TableText]] = {
    "tequila": _tequila,
    "fiesta_mexicana": _fiesta_mexicana,
    "tortilla_de_patatas": _tortilla,
    "fiesta_de_los_muertos": _muertos,
    "la_catrina": _muertos,
}


def table_text(game: Any, seat: int) -> TableText:
    """The table as ``seat`` sees it, for the terminal (a game without its own layout: its text board whole)."""
    build = TABLES.get(game.name)
    if build is None:
        from fiesta_envs.render import seen_by

        text = seen_by(game, seat).render_text()
        return TableText("", (Part("the table", None, tuple(text.splitlines())),))
    return build(game, seat)


# ---------------------------------------------------------------------- helpers
def _own_first(game: Any, seat: int) -> list[int]:
    """The seats with ``seat`` first, then the others in seat order after it."""
    return [(seat + k) % game.num_players for k in range(game.num_players)]


def _owned(owner: int, seat: int, noun: str) -> str:
    return f"your {noun}" if owner == seat else f"player_{owner}'s {noun}"


def _without_head(text: str, prefixes: tuple[str, ...]) -> list[str]:
    """The lines of ``text`` after its head: the leading lines that start with one of ``prefixes`` (the
    engine's status lines, which the status line replaces)."""
    lines = text.splitlines()
    start = 0
    while start < len(lines) and lines[start].startswith(prefixes):
        start += 1
    return lines[start:]
