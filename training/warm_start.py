"""Warm start from a trained network (the config's ``init``): the run's policy starts as that network's actor.

    init: ppo                  # the shipped agent, a checkpoint or run directory, or a stable-baselines3 .zip

The network must have the run's shape: the same observation size (game, player count and options, including
``action_features``), ``ppo.net_arch`` and ``ppo.activation``, and one logit per action. Only the actor (the policy
layers and the action head) is copied; the value head starts fresh, so a ``pretrain`` stage after it (which also
regresses the value head onto returns) or PPO's first updates teach it. The check runs when the config loads, so
a network that does not fit is refused before anything is collected or trained.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from fiesta_envs.policies.mlp import ActorSnapshot

#: the run's ``TrainConfig`` (not imported: the config module calls this one while it validates)
TrainConfig = Any


class WarmStartError(ValueError):
    """``init`` names an agent that is not a network, or a network of another shape than the run's."""


def initial_actor(config: TrainConfig) -> ActorSnapshot:
    """The actor network named by ``config.init`` (``WarmStartError`` if it is not a network)."""
    from fiesta_envs.registry import game_spec, make_policy

    assert config.init is not None
    game = game_spec(config.game).game_class()(num_players=config.num_players, **config.options)
    policy: Any = make_policy(config.game, config.init, num_players=config.num_players, options=dict(config.options))
    actor = _network_of(policy, game)
    if actor is None:
        raise WarmStartError(
            f"{config.init!r} is not a network, so it cannot start the run's policy; allowed: a trained agent "
            "(ppo), a checkpoint or run directory, or a stable-baselines3 .zip"
        )
    return actor


def _network_of(policy: Any, game: Any) -> ActorSnapshot | None:
    actor = getattr(policy, "actor", None)
    if isinstance(actor, ActorSnapshot):
        return actor
    check_game = getattr(policy, "check_game", None)  # a shipped agent: its file for this configuration
    binding = check_game(game) if check_game is not None else None
    actor = getattr(binding, "actor", None)
    return actor if isinstance(actor, ActorSnapshot) else None


def expected_layers(config: TrainConfig) -> tuple[list[int], list[str]]:
    """The layer sizes (inputs first) and activations of the run's actor."""
    from fiesta_envs.registry import game_spec

    game = game_spec(config.game).game_class()(num_players=config.num_players, **config.options)
    shortlist = config.game_shortlist()
    inputs, outputs = (
        (shortlist.size, shortlist.choices) if shortlist is not None else (game.observation_size, game.num_actions)
    )
    hidden = list(config.ppo.net_arch)
    return [int(inputs), *hidden, int(outputs)], [config.ppo.activation] * len(hidden) + ["identity"]


def check_fits(actor: ActorSnapshot, config: TrainConfig) -> None:
    """``WarmStartError`` naming both shapes unless ``actor`` has the run's shape."""
    layers, activations = expected_layers(config)
    if actor.layer_sizes != layers or actor.activations != activations:
        raise WarmStartError(
            f"{config.init!r} has layers {actor.layer_sizes} ({', '.join(actor.activations)}); this run's network "
            f"has {layers} ({', '.join(activations)}): set ppo.net_arch and ppo.activation to the network's, and "
            "the game, player count and options it was trained with"
        )


def copy_into(model: Any, actor: ActorSnapshot) -> None:
    """Copy ``actor``'s layers into a MaskablePPO ``MlpPolicy`` (policy MLP, then action head); value net untouched."""
    import torch
    import torch.nn as nn

    policy = model.policy
    linears = [m for m in [*policy.mlp_extractor.policy_net, policy.action_net] if isinstance(m, nn.Linear)]
    if len(linears) != len(actor.weights):
        raise WarmStartError(f"the network has {len(actor.weights)} layers, the run's policy {len(linears)}")
    with torch.no_grad():
        for linear, weight, bias in zip(linears, actor.weights, actor.biases, strict=True):
            if tuple(linear.weight.shape) != (weight.shape[1], weight.shape[0]):
                raise WarmStartError(
                    f"a layer of {weight.shape[0]} -> {weight.shape[1]} does not fit the run's "
                    f"{linear.weight.shape[1]} -> {linear.weight.shape[0]}"
                )
            linear.weight.copy_(torch.as_tensor(np.ascontiguousarray(weight.T)))
            linear.bias.copy_(torch.as_tensor(bias))
