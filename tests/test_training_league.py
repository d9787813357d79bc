"""The league: frozen actors equal the network they copy; opponents drawn per episode by weight."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from toy_game import Nim, TakeOne

pytest.importorskip("sb3_contrib")

import torch
from sb3_contrib import MaskablePPO

from fiesta_envs.envs.single_seat import SingleSeatEnv
from fiesta_envs.policies.policy import RandomPolicy
from fiesta_envs.training.league import ActorSnapshot, FrozenPolicy, League, LeagueEnv, OpponentMix, masked_choice


def toy_env(opponents="random"):
    def factory(spec, seed):
        return spec if not isinstance(spec, str) else RandomPolicy(seed)

    return SingleSeatEnv(Nim, factory, opponents=opponents)


@pytest.mark.parametrize("activation", [torch.nn.Tanh, torch.nn.ReLU])
def test_frozen_actor_computes_the_networks_logits(activation):
    model = MaskablePPO(
        "MlpPolicy", toy_env(), policy_kwargs={"net_arch": [16, 8], "activation_fn": activation}, seed=3
    )
    actor = ActorSnapshot.from_model(model)
    observations = np.random.default_rng(0).random((20, 13)).astype(np.float32)
    with torch.no_grad():
        features = model.policy.extract_features(torch.as_tensor(observations), model.policy.pi_features_extractor)
        expected = model.policy.action_net(model.policy.mlp_extractor.forward_actor(features)).numpy()
    for obs, logits in zip(observations, expected, strict=True):
        np.testing.assert_allclose(actor.logits(obs), logits, rtol=1e-5, atol=1e-6)


def test_snapshots_survive_a_round_trip_to_disk(tmp_path):
    model = MaskablePPO("MlpPolicy", toy_env(), policy_kwargs={"net_arch": [8]}, seed=0)
    actor = ActorSnapshot.from_model(model)
    actor.save(tmp_path / "a.npz")
    again = ActorSnapshot.load(tmp_path / "a.npz")
    obs = np.linspace(0, 1, 13, dtype=np.float32)
    np.testing.assert_array_equal(actor.logits(obs), again.logits(obs))
    assert again.activations == ["tanh", "identity"]


def test_masked_choice_only_picks_legal_actions():
    logits = np.array([5.0, 1.0, 3.0])
    mask = np.array([0, 1, 1], dtype=np.int8)
    assert masked_choice(logits, mask, None) == 2
    rng = np.random.default_rng(0)
    draws = Counter(masked_choice(logits, mask, rng) for _ in range(2000))
    assert set(draws) == {1, 2}
    assert draws[2] / 2000 == pytest.approx(np.exp(3) / (np.exp(1) + np.exp(3)), abs=0.03)


def test_league_keeps_the_newest_pool_and_forgets_the_future(tmp_path):
    model = MaskablePPO("MlpPolicy", toy_env(), policy_kwargs={"net_arch": [8]}, seed=0)
    league = League(tmp_path, pool_size=2)
    for step in (0, 100, 200, 300):
        league.add(model, step)
    assert [p.rsplit("/", 1)[-1] for p in league.members()] == ["snapshot_000000200.npz", "snapshot_000000300.npz"]
    assert [p.rsplit("/", 1)[-1] for p in league.members(150)] == ["snapshot_000000000.npz", "snapshot_000000100.npz"]
    league.forget_after(100)
    assert [step for step, _ in league.snapshots()] == [0, 100]


def write_members(tmp_path, count):
    model = MaskablePPO("MlpPolicy", toy_env(), policy_kwargs={"net_arch": [8]}, seed=0)
    league = League(tmp_path, pool_size=count)
    for step in range(count):
        league.add(model, step)
    return league.members()


def test_opponent_mix_draws_by_weight_and_is_reproducible(tmp_path):
    mix = OpponentMix({"random": (RandomPolicy(), 1.0), "take_one": (TakeOne(), 3.0)}, self_play_weight=4.0)
    names = []
    for seed in range(400):
        mix.start_episode(seed)
        names.append(mix.current_name)
    counts = Counter(names)
    assert set(counts) == {"random", "take_one"}  # no league members yet: self-play weight unused
    assert counts["take_one"] / 400 == pytest.approx(0.75, abs=0.07)
    mix.set_members(write_members(tmp_path, 3))
    again = []
    for seed in range(400):
        mix.start_episode(seed)
        again.append(mix.current_name)
    assert Counter(again)["self"] / 400 == pytest.approx(0.5, abs=0.07)
    replay = []
    for seed in range(400):
        mix.start_episode(seed)
        replay.append(mix.current_name)
    assert replay == again


def test_latest_only_always_plays_the_newest_member(tmp_path):
    members = write_members(tmp_path, 3)
    mix = OpponentMix({}, self_play_weight=1.0, latest_only=True)
    mix.set_members(members)
    for seed in range(20):
        mix.start_episode(seed)
        assert mix.current_name == "self" and mix._frozen.name == "snapshot_000000002"


def test_an_empty_mix_says_so():
    mix = OpponentMix({}, self_play_weight=1.0)
    with pytest.raises(RuntimeError, match="no opponent available"):
        mix.start_episode(0)


def test_league_env_updates_every_opponent_seat(tmp_path):
    members = write_members(tmp_path, 2)
    seats = [OpponentMix({}, 1.0), OpponentMix({}, 1.0)]
    env = LeagueEnv(SingleSeatEnv(Nim, lambda spec, seed: spec, num_players=3, opponents=seats))
    env.set_league(members)
    assert all(mix.members == members for mix in seats)
    _, info = env.reset(seed=0)
    assert env.opponent_names() == ["self", "self"]
    done = False
    while not done:  # frozen opponents play legal moves to the end
        _, _, done, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))


def test_frozen_policy_is_deterministic_when_asked():
    model = MaskablePPO("MlpPolicy", toy_env(), policy_kwargs={"net_arch": [8]}, seed=0)
    policy = FrozenPolicy(ActorSnapshot.from_model(model), deterministic=True)
    game = Nim(seed=0)
    obs, mask = game.observe(0), game.legal_mask()
    expected, _ = model.predict(obs, action_masks=mask.astype(bool), deterministic=True)
    assert policy.act(obs, mask, game, 0) == int(expected)


def test_frozen_policies_pickle_for_worker_processes():
    import pickle

    model = MaskablePPO("MlpPolicy", toy_env(), policy_kwargs={"net_arch": [8], "activation_fn": torch.nn.ReLU}, seed=0)
    policy = FrozenPolicy(ActorSnapshot.from_model(model), deterministic=True)
    copy = pickle.loads(pickle.dumps(policy))
    obs = np.linspace(0, 1, 13, dtype=np.float32)
    np.testing.assert_array_equal(copy.actor.logits(obs), policy.actor.logits(obs))
    mix = OpponentMix({"random": (RandomPolicy(), 1.0)}, self_play_weight=0.0)
    pickle.loads(pickle.dumps(mix))
