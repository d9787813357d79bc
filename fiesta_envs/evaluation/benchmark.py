"""``fiesta benchmark``: one agent against the game's reference ladder, on a published deal set.

::

    fiesta benchmark --game fiesta_mexicana --players 2 --agent mine=runs/fm --games 40
    fiesta benchmark --game tortilla_de_patatas --players 2 --agent old=careful:version=1

or in Python::

    result = fiesta_envs.benchmark(my_policy, game="fiesta_mexicana", players=2, games=40)
    print(result.table())

**What is played.** The agent meets every agent of the ladder (``fiesta_envs.evaluation.ladder``: random,
every version of the scripted baseline, search, the shipped agents) in a duel: with two players the agent
against the reference, with more one copy of the agent against the reference in every other seat. Each duel
is ``--games`` games on the first deals of the deal set (``deals-v1``), every deal once per seat rotation,
so the agent plays every seat equally often and every agent benchmarked meets the same deals. Cooperative and
one-player games: the agent plays as a whole team, and its result on each deal is compared with each reference
team's on the same deal (so ``--games`` is at most the deals stored). The ladder's own games are stored in the
package: a run plays only the agent's games.

**What is reported.**

* the agent's Bradley–Terry rating on the ladder's scale (Elo: ``random`` = 0, +400 = 10:1 odds), fitted
  against the ladder's stored ratings, which stay fixed, so every agent benchmarked lands on one scale; its
  95% interval is the wider of the Fisher interval and a bootstrap over deals, relative to the ladder;
* its duel against each reference: wins / draws / losses, win rate with a 95% interval (a first
  place shared by ``t`` players is worth ``1/t``), mean score and mean margin over the best other seat;
* one line to cite: package version, game, environment id and engine version, deal set, games.

``--agent NAME=SPEC`` names the agent ``NAME`` in the tables; ``SPEC`` is anything ``fiesta evaluate``
takes as an agent. ``--seed`` changes the agents' own random choices, never the deals.
"""

from __future__ import annotations

import argparse
import dataclasses
import io
import json
import re
import sys
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from fiesta_envs.core.errors import FiestaError, InvalidOptionError
from fiesta_envs.core.rng import derive_seed
from fiesta_envs.core.wording import players
from fiesta_envs.evaluation.agents import add_trust_argument, resolve_agent
from fiesta_envs.evaluation.evaluate import (
    MatchResult,
    match_result,
    pairwise_credit,
    plays_as_teams,
    seat_outcome,
    team_score,
)
from fiesta_envs.evaluation.ladder import (
    DEAL_SETS,
    DEFAULT_DEAL_SET,
    BenchmarkError,
    References,
    deal_set_seed,
    load_references,
)
from fiesta_envs.evaluation.stats import Rating, rate_against_ladder
from fiesta_envs.evaluation.tournament import GameResult, GameTask, Table, duel_tables, play_games, schedule
from fiesta_envs.files.atomic import write_atomically
from fiesta_envs.registry import GameSpec, game_spec
from fiesta_envs.version import __version__

#: Games against each reference when none is given.
DEFAULT_GAMES = 40

#: ``NAME=SPEC``: a name is a word (letters, digits, ``_.-``), with no ``:`` or ``/`` of a spec or a path.
NAMED_SPEC = re.compile(r"^\s*([A-Za-z_][\w.-]*)\s*=(.+)$")


@dataclass
class BenchmarkResult:
    """One agent on the ladder: its rating, its duels, and what to cite."""

    agent: str
    agent_spec: str
    game: str
    env_id: str
    game_version: int
    num_players: int
    deal_set: str
    games_per_reference: int
    total_games: int
    seed: int
    rating: Rating
    ladder: list[Rating]
    duels: list[MatchResult]
    fiesta_envs_version: str
    team_play: bool = False  # cooperative or one-player: teams compared deal by deal

    @property
    def ratings(self) -> list[Rating]:
        """The ladder's ratings and the agent's, best first."""
        return sorted([*self.ladder, self.rating], key=lambda r: -r.rating)

    @property
    def citation(self) -> str:
        r = self.rating
        return (
            f"{self.agent}: {r.rating:+.0f} [{r.ci_low:+.0f}, {r.ci_high:+.0f}] (random = 0) on the fiesta_envs "
            f"{self.fiesta_envs_version} benchmark ladder of {self.game} ({self.env_id}, engine version "
            f"{self.game_version}), {players(self.num_players)}, deal set {self.deal_set}, "
            f"{self.games_per_reference} games against each of {len(self.duels)} references"
        )

    def table(self) -> str:
        """The ratings, the duels and the line to cite, as text."""
        from rich.console import Console

        from fiesta_envs.tools.result_tables import result_table

        head = f"{self.game}, {players(self.num_players)}, deal set {self.deal_set}"
        ratings = [
            (
                ("* " if r is self.rating else "  ") + r.agent,
                f"{r.rating:+.0f}",
                f"[{r.ci_low:+.0f}, {r.ci_high:+.0f}]",
                str(r.games),
            )
            for r in self.ratings
        ]
        caption = "Elo scale, random = 0; +400 = 10:1 odds; * the agent"
        columns = ("agent", "rating", "95% interval", "games")
        duels = [
            (
                m.opponent,
                str(m.games),
                f"{m.games - m.draws - m.losses} / {m.draws} / {m.losses}",
                f"{m.win_rate:.3f} [{m.ci_low:.3f}, {m.ci_high:.3f}]",
                f"{m.mean_score:.2f}",
                f"{m.mean_margin:+.2f}",
            )
            for m in self.duels
        ]
        duel_columns = ("reference", "games", "W / D / L", "win rate [95% CI]", "mean score", "mean margin")
        buffer = io.StringIO()
        console = Console(file=buffer, width=120, color_system=None, force_terminal=False)
        console.print(result_table(f"{head}: ratings", columns, ratings, left={"agent"}, caption=caption))
        if self.team_play:
            title = f"{head}: {self.agent} as a team against each reference's team, deal by deal"
        elif self.num_players == 2:
            title = f"{head}: {self.agent} against each reference (seats rotated)"
        else:
            title = f"{head}: {self.agent} in one seat, the reference in all others (seats rotated)"
        console.print(result_table(title, duel_columns, duels, left={"reference"}))
        console.print(f"cite: {self.citation}", soft_wrap=True)
        return "\n".join(line.rstrip() for line in buffer.getvalue().splitlines()) + "\n"

    def to_json(self) -> dict[str, Any]:
        return {"format": 1, **asdict(self)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> BenchmarkResult:
        data = {key: value for key, value in data.items() if key != "format"}
        data["rating"] = Rating(**data["rating"])
        data["ladder"] = [Rating(**r) for r in data["ladder"]]
        data["duels"] = [MatchResult(**m) for m in data["duels"]]
        return cls(**data)


def split_named_spec(text: str) -> tuple[str | None, str]:
    """``NAME=SPEC`` -> (NAME, SPEC); a spec without a name, or an existing path such as ``lr=0.1/run`` ->
    (None, spec)."""
    match = NAMED_SPEC.match(text)
    if match is None or Path(text.strip()).exists():
        return None, text.strip()
    return match.group(1), match.group(2).strip()


def benchmark_schedule(
    labels: Sequence[str], num_players: int, games: int, deal_set: str, seed: int = 0, *, teams: bool = False
) -> list[GameTask]:
    """Every game of a run: the agent (``labels[0]``) in a duel with each reference (``labels[1:]``) on the deal
    set's first deals, seats rotated; with ``teams`` (cooperative and one-player games) the agent's team alone, on
    the deals the references' teams played. ``seed`` changes only the agents' own seeds, never the deals."""
    if teams:
        tables = [Table(0, "team", (labels[0],) * num_players)]
    else:
        tables = duel_tables(labels, num_players, [(labels[0], reference) for reference in labels[1:]])
    tasks = schedule(tables, games, deal_set_seed(deal_set))
    if seed:
        tasks = [
            dataclasses.replace(task, policy_seeds=tuple(derive_seed(s, seed) for s in task.policy_seeds))
            for task in tasks
        ]
    return tasks


def source_spec(agent: Any) -> str:
    """The agent's spec as given (without ``NAME=``), or the class name of a policy object."""
    if isinstance(agent, str):
        return split_named_spec(agent)[1]
    if isinstance(agent, Path):
        return str(agent)
    return type(agent).__name__


def agent_source(
    spec: GameSpec, num_players: int, agent: Any, name: str | None, references: References, trust: bool
) -> Any:
    """The agent resolved (``resolve_agent``) and labelled: ``name``, else the ``NAME`` of ``NAME=SPEC``, else its
    own label; a label of the ladder is refused."""
    given, agent_spec = split_named_spec(agent) if isinstance(agent, str) else (None, agent)
    source = resolve_agent(spec, num_players, agent_spec, references.options, trust_checkpoints=trust)
    label = name or given or source.label
    if label in references.ladder:
        shown = agent_spec if isinstance(agent_spec, str) else "..."
        raise BenchmarkError(
            f"{spec.name}: the agent's name {label!r} is a reference's; give it another: --agent NAME={shown} "
            f"(or name=... in Python)"
        )
    return dataclasses.replace(source, label=label)


def benchmark(
    agent: Any,
    *,
    game: str,
    players: int | None = None,
    games: int = DEFAULT_GAMES,
    seed: int = 0,
    name: str | None = None,
    deal_set: str = DEFAULT_DEAL_SET,
    workers: int | None = 1,
    progress: bool | None = None,
    trust_checkpoints: bool = False,
    bootstrap: int = 1000,
    references_dir: str | Path | None = None,
) -> BenchmarkResult:
    """``agent`` against the reference ladder of ``game`` (see the module docstring).

    ``agent``: an agent spec (``"greedy:version=1"``, a checkpoint path, ``"NAME=SPEC"``) or a ``Policy``;
    ``name`` labels it in the tables. ``games``: games against each reference, rounded up to whole seat
    rotations. ``workers``: parallel processes (0: one per CPU core).
    """
    spec = game_spec(game)
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise InvalidOptionError(f"games must be a positive integer (games against each reference), got {games!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise InvalidOptionError(f"seed must be a non-negative integer, got {seed!r}")
    if deal_set not in DEAL_SETS:
        raise BenchmarkError(f"unknown deal set {deal_set!r}; published deal sets: {', '.join(DEAL_SETS)}")
    num_players = spec.game_class()(num_players=players, seed=0).num_players
    references = load_references(spec.name, num_players, references_dir)
    if references.deal_set != deal_set:
        raise BenchmarkError(
            f"{spec.name}: the stored references were played on deal set {references.deal_set!r}, not {deal_set!r}"
        )
    source = agent_source(spec, num_players, agent, name, references, trust_checkpoints)
    teams = plays_as_teams(spec, num_players)
    if teams and games > references.games_per_pair:
        raise BenchmarkError(
            f"{spec.name}: at most {references.games_per_pair} games with {num_players} player(s): the agent's team "
            f"is compared deal by deal with the references' teams, stored for deals 0-{references.games_per_pair - 1}"
        )
    opponents = [] if teams else [resolve_agent(spec, num_players, r, references.options) for r in references.ladder]
    label = source.label
    tasks = benchmark_schedule([label, *references.ladder], num_players, games, deal_set, seed, teams=teams)
    results = play_games(
        spec,
        num_players,
        references.options,
        sources=[source, *opponents],
        tasks=tasks,
        workers=workers,
        progress=progress,
    )
    compare = compare_teams if teams else compare_duels
    outcomes = compare(label, references, results)
    duels, rating = rate(label, references, outcomes, played=len(results), bootstrap=bootstrap, seed=seed)
    return BenchmarkResult(
        agent=source.label,
        agent_spec=source_spec(agent),
        game=spec.name,
        env_id=references.env_id,
        game_version=references.game_version,
        num_players=num_players,
        deal_set=deal_set,
        games_per_reference=duels[0].games,  # rounded up to whole seat rotations
        total_games=len(results),
        seed=seed,
        rating=rating,
        ladder=references.ratings,
        duels=duels,
        fiesta_envs_version=__version__,
        team_play=teams,
    )


#: One game's result against one reference: (reference, deal, pairwise credits, seat outcome as in
#: ``evaluate.seat_outcome``: win credit, shared first place, score, margin).
Outcome = tuple[str, int, list[float], tuple[float, bool, float, float]]


def compare_duels(label: str, references: References, results: Sequence[GameResult]) -> list[Outcome]:
    """Duels: the agent's seat against every seat of the reference (each pair of seats one pairwise result)."""
    outcomes = []
    for result in results:
        seat = result.seats.index(label)
        reference = next(s for s in result.seats if s != label)
        credits = [pairwise_credit(result, seat, other) for other in range(len(result.seats)) if other != seat]
        outcomes.append((reference, result.deal, credits, seat_outcome(result, seat)))
    return outcomes


def compare_teams(label: str, references: References, results: Sequence[GameResult]) -> list[Outcome]:
    """Teams: the agent's team result on a deal against each reference team's stored result on that deal."""
    stored = {(game["seats"][0], game["deal"]): sum(game["scores"]) / len(game["scores"]) for game in references.games}
    outcomes = []
    for result in results:
        mine = team_score(result)
        for reference in references.ladder:
            theirs = stored[(reference, result.deal)]
            credit = 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
            outcomes.append((reference, result.deal, [credit], (credit, mine == theirs, mine, mine - theirs)))
    return outcomes


def rate(
    label: str, references: References, outcomes: Sequence[Outcome], *, played: int, bootstrap: int, seed: int
) -> tuple[list[MatchResult], Rating]:
    """The agent's duel against each reference and its rating against the ladder's fixed ratings (``played``: the
    games the agent played)."""
    index = {reference: i for i, reference in enumerate(references.ladder)}
    by_reference: dict[str, list] = {reference: [] for reference in references.ladder}
    pairwise = []
    for reference, deal, credits, outcome in outcomes:
        by_reference[reference].append(outcome)
        pairwise += [(deal, index[reference], credit) for credit in credits]
    duels = [match_result(label, reference, by_reference[reference]) for reference in references.ladder]
    ladder = [references.rating_of[reference] for reference in references.ladder]
    point, low, high = rate_against_ladder(pairwise, ladder, bootstrap=bootstrap, seed=seed)
    return duels, Rating(label, point, low, high, played)


def save_result(result: BenchmarkResult, path: str | Path) -> Path:
    """Write the result as JSON (atomically); ``BenchmarkResult.from_json`` reads it back."""
    path = Path(path)
    write_atomically(path, json.dumps(result.to_json(), indent=2) + "\n")
    return path


# ---------------------------------------------------------------------- command line
EPILOG = """\
examples:
  fiesta benchmark --game fiesta_mexicana --players 2 --agent mine=runs/fm
  fiesta benchmark --game tortilla_de_patatas --players 2 --agent old=careful:version=1 --games 20

The agent plays a duel against every agent of the game's reference ladder (random, each version of the
scripted baseline, search, the shipped agents), seats rotated, on the first deals of a published deal set;
the ladder's own games are stored in the package. Cooperative and one-player games: the agent's team is
compared deal by deal with each reference's team. Prints the agent's Bradley-Terry rating on the ladder's
scale (random = 0) with its 95% interval, each duel, and one line to cite.
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.epilog = EPILOG
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument("--game", required=True, help="game name, e.g. fiesta_mexicana")
    parser.add_argument("--players", type=int, default=None, help="number of players (default: the game's)")
    parser.add_argument(
        "--agent",
        required=True,
        help="the agent: NAME=SPEC names it NAME in the tables; SPEC as in fiesta evaluate (a baseline with options "
        "such as greedy:version=1, a checkpoint path...)",
    )
    parser.add_argument(
        "--games",
        type=int,
        default=DEFAULT_GAMES,
        help=f"games against each reference, rounded up to whole seat rotations (default {DEFAULT_GAMES})",
    )
    parser.add_argument(
        "--seed", type=int, default=0, help="seed of the agents' own random choices; the deals stay (default 0)"
    )
    parser.add_argument("--deal-set", default=DEFAULT_DEAL_SET, help=f"published deal set (default {DEFAULT_DEAL_SET})")
    parser.add_argument("--workers", type=int, default=0, help="parallel processes (default 0: one per CPU core)")
    parser.add_argument("--out", default=None, help="also save the result as JSON in this file")
    add_trust_argument(parser)


def run(args: argparse.Namespace) -> int:
    try:
        if args.games < 1:
            raise InvalidOptionError(f"--games must be at least 1 (games against each reference), got {args.games}")
        if args.seed < 0:
            raise InvalidOptionError(f"--seed must be non-negative, got {args.seed}")
        if args.workers < 0:
            raise InvalidOptionError(f"--workers must be non-negative (0: one per CPU core), got {args.workers}")
        result = benchmark(
            args.agent,
            game=args.game,
            players=args.players,
            games=args.games,
            seed=args.seed,
            deal_set=args.deal_set,
            workers=args.workers,
            trust_checkpoints=args.trust_checkpoint,
        )
    except (FiestaError, ValueError) as error:
        print(f"fiesta benchmark: error: {error}", file=sys.stderr)
        return 2
    print(result.table(), end="")
    if args.out:
        print(f"saved: {save_result(result, args.out)}")
    return 0
