"""The numpy network behind the shipped and frozen agents: its sparse first layer, the masked choice and the
shortcut for a move without a choice."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from fiesta_envs.policies.mlp import SPARSE_SHARE, ActorSnapshot, masked_choice
from fiesta_envs.policies.policy import forced_action
from fiesta_envs.registry import game_spec, make_policy


def random_actor(seed: int, sizes: list[int]) -> ActorSnapshot:
    rng = np.random.default_rng(seed)
    weights = [rng.normal(0, 0.3, (a, b)).astype(np.float32) for a, b in itertools.pairwise(sizes)]
    biases = [rng.normal(0, 0.1, b).astype(np.float32) for b in sizes[1:]]
    return ActorSnapshot(weights, biases, ["tanh"] * (len(weights) - 1) + ["identity"])


def dense_logits(actor: ActorSnapshot, x: np.ndarray) -> np.ndarray:
    for weight, bias, name in zip(actor.weights, actor.biases, actor.activations, strict=True):
        x = x @ weight + bias
        x = np.tanh(x) if name == "tanh" else x
    return x


@pytest.mark.parametrize("share_nonzero", [0.0, 0.05, 0.3, 0.49, 0.51, 1.0])
def test_logits_of_sparse_and_dense_observations_equal_the_whole_product(share_nonzero):
    actor = random_actor(1, [300, 64, 32, 10])
    rng = np.random.default_rng(2)
    for _ in range(20):
        x = ((rng.random(300) < share_nonzero) * rng.normal(0, 1, 300)).astype(np.float32)
        np.testing.assert_allclose(actor.logits(x), dense_logits(actor, x), rtol=1e-5, atol=1e-6)


def test_sparse_observations_go_the_sparse_way():
    actor = random_actor(3, [200, 16, 4])
    x = np.zeros(200, dtype=np.float32)
    x[: 200 // SPARSE_SHARE - 1] = 1.0
    nonzero = np.flatnonzero(x)
    expected = np.tanh(x[nonzero] @ actor.weights[0][nonzero] + actor.biases[0])
    np.testing.assert_array_equal(actor.first_layer(x), expected)
    np.testing.assert_array_equal(actor.logits(x), actor.layers_from(1, expected))


def test_a_batch_gives_the_rows_of_one_observation_each():
    actor = random_actor(4, [120, 32, 6])
    batch = (np.random.default_rng(5).random((7, 120)) < 0.2).astype(np.float32)
    rows = actor.logits(batch)
    assert rows.shape == (7, 6)
    for row, x in zip(rows, batch, strict=True):
        np.testing.assert_allclose(row, actor.logits(x), rtol=1e-5, atol=1e-6)


def test_the_best_legal_action_is_the_first_legal_one_of_the_highest_logit():
    rng = np.random.default_rng(6)
    for _ in range(500):
        logits = rng.integers(-3, 3, 12).astype(np.float32)  # many ties
        mask = (rng.random(12) < 0.5).astype(np.int8)
        if not mask.any():
            mask[rng.integers(12)] = 1
        legal = np.flatnonzero(mask)
        expected = int(legal[np.argmax(logits[legal])])
        assert masked_choice(logits, mask, None) == expected
        assert masked_choice(logits, mask.astype(bool), None) == expected


def test_the_choice_stays_legal_when_every_legal_logit_is_minus_infinity():
    logits = np.array([0.0, -np.inf, -np.inf, 1.0], dtype=np.float32)
    assert masked_choice(logits, np.array([0, 1, 1, 0], dtype=np.int8), None) == 1


def test_no_legal_action_is_a_clear_error():
    with pytest.raises(ValueError, match="no legal action"):
        masked_choice(np.zeros(3, dtype=np.float32), np.zeros(3, dtype=np.int8), None)


def test_forced_action_is_the_only_legal_one():
    assert forced_action(np.array([0, 0, 1, 0], dtype=np.int8)) == 2
    assert forced_action(np.array([0, 1, 1, 0], dtype=np.int8)) is None
    assert forced_action(np.array([False, True])) == 1


@pytest.mark.parametrize("agent", ["ppo", "against_search"])
def test_a_shipped_agent_moves_as_its_network_chooses_and_takes_forced_moves_at_once(agent):
    game_class = game_spec("fiesta_mexicana").game_class()
    policy = make_policy("fiesta_mexicana", agent, seed=0)
    forced = 0
    for seed in range(3):
        game = game_class(num_players=2, seed=seed)
        while not game.is_over:
            player, mask = game.current_player, game.legal_mask()
            observation = game.observe(player)
            logits = policy.check_game(game).actor.logits(policy.network_input(observation, game, player))
            action = policy.act(observation, mask, game, player)
            assert action == masked_choice(logits, mask, None)
            forced += int(mask.sum()) == 1
            game.step(action)
    assert forced > 0
