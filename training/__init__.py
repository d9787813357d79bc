"""The training layer, installed as ``fiesta_envs.training`` (needs the ``train`` extra).

config (schema) · train (the command) · trainer (the loop) · backend, sb3_backend, rllib_backend · envs ·
pretrain · league · checkpoint (writing) · shaping · tune · export · progress.
The folder is the repository's top-level ``training/``; pyproject.toml's package-dir installs it as
``fiesta_envs.training`` (an editable install as well as a wheel; no top-level ``training`` module).
"""
