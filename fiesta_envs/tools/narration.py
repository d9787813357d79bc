"""Other players' moves told from the viewer's side of the table, in words.

``narrate(before, game, player, name, viewer=viewer)`` describes the action ``name`` that ``player`` just
played, ``before`` being the position before it (``Before.of(game)``) and ``game`` the position
after. Most games show the action as the other players see it (``render.public_action``: the
words written in Fiesta de los Muertos stay secret). Tortilla de Patatas names pans from the
actor's side ("steal from theirs 2" is the viewer's pan 2) and steals without a word when only
one pan can be stolen from; its narrator names every pan from the viewer's side and tells each
card stolen.

Tequila's rounds are played by all at once: a player's moves of a round are told to the others only when
the round ends (``held_round`` names the round a move waits for, ``is_told`` says whether a viewer may read
it now); the re-roll of the dice is seen by all at once.

``summarise(moves)`` tells a whole turn in one line: consecutive moves starting with the same word
share it, repeats are counted (``pay agave x2, water; fence 3, 4; end``), so that a Tequila round
of twenty steps reads as a few phrases.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, cast

from fiesta_envs.core.game import Game

if TYPE_CHECKING:
    from fiesta_envs.tequila.game import Tequila


@dataclass(frozen=True)
class Before:
    """What a narrator compares the new position with."""

    state: dict[str, Any]  # the game's ``state_dict()["state"]`` before the move
    scores: list[float]
    secret_round: int | None  # the simultaneous round under way (``SIMULTANEOUS_ROUNDS``), None: no such round

    @classmethod
    def of(cls, game: Game) -> Before:
        rounds = SIMULTANEOUS_ROUNDS.get(game.name)
        secret_round = rounds.round_of(game) if rounds and not game.is_over else None
        return cls(game.state_dict()["state"], [float(s) for s in game.scores()], secret_round)


@dataclass(frozen=True)
class SimultaneousRounds:
    """A game whose rounds every player plays at the same time (the engine lets them act one after another)."""

    round_of: Callable[[Game], int]  # the round under way
    open_moves: frozenset[str]  # first words of the moves everybody sees at once


SIMULTANEOUS_ROUNDS: dict[str, SimultaneousRounds] = {
    "tequila": SimultaneousRounds(lambda game: cast("Tequila", game).state.round, frozenset({"reroll"})),
}


def held_round(before: Before, game: Game, name: str) -> int | None:
    """The round at whose end the other players are told the move ``name`` (``before``: the position it was
    played in, ``game``: the game); None: they are told at once."""
    if before.secret_round is None or name.split(" ", 1)[0] in SIMULTANEOUS_ROUNDS[game.name].open_moves:
        return None
    return before.secret_round


def is_told(game: Game, held: int | None, player: int, viewer: int | None) -> bool:
    """Whether ``viewer`` (None: a spectator, who sees everything) may read now a move of ``player`` that
    was held until the end of round ``held`` (``held_round``)."""
    if held is None or viewer is None or viewer == player or game.is_over:
        return True
    return SIMULTANEOUS_ROUNDS[game.name].round_of(game) > held


class Narrator(Protocol):
    """A game's own narration of a move (``narrate``'s signature)."""

    def __call__(self, before: Before, game: Game, player: int, name: str, *, viewer: int | None) -> str: ...


def narrate(before: Before, game: Game, player: int, name: str, *, viewer: int | None) -> str:
    """How ``viewer`` (None: a spectator) is told that ``player`` played ``name``."""
    narrator = NARRATORS.get(game.name)
    if narrator is not None:
        return narrator(before, game, player, name, viewer=viewer)
    from fiesta_envs.render import public_action

    return public_action(game, name)


def summarise(moves: Sequence[str]) -> str:
    """Moves told in order, those starting with the same word after each other sharing it, repeats counted:
    ``["pay agave", "pay agave", "pay water", "end"]`` -> ``"pay agave x2, water; end"``."""
    phrases: list[tuple[str, list[list[Any]]]] = []  # (first word, [[rest, count], ...])
    for move in moves:
        first, _, rest = move.partition(" ")
        if not phrases or phrases[-1][0] != first:
            phrases.append((first, []))
        parts = phrases[-1][1]
        if parts and parts[-1][0] == rest:
            parts[-1][1] += 1
        else:
            parts.append([rest, 1])
    told = []
    for first, parts in phrases:
        rests = ", ".join(f"{rest} x{count}".strip() if count > 1 else rest for rest, count in parts)
        told.append(f"{first} {rests}".strip())
    return "; ".join(told)


# ---------------------------------------------------------------------- Tortilla de Patatas
def _tortilla(before: Before, game: Game, player: int, name: str, *, viewer: int | None) -> str:
    teams = game.teams()
    actor_team = teams[player]
    viewer_team = teams[viewer] if viewer is not None else None
    shared = game.num_players > 2

    def pan(team: int, number: int) -> str:
        if team == viewer_team:
            return f"{'your team' + chr(39) + 's' if shared else 'your'} pan {number}"
        if team == actor_team:
            return f"their own pan {number}"
        return f"team {'AB'[team]}'s pan {number}"

    words = name.split()
    if words[0] == "play":  # play CARD on P
        text = f"plays {words[1]} on {pan(actor_team, int(words[3]))}"
    elif words[0] == "start":
        text = f"starts a pan with {words[1]}"
    elif words[0] == "serve":  # serve P SIZE with D
        gained = game.scores()[player] - before.scores[player]
        text = (
            f"serves {pan(actor_team, int(words[1]))} as a size-{words[2]} omelette to the {words[4]}-diner card "
            f"({gained:+g} points)"
        )
    elif words[0] == "draw":
        text = "draws from the fridge" if words[1] == "deck" else f"takes the {before.state['door']} from the door"
    elif words[0] == "steal":
        text = "chooses which pan to steal from"
    else:
        text = name
    stolen = _stolen(before.state["pans"], game.state_dict()["state"]["pans"], served=words[0] == "serve")
    for team, number, card in stolen:
        text += f"; steals the {card} from {pan(team, number)}"
    return text


def _stolen(before: list, after: list, served: bool) -> list[tuple[int, int, str]]:
    """``(team, pan, top card)`` of every pan that lost cards but was not served."""
    if served:
        return []
    return [
        (team, number, cards[-1])
        for team, pans in enumerate(before)
        for number, cards in enumerate(pans)
        if cards and len(after[team][number]) < len(cards)
    ]


NARRATORS: dict[str, Narrator] = {"tortilla_de_patatas": _tortilla}
