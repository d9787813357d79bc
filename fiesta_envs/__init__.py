"""fiesta_envs: four published board games as reinforcement-learning environments.

``import fiesta_envs`` registers every game with Gymnasium (one seat against scripted or
frozen opponents) and with PettingZoo's registry (every seat)::

    import gymnasium, pettingzoo, fiesta_envs
    env = gymnasium.make("fiesta_envs/FiestaMexicana-v1", num_players=2, opponents="greedy")
    aec = pettingzoo.make("aec", "fiesta_envs/FiestaMexicana-v1", num_players=3)

or use the public modules directly: ``fiesta_envs.fiesta_mexicana_v1.env(num_players=3)``.
Importing stays light: numpy, gymnasium and pettingzoo only (no torch).
"""

from typing import TYPE_CHECKING, Any

from fiesta_envs import old_import_paths
from fiesta_envs.core.errors import (
    FiestaError,
    IllegalActionError,
    InvalidOptionError,
    InvalidStateError,
)
from fiesta_envs.policies.policy import Policy
from fiesta_envs.registry import GAMES, game_spec, make_aec_env, make_gym_env, register_environments
from fiesta_envs.version import __version__

if TYPE_CHECKING:
    from fiesta_envs.evaluation.benchmark import BenchmarkResult


def benchmark(
    agent: Any, *, game: str, players: int | None = None, games: int | None = None, **kwargs: Any
) -> "BenchmarkResult":
    """``agent`` against the reference ladder of ``game`` on a published deal set; returns a ``BenchmarkResult``
    (``.table()``, ``.ratings``, ``.duels``, ``.to_json()``). See ``fiesta_envs.evaluation.benchmark``."""
    from fiesta_envs.evaluation.benchmark import DEFAULT_GAMES
    from fiesta_envs.evaluation.benchmark import benchmark as run

    return run(agent, game=game, players=players, games=DEFAULT_GAMES if games is None else games, **kwargs)


__all__ = [
    "GAMES",
    "FiestaError",
    "IllegalActionError",
    "InvalidOptionError",
    "InvalidStateError",
    "Policy",
    "__version__",
    "benchmark",
    "game_spec",
    "make_aec_env",
    "make_gym_env",
]

old_import_paths.install()
register_environments()
