"""Trained agents shipped inside the package, playable without torch: agent name ``ppo``.

``make_policy(game, "ppo")``, ``gymnasium.make(..., opponents="ppo")``, ``fiesta evaluate
--agents ppo,...`` and ``fiesta play --opponents ppo`` use the small weight files in
``fiesta_envs/agents/weights/`` (one ``<game>-<N>p[-<variant>].npz`` + ``.json`` pair per
agent). ``fiesta_envs.agents.shipped`` describes the file format, how a file is chosen and
checked, and how to add an agent (train -> ``fiesta export`` -> commit the two files).
Set ``FIESTA_ENVS_WEIGHTS`` (or pass ``weights_dir=``) to use another folder.

``fiesta_envs.agents.registry`` turns any agent spec (a name, ``ppo``, a checkpoint, ``FILE.py:ATTR``, a
stable-baselines3 zip, a Python object) into a policy; every command and environment reads agents through it.
"""

from fiesta_envs.agents.shipped import (
    SHIPPED_NAMES,
    WEIGHTS_ENV,
    ShippedAgent,
    ShippedAgentError,
    ShippedPolicy,
    check_shipped,
    find_shipped,
    has_shipped,
    shipped_agents,
    weights_directory,
    write_shipped_agent,
)

__all__ = [
    "SHIPPED_NAMES",
    "WEIGHTS_ENV",
    "ShippedAgent",
    "ShippedAgentError",
    "ShippedPolicy",
    "check_shipped",
    "find_shipped",
    "has_shipped",
    "shipped_agents",
    "weights_directory",
    "write_shipped_agent",
]
