"""fiesta_envs: four published board games as reinforcement-learning environments.

``import fiesta_envs`` registers every game with Gymnasium (one seat against scripted or
frozen opponents) and with PettingZoo's registry (every seat)::

    import gymnasium, pettingzoo, fiesta_envs
    env = gymnasium.make("fiesta_envs/FiestaMexicana-v1", num_players=2, opponents="greedy")
    aec = pettingzoo.make("aec", "fiesta_envs/FiestaMexicana-v1", num_players=3)

or use the public modules directly: ``fiesta_envs.fiesta_mexicana_v1.env(num_players=3)``.
Importing stays light: numpy, gymnasium and pettingzoo only (no torch).
"""

from fiesta_envs.core.errors import (
    FiestaError,
    IllegalActionError,
    InvalidOptionError,
    InvalidStateError,
)
from fiesta_envs.registry import GAMES, game_spec, make_aec_env, make_gym_env, register_environments

__version__ = "0.2.0"

__all__ = [
    "GAMES",
    "FiestaError",
    "IllegalActionError",
    "InvalidOptionError",
    "InvalidStateError",
    "__version__",
    "game_spec",
    "make_aec_env",
    "make_gym_env",
]

register_environments()
