"""``fiesta play``: a person plays one seat in the terminal against baselines or checkpoints.

::

    fiesta play --game fiesta_mexicana --players 3 --opponents greedy,random --seat 1 --seed 7

The game starts with a short guide and the legend of the text board (``legend`` shows it again).
Before each of the person's decisions a status line says in plain words where the game stands and
what they decide now (``Tequila, round 2 of 8, dice 4 and 3 (player_1 starts the round). Your move:
choose where your virtual die goes: to fencing or to building.``); then the table
(``tools.table_text``): the part everyone shares and the person's own area (a Tequila farm, a Fiesta
Mexicana table) every time, another player's area when it changed since the person last saw it
(``board`` shows everything, ``board N`` player_N's part); then what their seat alone knows (their hand, objectives,
character...) and a line about the decision where the game has one (which start card is being
turned, which dish was won). The legal actions are listed with numbers when there are few, else as
groups by first word (``bid: 13, 14, 15, 16``). The person types an action by name (``bid 9``), by a
unique beginning of a legal name (``bid 1`` when only ``bid 12`` starts so), or by its number among
the legal actions; a beginning that several legal actions share (``reserve 13``, a group's name)
lists them with their numbers. ``preview ACTION`` (or ``? ACTION``) shows what a choice would do
where the game allows it (``tools.preview``): the points it brings and the table after it.
``legal`` lists every legal action, ``help`` explains with the game's own action names, ``quit``
(or end of input) leaves. A mistyped or illegal entry is explained (the rule that forbids it, or
the names it resembles) and asked again; it never ends the game. The other players' moves are told
from the person's side of the table (``tools.narration``), one line per player's turn; the table is
shown as the person's seat sees it (``render.seen_by``): in Tequila, whose rounds are played by all
at once, the others' sheets stand as the round began and their moves of the round are told when it
ends. At the end the whole table, the scores, the winners and the game's breakdown (``final_info``,
laid out by ``tools.breakdown``) are shown.

``--opponents`` names one agent per other seat in seat order (or one for all): a baseline
(``random``, ``greedy``...) or a checkpoint path (``LABEL=PATH`` allowed), as for ``evaluate``.
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from fiesta_envs.agents.registry import add_trust_argument, seat_agents
from fiesta_envs.core.errors import FiestaError, IllegalActionError
from fiesta_envs.core.game import Game
from fiesta_envs.core.options import add_option_argument, parse_options
from fiesta_envs.core.wording import players
from fiesta_envs.policies.policy import Policy
from fiesta_envs.registry import game_spec
from fiesta_envs.render import hidden_scores
from fiesta_envs.tools.action_groups import ActionGroup, group_actions
from fiesta_envs.tools.breakdown import Breakdown, build_breakdown
from fiesta_envs.tools.guides import decision_hint, guide_for, outcome_text
from fiesta_envs.tools.narration import Before, held_round, is_told, narrate, summarise
from fiesta_envs.tools.preview import preview
from fiesta_envs.tools.table_text import Part, table_text

#: Legal actions listed with numbers when there are at most this many (else: grouped by first word).
MENU_LIMIT = 24
WIDTH = 100
QUIT_WORDS = ("quit", "exit", "q")
PREVIEW_WORDS = ("preview", "?")


@dataclass
class TurnTold:
    """One other player's turn as it is told: their moves in words and their score before and after it."""

    player: int
    moves: list[str]
    score_before: float
    score_after: float
    held: int | None  # told when this round ends (``tools.narration.held_round``), None: at once


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
        self.pending: list[TurnTold] = []  # other players' turns not yet told
        self.seen_parts: dict[str, tuple[str, ...]] = {}  # each part of the table as the person last saw it
        self.named_waiting: set[tuple[int, int]] = set()  # (player, round) said to have moves told later

    # ------------------------------------------------------------------ the game
    def run(self) -> int:
        """Play to the end (0) or until the person quits (also 0: leaving is not an error)."""
        game = self.game
        labels = ", ".join("you" if s == self.seat else f"{self.opponents[s][0]}" for s in range(game.num_players))
        guide = guide_for(game.name)
        self.say(f"{guide.title}, {players(game.num_players)}, seats in order: {labels}. Type 'help' for help.")
        if guide.guide:
            self.say(textwrap.fill(guide.guide, WIDTH))
        self.show_legend(again=False)
        try:
            while not game.is_over:
                player = game.current_player
                if player == self.seat:
                    self.human_turn()
                else:
                    self.opponent_turn(player)
        except Quit:
            self.flush_moves()
            self.say("You left the game.")
            return 0
        self.flush_moves()
        self.show_end()
        return 0

    def opponent_turn(self, player: int) -> None:
        _, policy = self.opponents[player]
        game = self.game
        observation = game.observe(player) if getattr(policy, "needs_observation", True) else None
        action = int(policy.act(observation, game.legal_mask().copy(), game, player))
        name = game.action_to_string(action)
        before = Before.of(game)
        game.step(action)
        told = narrate(before, game, player, name, viewer=self.seat)
        held = held_round(before, game, name)
        last = self.pending[-1] if self.pending else None
        if last is None or last.player != player or last.held != held:
            self.pending.append(TurnTold(player, [], before.scores[player], before.scores[player], held))
        self.pending[-1].moves.append(told)
        self.pending[-1].score_after = float(game.scores()[player])

    def flush_moves(self) -> None:
        """Tell the other players' moves since the person's last turn, one summary per player's turn; the
        moves of a round played by all at once wait for its end (Tequila), the player is named meanwhile."""
        game = self.game
        told: list[TurnTold] = []
        waiting: list[TurnTold] = []
        for turn in self.pending:
            (told if is_told(game, turn.held, turn.player, self.seat) else waiting).append(turn)
        hidden = hidden_scores(game, self.seat)  # scores that would tell hidden cards: no change told
        for turn in told:
            line = f"player_{turn.player} ({self.opponents[turn.player][0]}): " + summarise(turn.moves)
            if len(turn.moves) > 1:
                line = line.replace(": ", f", {len(turn.moves)} moves: ", 1)
            if not game.cooperative and turn.score_after != turn.score_before and turn.player not in hidden:
                line += f" (score {turn.score_before:g} -> {turn.score_after:g})"
            self.say(textwrap.fill(line, WIDTH, subsequent_indent="    "))
        self.pending = waiting
        for player, held in sorted({(turn.player, turn.held) for turn in waiting if turn.held is not None}):
            if (player, held) in self.named_waiting:
                continue
            self.named_waiting.add((player, held))
            self.say(
                f"player_{player} ({self.opponents[player][0]}) has played in this round: "
                "its moves are shown when the round ends"
            )

    def human_turn(self) -> None:
        self.flush_moves()
        self.show_board()
        hint = decision_hint(self.game, self.seat)
        if hint:  # a paragraph, then perhaps lines drawn as they are (Tequila's building orientations)
            first, *drawn = hint.split("\n")
            self.say(textwrap.fill(f"now: {first}", WIDTH, subsequent_indent="     "))
            for line in drawn:
                self.say("     " + line)
        legal = self.game.legal_actions()
        if len(legal) <= MENU_LIMIT:
            self.show_legal(legal)
        else:
            self.show_groups(legal)
        while True:
            entry = self.ask(f"player_{self.seat}> ")
            action = self.parse(entry, legal)
            if action is None:
                continue
            name = self.game.action_to_string(action)
            try:
                self.game.step(action)
            except IllegalActionError as error:
                self.explain(f"not allowed: {error}")
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
            self.say(help_text(game, legal))
            return None
        if lowered == "legend":
            self.show_legend(again=True)
            return None
        if lowered in ("legal", "l", "list"):
            self.show_legal(legal, limit=None)
            return None
        if lowered in ("board", "b"):
            self.show_board(every_part=True)
            return None
        if lowered.startswith("board "):
            self.show_area(lowered.split(" ", 1)[1])
            return None
        first, _, rest = text.partition(" ")
        if first.lower() in PREVIEW_WORDS or text.startswith("?"):
            wanted = rest if first.lower() in PREVIEW_WORDS else text[1:]
            self.show_preview(wanted.strip(), legal)
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
            self.say(f"{text!r} could be any of these; type more of the name or a number:")
            self.say(_columns([f"{legal.index(a) + 1:>3}. {names[a]}" for a in starting], WIDTH))
            return None
        illegal = next((a for a, name in enumerate(names) if name.startswith(text)), None)
        if illegal is not None:
            try:
                game.check_action(illegal)
            except IllegalActionError as error:
                self.explain(f"no legal action starts with {text!r}: {error}")
                return None
        try:
            game.string_to_action(text)
        except IllegalActionError as error:
            self.explain(f"{error} (type 'legal' for the legal actions, 'help' for help)")
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

    def explain(self, text: str) -> None:
        """A message about the person's entry, wrapped to the width (it follows the prompt on its line)."""
        self.say(textwrap.fill(text, WIDTH - len(f"player_{self.seat}> "), subsequent_indent="    "))

    def show_board(self, every_part: bool = False) -> None:
        """The status line, the shared table and the person's own area; another player's area when it changed
        since the person last saw it (``every_part``: all of it); then what the person alone knows."""
        from fiesta_envs.render import private_lines

        table = table_text(self.game, self.seat)
        self.say("-" * WIDTH)
        if table.status:
            self.say(textwrap.fill(table.status, WIDTH, subsequent_indent="    "))
        unchanged: list[Part] = []
        for part in table.parts:
            if every_part or part.seat in (None, self.seat) or self.seen_parts.get(part.title) != part.lines:
                self.say("\n".join(part.lines))
                self.seen_parts[part.title] = part.lines
            else:
                unchanged.append(part)
        if unchanged:
            titles = _and([part.title for part in unchanged])
            one = f"'board {unchanged[0].seat}' one"
            line = f"(unchanged since you last saw it, not shown: {titles}; 'board' shows all, {one})"
            self.say(textwrap.fill(line, WIDTH, subsequent_indent="    "))
        shown = {line.strip() for part in table.parts for line in part.lines}
        for line in private_lines(self.game, self.seat):
            if line.strip() not in shown:  # what the table shows already is not said twice
                self.say(textwrap.fill(f"(only you see) {line}", WIDTH, subsequent_indent="    "))

    def show_area(self, wanted: str) -> None:
        """One player's part of the table (``board 2`` or ``board player_2``), or which ones there are."""
        number = wanted.removeprefix("player_").removeprefix("player ").strip()
        owned = {part.seat: part for part in table_text(self.game, self.seat).parts if part.seat is not None}
        if number.isdigit() and int(number) in owned:
            part = owned[int(number)]
            self.say("\n".join(part.lines))
            self.seen_parts[part.title] = part.lines
        elif owned:
            seats = ", ".join(str(seat) for seat in sorted(owned))
            self.say(f"'board N' shows player_N's part of the table: N is one of {seats}")
        else:
            self.say("this game's table has no part of its own per player: 'board' shows it all")

    def show_legend(self, again: bool) -> None:
        """The legend of the table's symbols: at the start, and again on 'legend'."""
        legend = guide_for(self.game.name).legend
        if legend:
            self.say(textwrap.fill(legend, WIDTH))
        elif again:
            self.say("this game's table uses no symbols that need a legend; 'help' explains how to play")

    def show_legal(self, legal: Sequence[int], limit: int | None = MENU_LIMIT) -> None:
        names = self.game.action_names()
        shown = legal if limit is None else legal[:limit]
        self.say("legal actions:")
        self.say(_columns([f"{i + 1:>3}. {names[a]}" for i, a in enumerate(shown)], WIDTH))

    def show_groups(self, legal: Sequence[int]) -> None:
        """The legal actions as one line per group of names sharing a first word."""
        names = self.game.action_names()
        groups = group_actions([(a, names[a]) for a in legal])
        self.say(f"{len(legal)} legal actions (type a group's name to list it with numbers, 'legal' for all):")
        for group in groups:
            self.say(_group_line(group, WIDTH))

    def show_preview(self, wanted: str, legal: Sequence[int]) -> None:
        """What the legal action ``wanted`` (name, beginning or number) would do, or why that is not told."""
        if not wanted:
            self.say("preview what? e.g. 'preview place 2' or '? 3'")
            return
        action = self.parse(wanted, legal)
        if action is None:
            return
        if action not in legal:
            self.say(f"{self.game.action_to_string(action)!r} is not legal now")
            return
        result = preview(self.game, action)
        self.say(f"preview of {result.name!r}:")
        for seat, change in result.score_changes.items():
            who = "you" if seat == self.seat else self.opponents[seat][0]
            self.say(f"  player_{seat} ({who}): {change:+g} points")
        if result.after is not None:  # the shared table and the person's own area after the choice
            for part in table_text(result.after, self.seat).parts:
                if part.seat in (None, self.seat):
                    self.say("\n".join(part.lines))
        self.say(f"  ({result.note}; nothing was played)")

    def show_end(self) -> None:
        game = self.game
        self.show_board(every_part=True)
        self.say("=" * WIDTH)
        scores = game.scores()
        labels = [f"player_{s} ({'you' if s == self.seat else self.opponents[s][0]})" for s in range(game.num_players)]
        if game.cooperative:
            line = f"game over: {outcome_text(game)} (reward {game.returns()[0]:.2f})"
            self.say(textwrap.fill(line, WIDTH, subsequent_indent="    "))
        else:
            for player in range(game.num_players):
                self.say(f"{labels[player]}: {scores[player]:g}")
            winners = game.winners()
            names = ", ".join(f"player_{w}" + (" (you)" if w == self.seat else "") for w in winners)
            self.say(f"winner{'s' if len(winners) > 1 else ''}: {names}")
            self.say("You win!" if self.seat in winners else "You lose.")
        self.say(breakdown_text(build_breakdown(game.final_info(), labels), WIDTH))


def help_text(game: Game, legal: Sequence[int]) -> str:
    """How to type an action, with examples from ``game`` (its guide's and one of the legal actions now)."""
    names = game.action_names()
    examples = guide_for(game.name).examples or tuple(names[a] for a in legal[:2])
    shown = _and([f"'{name}'" for name in examples[:3]], "or")
    lines = ["Type an action to play it:", f"  its full name         e.g. {shown}"]
    beginning = _unique_beginning([names[a] for a in legal])
    if beginning:
        short, name = beginning
        lines.append(f"  a unique beginning    e.g. '{short}' now, as '{name}' is the only legal action starting so")
    else:
        lines.append("  a unique beginning    of a legal action's name, when no other legal action starts so")
    lines.append("  its number            the number shown before it in the list of legal actions")
    shared = next((example.split()[0] for example in examples if _starting(names, example.split()[0] + " ") > 1), None)
    group = f" (e.g. '{shared}')" if shared else ""
    lines.append(f"A beginning that several legal actions share{group} lists them with numbers.")
    if guide_for(game.name).preview_groups:
        lines.append("'preview ACTION' or '? ACTION' shows what a choice would do (points, the table after) where the")
        lines.append("game can tell without revealing hidden cards or dice.")
    lines.append(
        "Commands: 'legal' (every legal action), 'board' (the whole table again), 'board N' (player_N's part), "
        "'legend' (what the symbols mean), 'help', 'quit'."
    )
    wrapped = (textwrap.fill(line, WIDTH, subsequent_indent="    ") if len(line) > WIDTH else line for line in lines)
    return "\n".join(wrapped)


def _unique_beginning(names: Sequence[str]) -> tuple[str, str] | None:
    """A beginning shorter than a legal action's name that no other legal name shares, and that name
    (``('virtual b', 'virtual build')``); None when no name has one."""
    for name in names:
        first = name.split(" ", 1)[0]
        start = len(first) + 2 if len(first) < len(name) else 1
        for end in range(start, len(name)):
            if _starting(names, name[:end]) == 1 and not name[:end].endswith(" "):
                return name[:end], name
    return None


def _starting(names: Sequence[str], beginning: str) -> int:
    return sum(name.startswith(beginning) for name in names)


def _and(items: Sequence[str], word: str = "and") -> str:
    """``a``, ``a and b``, ``a, b and c`` (or another ``word`` than "and")."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" {word} " + items[-1]


def _group_line(group: ActionGroup, width: int) -> str:
    """``  bid (4): 13, 14, 15, 16``; a split group names its parts: ``  build (150): road (63), ...``,
    or ``  reserve (42): 1, 2, ... 16, each with: drop 0, drop 1, drop 2`` when every part has the same choices."""
    if group.size == 1 and not group.subgroups:
        return f"  {group.buttons[0].name}"
    suffix = ""
    if group.subgroups:
        choices = {tuple(b.label for b in sub.buttons) for sub in group.subgroups}
        shared = ", each with: " + ", ".join(next(iter(choices)))
        if len(choices) == 1 and len(shared) <= width // 2:
            parts = [sub.title.split(" ", 1)[-1] for sub in group.subgroups]
            suffix = shared
        else:
            parts = [f"{sub.title.split(' ', 1)[-1]} ({sub.size})" for sub in group.subgroups]
    else:
        parts = [button.label for button in group.buttons]
    line = f"  {group.title} ({group.size}): "
    room = width - len(suffix) - 4
    for i, part in enumerate(parts):
        piece = part + (", " if i < len(parts) - 1 else "")
        if len(line) + len(piece) + len(parts[-1]) + 4 > room and i < len(parts) - 1:
            line += "... " + parts[-1]
            break
        line += piece
    return line + suffix


def breakdown_text(breakdown: Breakdown, width: int) -> str:
    """The end-of-game breakdown as text: facts, then each table in aligned columns."""
    lines = []
    for key, value in breakdown.facts:
        lines.append(textwrap.fill(f"{key}: {value}", width, subsequent_indent="    "))
    for table in breakdown.tables:
        lines.append(f"{table.title}:")
        rows = [table.header, *table.rows]
        widths = [max(len(row[c]) for row in rows) for c in range(len(table.header))]
        if sum(widths) + 2 * len(widths) <= width:
            for row in rows:
                lines.append("  " + "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())
            continue
        for row in table.rows:  # too wide for columns: one wrapped paragraph per row
            fields = "; ".join(f"{h}: {cell}" for h, cell in zip(table.header[1:], row[1:], strict=True))
            lines.append(textwrap.fill(f"{row[0]} - {fields}", width, initial_indent="  ", subsequent_indent="      "))
    return "\n".join(lines)


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
    trust_checkpoints: bool = False,
) -> int:
    """Play one game in a terminal (or over any text streams, as the tests do)."""
    spec = game_spec(game)
    engine = spec.game_class()(num_players=num_players, seed=seed, **dict(options or {}))
    others = [other for other in range(engine.num_players) if other != seat]
    policies = seat_agents(
        spec,
        engine.num_players,
        others,
        opponents,
        options=engine.config,
        seed=seed,
        trust_checkpoints=trust_checkpoints,
    )
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
        "(NAME:KEY=VALUE for options), ppo, checkpoint paths, FILE.py:ATTR or module:ATTR (default random)",
    )
    parser.add_argument("--seat", type=int, default=0, help="your seat, 0-based (default 0)")
    parser.add_argument("--seed", type=int, default=None, help="seed of the deal (default: random)")
    add_option_argument(parser)
    add_trust_argument(parser)


def run(args: argparse.Namespace) -> int:
    try:
        options = parse_options(args.option)
        opponents = [name.strip() for name in args.opponents.split(",") if name.strip()]
        return play(
            args.game,
            args.players,
            opponents,
            seat=args.seat,
            seed=args.seed,
            options=options,
            trust_checkpoints=args.trust_checkpoint,
        )
    except (FiestaError, ValueError) as error:
        print(f"fiesta play: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\nYou left the game.")
        return 0
