"""Naming the agents that sit at a web table, the same way ``fiesta evaluate`` and ``fiesta play`` do.

An agent is a baseline name (``random``, ``greedy``...), a shipped agent (``ppo``) or a checkpoint
directory (``LABEL=PATH`` allowed); the evaluation layer checks it against the game, the player
count and the options before any game starts (``fiesta_envs.agents.registry.seat_agents`` seats them).
"""

from __future__ import annotations

from typing import Any

from fiesta_envs.registry import GameSpec


def agent_choices(spec: GameSpec) -> list[str]:
    """The agents of ``spec`` that can be named without a path (baselines and shipped agents)."""
    from fiesta_envs.agents.registry import agent_names

    return agent_names(spec)


def parse_options(text: str) -> dict[str, Any]:
    """Game options typed as ``key=value`` pairs separated by commas or spaces (``menu=kids``)."""
    from fiesta_envs.core.options import parse_option

    return dict(parse_option(item) for item in text.replace(",", " ").split())
