"""The AEC environment's own bookkeeping as JSON-safe data, saved beside the engine's state dict.

The engine's ``state_dict()`` is the position. A PettingZoo environment also keeps what the AEC loop
has done with it: which agents are still in the loop (each finished agent leaves at its ``None``
step), which one is selected, the rewards not yet collected through ``last()``. Saving the position
alone cannot restore the end of a game exactly, so the environment's ``state_dict()`` is::

    {"game": <Game.state_dict()>,
     "aec": {"agents": ["player_1", ...],          # still in the loop, in seat order
             "agent_selection": "player_1",        # the agent ``step`` applies to
             "skip_agent_selection": null,         # PettingZoo's bookmark during the None steps
             "rewards": {agent: float}, "cumulative_rewards": {agent: float},
             "terminations": {agent: bool}, "truncations": {agent: bool},
             "illegal_action": null}}              # or {"agent": offender, "message": why}

``infos`` are not saved: they follow from the game and ``illegal_action`` (``envs/infos.py``). Every
field is checked on loading, alone and against the game (a game in play has every agent in the loop
and its seat to act selected), and a bad one raises ``InvalidStateError`` naming it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from fiesta_envs.core.game import Game
from fiesta_envs.core.state_fields import FieldReader

BOOKKEEPING_KEY = "aec"


@dataclass
class AECBookkeeping:
    """What the AEC loop keeps beside the game (see the module docstring)."""

    agents: list[str]
    agent_selection: str
    skip_agent_selection: str | None
    rewards: dict[str, float]
    cumulative_rewards: dict[str, float]
    terminations: dict[str, bool]
    truncations: dict[str, bool]
    illegal_action: dict[str, str] | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "agents": list(self.agents),
            "agent_selection": self.agent_selection,
            "skip_agent_selection": self.skip_agent_selection,
            "rewards": {agent: float(value) for agent, value in self.rewards.items()},
            "cumulative_rewards": {agent: float(value) for agent, value in self.cumulative_rewards.items()},
            "terminations": {agent: bool(value) for agent, value in self.terminations.items()},
            "truncations": {agent: bool(value) for agent, value in self.truncations.items()},
            "illegal_action": None if self.illegal_action is None else dict(self.illegal_action),
        }

    @classmethod
    def from_dict(cls, data: Any, game: Game, possible_agents: list[str]) -> AECBookkeeping:
        """Read and check ``data`` against ``game`` (already loaded); ``InvalidStateError`` names the field."""
        read = FieldReader(data, game.name, BOOKKEEPING_KEY)
        read.refuse_unknown_keys([field.name for field in dataclasses.fields(cls)])
        agents = read.list("agents")
        read.problem_if(
            not all(isinstance(agent, str) for agent in agents)
            or [agent for agent in possible_agents if agent in agents] != agents,
            f"'aec.agents' must list agents of {possible_agents} in that order without repeats, got {agents!r:.80}",
        )
        agent_selection = read.choice("agent_selection", possible_agents)
        skip = read.raw("skip_agent_selection")
        if skip is not None:
            skip = read.choice("skip_agent_selection", possible_agents)
        per_agent: dict[str, Any] = {}
        for key in ("rewards", "cumulative_rewards", "terminations", "truncations"):
            part = read.part(key)
            read.problem_if(sorted(part.data) != sorted(agents), f"'aec.{key}' must have exactly the keys {agents}")
            is_flag = key in ("terminations", "truncations")
            per_agent[key] = {agent: part.bool(agent) if is_flag else part.number(agent) for agent in agents}
        illegal = read.raw("illegal_action")
        if illegal is not None:
            offence = read.part("illegal_action")
            offence.refuse_unknown_keys(["agent", "message"])
            illegal = {"agent": offence.choice("agent", possible_agents), "message": offence.str("message")}
        read.problem_if(
            any(per_agent["truncations"].values()), "'aec.truncations': these environments never truncate a game"
        )
        ended = illegal is not None or game.is_over
        if ended:
            read.problem_if(
                not all(per_agent["terminations"].values()),
                "'aec.terminations': every agent left in a finished game is terminated",
            )
        else:
            expected = possible_agents[game.current_player]
            read.problem_if(agents != possible_agents, "'aec.agents': a game in play keeps every agent in the loop")
            read.problem_if(
                any(per_agent["terminations"].values()), "'aec.terminations': no agent is terminated in a game in play"
            )
            read.problem_if(
                agent_selection != expected,
                f"'aec.agent_selection' is {agent_selection!r} but the game waits for {expected!r}",
            )
            read.problem_if(skip is not None, "'aec.skip_agent_selection' is only set during the end-of-game steps")
        return cls(agents, agent_selection, skip, illegal_action=illegal, **per_agent)


def is_env_state_dict(data: Any) -> bool:
    """True for an environment's state dict (its ``game`` is a mapping), False for a bare engine state dict
    (whose ``game`` is the game's name)."""
    return isinstance(data, Mapping) and (BOOKKEEPING_KEY in data or isinstance(data.get("game"), Mapping))
