"""``LeanDummyVecEnv``: stable-baselines3's ``DummyVecEnv`` without the deep copies that training does not need.

``DummyVecEnv.step_wait`` deep-copies the list of ``info`` dicts and the observation buffer on every step, in
case an environment hands out the same objects again. The training environments do not: every step returns
a new ``info`` dict (its action mask a copy) and a new observation, and the vector's observations are copied
out of the buffer here all the same. So this class copies the buffer with one ``numpy.copy`` and the list of
infos one level deep: the same values, without walking every dict and array on every step. Everything else
is ``DummyVecEnv``'s.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from stable_baselines3.common.vec_env import DummyVecEnv


class LeanDummyVecEnv(DummyVecEnv):
    """``DummyVecEnv`` copying observations and infos without ``deepcopy`` (see the module docstring)."""

    def __init__(self, env_fns: list[Any]) -> None:
        super().__init__(env_fns)
        self._flat = not isinstance(self.observation_space, (spaces.Dict, spaces.Tuple))

    def step_wait(self) -> Any:
        for index, env in enumerate(self.envs):
            obs, self.buf_rews[index], terminated, truncated, info = env.step(self.actions[index])
            self.buf_dones[index] = terminated or truncated
            info["TimeLimit.truncated"] = truncated and not terminated
            if self.buf_dones[index]:  # keep the final observation, then start the next episode
                info["terminal_observation"] = obs
                obs, self.reset_infos[index] = env.reset()
            self.buf_infos[index] = info
            self._save_obs(index, obs)
        infos = [dict(info) for info in self.buf_infos]
        return self._obs_from_buf(), np.copy(self.buf_rews), np.copy(self.buf_dones), infos

    def _obs_from_buf(self) -> Any:
        if self._flat:
            return np.copy(self.buf_obs[None])
        return super()._obs_from_buf()
