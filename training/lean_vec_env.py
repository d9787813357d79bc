"""``LeanDummyVecEnv``: stable-baselines3's ``DummyVecEnv`` for training, with the games' network opponents batched.

Three things differ from ``DummyVecEnv``, none of them in what the environments play or return:

* Network opponents answered together. When an opponent seat plays by a network (a frozen self of the league),
  each game of the vector first plays the learner's action and its opponents up to the first move that waits
  on a network (``SingleSeatEnv.begin_step``); the waiting moves of the same network are answered with one
  forward pass (``batched_logits``), each game plays its answer and goes on to its next network move, until
  every game is back at the learner's turn or over. Then each environment's ``step`` (through its wrappers)
  completes the step as usual. Games never share state, and every answer is the one the seat's own policy
  gives alone (the same logits bit for bit, its own random generator), so the episodes are those of the
  environments stepped one after the other (``tests/test_training_lean_vec_env.py``). Environments whose
  wrappers might change the action on its way (anything but ``Monitor``, ``ScoreShaping`` and ``LeagueEnv``
  around a ``SingleSeatEnv``), and environments that play their steps otherwise (``TeamEnv``), are stepped
  one after the other.
* No deep copies. ``DummyVecEnv.step_wait`` deep-copies the list of ``info`` dicts and the observation buffer
  on every step, in case an environment hands out the same objects again. The training environments do not:
  every step returns a new ``info`` dict (its action mask a copy) and a new observation. So this class copies
  the buffer with one ``numpy.copy`` and the list of infos one level deep.
* ``action_masks()``: the stacked masks of the environments, each read through the method their wrappers
  expose (found once, not looked up through the wrappers on every step as ``env_method`` does); what
  ``LeanMaskablePPO`` reads.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from stable_baselines3.common.monitor import Monitor
from stable_baselines3.common.vec_env import DummyVecEnv

from fiesta_envs.envs.single_seat import NetworkMove, SingleSeatEnv
from fiesta_envs.policies.mlp import ActorSnapshot
from fiesta_envs.training.league import LeagueEnv
from fiesta_envs.training.shaping import ScoreShaping

#: wrappers that hand the action to the environment they wrap unchanged
PASS_ACTIONS_THROUGH = (Monitor, ScoreShaping, LeagueEnv)


def batched_logits(actor: ActorSnapshot, inputs: Sequence[np.ndarray]) -> np.ndarray:
    """``actor.logits`` of each of ``inputs`` (one row each), equal bit for bit to one call per input: the first
    layer one input at a time (``actor.first_layer``), then every row its own vector-matrix product, the products
    stacked into one call (a matrix product of all the rows at once may sum in another order and differ in the
    last bit)."""
    x = np.stack([actor.first_layer(np.asarray(vector, dtype=np.float32)) for vector in inputs])[:, None, :]
    return actor.layers_from(1, x)[:, 0, :]


def answer_network_moves(moves: Sequence[NetworkMove]) -> list[int]:
    """The action of each move: one ``batched_logits`` per network among them, then each move's own choice."""
    groups: dict[int, list[int]] = {}
    for index, move in enumerate(moves):
        groups.setdefault(id(move.actor), []).append(index)
    answers = [0] * len(moves)
    for indices in groups.values():
        logits = batched_logits(moves[indices[0]].actor, [moves[index].inputs for index in indices])
        for row, index in enumerate(indices):
            answers[index] = moves[index].choose(logits[row])
    return answers


def single_seat_under(env: gymnasium.Env) -> SingleSeatEnv | None:
    """The ``SingleSeatEnv`` under ``env`` when only wrappers that pass actions through lie between, else None
    (also for a subclass that plays its steps otherwise, such as ``TeamEnv``)."""
    while isinstance(env, PASS_ACTIONS_THROUGH):
        env = env.env
    if not isinstance(env, SingleSeatEnv):
        return None
    plays = (type(env).step, type(env)._play_opponents)
    return env if plays == (SingleSeatEnv.step, SingleSeatEnv._play_opponents) else None


class LeanDummyVecEnv(DummyVecEnv):
    """``DummyVecEnv`` with batched network opponents, light copies and ``action_masks()`` (see the module
    docstring)."""

    def __init__(self, env_fns: list[Callable[[], gymnasium.Env]]) -> None:
        super().__init__(env_fns)
        self._flat = not isinstance(self.observation_space, (spaces.Dict, spaces.Tuple))
        seats = [single_seat_under(env) for env in self.envs]
        self._single_seats: list[SingleSeatEnv] | None = None if None in seats else seats  # type: ignore[assignment]
        self._mask_readers: list[Callable[[], np.ndarray]] | None = None
        #: moves answered by a network, and the forward passes that answered them
        self.network_moves = self.forward_passes = 0

    def step_wait(self) -> Any:
        if self._single_seats is not None:
            self._play_until_learners_turn(self._single_seats)
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

    def _play_until_learners_turn(self, single_seats: list[SingleSeatEnv]) -> None:
        """Each game plays the learner's action and its opponents, the network moves of all games answered
        together (see the module docstring)."""
        waiting: dict[int, NetworkMove] = {}
        for index, env in enumerate(single_seats):
            move = env.begin_step(self.actions[index])
            if move is not None:
                waiting[index] = move
        while waiting:
            answers = answer_network_moves(list(waiting.values()))
            self.network_moves += len(answers)
            self.forward_passes += len({id(move.actor) for move in waiting.values()})
            following = [
                (index, single_seats[index].play_network_move(answer))
                for index, answer in zip(waiting, answers, strict=True)
            ]
            waiting = {index: move for index, move in following if move is not None}

    def action_masks(self) -> np.ndarray:
        """The legal actions of every environment, stacked (what ``get_action_masks`` would return)."""
        if self._mask_readers is None:
            self._mask_readers = [env.get_wrapper_attr("action_masks") for env in self.envs]
        return np.stack([read() for read in self._mask_readers])

    def _obs_from_buf(self) -> Any:
        if self._flat:
            return np.copy(self.buf_obs[None])
        return super()._obs_from_buf()
