"""The training layer, installed as ``fiesta_envs.training`` (needs the ``train`` extra).

config (schema) · train · pretrain · league · checkpoint (writing) · shaping · tune · export · progress.
The folder is the repository's top-level ``training/``; ``fiesta_envs/training`` links to it, so it is
imported as ``fiesta_envs.training`` from a checkout and from an installed wheel alike (the wheel holds
no top-level ``training`` module).
"""
