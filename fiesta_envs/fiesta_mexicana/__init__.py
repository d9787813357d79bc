"""Fiesta Mexicana: components, rules engine and scripted baselines (documentation:
``fiesta_envs.fiesta_mexicana_v1``)."""
