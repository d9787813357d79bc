"""Replaced by ``fiesta_envs.tortilla_de_patatas_v1`` (its ``observation`` mode changed; see its version history)."""

raise ImportError(
    "fiesta_envs.tortilla_de_patatas_v0 was replaced by fiesta_envs.tortilla_de_patatas_v1 "
    "(id fiesta_envs/TortillaDePatatas-v1): its 'observation' mode shows what happened between two decisions; "
    "see its version history"
)
