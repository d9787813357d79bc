"""A game as RLlib sees it: a multi-agent environment whose agents are *roles*, not seats.

RLlib's multi-agent API maps every agent to an RLModule with a ``policy_mapping_fn`` that sees only the
agent's id. So the agent ids say who plays, and the environment deals the roles to the seats afresh each game:

* competitive games (and ``team_play: frozen``): ``learner`` sits at a random seat; every other seat draws, by
  the config's weights, a scripted baseline (played here, inside the environment: baselines read the engine,
  which RLlib's modules never see) or a frozen copy of the learner, exposed as the agent ``opponent_k``
  (``k`` = 1 .. players-1) that ``module_for_agent`` maps to one of the frozen modules of the pool;
* cooperative games with ``team_play: shared``: every seat is an agent ``player_i`` and all of them map to
  the learner (one network, every decision a training sample).

Each agent's observation is ``{"observations": float32 vector, "action_mask": int8 0/1}`` (the names of RLlib's
action-masking examples) and is given only to the agent whose turn it is. Rewards are 0 until the game ends
(given to every agent seen so far, as RLlib requires); then every agent that has played gets its seat's
``Game.returns()`` and the episode ends for all.

``RoleDealtGame`` holds all of this with no Ray import (the default test suite checks it); ``make_rllib_env``
builds the ``MultiAgentEnv`` subclass RLlib registers, which only adds RLlib's base class.
"""

from __future__ import annotations

import zlib
from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces

from fiesta_envs.core.errors import InvalidOptionError
from fiesta_envs.policies.policy import Policy

LEARNER = "learner"
LEARNER_MODULE = "learner"
OPPONENT_PREFIX = "opponent_"
SHARED_PREFIX = "player_"
FROZEN_MODULE_PREFIX = "frozen_"
SELF_PLAY = "self"  # the role a seat draws to be played by a frozen copy of the learner
OBSERVATIONS, ACTION_MASK = "observations", "action_mask"


def frozen_module_ids(pool_size: int) -> list[str]:
    """The module ids of the pool of frozen copies: ``frozen_0 .. frozen_{pool_size-1}``."""
    return [f"{FROZEN_MODULE_PREFIX}{i}" for i in range(pool_size)]


def module_for_agent(agent_id: str, episode: Any = None, pool_size: int = 1, **_: Any) -> str:
    """RLlib's ``policy_mapping_fn``: the learner and shared seats train ``learner``; an ``opponent_k`` plays
    one of the frozen modules, chosen per game and agent from the episode id (the same all game long)."""
    if agent_id == LEARNER or agent_id.startswith(SHARED_PREFIX):
        return LEARNER_MODULE
    if not agent_id.startswith(OPPONENT_PREFIX):
        raise ValueError(f"unknown agent id {agent_id!r}: expected {LEARNER!r}, {OPPONENT_PREFIX}K or {SHARED_PREFIX}K")
    key = f"{getattr(episode, 'id_', '')}:{agent_id}".encode()
    return f"{FROZEN_MODULE_PREFIX}{zlib.crc32(key) % pool_size}"


class RoleDealtGame:
    """One game whose seats are dealt to roles every reset (see the module docstring).

    ``config`` keys: ``game``, ``num_players``, ``options`` (the game's), ``baselines`` ({name: weight}),
    ``self_play_weight``, ``shared`` (every seat is the learner). ``reset``/``step`` follow RLlib's
    ``MultiAgentEnv`` (dicts keyed by agent id, ``"__all__"`` in the termination dicts).
    """

    def __init__(self, config: Mapping[str, Any]) -> None:
        from fiesta_envs.registry import game_spec, make_policy

        unknown = set(config) - {"game", "num_players", "options", "baselines", "self_play_weight", "shared"}
        if unknown:
            raise InvalidOptionError(f"RoleDealtGame: unknown config keys {sorted(unknown)}")
        spec = game_spec(config["game"])
        self.game = spec.game_class()(num_players=config.get("num_players"), **dict(config.get("options") or {}))
        self.shared = bool(config.get("shared", False))
        n = self.game.num_players
        weights = {**dict(config.get("baselines") or {}), SELF_PLAY: float(config.get("self_play_weight", 0.0))}
        self.roles = [name for name, weight in weights.items() if weight > 0]
        total = sum(weights[name] for name in self.roles)
        if n > 1 and not self.shared and total <= 0:
            raise InvalidOptionError("RoleDealtGame: the weights of the baselines and self-play are all 0")
        self.role_weights = np.array([weights[name] / total for name in self.roles]) if total > 0 else np.zeros(0)
        self.baselines: dict[str, Policy] = {
            name: make_policy(spec.name, name) for name in self.roles if name != SELF_PLAY
        }
        if self.shared:
            self.possible_agents = [f"{SHARED_PREFIX}{i}" for i in range(n)]
        else:
            self.possible_agents = [LEARNER, *(f"{OPPONENT_PREFIX}{k}" for k in range(1, n))]
        low, high = self.game.observation_bounds()
        observation_space = spaces.Dict(
            {
                OBSERVATIONS: spaces.Box(low, high, shape=(self.game.observation_size,), dtype=np.float32),
                ACTION_MASK: spaces.Box(0, 1, shape=(self.game.num_actions,), dtype=np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, observation_space)
        self.action_spaces = {agent: spaces.Discrete(self.game.num_actions) for agent in self.possible_agents}
        self.agents: list[str] = []
        self.rng = np.random.default_rng()
        self.agent_at_seat: list[str | None] = []  # None: a scripted baseline plays that seat
        self.baseline_at_seat: list[str | None] = []
        self.has_played: set[str] = set()

    # ------------------------------------------------------------------ the loop
    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
        if seed is not None:
            self.rng = np.random.default_rng(seed)
        self.game.reset(int(self.rng.integers(2**31)))
        self._deal_roles()
        self.has_played = set()
        for seat, name in enumerate(self.baseline_at_seat):
            if name is not None:
                self.baselines[name].start_episode(int(self.rng.integers(2**31)) + seat)
        self._play_baselines()
        if self.game.is_over:  # cannot happen in a real game: someone in the network's seats always moves
            raise RuntimeError(f"{self.game.name}: the game ended before any learner seat moved")
        return self._to_act(), {}

    def step(self, action_dict: Mapping[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        agent = self.agent_at_seat[self.game.current_player]
        if set(action_dict) != {agent}:
            raise ValueError(f"{self.game.name}: expected an action of {agent!r} only, got {sorted(action_dict)}")
        self.game.step(int(action_dict[agent]))
        self.has_played.add(agent)
        self._play_baselines()
        if self.game.is_over:
            returns = self.game.returns()
            rewards = {
                who: float(returns[seat])
                for seat, who in enumerate(self.agent_at_seat)
                if who is not None and who in self.has_played
            }
            done = {**dict.fromkeys(rewards, True), "__all__": True}
            return {}, rewards, done, {**dict.fromkeys(rewards, False), "__all__": False}, {}
        observations = self._to_act()
        rewards = dict.fromkeys([*self.has_played, *observations], 0.0)  # RLlib wants one for every agent seen
        return observations, rewards, {"__all__": False}, {"__all__": False}, {}

    # ------------------------------------------------------------------ helpers
    def _deal_roles(self) -> None:
        n = self.game.num_players
        if self.shared:
            self.agent_at_seat, self.baseline_at_seat = list(self.possible_agents), [None] * n
            self.agents = list(self.possible_agents)
            return
        learner_seat = int(self.rng.integers(n))
        self.agent_at_seat, self.baseline_at_seat = [None] * n, [None] * n
        self.agent_at_seat[learner_seat] = LEARNER
        others = [seat for seat in range(n) if seat != learner_seat]
        for k, seat in enumerate(others, start=1):
            role = self.roles[int(self.rng.choice(len(self.roles), p=self.role_weights))]
            if role == SELF_PLAY:
                self.agent_at_seat[seat] = f"{OPPONENT_PREFIX}{k}"
            else:
                self.baseline_at_seat[seat] = role
        self.agents = [agent for agent in self.agent_at_seat if agent is not None]

    def _play_baselines(self) -> None:
        game = self.game
        while not game.is_over and self.agent_at_seat[game.current_player] is None:
            seat = game.current_player
            policy = self.baselines[self.baseline_at_seat[seat]]
            observation = game.observe(seat) if policy.needs_observation else None
            game.step(policy.act(observation, game.legal_mask(), game, seat))

    def _to_act(self) -> dict[str, dict[str, np.ndarray]]:
        seat = self.game.current_player
        agent = self.agent_at_seat[seat]
        observation = np.asarray(self.game.observe(seat), dtype=np.float32)
        return {agent: {OBSERVATIONS: observation, ACTION_MASK: self.game.legal_mask().astype(np.int8)}}


def make_rllib_env(config: Mapping[str, Any]) -> Any:
    """The ``RoleDealtGame`` as an RLlib ``MultiAgentEnv`` (the env creator given to ``register_env``)."""
    from ray.rllib.env.multi_agent_env import MultiAgentEnv

    class FiestaMultiAgentEnv(RoleDealtGame, MultiAgentEnv):
        def __init__(self, env_config: Mapping[str, Any]) -> None:
            MultiAgentEnv.__init__(self)
            RoleDealtGame.__init__(self, env_config)

    return FiestaMultiAgentEnv(dict(config))
