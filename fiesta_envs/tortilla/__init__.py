"""Tortilla de Patatas: components (data), recipe checks, the rules engine, encoders, baselines."""
