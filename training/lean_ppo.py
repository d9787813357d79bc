"""``LeanMaskablePPO``: sb3-contrib's ``MaskablePPO`` with a rollout that spends its time in the network.

Collecting a rollout asks the policy, at every step of the vector environment, for an action, a value and a
log-probability per environment. ``MaskableActorCriticPolicy.forward`` answers through two torch
``Categorical`` distributions (one for the raw logits, one rebuilt after the mask), each with its own checks
and lazy properties: on a small MLP that bookkeeping costs twice the network itself. ``masked_policy_step``
computes the same tensors with the same torch operations in the same order (normalise the logits, mask them,
normalise again, softmax, one ``torch.multinomial`` draw per environment, gather the log-probability), so it
draws the same actions from the same random stream and training is bit for bit the one ``MaskablePPO`` gives
(``tests/test_training_lean_ppo.py``). The vector environment's action masks are read from
``LeanDummyVecEnv.action_masks()`` when it has them (the masks of the observations it returned) instead of
asking every environment through its wrappers.

Only the rollout changes: the PPO update, saving and loading are ``MaskablePPO``'s, and a checkpoint holds
nothing of this class (``MaskablePPO.load`` reads it; ``lean(model)`` turns a loaded model into this class).
Policies this step does not cover (a features extractor per network or other than flattening, observations
that are not one flat array, layers other than ``Linear``, ``Tanh`` and ``ReLU``, actions that are not one
``Discrete``) take ``MaskablePPO``'s own path. The layers are applied as their modules' ``forward`` does
(``F.linear``, ``torch.tanh``, ``F.relu``), without the module call around each.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch as th
import torch.nn.functional as F
from gymnasium import spaces
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.buffers import MaskableDictRolloutBuffer, MaskableRolloutBuffer
from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
from stable_baselines3.common.buffers import RolloutBuffer
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.torch_layers import FlattenExtractor
from stable_baselines3.common.utils import obs_as_tensor
from stable_baselines3.common.vec_env import VecEnv
from torch import nn

#: the logit ``MaskableCategorical`` gives a masked action (sb3-contrib's ``HUGE_NEG``)
MASKED_LOGIT = -1e8


def masked_policy_step(policy: Any, obs: th.Tensor, action_masks: np.ndarray) -> tuple[th.Tensor, ...]:
    """``policy(obs, action_masks=action_masks)`` of a ``MaskableActorCriticPolicy`` that ``covers`` accepts:
    (actions, values, log-probabilities), the same tensors as its ``forward`` (the same operations on the same
    values, the same draw from torch's random generator)."""
    features = obs.float().flatten(1)  # preprocess_obs of a flat Box, then FlattenExtractor
    latent_pi = _through(policy.mlp_extractor.policy_net, features)
    values = _through([policy.value_net], _through(policy.mlp_extractor.value_net, features))
    logits = _through([policy.action_net], latent_pi).view(-1, policy.action_dist.action_dim)
    normalised = logits - logits.logsumexp(dim=-1, keepdim=True)  # Categorical(logits=...)
    masks = th.as_tensor(action_masks, dtype=th.bool, device=logits.device).reshape(normalised.shape)
    masked = th.where(masks, normalised, th.tensor(MASKED_LOGIT, dtype=logits.dtype, device=logits.device))
    masked = masked - masked.logsumexp(dim=-1, keepdim=True)  # the Categorical rebuilt with the mask
    probabilities = th.softmax(masked, dim=-1)
    actions = th.multinomial(probabilities, 1, True).T.reshape(-1)  # Categorical.sample()
    log_prob = masked.gather(-1, actions.long().unsqueeze(-1)).squeeze(-1)
    return actions, values, log_prob


def _through(layers: Any, x: th.Tensor) -> th.Tensor:
    """``x`` through ``layers`` (``Linear``, ``Tanh``, ``ReLU``): each module's own ``forward`` computation."""
    for layer in layers:
        if isinstance(layer, nn.Linear):
            x = F.linear(x, layer.weight, layer.bias)
        elif isinstance(layer, nn.Tanh):
            x = th.tanh(x)
        else:
            x = F.relu(x, inplace=layer.inplace)
    return x


def covers(policy: Any) -> bool:
    """Whether ``masked_policy_step`` computes what ``policy.forward`` does for this policy: one flattening
    features extractor on a flat ``Box``, MLPs of ``Linear``, ``Tanh`` and ``ReLU`` layers, one ``Discrete``
    action."""
    networks = [*policy.mlp_extractor.policy_net, *policy.mlp_extractor.value_net]
    return (
        bool(getattr(policy, "share_features_extractor", False))
        and isinstance(policy.features_extractor, FlattenExtractor)
        and isinstance(policy.observation_space, spaces.Box)
        and len(policy.observation_space.shape) == 1
        and isinstance(policy.action_space, spaces.Discrete)
        and hasattr(policy.action_dist, "action_dim")
        and all(type(layer) in (nn.Linear, nn.Tanh, nn.ReLU) for layer in networks)
        and type(policy.action_net) is nn.Linear
        and type(policy.value_net) is nn.Linear
    )


class LeanMaskablePPO(MaskablePPO):
    """``MaskablePPO`` whose rollouts call ``masked_policy_step`` (see the module docstring)."""

    def collect_rollouts(  # the loop of MaskablePPO.collect_rollouts, with the policy step and masks above
        self,
        env: VecEnv,
        callback: BaseCallback,
        rollout_buffer: RolloutBuffer,
        n_rollout_steps: int,
        use_masking: bool = True,
    ) -> bool:
        if not use_masking or not covers(self.policy):
            return super().collect_rollouts(env, callback, rollout_buffer, n_rollout_steps, use_masking)
        assert isinstance(rollout_buffer, (MaskableRolloutBuffer, MaskableDictRolloutBuffer))
        assert self._last_obs is not None, "No previous observation was provided"
        self.policy.set_training_mode(False)
        n_steps = 0
        rollout_buffer.reset()
        if not is_masking_supported(env):
            raise ValueError("Environment does not support action masking. Consider using ActionMasker wrapper")
        read_masks = getattr(env, "action_masks", None)
        callback.on_rollout_start()
        while n_steps < n_rollout_steps:
            with th.no_grad():
                obs_tensor = obs_as_tensor(self._last_obs, self.device)  # type: ignore[arg-type]
                action_masks = read_masks() if callable(read_masks) else get_action_masks(env)
                actions, values, log_probs = masked_policy_step(self.policy, obs_tensor, action_masks)
            actions = actions.cpu().numpy()
            new_obs, rewards, dones, infos = env.step(actions)
            self.num_timesteps += env.num_envs
            callback.update_locals(locals())
            if not callback.on_step():
                return False
            self._update_info_buffer(infos, dones)
            n_steps += 1
            actions = actions.reshape(-1, 1)
            for idx, done in enumerate(dones):  # bootstrap a time limit with the value function
                if (
                    done
                    and infos[idx].get("terminal_observation") is not None
                    and infos[idx].get("TimeLimit.truncated", False)
                ):
                    terminal_obs = self.policy.obs_to_tensor(infos[idx]["terminal_observation"])[0]
                    with th.no_grad():
                        terminal_value = self.policy.predict_values(terminal_obs)[0]
                    rewards[idx] += self.gamma * terminal_value
            rollout_buffer.add(
                self._last_obs,  # type: ignore[arg-type]
                actions,
                rewards,
                self._last_episode_starts,  # type: ignore[arg-type]
                values,
                log_probs,
                action_masks=action_masks,
            )
            self._last_obs = new_obs  # type: ignore[assignment]
            self._last_episode_starts = dones
        with th.no_grad():
            values = self.policy.predict_values(obs_as_tensor(new_obs, self.device))  # type: ignore[arg-type]
        rollout_buffer.compute_returns_and_advantage(last_values=values, dones=dones)
        callback.on_rollout_end()
        return True


def lean(model: MaskablePPO) -> LeanMaskablePPO:
    """``model`` (a ``MaskablePPO``, e.g. just loaded from a checkpoint) as a ``LeanMaskablePPO``: the same
    object, its rollouts from now on collected as above (the subclass adds no state of its own)."""
    if not isinstance(model, LeanMaskablePPO):
        model.__class__ = LeanMaskablePPO
    return model  # type: ignore[return-value]
