"""Retired: Tequila is now ``fiesta_envs.tequila_v2`` (id ``fiesta_envs/Tequila-v2``): its rounds are
simultaneous as printed, its observation shows every public part of every sheet, and its prestige values are
1.5 times the first ones."""

from fiesta_envs.envs.retired import retired_env_functions

env, raw_env, parallel_env = retired_env_functions(
    "tequila_v0",
    "tequila_v2",
    "fiesta_envs/Tequila-v2",
    "the rounds are simultaneous as printed, every public part of every sheet is observed, "
    "and the prestige values are 1.5 times the first ones",
)
