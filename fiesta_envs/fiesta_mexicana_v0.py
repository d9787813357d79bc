"""Retired: Fiesta Mexicana is now ``fiesta_envs.fiesta_mexicana_v1`` (id ``fiesta_envs/FiestaMexicana-v1``):
its observation shows what v0 left out (who bid what, both start cards, the objective hands shown)."""

from fiesta_envs.envs.retired import retired_env_functions

env, raw_env, parallel_env = retired_env_functions(
    "fiesta_mexicana_v0",
    "fiesta_mexicana_v1",
    "fiesta_envs/FiestaMexicana-v1",
    "its observation shows who bid what, both start cards and the objective hands shown at setup",
)
