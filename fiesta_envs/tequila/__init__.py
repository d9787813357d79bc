"""Tequila, the roll-and-write farm game (the documentation page is ``fiesta_envs.tequila_v2``).

Modules: ``components`` (the sheet, tracks, market, cask tiles, jimadores: data only), ``farm``
(geometry: sections, placements, connections, fences and zones), ``sheet`` (one player's sheet),
``actions`` (the action space and its names), ``game`` (the rules engine ``Tequila``), ``scoring``
(majorities, final score, achievements, solo rank), ``observation`` (with ``layout``, where each
entry sits), ``affordable`` (what a hand of resources can pay for), ``render`` (text) and
``baselines`` (the ``planner``).
"""
