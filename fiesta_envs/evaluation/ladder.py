"""The benchmark's reference ladder: which agents stand on it, the published deal sets, and the ladder's own
games stored in the package.

* The **ladder** of a game is ``random``, every version of each scripted baseline (``greedy:version=1``,
  ``greedy:version=2``...), the game's search agent at a small budget (``search:budget=2``), and the
  shipped agent ``ppo`` where one plays this player count. Every entry is pinned (versions and budgets written
  out), so a stored ladder keeps its meaning when a default changes.
* A **deal set** is a named, published sequence of deals: ``deals-v1`` gives deal ``d`` the game seed
  ``derive_seed(deal_set_seed("deals-v1"), 0, d)`` (``fiesta_envs.evaluation.tournament.schedule``), the same
  for every table and every agent.
* The ladder's **references** are a round robin of its agents (duels, seats rotated; in cooperative and one-player
  games each agent's team on every deal, teams compared deal by deal) on a deal set, stored as
  ``benchmark_references/<game>-<N>p.json`` next to this module: the games (deal, seats, scores, winners),
  the duels and the Bradley–Terry ratings (``random`` = 0). ``scripts/benchmark_references.py`` makes them;
  ``fiesta benchmark`` only reads them.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from fiesta_envs.core.errors import InvalidOptionError
from fiesta_envs.core.wording import players
from fiesta_envs.evaluation.evaluate import MatchResult, run_tournament
from fiesta_envs.evaluation.stats import Rating
from fiesta_envs.evaluation.tournament import GameResult
from fiesta_envs.files.atomic import write_atomically
from fiesta_envs.policies.policy import VersionedPolicy
from fiesta_envs.registry import GameSpec, game_spec
from fiesta_envs.version import __version__

#: The published deal sets (name -> what it is). A deal set never changes once published; a new one gets a new name.
DEAL_SETS: dict[str, str] = {
    "deals-v1": "game seeds derived from the SHA-256 of the name 'deals-v1', deal 0, 1, 2... in order",
}
DEFAULT_DEAL_SET = "deals-v1"

#: Where the stored references live (inside the package).
REFERENCES_DIR = Path(__file__).resolve().parent / "benchmark_references"

#: Determinisations per decision of the ladder's search agent: a rung above the scripted players, yet cheap
#: enough that a benchmark run's games against it take a few minutes.
LADDER_SEARCH_BUDGET = 2

#: The format of a reference file.
REFERENCES_FORMAT = 1


class BenchmarkError(InvalidOptionError):
    """A benchmark that cannot run: no stored references for the game, an unknown deal set, outdated references."""


def deal_set_seed(deal_set: str) -> int:
    """The tournament seed of a published deal set (the first 60 bits of the SHA-256 of its name)."""
    if deal_set not in DEAL_SETS:
        raise BenchmarkError(f"unknown deal set {deal_set!r}; published deal sets: {', '.join(DEAL_SETS)}")
    return int(hashlib.sha256(deal_set.encode()).hexdigest()[:15], 16)


def ladder_agents(spec: GameSpec, num_players: int, options: Mapping[str, Any] | None = None) -> list[str]:
    """The ladder's agent specs, weakest kind first: random, each baseline version, search, the shipped agents."""
    agents = ["random"]
    for name, policy_class in spec.baseline_classes().items():
        if issubclass(policy_class, VersionedPolicy):
            agents += [f"{name}:version={version}" for version in policy_class.versions]
        else:
            agents.append(name)
    if "search" in spec.agent_classes():
        agents.append(f"search:budget={LADDER_SEARCH_BUDGET}")
    from fiesta_envs.agents.shipped import SHIPPED_NAMES, check_shipped, has_shipped

    for name in SHIPPED_NAMES:
        if has_shipped(spec.name, name):
            try:
                check_shipped(spec.game_class(), num_players, options, name=name)
            except InvalidOptionError:
                continue  # none shipped for this player count or these options
            agents.append(name)
    return agents


def shipped_weights(spec: GameSpec, num_players: int, options: Mapping[str, Any], ladder: list[str]) -> dict[str, str]:
    """The SHA-256 of the weights each shipped agent of the ladder plays with (a retrained agent has others)."""
    from fiesta_envs.agents.shipped import SHIPPED_NAMES, check_shipped

    return {
        name: str(check_shipped(spec.game_class(), num_players, options, name=name).info["sha256"])
        for name in ladder
        if name in SHIPPED_NAMES
    }


# ---------------------------------------------------------------------- the stored references
@dataclass
class References:
    """The ladder's own games on a deal set, their duels and the ladder's ratings."""

    game: str
    env_id: str
    game_version: int
    num_players: int
    options: dict[str, Any]
    deal_set: str
    games_per_pair: int
    ladder: list[str]
    shipped_weights: dict[str, str]  # shipped agent -> SHA-256 of its weights
    ratings: list[Rating]
    duels: list[MatchResult]
    games: list[dict[str, Any]]  # table, deal, seats (labels), scores, winners
    fiesta_envs_version: str
    command: str

    @property
    def rating_of(self) -> dict[str, float]:
        return {r.agent: r.rating for r in self.ratings}

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        return {"format": REFERENCES_FORMAT, **data}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> References:
        data = dict(data)
        if data.pop("format", None) != REFERENCES_FORMAT:
            raise BenchmarkError(f"benchmark references: format {REFERENCES_FORMAT} expected")
        data["ratings"] = [Rating(**r) for r in data["ratings"]]
        data["duels"] = [MatchResult(**m) for m in data["duels"]]
        return cls(**data)


def references_name(game: str, num_players: int) -> str:
    return f"{game}-{num_players}p.json"


def stored_references(directory: str | Path | None = None) -> list[tuple[str, int]]:
    """(game, player count) of every stored reference file, sorted."""
    found = []
    for path in Path(directory or REFERENCES_DIR).glob("*-*p.json"):
        game, _, count = path.stem.rpartition("-")
        found.append((game, int(count[:-1])))
    return sorted(found)


def load_references(game: str, num_players: int, directory: str | Path | None = None) -> References:
    """The stored references of ``game`` at ``num_players``; ``BenchmarkError`` naming the stored ones if none."""
    spec = game_spec(game)
    path = Path(directory or REFERENCES_DIR) / references_name(spec.name, num_players)
    if not path.is_file():
        stored = ", ".join(f"{g} with {players(n)}" for g, n in stored_references(directory)) or "none"
        raise BenchmarkError(
            f"{spec.name}: no benchmark references for {players(num_players)}; the benchmark covers: {stored}"
        )
    references = References.from_json(json.loads(path.read_text()))
    version = spec.game_class().version
    if references.game_version != version:
        raise BenchmarkError(
            f"{spec.name}: the stored benchmark references were played on engine version "
            f"{references.game_version}, this is version {version}; make them again with "
            f"scripts/benchmark_references.py --game {spec.name} --players {num_players}"
        )
    weights = shipped_weights(spec, num_players, references.options, references.ladder)
    changed = sorted(name for name in weights if weights[name] != references.shipped_weights.get(name))
    if changed:
        raise BenchmarkError(
            f"{spec.name}: the shipped agent {changed[0]!r} has other weights than when the benchmark references "
            f"were made; make them again with scripts/benchmark_references.py --game {spec.name} "
            f"--players {num_players}"
        )
    return references


def make_references(
    game: str,
    num_players: int,
    *,
    games_per_pair: int,
    deal_set: str = DEFAULT_DEAL_SET,
    workers: int | None = 1,
    progress: bool | None = None,
) -> References:
    """Play the ladder's round robin on ``deal_set`` (``run_tournament`` without mixed tables: duels with seats
    rotated, or teams compared deal by deal) and rate it (random = 0)."""
    spec = game_spec(game)
    probe = spec.game_class()(num_players=num_players, seed=0)
    ladder = ladder_agents(spec, probe.num_players, probe.config)
    evaluation = run_tournament(
        spec.name,
        probe.num_players,
        ladder,
        games_per_table=games_per_pair,
        seed=deal_set_seed(deal_set),
        mixed=False,
        workers=workers,
        progress=progress,
    )
    return References(
        game=spec.name,
        env_id=spec.gym_id,
        game_version=int(spec.game_class().version),
        num_players=probe.num_players,
        options=dict(probe.config),
        deal_set=deal_set,
        games_per_pair=games_per_pair,
        ladder=ladder,
        shipped_weights=shipped_weights(spec, probe.num_players, probe.config, ladder),
        ratings=evaluation.ratings,
        duels=evaluation.matches,
        games=[stored_game(result) for result in evaluation.games],
        fiesta_envs_version=__version__,
        command=(
            f"python scripts/benchmark_references.py --game {spec.name} --players {probe.num_players} "
            f"--games {games_per_pair} --deal-set {deal_set}"
        ),
    )


def stored_game(result: GameResult) -> dict[str, Any]:
    """What a reference file keeps of a game: enough to recount its duels and ratings."""
    return {
        "table": result.table,
        "deal": result.deal,
        "seats": list(result.seats),
        "scores": list(result.scores),
        "winners": list(result.winners),
    }


def save_references(references: References, directory: str | Path | None = None) -> Path:
    """Write ``<game>-<N>p.json`` into ``directory`` (the package's folder by default); returns its path."""
    path = Path(directory or REFERENCES_DIR) / references_name(references.game, references.num_players)
    path.parent.mkdir(parents=True, exist_ok=True)
    data = references.to_json()
    games = data.pop("games")
    head = json.dumps(data, indent=1)[:-2]  # without the closing brace: the games follow, one a line
    lines = ",\n".join("  " + json.dumps(game) for game in games)
    write_atomically(path, f'{head},\n "games": [\n{lines}\n ]\n}}\n')
    return path
