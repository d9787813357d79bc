"""Naming the agents that sit at a web table, the same way ``fiesta evaluate`` and ``fiesta play`` do.

An agent is a baseline name (``random``, ``greedy``...), a shipped agent (``ppo``) or a checkpoint
directory (``LABEL=PATH`` allowed); the evaluation layer checks it against the game, the player
count and the options before any game starts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from fiesta_envs.core.errors import InvalidOptionError
from fiesta_envs.core.policy import Policy
from fiesta_envs.registry import GameSpec


def agent_choices(spec: GameSpec) -> list[str]:
    """The agents of ``spec`` that can be named without a path (baselines and shipped agents)."""
    from fiesta_envs.evaluation.agents import agent_names

    return agent_names(spec)


def make_agents(
    spec: GameSpec,
    num_players: int,
    seats: Sequence[int],
    names: Sequence[str],
    options: Mapping[str, Any],
    seed: int | None,
) -> dict[int, tuple[str, Policy]]:
    """A labelled policy for every seat in ``seats``: one name per seat, or one name for all of them."""
    from fiesta_envs.evaluation.agents import resolve_agent

    wanted = [name.strip() for name in names if name.strip()] or ["random"]
    if len(wanted) == 1:
        wanted = wanted * len(seats)
    if len(wanted) != len(seats):
        raise InvalidOptionError(
            f"{spec.name}: {len(wanted)} agents named for {len(seats)} seats; name one per seat or one for all"
        )
    agents = {}
    for seat, name in zip(seats, wanted, strict=True):
        source = resolve_agent(spec, num_players, name, options)
        policy = source.make(spec, num_players, seed=None if seed is None else seed * 1000 + seat)
        policy.start_episode(None if seed is None else seed * 1000 + seat)
        agents[seat] = (source.label, policy)
    return agents


def parse_options(text: str) -> dict[str, Any]:
    """Game options typed as ``key=value`` pairs separated by commas or spaces (``menu=kids``)."""
    from fiesta_envs.core.options import parse_option

    return dict(parse_option(item) for item in text.replace(",", " ").split())
