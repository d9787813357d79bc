"""Game records: every evaluated game as one JSON line that replays exactly.

A record holds what is needed to play the game again through the engine, and what the
game came to::

    {"format": "fiesta_record", "format_version": 1,
     "game": "fiesta_mexicana", "game_version": 0, "num_players": 2, "options": {...},
     "seed": 123456789, "agents": ["greedy", "random"],       # agent by seat
     "actions": ["bid 9", "pass", ...],                       # by name, in order of play
     "scores": [31.0, 24.0], "winners": [0], "steps": 57,
     "tournament": {"index": 17, "table": 3, "deal": 8}}        # where it sat in the schedule

The engine is deterministic given its seed and the actions, so ``replay_record`` rebuilds
the game with ``Game(num_players, seed, **options)``, plays the actions by name and checks
that it ends with the recorded scores. ``read_records`` / ``write_records`` handle files of
records, one per line (``.jsonl``).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from fiesta_envs.core.errors import FiestaError
from fiesta_envs.files.atomic import new_file_beside
from fiesta_envs.registry import GameSpec, game_spec

FORMAT = "fiesta_record"
FORMAT_VERSION = 1
REQUIRED_KEYS = ("game", "num_players", "options", "seed", "actions", "scores")


class RecordError(FiestaError, ValueError):
    """A record that is malformed or does not replay to its recorded result."""


def make_record(
    game: Any,
    seed: int,
    *,
    agents: Sequence[str],
    actions: Sequence[str],
    tournament: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The record of a finished ``game`` started with ``seed``."""
    record: dict[str, Any] = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "game": game.name,
        "game_version": game.version,
        "num_players": game.num_players,
        "options": dict(game.config),
        "seed": int(seed),
        "agents": list(agents),
        "actions": list(actions),
        "scores": [float(s) for s in game.scores()],
        "winners": [int(w) for w in game.winners()],
        "steps": len(actions),
    }
    if tournament is not None:
        record["tournament"] = dict(tournament)
    return record


def replay_record(record: Mapping[str, Any], spec: GameSpec | None = None, check: bool = True) -> list[float]:
    """Replay ``record`` through the engine and return the final scores.

    With ``check`` (the default) a ``RecordError`` is raised unless the game ends exactly when
    the actions run out, with the recorded scores and winners. ``spec`` overrides the registry
    lookup of ``record["game"]`` (for games outside the registry).
    """
    if not isinstance(record, Mapping):
        raise RecordError(f"a record must be a mapping, got {type(record).__name__}")
    missing = [key for key in REQUIRED_KEYS if key not in record]
    if missing:
        raise RecordError(f"malformed record: missing {', '.join(missing)}")
    if record.get("format", FORMAT) != FORMAT:
        raise RecordError(f"not a fiesta game record (format {record.get('format')!r})")
    spec = spec or game_spec(record["game"])
    game_class = spec.game_class()
    if check and "game_version" in record and record["game_version"] != game_class.version:
        raise RecordError(
            f"record of {record['game']} version {record['game_version']}; this engine is version "
            f"{game_class.version} and may play differently"
        )
    game = game_class(num_players=record["num_players"], seed=record["seed"], **dict(record["options"]))
    for step, name in enumerate(record["actions"]):
        if game.is_over:
            raise RecordError(f"the game ended after {step} actions, but the record has {len(record['actions'])}")
        try:
            game.play(name)
        except FiestaError as error:
            raise RecordError(f"action {step} ({name!r}) does not replay: {error}") from error
    scores = [float(s) for s in game.scores()]
    if check:
        if not game.is_over:
            raise RecordError(f"the game is not over after the record's {len(record['actions'])} actions")
        if scores != [float(s) for s in record["scores"]]:
            raise RecordError(f"replayed scores {scores} differ from the recorded {list(record['scores'])}")
        if "winners" in record and game.winners() != list(record["winners"]):
            raise RecordError(f"replayed winners {game.winners()} differ from the recorded {record['winners']}")
    return scores


def read_records(path: str | Path) -> Iterator[dict[str, Any]]:
    """The records of a JSON-lines file, in order (blank lines are skipped)."""
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                yield json.loads(line)
            except json.JSONDecodeError as error:
                raise RecordError(f"{path}:{number}: not a JSON record: {error}") from error


class RecordWriter:
    """Writes records one per line into a temporary file, moved into place by ``close``.

    A run that fails half-way leaves no half-written file under the final name.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._temp = new_file_beside(self.path)
        self._handle = open(self._temp, "w", encoding="utf-8")  # noqa: SIM115 -- closed by close() or abort()
        self.count = 0

    def write(self, record: Mapping[str, Any]) -> None:
        self._handle.write(json.dumps(record, separators=(",", ":")) + "\n")
        self.count += 1

    def close(self) -> None:
        self._handle.close()
        os.replace(self._temp, self.path)

    def abort(self) -> None:
        self._handle.close()
        self._temp.unlink(missing_ok=True)

    def __enter__(self) -> RecordWriter:
        return self

    def __exit__(self, exc_type: Any, exc: Any, traceback: Any) -> None:
        if exc_type is None:
            self.close()
        else:
            self.abort()


def write_records(path: str | Path, records: Iterable[Mapping[str, Any]]) -> int:
    """Write ``records`` atomically as JSON lines; returns how many were written."""
    with RecordWriter(path) as writer:
        for record in records:
            writer.write(record)
    return writer.count
