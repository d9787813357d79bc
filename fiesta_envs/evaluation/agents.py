"""Agents for evaluation: the names of ``fiesta_envs.agents.registry``, where every agent spec is resolved.

Kept so that ``from fiesta_envs.evaluation.agents import resolve_agent`` (and the other names below) keeps
working; the spec forms and how they are told apart are described in ``fiesta_envs.agents.registry``.
"""

from __future__ import annotations

from fiesta_envs.agents.registry import (
    AgentError,
    AgentSource,
    add_trust_argument,
    agent_names,
    baseline_classes,
    resolve_agent,
    resolve_agents,
    seat_agents,
    shipped_names,
)

__all__ = [
    "AgentError",
    "AgentSource",
    "add_trust_argument",
    "agent_names",
    "baseline_classes",
    "resolve_agent",
    "resolve_agents",
    "seat_agents",
    "shipped_names",
]
