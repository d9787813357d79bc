"""Play an environment and a copy of it side by side and check they never differ.

Used by the pickling and reload tests: ``copy`` is made from ``original`` somehow (``pickle``,
``state_dict``), then both receive the same actions and must show the same thing at every step --
agent to act, every agent's observation and mask, rewards, cumulative rewards, terminations,
truncations and infos, through the end-of-game ``None`` steps and into the next ``reset()``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium.utils.env_checker import data_equivalence


def aec_view(env: Any) -> dict[str, Any]:
    """Everything an AEC user can read now."""
    raw = env.unwrapped
    view = {
        "agents": list(raw.agents),
        "agent_selection": raw.agent_selection if raw.agents else None,
        "rewards": dict(raw.rewards),
        "cumulative_rewards": dict(raw._cumulative_rewards),
        "terminations": dict(raw.terminations),
        "truncations": dict(raw.truncations),
        "infos": {agent: dict(info) for agent, info in raw.infos.items()},
        "observations": {agent: raw.observe(agent) for agent in raw.agents},
    }
    if raw.agents:
        view["last"] = env.last()
    return view


def assert_same(original: Any, copy: Any, where: str) -> None:
    if data_equivalence(original, copy):
        return
    if isinstance(original, dict) and isinstance(copy, dict):
        keys = [key for key in original if key not in copy or not data_equivalence(original[key], copy[key])]
        shown = "\n".join(f"  {key}: {original.get(key)!r:.300}\n  copy: {copy.get(key)!r:.300}" for key in keys)
        raise AssertionError(f"{where}: the copy differs in {', '.join(map(str, keys))}:\n{shown}")
    raise AssertionError(f"{where}: the copy differs:\n  {original!r:.300}\n  copy: {copy!r:.300}")


def random_aec_step(env: Any, rng: np.random.Generator) -> None:
    """``None`` for a finished agent, else a uniformly random legal action."""
    agent = env.agent_selection
    if env.terminations[agent] or env.truncations[agent]:
        env.step(None)
        return
    legal = np.flatnonzero(env.observe(agent)["action_mask"])
    env.step(int(legal[rng.integers(len(legal))]))


def play_aec(env: Any, rng: np.random.Generator, steps: int) -> int:
    """Up to ``steps`` random steps (fewer if every agent is gone); returns how many were taken."""
    taken = 0
    while taken < steps and env.agents:
        random_aec_step(env, rng)
        taken += 1
    return taken


def continue_aec_twins(original: Any, copy: Any, seed: int, label: str) -> None:
    """Give both the same random actions until every agent is gone, compare at every step, then
    ``reset()`` both without a seed (the generators must have travelled too) and compare again."""
    rng_original, rng_copy = np.random.default_rng(seed), np.random.default_rng(seed)
    step = 0
    while True:
        assert_same(aec_view(original), aec_view(copy), f"{label}, step {step} after the copy")
        if not original.agents:
            break
        random_aec_step(original, rng_original)
        random_aec_step(copy, rng_copy)
        step += 1
    original.reset()
    copy.reset()
    assert_same(aec_view(original), aec_view(copy), f"{label}, after reset() without a seed")


def continue_gym_twins(original: Any, copy: Any, seed: int, label: str, episodes: int = 2) -> None:
    """The same for a Gymnasium env: the rest of this episode, then ``episodes`` more without a seed."""
    rng = np.random.default_rng(seed)
    for episode in range(episodes + 1):
        terminated = episode > 0
        if episode > 0:
            assert_same(original.reset(), copy.reset(), f"{label}, reset {episode}")
        else:
            terminated = original.unwrapped.game.is_over
        while not terminated:
            mask = original.unwrapped.action_masks()
            assert_same(mask, copy.unwrapped.action_masks(), f"{label}, episode {episode}: action masks")
            action = int(rng.choice(np.flatnonzero(mask)))
            result = original.step(action)
            assert_same(result, copy.step(action), f"{label}, episode {episode}: step")
            terminated = result[2]
