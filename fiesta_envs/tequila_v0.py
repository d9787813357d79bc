"""Retired: Tequila is now ``fiesta_envs.tequila_v1`` (id ``fiesta_envs/Tequila-v1``): its rounds are
simultaneous as printed and its observation shows every public part of every sheet."""

from fiesta_envs.core.retired import retired_env_functions

env, raw_env, parallel_env = retired_env_functions(
    "tequila_v0",
    "tequila_v1",
    "fiesta_envs/Tequila-v1",
    "the rounds are simultaneous as printed and every public part of every sheet is observed",
)
