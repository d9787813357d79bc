"""Evaluation: tournaments between agents, their statistics, ratings, game records and results.

- ``agents``: agent names (baselines, shipped ``ppo``, checkpoints) resolved to policies
- ``checkpoints``: training checkpoints found, checked and loaded as policies
- ``tournament``: seat-rotated games on shared deals, in parallel processes
- ``stats``: win-rate intervals (Wilson's, allowing for ties), bootstrap means, Bradley–Terry ratings
- ``records``: game records as JSON lines that replay to the same scores
- ``evaluate``: results tables and files, and the ``fiesta evaluate`` command
- ``plots``: rating and learning-curve pictures (matplotlib)
- ``ladder``: the benchmark's reference ladder, published deal sets and the ladder's stored games
- ``benchmark``: one agent against the ladder, and the ``fiesta benchmark`` command

Tournaments need only the environments; checkpoints need the ``train`` extra.
"""
