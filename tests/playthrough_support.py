"""Golden playthroughs: one seeded random game per configuration, written as readable text.

Each file under ``tests/playthroughs/`` records, step by step, the seat to act, its legal actions by name,
the observation blocks (``observation_views``) of every seat that changed since that seat's previous observation,
the action played and the scores, then the final returns. A seat's first observation lists all its blocks. A block
of at most ``VALUES_SHOWN`` numbers is printed in full, a larger one as its count of non-zero entries and a short
digest. A change in rules, masks or observations shows up as a diff that names the step, the seat and the block
(``tests/test_playthroughs.py``).
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
#: Observation blocks of at most this many numbers are printed in full; larger ones as non-zeros and a digest.
VALUES_SHOWN = 12
#: Hex characters of a large observation block's digest.
BLOCK_DIGEST = 8


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


def _block_text(block: np.ndarray) -> str:
    """A block's numbers (a small block) or its count of non-zero entries and digest (a large one)."""
    if block.size <= VALUES_SHOWN:
        return _numbers(block)
    return f"{np.count_nonzero(block)}/{block.size} non-zero #{_digest(block.tobytes())[:BLOCK_DIGEST]}"


class ObservationLog:
    """Every seat's observation blocks as last printed: ``lines`` names the blocks that changed since."""

    def __init__(self, game: Any) -> None:
        self.game = game
        self.seen: dict[int, dict[str, bytes]] = {}

    def lines(self) -> list[str]:
        """``  obs <seat> <block>: <text>`` for each block of each seat that differs from the seat's previous
        observation (every block of a seat not observed before)."""
        lines = []
        for seat in range(self.game.num_players):
            previous = self.seen.get(seat, {})
            current = {}
            for name, view in self.game.observation_views(self.game.observe(seat)).items():
                block = np.ascontiguousarray(view, dtype=np.float32).ravel()
                current[name] = block.tobytes()
                if previous.get(name) != current[name]:
                    lines.append(f"  obs {seat} {name}: {_block_text(block)}")
            self.seen[seat] = current
        return lines


def playthrough(game_name: str, num_players: int, options: dict[str, Any], seed: int = SEED) -> str:
    """The text of one seeded random game (the engine's generator and a separate one for the moves)."""
    game = GAMES[game_name].game_class()(num_players=num_players, seed=seed, **options)
    moves = np.random.default_rng(seed + 1)
    lines = [
        f"# {game_name}, {num_players} players, options {json.dumps(options, sort_keys=True)}, seed {seed}",
        "# regenerate: python scripts/make_playthroughs.py",
    ]
    observations = ObservationLog(game)
    step = 0
    while not game.is_over:
        seat = game.current_player
        mask = game.legal_mask()
        legal = np.flatnonzero(mask)
        names = [game.action_to_string(int(i)) for i in legal]
        action = int(legal[int(moves.integers(len(legal)))])
        lines.append(f"step {step} seat {seat}")
        lines.append(f"  legal: {_legal_text(names, mask)}")
        lines.extend(observations.lines())
        lines.append(f"  action: {game.action_to_string(action)}")
        game.step(action)
        lines.append(f"  scores: {_numbers(game.scores())}")
        step += 1
    lines.append(f"end after {step} steps")
    lines.extend(observations.lines())
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
