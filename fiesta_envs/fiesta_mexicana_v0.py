"""Replaced by ``fiesta_envs.fiesta_mexicana_v1`` (its observation changed; see its version history)."""

raise ImportError(
    "fiesta_envs.fiesta_mexicana_v0 was replaced by fiesta_envs.fiesta_mexicana_v1 "
    "(id fiesta_envs/FiestaMexicana-v1): its observation shows what v0 left out; see its version history"
)
