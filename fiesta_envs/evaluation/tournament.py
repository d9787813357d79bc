"""Tournament scheduling and play: who sits where, on which deal, in which process.

Vocabulary:

* a **table** is a composition of agents, one per seat, before seating: a *duel*
  ``(A, B, B, B)`` puts one copy of A against B in every other seat (``(A, B)`` with two
  players); a *mixed* table seats different agents together (three or more players);
  a *team* ``(A, A, A, A)`` is one agent in every seat (cooperative games; in a one-player
  game every agent is a team of one).
* a **deal** is a game seed. Deal ``d`` gives the same game seed at every table, so every
  agent meets the same shuffles (common random numbers: less noise in comparisons).
* **seat rotation**: each deal is played once per rotation of the table, so every copy of an
  agent sits in every seat exactly once per deal (with two players: every deal twice, seats
  swapped). Every agent therefore plays every seat equally often, and luck of the deal
  cancels between the two sides of a duel.
* policy seeds depend on (deal, table, slot), not on the seat, so an agent's copy draws the
  same random numbers in every rotation of a deal.

Games are independent, so they run in worker processes (``spawn``: safe with torch loaded), or
with ``backend="ray"`` as Ray tasks of ``RAY_GAMES_PER_TASK`` games each (``fiesta_envs.evaluation.ray_tasks``:
a local Ray instance, or the cluster in ``RAY_ADDRESS``); each game's seeds are fixed by the schedule, so
the results do not depend on the backend, the number of workers or the order they finish in.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import pickle
import sys
import time
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from fiesta_envs.agents.registry import AgentSource
from fiesta_envs.core.errors import FiestaError, IllegalActionError
from fiesta_envs.core.rng import derive_seed
from fiesta_envs.evaluation.progress import ProgressNotes
from fiesta_envs.evaluation.ray_tasks import check_backend, ray_map
from fiesta_envs.evaluation.records import make_record
from fiesta_envs.policies.policy import Policy
from fiesta_envs.registry import GameSpec

#: A game still running after this many actions is reported as a bug in the engine.
MAX_STEPS = 200_000

#: Games played by one Ray task (``backend="ray"``): enough to outweigh a task's start, few enough to spread.
RAY_GAMES_PER_TASK = 8


class TournamentError(FiestaError, RuntimeError):
    """A game could not be played to the end (an agent's illegal action, an endless game)."""


@dataclass(frozen=True)
class Table:
    index: int
    kind: str  # "duel", "mixed" or "team"
    agents: tuple[str, ...]  # by slot; rotated onto the seats

    @property
    def rotations(self) -> int:
        return 1 if self.kind == "team" else len(self.agents)

    def describe(self) -> str:
        counts: dict[str, int] = {}
        for label in self.agents:
            counts[label] = counts.get(label, 0) + 1
        return " + ".join(label if n == 1 else f"{n}x {label}" for label, n in counts.items())


@dataclass(frozen=True)
class GameTask:
    index: int
    table: int
    deal: int
    seats: tuple[str, ...]  # agent label by seat
    game_seed: int
    policy_seeds: tuple[int, ...]  # by seat


@dataclass(frozen=True)
class GameResult:
    index: int
    table: int
    deal: int
    seats: tuple[str, ...]
    scores: tuple[float, ...]
    winners: tuple[int, ...]
    returns: tuple[float, ...]
    steps: int
    record: dict[str, Any] | None = None
    decisions: tuple[int, ...] = ()  # by seat: the decisions its agent was asked for
    decision_seconds: tuple[float, ...] = ()  # by seat: the wall-clock seconds its agent's act() took


# ---------------------------------------------------------------------- tables
def duel_tables(labels: Sequence[str], num_players: int, pairs: Sequence[tuple[str, str]] | None = None) -> list[Table]:
    """One duel per pair: with two players each unordered pair once; with more, each ordered pair.

    ``pairs`` restricts the duels to the given (challenger, opponent) pairs.
    """
    if pairs is None:
        if num_players == 2:
            pairs = list(combinations(labels, 2))
        else:
            pairs = [(a, b) for a in labels for b in labels if a != b]
    return [Table(i, "duel", (a,) + (b,) * (num_players - 1)) for i, (a, b) in enumerate(pairs)]


def mixed_compositions(labels: Sequence[str], num_players: int) -> list[tuple[str, ...]]:
    """Tables of different agents for three or more players.

    With at least as many agents as seats: every set of ``num_players`` different agents.
    With fewer: every agent at the table, copies spread as evenly as possible
    (2 agents, 4 seats: ``(A, A, B, B)``). Compositions that are duels are left out.
    """
    k = len(labels)
    if num_players < 3 or k < 2:
        return []
    if k >= num_players:
        return list(combinations(labels, num_players))
    base, extra = divmod(num_players, k)
    result = []
    for doubled in combinations(labels, extra):
        composition = tuple(label for label in labels for _ in range(base + (label in doubled)))
        counts = sorted(composition.count(label) for label in labels)
        if not (k == 2 and counts == [1, num_players - 1]):
            result.append(composition)
    return result


def tournament_tables(labels: Sequence[str], num_players: int, teams: bool, mixed: bool = True) -> list[Table]:
    """Every table of a round robin: ``teams`` (cooperative or solo games), else duels (+ mixed tables)."""
    if teams:
        return [Table(i, "team", (label,) * num_players) for i, label in enumerate(labels)]
    tables = duel_tables(labels, num_players)
    if mixed:
        for composition in mixed_compositions(labels, num_players):
            tables.append(Table(len(tables), "mixed", composition))
    return tables


# ---------------------------------------------------------------------- schedule
def deals_per_table(games_per_table: int, table: Table) -> int:
    """Deals needed for at least ``games_per_table`` games in whole rotations."""
    return max(1, math.ceil(games_per_table / table.rotations))


def schedule(tables: Sequence[Table], games_per_table: int, seed: int) -> list[GameTask]:
    """Every game of the tournament, seats rotated within each deal."""
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    if games_per_table < 1:
        raise ValueError(f"games per table must be at least 1, got {games_per_table}")
    tasks: list[GameTask] = []
    for table in tables:
        n = len(table.agents)
        for deal in range(deals_per_table(games_per_table, table)):
            game_seed = derive_seed(seed, 0, deal)
            slot_seeds = [derive_seed(seed, 1, deal, table.index, slot) for slot in range(n)]
            for rotation in range(table.rotations):
                slots = [(seat - rotation) % n for seat in range(n)]  # slot r sits in seat r + rotation
                tasks.append(
                    GameTask(
                        index=len(tasks),
                        table=table.index,
                        deal=deal,
                        seats=tuple(table.agents[s] for s in slots),
                        game_seed=game_seed,
                        policy_seeds=tuple(slot_seeds[s] for s in slots),
                    )
                )
    return tasks


def seat_counts(tasks: Sequence[GameTask | GameResult], num_players: int) -> dict[str, list[int]]:
    """How often each agent sat in each seat (of scheduled or played games)."""
    counts: dict[str, list[int]] = {}
    for task in tasks:
        for seat, label in enumerate(task.seats):
            counts.setdefault(label, [0] * num_players)[seat] += 1
    return counts


# ---------------------------------------------------------------------- playing
class TablePlayer:
    """Plays scheduled games; keeps one policy per (agent, seat) for the whole run."""

    def __init__(
        self,
        spec: GameSpec,
        num_players: int,
        options: Mapping[str, Any],
        sources: Sequence[AgentSource],
        keep_records: bool = False,
    ) -> None:
        self.spec = spec
        self.game_class = spec.game_class()
        self.num_players = num_players
        self.options = dict(options)
        self.sources = {source.label: source for source in sources}
        self.keep_records = keep_records
        self._policies: dict[tuple[str, int], Policy] = {}

    def policy(self, label: str, seat: int) -> Policy:
        key = (label, seat)
        if key not in self._policies:
            self._policies[key] = self.sources[label].make(self.spec, self.num_players)
        return self._policies[key]

    def play(self, task: GameTask) -> GameResult:
        game = self.game_class(num_players=self.num_players, seed=task.game_seed, **self.options)
        policies = [self.policy(label, seat) for seat, label in enumerate(task.seats)]
        for policy, policy_seed in zip(policies, task.policy_seeds, strict=True):
            policy.start_episode(policy_seed)
        actions: list[str] = []
        steps = 0
        decisions = [0] * self.num_players
        seconds = [0.0] * self.num_players
        while not game.is_over:
            if steps >= MAX_STEPS:
                raise TournamentError(
                    f"{game.name}: game {task.index} (seed {task.game_seed}) is still running after {steps} actions"
                )
            player = game.current_player
            policy = policies[player]
            observation = game.observe(player) if policy.needs_observation else None
            started = time.perf_counter()
            action = policy.act(observation, game.legal_mask(), game, player)
            seconds[player] += time.perf_counter() - started
            decisions[player] += 1
            try:
                game.step(action)
            except IllegalActionError as error:
                raise TournamentError(
                    f"agent {task.seats[player]!r} in seat {player} played an illegal action in game "
                    f"{task.index} (game seed {task.game_seed}): {error}"
                ) from error
            if self.keep_records:
                actions.append(game.action_to_string(int(action)))
            steps += 1
        record = None
        if self.keep_records:
            where = {"index": task.index, "table": task.table, "deal": task.deal}
            record = make_record(game, task.game_seed, agents=task.seats, actions=actions, tournament=where)
        return GameResult(
            index=task.index,
            table=task.table,
            deal=task.deal,
            seats=task.seats,
            scores=tuple(float(s) for s in game.scores()),
            winners=tuple(int(w) for w in game.winners()),
            returns=tuple(float(r) for r in game.returns()),
            steps=steps,
            record=record,
            decisions=tuple(decisions),
            decision_seconds=tuple(seconds),
        )


_WORKER: TablePlayer | None = None


def _one_thread_for_checkpoints(sources: Sequence[AgentSource]) -> None:
    if any(source.kind == "checkpoint" for source in sources):
        import torch

        torch.set_num_threads(1)  # one process per core: no thread oversubscription


def _init_worker(
    spec: GameSpec, num_players: int, options: dict, sources: list[AgentSource], keep_records: bool
) -> None:
    global _WORKER
    _one_thread_for_checkpoints(sources)
    _WORKER = TablePlayer(spec, num_players, options, sources, keep_records)


def _play_in_worker(task: GameTask) -> GameResult:
    assert _WORKER is not None, "worker not initialised"
    return _WORKER.play(task)


def _play_ray_task(
    spec: GameSpec,
    num_players: int,
    options: dict,
    sources: list[AgentSource],
    keep_records: bool,
    tasks: list[GameTask],
) -> list[GameResult]:
    """One Ray task: a few scheduled games in one ``TablePlayer``."""
    _one_thread_for_checkpoints(sources)
    player = TablePlayer(spec, num_players, options, sources, keep_records)
    return [player.play(task) for task in tasks]


def resolve_workers(workers: int | None) -> int:
    """``None`` or 0 means one worker per CPU core."""
    if not workers:
        return os.cpu_count() or 1
    if workers < 0:
        raise ValueError(f"workers must be >= 0, got {workers}")
    return int(workers)


def _picklable(value: Any) -> bool:
    try:
        pickle.dumps(value)
    except Exception:
        return False
    return True


def play_games(
    spec: GameSpec,
    num_players: int,
    options: Mapping[str, Any],
    *,
    sources: Sequence[AgentSource],
    tasks: Sequence[GameTask],
    workers: int | None = 1,
    keep_records: bool = False,
    progress: bool | None = None,
    on_result: Callable[[GameResult], None] | None = None,
    backend: str = "local",
) -> list[GameResult]:
    """Play every task and return the results in schedule order.

    ``progress``: a progress bar on stderr (None: when stderr is a terminal; otherwise a plain line now and
    then, ``ProgressNotes``, for a run whose output goes to a log file).
    ``on_result`` sees each result, in schedule order, as soon as it is known (this is how
    records are streamed to their file). ``backend``: ``"local"`` plays in ``workers`` processes,
    ``"ray"`` in Ray tasks (``workers`` is then the CPUs of a local Ray instance; a cluster named in
    ``RAY_ADDRESS`` uses its own).
    """
    from tqdm import tqdm

    check_backend(backend)
    workers = min(resolve_workers(workers), max(1, len(tasks)))
    if backend == "ray":
        if not _picklable(list(sources)):
            raise TournamentError("an agent cannot be sent to Ray tasks (not picklable): use the local backend")
    elif workers > 1 and not _picklable(list(sources)):
        warnings.warn(
            "an agent cannot be sent to worker processes (not picklable); playing in one process",
            stacklevel=2,
        )
        workers = 1
    bar = tqdm(
        total=len(tasks),
        desc=f"{spec.name} games",
        unit="game",
        disable=None if progress is None else not progress,
    )
    to_log = progress is None and bar.disable and len(tasks) > 1
    lines = ProgressNotes(len(tasks), _note_on_stderr if to_log else None, what=f"{spec.name} games played")
    results: list[GameResult] = []
    try:
        for result in _results(
            spec,
            num_players,
            options,
            sources=sources,
            tasks=tasks,
            workers=workers,
            keep_records=keep_records,
            backend=backend,
        ):
            results.append(result)
            if on_result is not None:
                on_result(result)
            bar.update(1)
            lines.advance()
    finally:
        bar.close()
    return results


def _note_on_stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def _results(
    spec: GameSpec,
    num_players: int,
    options: Mapping[str, Any],
    *,
    sources: Sequence[AgentSource],
    tasks: Sequence[GameTask],
    workers: int,
    keep_records: bool,
    backend: str,
) -> Iterator[GameResult]:
    if backend == "ray":
        pieces = [(list(tasks[i : i + RAY_GAMES_PER_TASK]),) for i in range(0, len(tasks), RAY_GAMES_PER_TASK)]
        shared = (spec, num_players, dict(options), list(sources), keep_records)
        for piece in ray_map(_play_ray_task, pieces, shared=shared, local_cpus=workers):
            yield from piece
        return
    if workers == 1:
        player = TablePlayer(spec, num_players, options, sources, keep_records)
        for task in tasks:
            yield player.play(task)
        return
    context = multiprocessing.get_context("spawn")
    chunksize = max(1, min(16, len(tasks) // (workers * 8)))
    init_args = (spec, num_players, dict(options), list(sources), keep_records)
    with context.Pool(workers, initializer=_init_worker, initargs=init_args) as pool:
        yield from pool.imap(_play_in_worker, tasks, chunksize=chunksize)
