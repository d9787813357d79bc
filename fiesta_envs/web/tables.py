"""The games the web app is showing, kept on the server: tables to play at and timelines to watch.

* ``PlayTable``: a person sits at one seat, agents at the others. After each of the person's
  actions the agents play until it is the person's turn again or the game ends. The person is told
  the others' moves as they may know them (Tequila: a round's moves when it ends).
* ``Timeline``: a game to watch step by step, forward and back: either agents playing each
  other (the next step is asked of the agent when the viewer first goes past the end), or a
  game record (``fiesta evaluate --records``) whose actions are replayed through the engine.
  It is watched as a spectator, or as one seat saw it (``told_moves``, ``render.seen_by``).

Every step is remembered as a state dict, so going back rebuilds the position exactly.
``TableStore`` holds the tables by a random id, forgetting the oldest past a limit.
"""

from __future__ import annotations

import dataclasses
import secrets
import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from fiesta_envs.core.errors import FiestaError, InvalidStateError
from fiesta_envs.core.game import Game
from fiesta_envs.policies.policy import Policy
from fiesta_envs.registry import GameSpec, game_spec
from fiesta_envs.tools.narration import Before, held_round, is_told, narrate

#: How many tables the server keeps before it forgets the oldest.
MAX_TABLES = 64


@dataclass(frozen=True)
class Move:
    """One action of the game, as the log shows it."""

    step: int  # 1 for the first action
    player: int
    name: str  # the action's full name
    public: str  # how the other players are told it (secret words stay secret; ``tools.narration``)
    held: int | None = None  # told to the others when this round ends (Tequila: rounds played by all at once)


def agent_move(game: Game, policy: Policy) -> int:
    """The action ``policy`` picks for the seat to act."""
    player = game.current_player
    observation = game.observe(player) if getattr(policy, "needs_observation", True) else None
    return int(policy.act(observation, game.legal_mask().copy(), game, player))


class PlayTable:
    """A person at ``seat`` against agents at every other seat."""

    kind = "play"

    def __init__(self, game: Game, seat: int, agents: Mapping[int, tuple[str, Policy]], seed: int | None) -> None:
        if not 0 <= seat < game.num_players:
            raise FiestaError(f"seat {seat} is not a seat of a {game.num_players}-player game")
        missing = [s for s in range(game.num_players) if s != seat and s not in agents]
        if missing:
            raise FiestaError(f"no agent for seats {missing}")
        self.game = game
        self.seat = seat
        self.agents = dict(agents)
        self.seed = seed
        self.moves: list[Move] = []
        self.labels = ["you" if s == seat else self.agents[s][0] for s in range(game.num_players)]
        self.advance()

    @property
    def your_turn(self) -> bool:
        return not self.game.is_over and self.game.current_player == self.seat

    def play(self, action: int) -> None:
        """The person's action (``IllegalActionError`` if it is not legal now), then the agents'."""
        if not self.your_turn:
            raise FiestaError("it is not your turn" if not self.game.is_over else "the game is over")
        self._step(action)
        self.advance()

    def advance(self) -> None:
        """Let the agents play until it is the person's turn or the game is over."""
        while not self.game.is_over and self.game.current_player != self.seat:
            _, policy = self.agents[self.game.current_player]
            self._step(agent_move(self.game, policy))

    def told_moves(self) -> list[Move]:
        """The moves as the person may read them now (``told_moves``)."""
        return told_moves(self.moves, self.game, self.seat)

    def unseen_players(self) -> list[int]:
        """The other players who have moves not told to the person yet (``unseen_players``)."""
        return unseen_players(self.moves, self.game, self.seat)

    def _step(self, action: int) -> None:
        game = self.game
        player = game.current_player
        name = game.action_to_string(action)
        before = Before.of(game)
        game.step(action)
        told = narrate(before, game, player, name, viewer=self.seat)
        self.moves.append(Move(len(self.moves) + 1, player, name, told, held_round(before, game, name)))


def told_moves(moves: Sequence[Move], game: Game, viewer: int | None) -> list[Move]:
    """``moves`` as ``viewer`` (None: a spectator) may read them with ``game`` where it is now, numbered in that
    order: the others' moves of a round played by all at once are told when it ends (``narration.is_told``)."""
    told = [move for move in moves if is_told(game, move.held, move.player, viewer)]
    return [dataclasses.replace(move, step=number) for number, move in enumerate(told, start=1)]


def unseen_players(moves: Sequence[Move], game: Game, viewer: int | None) -> list[int]:
    """The other players who have moves in ``moves`` not told to ``viewer`` yet (played in the round under way)."""
    return sorted({move.player for move in moves if not is_told(game, move.held, move.player, viewer)})


class Timeline:
    """A game watched step by step: ``position`` 0 is the start, ``len(actions)`` the last known step."""

    kind = "watch"

    def __init__(
        self,
        spec: GameSpec,
        start: Game,
        labels: list[str],
        actions: list[str] | None = None,
        agents: Mapping[int, tuple[str, Policy]] | None = None,
        recorded_scores: list[float] | None = None,
    ) -> None:
        if (actions is None) == (agents is None):
            raise ValueError("a timeline replays recorded actions or asks agents, not both")
        self.spec = spec
        self.labels = labels
        self.agents = dict(agents or {})
        self.recorded = list(actions) if actions is not None else None
        self.recorded_scores = recorded_scores
        self.kind = "replay" if actions is not None else "watch"
        self.moves: list[Move] = []
        self._states: list[dict[str, Any]] = [start.state_dict()]
        self._game = start
        self.position = 0

    # ---------------------------------------------------------------- steps
    @property
    def known_steps(self) -> int:
        """Steps computed so far (a replay computes its steps as the viewer reaches them)."""
        return len(self._states) - 1

    @property
    def last_step(self) -> int | None:
        """The final step when it is known: the record's length, or the step at which the agents' game ended."""
        if self.recorded is not None:
            return len(self.recorded)
        game = self.game_at(self.known_steps)
        return self.known_steps if game.is_over else None

    def can_go_forward(self) -> bool:
        last = self.last_step
        return last is None or self.position < last

    def go(self, step: int) -> Game:
        """Move to ``step`` (clamped to the game's steps), computing the steps on the way; the game there."""
        step = max(0, step)
        while self.known_steps < step and self._extend():
            pass
        self.position = min(step, self.known_steps)
        return self.game_at(self.position)

    def game_at(self, step: int) -> Game:
        """The position after ``step`` actions (read it, don't change it: the last one is the live game)."""
        if step == len(self._states) - 1:
            return self._game
        return self.spec.game_class().from_state_dict(self._states[step])

    def _extend(self) -> bool:
        """Compute one more step; False when the game has no more."""
        game = self._game
        if game.is_over or (self.recorded is not None and self.known_steps >= len(self.recorded)):
            return False
        player = game.current_player
        before = Before.of(game)
        if self.recorded is not None:
            name = self.recorded[self.known_steps]
            try:
                game.play(name)
            except FiestaError as error:
                raise InvalidStateError(
                    f"step {self.known_steps + 1} ({name!r}) of the record does not replay: {error}"
                ) from error
        else:
            action = agent_move(game, self.agents[player][1])
            name = game.action_to_string(action)
            game.step(action)
        self._states.append(game.state_dict())
        told = narrate(before, game, player, name, viewer=None)
        self.moves.append(Move(len(self.moves) + 1, player, name, told, held_round(before, game, name)))
        return True


def timeline_from_record(record: Mapping[str, Any]) -> Timeline:
    """A timeline replaying a game record (one line of ``fiesta evaluate --records``)."""
    for key in ("game", "num_players", "options", "seed", "actions"):
        if key not in record:
            raise InvalidStateError(f"not a game record: it has no {key!r}")
    spec = game_spec(str(record["game"]))
    game = spec.game_class()(num_players=record["num_players"], seed=record["seed"], **dict(record["options"]))
    agents = list(record.get("agents") or [])
    labels = [agents[s] if s < len(agents) else f"player_{s}" for s in range(game.num_players)]
    scores = record.get("scores")
    return Timeline(spec, game, labels, actions=[str(a) for a in record["actions"]], recorded_scores=scores)


class TableStore:
    """The server's tables by id; thread-safe; the oldest are forgotten past ``limit``."""

    def __init__(self, limit: int = MAX_TABLES) -> None:
        self.limit = limit
        self._tables: OrderedDict[str, PlayTable | Timeline] = OrderedDict()
        self._lock = threading.Lock()
        self.locks: dict[str, threading.Lock] = {}

    def add(self, table: PlayTable | Timeline) -> str:
        table_id = secrets.token_urlsafe(9)
        with self._lock:
            self._tables[table_id] = table
            self.locks[table_id] = threading.Lock()
            while len(self._tables) > self.limit:
                old, _ = self._tables.popitem(last=False)
                self.locks.pop(old, None)
        return table_id

    def get(self, table_id: str) -> PlayTable | Timeline | None:
        with self._lock:
            return self._tables.get(table_id)
