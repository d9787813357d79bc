"""Retired: Tequila is now ``fiesta_envs.tequila_v2`` (id ``fiesta_envs/Tequila-v2``): its prestige values
are 1.5 times the first ones, so the same play scores more (and the margin reward moves with it)."""

from fiesta_envs.envs.retired import retired_env_functions

env, raw_env, parallel_env = retired_env_functions(
    "tequila_v1",
    "tequila_v2",
    "fiesta_envs/Tequila-v2",
    "the prestige values are 1.5 times the first ones: the same play scores more",
)
