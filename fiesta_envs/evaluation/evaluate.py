"""``fiesta evaluate``: a tournament between agents, with confidence intervals and ratings.

::

    fiesta evaluate --game fiesta_mexicana --players 2 --agents greedy,random --games 200 --workers 2
    fiesta evaluate --game tequila --players 3 --agents planner,random,ppo=runs/tequila --out results/
    fiesta evaluate --game tequila --players 3 --agents planner,search:budget=8 --games 2000 --backend ray
    fiesta evaluate --game tortilla_de_patatas --agents mine=my_agent.py:policy,careful
    fiesta evaluate --game tortilla_de_patatas --agents mine=my_model.zip,careful --trust-checkpoint

An agent is any spec of the agent registry (``fiesta_envs.agents.registry``): a baseline name with
options (``random``, one of the game's scripted players, ``search:budget=16``), ``ppo`` (the shipped
agent), a checkpoint of our trainer (its directory, its ``model.zip``, or a run directory for its latest
checkpoint; played with the options its ``meta.json`` records), ``FILE.py:ATTR`` or ``module:ATTR`` (a
policy, a policy class, a factory or a function ``(observation, action_mask) -> action``), or a
stable-baselines3 ``.zip`` trained on the game's Gymnasium environment (with ``--trust-checkpoint``);
``LABEL=SPEC`` names it.

**Who plays whom** (see ``fiesta_envs.evaluation.tournament``). Competitive games: every agent against
every other in *duels*: with two players A against B; with three or four, one copy of A
against B in every other seat, and the other way round. With three or four players there
are also *mixed tables* of different agents. Every table is played in full seat rotations
on shared deals: each deal (game seed) once per rotation, so every agent plays every seat
equally often and both sides of a duel meet the same shuffles. ``--games K`` is the number
of games per table, rounded up to whole rotations. Cooperative games: each agent plays as a
whole team (every seat), all teams on the same deals.

**How results count.**

* *Win*: finishing first. The first place is ``Game.winners()`` (the highest score, after
  the game's own tie-breaks). A first place shared by ``t`` players is worth ``1/t`` of a
  win to each and counts as a draw: with two players a tie is half a win. ``wins`` is the
  credit, ``win_rate = wins / games``, with a 95% score interval (the Wilson interval, with
  the smaller variance of a game that may be shared: ``stats.score_interval``). With ``N`` players two
  equal agents win ``1/N`` of the games of a duel's single seat.
* *Mean margin*: the agent's score minus the best score of the other seats.
* *Ratings*: every pair of seats held by different agents in every game is one pairwise
  result (the higher score wins, equal scores draw, the game's tie-break decides between
  tied winners and the rest). A Bradley–Terry model is fitted to all of them (Elo scale:
  +400 means 10:1 odds in a pairwise comparison), anchored so that ``random`` is 0 (the
  first agent when random does not play). The intervals are 95% percentile intervals of a
  bootstrap over deals (see ``fiesta_envs.evaluation.stats``).
* *Cooperative games* (and one-player games, where each agent is a team of one): a team's
  result is the mean of its seats' final scores (the same for every seat); per team the mean
  with a 95% interval, the mean reward and the histogram of results. Two teams are compared
  deal by deal (the higher result wins the deal), which gives the win rates and the ratings.

Results are printed as tables and saved in ``--out``: ``results.json`` (everything),
``matches.csv``, ``ratings.csv`` (and ``teams.csv`` when teams play), ``ratings.png``,
each written to a temporary file first and then renamed (``os.replace``), so a file is
never left half-written. ``--records FILE`` saves every game as a replayable JSON line
(``fiesta_envs.evaluation.records``).

**Where the games run.** ``--workers N`` local processes (default: one per core), or with
``--backend ray`` Ray tasks on a local Ray instance (``N`` CPUs) or on the cluster named by
``RAY_ADDRESS`` (needs the ``rllib`` extra). The results are the same either way: every game's
seeds come from the schedule.
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import io
import json
import sys
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from fiesta_envs.agents.registry import (
    AgentSource,
    add_trust_argument,
    recorded_options,
    resolve_agent,
    resolve_agents,
)
from fiesta_envs.core.errors import FiestaError, InvalidOptionError
from fiesta_envs.core.options import add_option_argument, parse_options
from fiesta_envs.core.wording import players
from fiesta_envs.evaluation.ray_tasks import BACKENDS
from fiesta_envs.evaluation.records import RecordWriter
from fiesta_envs.evaluation.stats import Comparison, Rating, mean_interval, rate_agents, score_interval
from fiesta_envs.evaluation.tournament import (
    GameResult,
    Table,
    duel_tables,
    play_games,
    schedule,
    seat_counts,
    tournament_tables,
)
from fiesta_envs.files.atomic import write_atomically
from fiesta_envs.registry import GameSpec, game_spec
from fiesta_envs.tools.result_tables import console, result_table

TIE_RULE = (
    "a first place shared by t players is worth 1/t of a win to each (a two-player tie is half a win) "
    "and counts as a draw; win_rate = wins / games"
)


# ---------------------------------------------------------------------- results
@dataclass
class MatchResult:
    """One agent against one opponent.

    For N players: the agent in one seat, the opponent in all others (or, with opponent
    "mixed tables", the agent's seats at mixed tables). Cooperative games: the agent's team
    against the opponent's team, deal by deal. ``wins`` is the win credit (ties shared).
    """

    agent: str
    opponent: str
    games: int
    wins: float
    draws: int
    losses: int
    win_rate: float
    ci_low: float
    ci_high: float
    mean_score: float
    mean_margin: float


@dataclass
class TeamResult:
    """A team (one agent in every seat of a cooperative or one-player game) over all its games."""

    agent: str
    games: int
    mean_score: float
    ci_low: float
    ci_high: float
    mean_return: float
    histogram: dict[str, int]  # final team result -> number of games
    grades: dict[str, int] = field(default_factory=dict)  # the rulebook's title for a result -> games (solo ranks)


@dataclass
class DecisionTime:
    """How long an agent took to decide, over all its decisions of the run (wall clock of ``act()`` in the
    process that played the game: compare agents measured in the same run)."""

    agent: str
    decisions: int
    mean_ms: float


def decision_times(games: Sequence[GameResult]) -> list[DecisionTime]:
    """Per agent label, its decisions and their mean time, in the order the agents first sit down."""
    counts: dict[str, int] = {}
    seconds: dict[str, float] = {}
    for result in games:
        for label, made, spent in zip(result.seats, result.decisions, result.decision_seconds, strict=False):
            counts[label] = counts.get(label, 0) + made
            seconds[label] = seconds.get(label, 0.0) + spent
    return [
        DecisionTime(label, counts[label], round(1000.0 * seconds[label] / counts[label], 4))
        for label in counts
        if counts[label]
    ]


@dataclass
class Evaluation:
    """Everything one tournament produced."""

    game: str
    num_players: int
    options: dict[str, Any]
    cooperative: bool
    team_play: bool  # cooperative or one-player: agents play as whole teams, compared deal by deal
    seed: int
    games_per_table: int
    agents: list[AgentSource]
    tables: list[Table]
    games: list[GameResult]
    matches: list[MatchResult] = field(default_factory=list)
    mixed: list[MatchResult] = field(default_factory=list)
    teams: list[TeamResult] = field(default_factory=list)
    ratings: list[Rating] = field(default_factory=list)
    rating_anchor: str = "random"
    decision_times: list[DecisionTime] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        tables_games = Counter(result.table for result in self.games)
        from fiesta_envs.version import __version__

        return {
            "game": self.game,
            "game_version": game_spec(self.game).game_class().version,
            "fiesta_envs_version": __version__,
            "num_players": self.num_players,
            "options": self.options,
            "cooperative": self.cooperative,
            "team_play": self.team_play,
            "seed": self.seed,
            "games_per_table": self.games_per_table,
            "total_games": len(self.games),
            "tie_rule": TIE_RULE,
            "agents": [{"label": a.label, "kind": a.kind, "source": _source_text(a)} for a in self.agents],
            "tables": [
                {
                    "index": t.index,
                    "kind": t.kind,
                    "description": t.describe(),
                    "agents": list(t.agents),
                    "games": tables_games[t.index],
                }
                for t in self.tables
            ],
            "seat_counts": seat_counts(self.games, self.num_players),
            "matches": [asdict(m) for m in self.matches],
            "mixed": [asdict(m) for m in self.mixed],
            "teams": [asdict(t) for t in self.teams],
            "rating_anchor": self.rating_anchor,
            "ratings": [asdict(r) for r in self.ratings],
            "decision_times": [asdict(d) for d in self.decision_times],
        }


def _source_text(source: AgentSource) -> str:
    if source.kind == "baseline" and source.options:
        return ":".join([source.target, *(f"{key}={value}" for key, value in sorted(source.options.items()))])
    return source.target if isinstance(source.target, str) else repr(source.target)


def match_result(agent: str, opponent: str, outcomes: Sequence[tuple[float, bool, float, float]]) -> MatchResult:
    """Summarise (credit, shared first, score, margin) per game from ``agent``'s side."""
    games = len(outcomes)
    wins = sum(o[0] for o in outcomes)
    draws = sum(1 for o in outcomes if o[1])
    losses = sum(1 for o in outcomes if o[0] == 0)
    low, high = score_interval(wins, games, shared=sum(o[0] * (1.0 - o[0]) for o in outcomes))
    return MatchResult(
        agent=agent,
        opponent=opponent,
        games=games,
        wins=wins,
        draws=draws,
        losses=losses,
        win_rate=wins / games if games else 0.0,
        ci_low=low,
        ci_high=high,
        mean_score=sum(o[2] for o in outcomes) / games if games else 0.0,
        mean_margin=sum(o[3] for o in outcomes) / games if games else 0.0,
    )


def seat_outcome(result: GameResult, seat: int) -> tuple[float, bool, float, float]:
    """(win credit, shared first place, score, margin over the best other seat) of one seat."""
    shared = len(result.winners) > 1
    credit = 1.0 / len(result.winners) if seat in result.winners else 0.0
    others = [s for i, s in enumerate(result.scores) if i != seat]
    return credit, shared and credit > 0, result.scores[seat], result.scores[seat] - max(others)


def pairwise_credit(result: GameResult, first: int, second: int) -> float:
    """1 if seat ``first`` placed above seat ``second``, 0.5 if level, else 0."""
    key_first = (result.scores[first], first in result.winners)
    key_second = (result.scores[second], second in result.winners)
    if key_first == key_second:
        return 0.5
    return 1.0 if key_first > key_second else 0.0


def team_score(result: GameResult) -> float:
    return sum(result.scores) / len(result.scores)


def _format_value(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def summarize(evaluation: Evaluation, bootstrap: int = 1000) -> Evaluation:
    """Fill in matches, mixed-table results, team results and ratings from the games."""
    tables = {t.index: t for t in evaluation.tables}
    labels = [a.label for a in evaluation.agents]
    evaluation.decision_times = decision_times(evaluation.games)
    if evaluation.team_play:
        evaluation.teams, evaluation.matches, comparisons = _summarize_teams(evaluation, tables, labels)
    else:
        evaluation.matches, evaluation.mixed, comparisons = _summarize_competitive(evaluation, tables, labels)
    if len(labels) >= 2 and comparisons:
        played = Counter(label for result in evaluation.games for label in set(result.seats))
        anchor = "random" if "random" in labels else labels[0]
        evaluation.rating_anchor = anchor
        evaluation.ratings = rate_agents(
            comparisons,
            labels,
            [played[label] for label in labels],
            anchor=anchor,
            bootstrap=bootstrap,
            seed=evaluation.seed,
        )
    return evaluation


def _summarize_competitive(
    evaluation: Evaluation, tables: Mapping[int, Table], labels: Sequence[str]
) -> tuple[list[MatchResult], list[MatchResult], list[Comparison]]:
    """Duel results per (agent, opponent), mixed-table results per agent, all pairwise results."""
    index = {label: i for i, label in enumerate(labels)}
    duels: dict[tuple[str, str], list] = {}
    mixed: dict[str, list] = {}
    comparisons = []
    for result in evaluation.games:
        table = tables[result.table]
        if table.kind == "duel":
            challenger, opponent = table.agents[0], table.agents[1]
            seat = result.seats.index(challenger)
            duels.setdefault((challenger, opponent), []).append(seat_outcome(result, seat))
            if evaluation.num_players == 2:  # the same games seen from the other side
                duels.setdefault((opponent, challenger), []).append(seat_outcome(result, 1 - seat))
        else:
            for seat, label in enumerate(result.seats):
                mixed.setdefault(label, []).append(seat_outcome(result, seat))
        for first in range(len(result.seats)):
            for second in range(first + 1, len(result.seats)):
                a, b = result.seats[first], result.seats[second]
                if a != b:
                    credit = pairwise_credit(result, first, second)
                    comparisons.append(Comparison(result.deal, index[a], index[b], credit))
    order = [(a, b) for a in labels for b in labels if (a, b) in duels]
    if evaluation.num_players == 2:  # each pair once, in the order the agents were given
        order = [(a, b) for a, b in order if index[a] < index[b]]
    matches = [match_result(a, b, duels[(a, b)]) for a, b in order]
    mixed_results = [match_result(label, "mixed tables", mixed[label]) for label in labels if label in mixed]
    return matches, mixed_results, comparisons


def _summarize_teams(
    evaluation: Evaluation, tables: Mapping[int, Table], labels: Sequence[str]
) -> tuple[list[TeamResult], list[MatchResult], list[Comparison]]:
    game_class = game_spec(evaluation.game).game_class()
    by_team: dict[str, dict[int, GameResult]] = {}
    for result in evaluation.games:
        by_team.setdefault(tables[result.table].agents[0], {})[result.deal] = result
    teams = []
    for label in labels:
        results = list(by_team.get(label, {}).values())
        if not results:
            continue
        values = [team_score(r) for r in results]
        mean, low, high = mean_interval(values)
        histogram = {_format_value(v): n for v, n in sorted(Counter(values).items())}
        mean_return = sum(sum(r.returns) / len(r.returns) for r in results) / len(results)
        grades = Counter(game_class.result_grade(evaluation.num_players, v) for v in sorted(values, reverse=True))
        graded = {grade: count for grade, count in grades.items() if grade is not None}  # best grade first
        teams.append(TeamResult(label, len(results), mean, low, high, mean_return, histogram, graded))
    matches, comparisons = [], []
    index = {label: i for i, label in enumerate(labels)}
    for i, a in enumerate(labels):
        for b in labels[i + 1 :]:
            shared = sorted(set(by_team.get(a, {})) & set(by_team.get(b, {})))
            outcomes = []
            for deal in shared:
                score_a, score_b = team_score(by_team[a][deal]), team_score(by_team[b][deal])
                credit = 1.0 if score_a > score_b else 0.5 if score_a == score_b else 0.0
                outcomes.append((credit, score_a == score_b, score_a, score_a - score_b))
                comparisons.append(Comparison(deal, index[a], index[b], credit))
            if outcomes:
                matches.append(match_result(a, b, outcomes))
    return teams, matches, comparisons


# ---------------------------------------------------------------------- library API
def plays_as_teams(spec: GameSpec, num_players: int) -> bool:
    """Cooperative games and one-player games are played by whole teams, compared deal by deal."""
    return spec.game_class().cooperative or num_players == 1


def _prepare(game: str, num_players: int | None, options: Mapping[str, Any] | None) -> tuple[GameSpec, int, dict]:
    """The game's spec, player count and full options; invalid ones raise ``InvalidOptionError``."""
    spec = game_spec(game)
    game_class = spec.game_class()
    probe = game_class(num_players=num_players, seed=0, **dict(options or {}))
    return spec, probe.num_players, dict(probe.config)


def run_tournament(
    game: str,
    num_players: int | None,
    agents: Sequence[Any],
    *,
    games_per_table: int = 100,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    workers: int | None = 1,
    records: str | Path | None = None,
    mixed: bool = True,
    bootstrap: int = 1000,
    progress: bool | None = None,
    trust_checkpoints: bool = False,
    backend: str = "local",
) -> Evaluation:
    """Every agent against every other (see the module docstring); returns the summarised evaluation.

    ``agents``: any agent specs of ``fiesta_envs.agents.registry`` -- names (``"careful"``, ``"search:budget=16"``,
    ``"ppo"``), paths (checkpoints, ``"mine=my_agent.py:policy"``, stable-baselines3 zips) or Python objects (a
    ``Policy`` or its class, a factory, a function ``(observation, action_mask) -> action``).

    ``options=None`` plays the game options the checkpoints among ``agents`` were trained with, when they agree
    (``recorded_options``; else the game's defaults). ``trust_checkpoints=True`` allows files that are loaded by
    unpickling (see ``fiesta_envs.agents.registry``). ``backend="ray"`` plays the games in Ray tasks
    (``fiesta_envs.evaluation.ray_tasks``) with the same results as the local processes."""
    if options is None:
        options = recorded_options(game_spec(game), list(agents))
    spec, num_players, full_options = _prepare(game, num_players, options)
    sources = resolve_agents(spec, num_players, list(agents), full_options, trust_checkpoints=trust_checkpoints)
    teams = plays_as_teams(spec, num_players)
    minimum = 1 if teams else 2
    if len(sources) < minimum:
        raise InvalidOptionError(f"{spec.name}: a tournament needs at least {minimum} agent(s), got {len(sources)}")
    tables = tournament_tables([s.label for s in sources], num_players, teams, mixed)
    return _play(
        spec,
        num_players,
        full_options,
        sources=sources,
        tables=tables,
        games_per_table=games_per_table,
        seed=seed,
        workers=workers,
        records=records,
        bootstrap=bootstrap,
        progress=progress,
        backend=backend,
    )


def _play(
    spec: GameSpec,
    num_players: int,
    options: dict[str, Any],
    *,
    sources: list[AgentSource],
    tables: list[Table],
    games_per_table: int,
    seed: int,
    workers: int | None,
    records: str | Path | None,
    bootstrap: int,
    progress: bool | None,
    backend: str = "local",
) -> Evaluation:
    tasks = schedule(tables, games_per_table, seed)
    writer = RecordWriter(records) if records else None
    try:

        def write_record(result: GameResult) -> None:
            if writer is not None and result.record is not None:  # records are kept when there is a writer
                writer.write(result.record)

        results = play_games(
            spec,
            num_players,
            options,
            sources=sources,
            tasks=tasks,
            workers=workers,
            keep_records=writer is not None,
            progress=progress,
            on_result=write_record if writer is not None else None,
            backend=backend,
        )
    except BaseException:
        if writer is not None:
            writer.abort()
        raise
    if writer is not None:
        writer.close()
    results = [_without_record(r) for r in results]
    evaluation = Evaluation(
        game=spec.name,
        num_players=num_players,
        options=options,
        cooperative=spec.game_class().cooperative,
        team_play=plays_as_teams(spec, num_players),
        seed=seed,
        games_per_table=games_per_table,
        agents=sources,
        tables=tables,
        games=results,
    )
    return summarize(evaluation, bootstrap=bootstrap)


def _without_record(result: GameResult) -> GameResult:
    if result.record is None:
        return result
    return GameResult(**{**result.__dict__, "record": None})


def evaluate_against_baselines(
    game: str,
    num_players: int,
    agent: Any,
    baselines: Sequence[str],
    *,
    games_per_baseline: int,
    seed: int,
    options: dict | None = None,
    workers: int = 1,
) -> list[MatchResult]:
    """``agent`` (checkpoint path, baseline name or Policy) against each baseline, seats rotated.

    Competitive games: the agent in one seat, the baseline in all the others, every seat in
    turn on shared deals (``games_per_baseline`` rounded up to whole rotations). Cooperative
    games: the agent's team and the baseline's team on the same deals; a deal is won by the
    team with the higher result, ``mean_score`` is the agent team's mean result and
    ``mean_margin`` its mean lead over the baseline team.
    """
    spec, num_players, full_options = _prepare(game, num_players, options)
    source = resolve_agent(spec, num_players, agent, full_options)
    if source.label in baselines:  # e.g. random against random: keep the two apart
        source = dataclasses.replace(source, label=f"agent:{source.label}")
    opponents = [resolve_agent(spec, num_players, b, full_options) for b in dict.fromkeys(baselines)]
    sources = [source, *opponents]
    if plays_as_teams(spec, num_players):
        tables = tournament_tables([s.label for s in sources], num_players, teams=True)
    else:
        tables = duel_tables([s.label for s in sources], num_players, [(source.label, o.label) for o in opponents])
    evaluation = _play(
        spec,
        num_players,
        full_options,
        sources=sources,
        tables=tables,
        games_per_table=games_per_baseline,
        seed=seed,
        workers=workers,
        records=None,
        bootstrap=0,
        progress=False,
    )
    return [m for m in evaluation.matches if m.agent == source.label]


# ---------------------------------------------------------------------- printing
def _win_rate_text(m: MatchResult) -> str:
    return f"{m.win_rate:.3f} [{m.ci_low:.3f}, {m.ci_high:.3f}]"


def print_results_table(results: Sequence[MatchResult], title: str) -> None:
    """A table of match results: games, W/D/L, win rate with its 95% interval, means."""
    columns = ("agent", "opponent", "games", "W / D / L", "win rate [95% CI]", "mean score", "mean margin")
    rows = [
        (
            m.agent,
            m.opponent,
            str(m.games),
            f"{m.games - m.draws - m.losses} / {m.draws} / {m.losses}",
            _win_rate_text(m),
            f"{m.mean_score:.2f}",
            f"{m.mean_margin:+.2f}",
        )
        for m in results
    ]
    console().print(result_table(title, columns, rows, left={"agent", "opponent"}))


def print_ratings_table(ratings: Sequence[Rating], anchor: str, title: str) -> None:
    rows = [
        (r.agent, f"{r.rating:+.0f}", f"[{r.ci_low:+.0f}, {r.ci_high:+.0f}]", str(r.games))
        for r in sorted(ratings, key=lambda r: -r.rating)
    ]
    caption = f"Elo scale, {anchor} = 0; +400 = 10:1 odds"
    table = result_table(title, ("agent", "rating", "95% interval", "games"), rows, left={"agent"}, caption=caption)
    console().print(table)


#: A results column lists every distinct result up to this many; beyond, it gives the quartiles.
HISTOGRAM_ENTRIES = 16


def _histogram_text(histogram: Mapping[str, int]) -> str:
    if len(histogram) <= HISTOGRAM_ENTRIES:
        return "  ".join(f"{value}:{count}" for value, count in histogram.items())
    values = np.repeat([float(v) for v in histogram], list(histogram.values()))
    low, q1, median, q3, high = (_format_value(float(q)) for q in np.quantile(values, [0, 0.25, 0.5, 0.75, 1]))
    return f"{len(histogram)} distinct: min {low}, quartiles {q1} / {median} / {q3}, max {high}"


def print_teams_table(teams: Sequence[TeamResult], title: str) -> None:
    columns = ["team", "games", "mean result [95% CI]", "mean reward", "results: games"]
    graded = any(t.grades for t in teams)
    if graded:
        columns.append("grades: games")
    rows = []
    for t in teams:
        row = [
            t.agent,
            str(t.games),
            f"{t.mean_score:.2f} [{t.ci_low:.2f}, {t.ci_high:.2f}]",
            f"{t.mean_return:+.3f}",
            _histogram_text(t.histogram),
        ]
        if graded:
            row.append("  ".join(f"{grade}:{count}" for grade, count in t.grades.items()))
        rows.append(row)
    console().print(result_table(title, columns, rows, left={"team", "results: games", "grades: games"}))


def print_evaluation(evaluation: Evaluation) -> None:
    head = f"{evaluation.game}, {players(evaluation.num_players)}"
    if evaluation.team_play:
        print_teams_table(evaluation.teams, f"{head}: teams (one agent in every seat)")
        if evaluation.matches:
            print_results_table(evaluation.matches, f"{head}: teams compared deal by deal")
    else:
        duel = "A against B" if evaluation.num_players == 2 else "A in one seat, B in all others"
        print_results_table(evaluation.matches, f"{head}: duels ({duel}; seats rotated)")
        if evaluation.mixed:
            print_results_table(
                evaluation.mixed,
                f"{head}: mixed tables, per seat (equal agents win 1/{evaluation.num_players})",
            )
    if evaluation.ratings:
        print_ratings_table(evaluation.ratings, evaluation.rating_anchor, f"{head}: Bradley–Terry ratings")
    if evaluation.decision_times:
        print_decision_times(evaluation.decision_times, f"{head}: time to decide")


def print_decision_times(times: Sequence[DecisionTime], title: str) -> None:
    """Each agent's mean wall-clock time per decision (its ``act()``), and how many decisions it made."""
    rows = [(t.agent, f"{t.mean_ms:.3f}", f"{t.decisions:,}") for t in times]
    caption = "wall clock of act() in the processes that played; compare agents of the same run"
    columns = ("agent", "ms per decision", "decisions")
    console().print(result_table(title, columns, rows, left={"agent"}, caption=caption))


# ---------------------------------------------------------------------- saving
def _csv_text(rows: Sequence[Mapping[str, Any]], columns: Sequence[str]) -> str:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(columns), extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow(row)
    return buffer.getvalue()


def save_evaluation(evaluation: Evaluation, out_dir: str | Path, plot: bool = True) -> list[Path]:
    """Write results.json, matches.csv, ratings.csv (teams.csv) and ratings.png; returns the paths."""
    out = Path(out_dir)
    written = []
    data = evaluation.to_json()
    path = out / "results.json"
    write_atomically(path, json.dumps(data, indent=2) + "\n")
    written.append(path)
    match_columns = [f.name for f in MatchResult.__dataclass_fields__.values()]
    rows = [{"table": "teams" if evaluation.team_play else "duel", **m} for m in data["matches"]]
    rows += [{"table": "mixed", **m} for m in data["mixed"]]
    path = out / "matches.csv"
    write_atomically(path, _csv_text(rows, ["table", *match_columns]))
    written.append(path)
    if evaluation.ratings:
        path = out / "ratings.csv"
        write_atomically(path, _csv_text(data["ratings"], ["agent", "rating", "ci_low", "ci_high", "games"]))
        written.append(path)
    if evaluation.teams:
        team_rows = [
            {**t, "histogram": json.dumps(t["histogram"]), "grades": json.dumps(t["grades"])} for t in data["teams"]
        ]
        path = out / "teams.csv"
        write_atomically(path, _csv_text(team_rows, list(TeamResult.__dataclass_fields__)))
        written.append(path)
    if plot and evaluation.ratings:
        from fiesta_envs.evaluation.plots import plot_ratings

        path = out / "ratings.png"
        title = f"{evaluation.game}, {players(evaluation.num_players)} ({len(evaluation.games)} games)"
        plot_ratings(evaluation.ratings, path, title, anchor=evaluation.rating_anchor)
        written.append(path)
    return written


# ---------------------------------------------------------------------- command line
EPILOG = """\
examples:
  fiesta evaluate --game fiesta_mexicana --players 2 --agents greedy,random --games 200
  fiesta evaluate --game tequila --players 3 --agents planner,random,ppo=runs/tequila --records games.jsonl
  fiesta evaluate --game tortilla_de_patatas --agents mine=my_agent.py:policy,careful

Every agent meets every other with seats rotated on shared deals (each agent plays every seat
equally often); 3-4 players add mixed tables. Win rate = first places, a first place shared by
t players counting 1/t (a two-player tie is half a win), with 95% Wilson intervals that allow
for ties. Ratings:
Bradley-Terry on the Elo scale, random = 0, 95% intervals. Cooperative games: each agent plays
as a whole team; mean result, its distribution, and teams compared deal by deal.
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.epilog = EPILOG
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument("--game", required=True, help="game name, e.g. fiesta_mexicana")
    parser.add_argument("--players", type=int, default=None, help="number of players (default: the game's)")
    parser.add_argument(
        "--agents",
        required=True,
        help="comma-separated agents: baseline names (options as NAME:KEY=VALUE, e.g. search:budget=16), ppo, "
        "checkpoint or run directories, FILE.py:ATTR or module:ATTR, stable-baselines3 MODEL.zip "
        "(LABEL=SPEC to name one)",
    )
    parser.add_argument(
        "--games",
        type=int,
        default=100,
        help="games per table (per pair of agents with 2 players), rounded up to whole seat rotations (default 100)",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the deals and the agents (default 0)")
    parser.add_argument(
        "--workers",
        type=int,
        default=0,
        help="parallel processes, or the CPUs of a local Ray instance (default 0: one per CPU core)",
    )
    parser.add_argument(
        "--backend",
        choices=BACKENDS,
        default="local",
        help="where the games run: local processes, or Ray tasks (local Ray, or the cluster in RAY_ADDRESS; "
        "rllib extra); the results are the same",
    )
    parser.add_argument("--out", default=None, help="directory for results (default evaluations/<game>_<N>p)")
    parser.add_argument("--records", default=None, help="save every game as a replayable JSON line in this file")
    add_option_argument(parser)
    parser.add_argument("--no-mixed", action="store_true", help="only duels, no mixed tables (3-4 players)")
    parser.add_argument("--bootstrap", type=int, default=1000, help="bootstrap resamples for rating intervals")
    parser.add_argument("--no-plot", action="store_true", help="do not draw ratings.png")
    add_trust_argument(parser)


def run(args: argparse.Namespace) -> int:
    try:
        options = parse_options(args.option) if args.option else None  # None: the checkpoints' own options
        agents = [a.strip() for a in args.agents.split(",") if a.strip()]
        if args.games < 1:
            raise InvalidOptionError(f"--games must be at least 1, got {args.games}")
        if args.seed < 0:
            raise InvalidOptionError(f"--seed must be non-negative, got {args.seed}")
        evaluation = run_tournament(
            args.game,
            args.players,
            agents,
            games_per_table=args.games,
            seed=args.seed,
            options=options,
            workers=args.workers,
            records=args.records,
            mixed=not args.no_mixed,
            bootstrap=args.bootstrap,
            trust_checkpoints=args.trust_checkpoint,
            backend=args.backend,
        )
    except (FiestaError, ValueError) as error:
        print(f"fiesta evaluate: error: {error}", file=sys.stderr)
        return 2
    played = Counter(result.table for result in evaluation.games)
    rounded = sorted({n for n in played.values() if n != args.games})
    if rounded:
        print(f"note: {args.games} games per table rounded up to {', '.join(map(str, rounded))} (whole seat rotations)")
    print_evaluation(evaluation)
    print(f"win rates: {TIE_RULE}; 95% Wilson intervals that allow for ties")
    out = Path(args.out) if args.out else Path("evaluations") / f"{evaluation.game}_{evaluation.num_players}p"
    written = save_evaluation(evaluation, out, plot=not args.no_plot)
    if args.records:
        written.append(Path(args.records))
    print("saved: " + ", ".join(str(p) for p in written))
    return 0
