"""Retired: La Catrina is now ``fiesta_envs.la_catrina_v1`` (id ``fiesta_envs/LaCatrina-v1``): its
observation gives every word and character an identity code."""

from fiesta_envs.envs.retired import retired_env_functions

env, raw_env, parallel_env = retired_env_functions(
    "la_catrina_v0",
    "la_catrina_v1",
    "fiesta_envs/LaCatrina-v1",
    "the observation gives every word and character an identity code",
)
