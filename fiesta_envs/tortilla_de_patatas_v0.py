"""Retired: Tortilla de Patatas is now ``fiesta_envs.tortilla_de_patatas_v1`` (id
``fiesta_envs/TortillaDePatatas-v1``): its ``observation`` mode shows what happened between two decisions."""

from fiesta_envs.envs.retired import retired_env_functions

env, raw_env, parallel_env = retired_env_functions(
    "tortilla_de_patatas_v0",
    "tortilla_de_patatas_v1",
    "fiesta_envs/TortillaDePatatas-v1",
    "its 'observation' mode shows what happened between two decisions",
)
