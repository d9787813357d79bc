"""Golden playthroughs: one seeded random game per configuration, written as readable text.

Each file under ``tests/playthroughs/`` records, step by step, the seat to act, its legal actions by name,
the action played, a digest of every seat's observation and the scores, then the final returns. A change in
rules, masks or observations shows up as a diff that names the step (``tests/test_playthroughs.py``).
Regenerate after an intended change with ``python scripts/make_playthroughs.py`` and read the diff; a changed
playthrough needs a new version of its environment (``tests/playthrough_pins.py``).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import numpy as np

from fiesta_envs.registry import GAMES

DIRECTORY = Path(__file__).parent / "playthroughs"
SEED = 0
#: Up to this many legal actions are listed by name; longer lists show their first names and a digest.
NAMES_SHOWN = 24


def configurations() -> list[tuple[str, int, dict[str, Any]]]:
    """(game, players, options) of every configuration the registry enumerates."""
    return [(spec.name, n, options) for spec in GAMES.values() for n, options in spec.configurations()]


def file_name(game: str, num_players: int, options: dict[str, Any]) -> str:
    suffix = "".join(f"-{key}={value}" for key, value in sorted(options.items()))
    return f"{game}-{num_players}p{suffix}.txt"


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:12]


def _numbers(values: Any) -> str:
    return " ".join(f"{float(v):g}" for v in np.asarray(values).ravel())


def _legal_text(names: list[str], mask: np.ndarray) -> str:
    if len(names) <= NAMES_SHOWN:
        return ", ".join(names)
    shown = ", ".join(names[:NAMES_SHOWN])
    return f"{shown}, ... ({len(names)} legal, mask {_digest(np.asarray(mask, dtype=np.int8).tobytes())})"


def playthrough(game_name: str, num_players: int, options: dict[str, Any], seed: int = SEED) -> str:
    """The text of one seeded random game (the engine's generator and a separate one for the moves)."""
    game = GAMES[game_name].game_class()(num_players=num_players, seed=seed, **options)
    moves = np.random.default_rng(seed + 1)
    lines = [
        f"# {game_name}, {num_players} players, options {json.dumps(options, sort_keys=True)}, seed {seed}",
        "# regenerate: python scripts/make_playthroughs.py",
    ]
    step = 0
    while not game.is_over:
        seat = game.current_player
        mask = game.legal_mask()
        legal = np.flatnonzero(mask)
        names = [game.action_to_string(int(i)) for i in legal]
        action = int(legal[int(moves.integers(len(legal)))])
        digests = " ".join(
            f"{p}:{_digest(np.ascontiguousarray(game.observe(p), dtype=np.float32).tobytes())}"
            for p in range(num_players)
        )
        lines.append(f"step {step} seat {seat}")
        lines.append(f"  legal: {_legal_text(names, mask)}")
        lines.append(f"  observations: {digests}")
        lines.append(f"  action: {game.action_to_string(action)}")
        game.step(action)
        lines.append(f"  scores: {_numbers(game.scores())}")
        step += 1
    digests = " ".join(
        f"{p}:{_digest(np.ascontiguousarray(game.observe(p), dtype=np.float32).tobytes())}" for p in range(num_players)
    )
    lines.append(f"end after {step} steps")
    lines.append(f"  observations: {digests}")
    lines.append(f"  scores: {_numbers(game.scores())}")
    lines.append(f"  returns: {_numbers(game.returns())}")
    return "\n".join(lines) + "\n"


def write_all() -> list[Path]:
    """Write every configuration's playthrough (the regeneration script calls this)."""
    DIRECTORY.mkdir(exist_ok=True)
    written = []
    for game, n, options in configurations():
        path = DIRECTORY / file_name(game, n, options)
        path.write_text(playthrough(game, n, options))
        written.append(path)
    return written
