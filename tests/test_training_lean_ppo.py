"""``LeanMaskablePPO`` trains exactly as sb3-contrib's ``MaskablePPO``: same actions, values, log-probabilities and
weights, bit for bit."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from sb3_contrib import MaskablePPO
from training_support import fiesta_mexicana_env

from fiesta_envs.training.lean_ppo import LeanMaskablePPO, covers, lean, masked_policy_step
from fiesta_envs.training.lean_vec_env import LeanDummyVecEnv

MAKE = fiesta_mexicana_env({"greedy": 1.0, "random": 0.5})


def new_model(algorithm: type, env: LeanDummyVecEnv, **policy: object) -> MaskablePPO:
    torch.manual_seed(0)
    return algorithm(
        "MlpPolicy",
        env,
        n_steps=64,
        batch_size=64,
        n_epochs=2,
        seed=0,
        policy_kwargs={"net_arch": [32, 16], **policy},
    )


def test_policies_it_does_not_cover_take_maskable_ppo_own_step():
    env = LeanDummyVecEnv([MAKE] * 2)
    assert not covers(new_model(MaskablePPO, env, share_features_extractor=False).policy)
    assert covers(new_model(MaskablePPO, env, activation_fn=torch.nn.ReLU).policy)


@pytest.mark.parametrize("activation", [torch.nn.Tanh, torch.nn.ReLU])
def test_policy_step_draws_what_the_policy_forward_draws(activation):
    env = LeanDummyVecEnv([MAKE] * 4)
    env.seed(3)
    model = new_model(MaskablePPO, env, activation_fn=activation)
    assert covers(model.policy)
    rng = np.random.default_rng(0)
    for _ in range(20):
        obs = torch.as_tensor(rng.random((4, *env.observation_space.shape), dtype=np.float32))
        masks = rng.random((4, env.action_space.n)) < 0.2
        masks[:, 0] = True
        torch.manual_seed(7)
        with torch.no_grad():
            want = model.policy(obs, action_masks=masks)
        torch.manual_seed(7)
        with torch.no_grad():
            got = masked_policy_step(model.policy, obs, masks)
        for a, b in zip(got, want, strict=True):
            assert torch.equal(a, b)


@pytest.mark.parametrize("as_loaded", [False, True])
def test_lean_ppo_learns_the_weights_maskable_ppo_learns(as_loaded):
    models = []
    for algorithm in (MaskablePPO, LeanMaskablePPO):
        env = LeanDummyVecEnv([MAKE] * 4)
        env.seed(9)
        model = new_model(MaskablePPO if as_loaded else algorithm, env)
        if as_loaded and algorithm is LeanMaskablePPO:
            model = lean(model)
        torch.manual_seed(1)
        model.learn(3 * 64 * 4)
        models.append(model)
    plain, fast = models
    assert type(fast) is LeanMaskablePPO and type(plain) is MaskablePPO
    for (name, a), (_, b) in zip(plain.policy.state_dict().items(), fast.policy.state_dict().items(), strict=True):
        assert torch.equal(a, b), name
    for field in ("observations", "actions", "rewards", "values", "log_probs", "action_masks", "advantages"):
        np.testing.assert_array_equal(getattr(plain.rollout_buffer, field), getattr(fast.rollout_buffer, field))
    assert len(np.unique(plain.rollout_buffer.actions)) > 5  # a real rollout of varied actions was compared
