"""Retired: Fiesta de los Muertos is now ``fiesta_envs.fiesta_de_los_muertos_v1`` (id
``fiesta_envs/FiestaDeLosMuertos-v1``): its observation gives every word and character an identity code."""

from fiesta_envs.envs.retired import retired_env_functions

env, raw_env, parallel_env = retired_env_functions(
    "fiesta_de_los_muertos_v0",
    "fiesta_de_los_muertos_v1",
    "fiesta_envs/FiestaDeLosMuertos-v1",
    "the observation gives every word and character an identity code",
)
