"""``fiesta play``: a person plays one seat in the terminal against baselines or checkpoints.

::

    fiesta play --game fiesta_mexicana --players 3 --opponents greedy,random --seat 1 --seed 7

Before each of the person's decisions the table is shown (the game's text board) with what
their seat alone knows (their hand, objectives, character...). They type an action by name
(``bid 9``), by a unique beginning of a legal name (``bid 1`` when only ``bid 12`` starts so),
or by its number in the list of legal actions. ``legal`` lists them, ``board`` shows the table
again, ``help`` explains, ``quit`` (or end of input) leaves. A mistyped or illegal entry is
explained (the rule that forbids it, or the names it resembles) and asked again; it never ends
the game. At the end the scores and the winners are shown.

``--opponents`` names one agent per other seat in seat order (or one for all): a baseline
(``random``, ``greedy``...) or a checkpoint path (``LABEL=PATH`` allowed), as for ``evaluate``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping, Sequence
from typing import Any, TextIO

from fiesta_envs.core.errors import FiestaError, IllegalActionError
from fiesta_envs.core.game import Game
from fiesta_envs.core.options import add_option_argument, parse_options
from fiesta_envs.core.policy import Policy
from fiesta_envs.registry import GameSpec, game_spec

#: Legal actions listed with every prompt when there are at most this many (else: type ``legal``).
MENU_LIMIT = 24
WIDTH = 100
QUIT_WORDS = ("quit", "exit", "q")
HELP_TEXT = """\
Type an action to play it:
  its full name         e.g. 'bid 9' or 'rotate left'
  a unique beginning    e.g. 'rotate l' when 'rotate left' is the only legal action starting so
  its number            the number shown before it in the list of legal actions
Commands: 'legal' (list every legal action), 'board' (show the table again), 'help', 'quit'."""


class Quit(Exception):
    """The person left the game (``quit`` or end of input)."""


class PlaySession:
    """One game between a person (``seat``) and policies for the other seats, over text streams."""

    def __init__(
        self,
        game: Game,
        seat: int,
        opponents: Mapping[int, tuple[str, Policy]],
        *,
        stdin: TextIO,
        stdout: TextIO,
    ) -> None:
        if not 0 <= seat < game.num_players:
            raise FiestaError(f"--seat {seat} is not a seat of a {game.num_players}-player game")
        self.game = game
        self.seat = seat
        self.opponents = dict(opponents)
        self.stdin = stdin
        self.stdout = stdout

    # ------------------------------------------------------------------ the game
    def run(self) -> int:
        """Play to the end (0) or until the person quits (also 0: leaving is not an error)."""
        game = self.game
        labels = ", ".join("you" if s == self.seat else f"{self.opponents[s][0]}" for s in range(game.num_players))
        self.say(f"{game.name}, {game.num_players} players, seats in order: {labels}. Type 'help' for help.")
        try:
            while not game.is_over:
                player = game.current_player
                if player == self.seat:
                    self.human_turn()
                else:
                    self.opponent_turn(player)
        except Quit:
            self.say("You left the game.")
            return 0
        self.show_end()
        return 0

    def opponent_turn(self, player: int) -> None:
        label, policy = self.opponents[player]
        game = self.game
        action = int(policy.act(game.observe(player), game.legal_mask().copy(), game, player))
        name = game.action_to_string(action)
        game.step(action)
        self.say(f"player_{player} ({label}): {_public_action(game, name)}")

    def human_turn(self) -> None:
        self.show_board()
        legal = self.game.legal_actions()
        if len(legal) <= MENU_LIMIT:
            self.show_legal(legal)
        else:
            self.say(f"{len(legal)} legal actions; type 'legal' to list them")
        while True:
            entry = self.ask(f"player_{self.seat}> ")
            action = self.parse(entry, legal)
            if action is None:
                continue
            name = self.game.action_to_string(action)
            try:
                self.game.step(action)
            except IllegalActionError as error:
                self.say(f"not allowed: {error}")
                continue
            self.say(f"you: {name}")
            return

    # ------------------------------------------------------------------ reading an entry
    def parse(self, entry: str, legal: Sequence[int]) -> int | None:
        """The action ``entry`` names, or None after answering a command or explaining a mistake."""
        text = " ".join(entry.split())
        lowered = text.lower()
        game = self.game
        if not text:
            return None
        if lowered in QUIT_WORDS:
            raise Quit
        if lowered in ("help", "?", "h"):
            self.say(HELP_TEXT)
            return None
        if lowered in ("legal", "l", "list"):
            self.show_legal(legal, limit=None)
            return None
        if lowered in ("board", "b"):
            self.show_board()
            return None
        names = game.action_names()
        if text in names:
            return names.index(text)  # legal or not: stepping it explains why not
        if text.isdigit():
            number = int(text)
            if 1 <= number <= len(legal):
                return legal[number - 1]
            self.say(f"there is no action number {number}; the legal actions are numbered 1..{len(legal)}")
            return None
        starting = [a for a in legal if names[a].startswith(text)]
        if len(starting) == 1:
            return starting[0]
        if starting:
            shown = ", ".join(repr(names[a]) for a in starting[:8])
            more = f" and {len(starting) - 8} more" if len(starting) > 8 else ""
            self.say(f"{text!r} could be {shown}{more}; type more of the name")
            return None
        illegal = next((a for a, name in enumerate(names) if name.startswith(text)), None)
        if illegal is not None:
            try:
                game.check_action(illegal)
            except IllegalActionError as error:
                self.say(f"no legal action starts with {text!r}: {error}")
                return None
        try:
            game.string_to_action(text)
        except IllegalActionError as error:
            self.say(f"{error} (type 'legal' for the legal actions, 'help' for help)")
        return None

    def ask(self, prompt: str) -> str:
        self.stdout.write(prompt)
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            self.say("")
            raise Quit
        return line

    # ------------------------------------------------------------------ showing
    def say(self, text: str) -> None:
        self.stdout.write(text + "\n")
        self.stdout.flush()

    def show_board(self) -> None:
        from fiesta_envs.render import private_lines

        self.say("-" * WIDTH)
        self.say(self.game.render_text())
        for line in private_lines(self.game, self.seat):
            self.say(f"(only you see) {line}")

    def show_legal(self, legal: Sequence[int], limit: int | None = MENU_LIMIT) -> None:
        names = self.game.action_names()
        shown = legal if limit is None else legal[:limit]
        self.say("legal actions:")
        self.say(_columns([f"{i + 1:>3}. {names[a]}" for i, a in enumerate(shown)], WIDTH))

    def show_end(self) -> None:
        game = self.game
        self.say("-" * WIDTH)
        self.say(game.render_text())
        self.say("=" * WIDTH)
        scores = game.scores()
        if game.cooperative:
            self.say(f"game over: the team's result is {scores[0]:g} (reward {game.returns()[0]:.2f})")
        else:
            for player in range(game.num_players):
                who = "you" if player == self.seat else self.opponents[player][0]
                self.say(f"player_{player} ({who}): {scores[player]:g}")
            winners = game.winners()
            names = ", ".join(f"player_{w}" + (" (you)" if w == self.seat else "") for w in winners)
            self.say(f"winner{'s' if len(winners) > 1 else ''}: {names}")
            self.say("You win!" if self.seat in winners else "You lose.")


def _public_action(game: Game, name: str) -> str:
    from fiesta_envs.render import public_action

    return public_action(game, name)


def _columns(items: Sequence[str], width: int) -> str:
    """``items`` in as many columns as fit in ``width`` characters, filled column by column."""
    if not items:
        return "  (none)"
    cell = max(len(item) for item in items) + 2
    columns = max(1, width // cell)
    rows = -(-len(items) // columns)
    lines = []
    for row in range(rows):
        cells = [items[i] for i in range(row, len(items), rows)]
        lines.append("".join(c.ljust(cell) for c in cells).rstrip())
    return "\n".join(lines)


# ---------------------------------------------------------------------- setting up
def make_opponents(
    spec: GameSpec,
    num_players: int,
    seat: int,
    opponents: Sequence[str],
    *,
    seed: int | None,
    options: Mapping[str, Any],
) -> dict[int, tuple[str, Policy]]:
    """A labelled policy for every seat but ``seat``: one agent per seat, or one agent for all."""
    from fiesta_envs.evaluation.agents import resolve_agent

    others = [s for s in range(num_players) if s != seat]
    names = list(opponents) or ["random"]
    if len(names) == 1:
        names = names * len(others)
    if len(names) != len(others):
        raise FiestaError(
            f"--opponents names {len(names)} agents for {len(others)} other seats; give one per seat or one for all"
        )
    result = {}
    for other, name in zip(others, names, strict=True):
        source = resolve_agent(spec, num_players, name, options)
        policy = source.make(spec, num_players, seed=None if seed is None else seed * 1000 + other)
        result[other] = (source.label, policy)
    return result


def play(
    game: str,
    num_players: int | None = None,
    opponents: Sequence[str] = ("random",),
    *,
    seat: int = 0,
    seed: int | None = None,
    options: Mapping[str, Any] | None = None,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
) -> int:
    """Play one game in a terminal (or over any text streams, as the tests do)."""
    spec = game_spec(game)
    engine = spec.game_class()(num_players=num_players, seed=seed, **dict(options or {}))
    policies = make_opponents(spec, engine.num_players, seat, opponents, seed=seed, options=engine.config)
    session = PlaySession(engine, seat, policies, stdin=stdin or sys.stdin, stdout=stdout or sys.stdout)
    return session.run()


# ---------------------------------------------------------------------- command line
def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", required=True, help="game name, e.g. fiesta_mexicana")
    parser.add_argument("--players", type=int, default=None, help="number of players (default: the game's)")
    parser.add_argument(
        "--opponents",
        default="random",
        help="comma-separated agents for the other seats in seat order, or one for all: baseline names "
        "or checkpoint paths (default random)",
    )
    parser.add_argument("--seat", type=int, default=0, help="your seat, 0-based (default 0)")
    parser.add_argument("--seed", type=int, default=None, help="seed of the deal (default: random)")
    add_option_argument(parser)


def run(args: argparse.Namespace) -> int:
    try:
        options = parse_options(args.option)
        opponents = [name.strip() for name in args.opponents.split(",") if name.strip()]
        return play(args.game, args.players, opponents, seat=args.seat, seed=args.seed, options=options)
    except (FiestaError, ValueError) as error:
        print(f"fiesta play: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\nYou left the game.")
        return 0
