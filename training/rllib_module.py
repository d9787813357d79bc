"""The RLModule of the RLlib backend: an actor MLP whose logits of illegal actions are masked, and a critic MLP.

Its observation is ``{"observations", "action_mask"}`` (``training/rllib_env.py``). The actor sees the
observation vector, its logits of masked actions are set to the lowest float (probability 0, so RLlib never
samples an illegal action and PPO's log-probabilities and entropy only count legal ones); the critic has
its own network of the same shape (as stable-baselines3's ``MlpPolicy``). Both are plain ``Linear`` +
activation stacks, so the actor is copied into an ``ActorSnapshot`` layer for layer
(``rllib_train.actor_from_state``):
the RLlib-trained network plays in ``fiesta evaluate`` and ``fiesta play`` with numpy alone.

``model_config``: ``hidden`` (layer sizes, the config's ``ppo.net_arch``) and ``activation`` (``tanh`` or
``relu``).
"""

from __future__ import annotations

from typing import Any

import torch
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.apis import ValueFunctionAPI
from ray.rllib.core.rl_module.torch import TorchRLModule
from torch import nn

from fiesta_envs.training.rllib_env import ACTION_MASK, OBSERVATIONS

_ACTIVATIONS: dict[str, type[nn.Module]] = {"tanh": nn.Tanh, "relu": nn.ReLU}


def mlp(inputs: int, hidden: list[int], outputs: int, activation: str) -> nn.Sequential:
    """``Linear`` layers with ``activation`` between them (none after the last)."""
    layers: list[nn.Module] = []
    size = inputs
    for width in hidden:
        layers += [nn.Linear(size, width), _ACTIVATIONS[activation]()]
        size = width
    layers.append(nn.Linear(size, outputs))
    return nn.Sequential(*layers)


class MaskedActorCritic(TorchRLModule, ValueFunctionAPI):
    """PPO's module for our games: masked actor logits (``action_dist_inputs``) and a value per observation."""

    def setup(self) -> None:
        hidden = [int(width) for width in self.model_config.get("hidden", [128, 128])]
        activation = str(self.model_config.get("activation", "tanh"))
        inputs = int(self.observation_space[OBSERVATIONS].shape[0])
        actions = int(self.action_space.n)
        self.activation = activation
        self.actor = mlp(inputs, hidden, actions, activation)
        self.critic = mlp(inputs, hidden, 1, activation)

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        observation = batch[Columns.OBS]
        logits = self.actor(observation[OBSERVATIONS].float())
        legal = observation[ACTION_MASK] > 0
        masked = torch.where(legal, logits, torch.full_like(logits, torch.finfo(logits.dtype).min))
        return {Columns.ACTION_DIST_INPUTS: masked}

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> torch.Tensor:
        return self.critic(batch[Columns.OBS][OBSERVATIONS].float()).squeeze(-1)
