"""The RLlib backend (``backend: rllib``): its environment, policy mapping, config and checkpoints.

The first part needs no Ray (the environment's role dealing, the mapping of agents to modules, the config's
checks, policy-only checkpoints in evaluation); the tests marked ``rllib`` need the rllib extra in its own
virtualenv (it pins gymnasium 1.2.2) and start a local Ray instance:
``bash scripts/rllib_test.sh`` (= ``.venv-rllib/bin/python -m pytest -m rllib tests/test_training_rllib.py``).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from fiesta_envs.policies.mlp import ActorSnapshot
from fiesta_envs.training.rllib_env import (
    ACTION_MASK,
    LEARNER,
    OBSERVATIONS,
    RoleDealtGame,
    frozen_module_ids,
    module_for_agent,
)

pytest.importorskip("pydantic")
pytest.importorskip("yaml")

CONFIGS = Path(__file__).resolve().parents[1] / "configs"


def play_out(env: RoleDealtGame, seed: int) -> tuple[dict, list[str]]:
    """A whole game with random legal moves for the network seats: the final rewards and who moved."""
    rng = np.random.default_rng(seed)
    observations, _ = env.reset(seed=seed)
    movers = []
    while True:
        ((agent, observation),) = observations.items()  # exactly one agent at a time
        assert observation[OBSERVATIONS].dtype == np.float32
        assert env.observation_spaces[agent].contains(observation)
        movers.append(agent)
        action = int(rng.choice(np.flatnonzero(observation[ACTION_MASK])))
        observations, rewards, terminated, truncated, _ = env.step({agent: action})
        assert not truncated["__all__"]
        if terminated["__all__"]:
            return rewards, movers
        assert set(rewards) >= set(observations)  # RLlib needs a reward for every agent it has seen
        assert all(value == 0.0 for value in rewards.values())


def test_roles_are_dealt_by_weight_and_baselines_play_inside():
    env = RoleDealtGame(
        {"game": "fiesta_mexicana", "num_players": 3, "baselines": {"random": 1.0}, "self_play_weight": 1.0}
    )
    assert env.possible_agents == ["learner", "opponent_1", "opponent_2"]
    learner_seats, baseline_seats = Counter(), 0
    for seed in range(40):
        env.reset(seed=seed)
        learner_seats[env.agent_at_seat.index(LEARNER)] += 1
        baseline_seats += sum(name == "random" for name in env.baseline_at_seat)
        pairs = zip(env.agent_at_seat, env.baseline_at_seat, strict=True)
        assert all((agent is None) != (name is None) for agent, name in pairs)  # a network or a baseline
    assert set(learner_seats) == {0, 1, 2}  # every seat
    assert 20 < baseline_seats < 60  # half of the 80 other seats, by weight


def test_a_game_ends_with_each_network_seat_getting_its_return():
    env = RoleDealtGame(
        {"game": "fiesta_mexicana", "num_players": 3, "baselines": {"random": 1.0}, "self_play_weight": 1.0}
    )
    for seed in range(3):
        rewards, movers = play_out(env, seed)
        returns = env.game.returns()
        expected = {agent: float(returns[seat]) for seat, agent in enumerate(env.agent_at_seat) if agent}
        assert rewards == expected
        assert set(movers) == set(expected)
        assert all(env.agent_at_seat[seat] is None for seat in range(3) if env.baseline_at_seat[seat])


def test_the_same_seed_deals_the_same_game():
    config = {"game": "tortilla_de_patatas", "num_players": 2, "baselines": {"random": 1.0}, "self_play_weight": 1.0}
    first, second = RoleDealtGame(config), RoleDealtGame(config)
    assert play_out(first, 5) == play_out(second, 5)
    assert first.game.state_dict() == second.game.state_dict()


def test_cooperative_sharing_puts_the_learner_in_every_seat():
    env = RoleDealtGame({"game": "fiesta_de_los_muertos", "num_players": 4, "shared": True})
    rewards, movers = play_out(env, 0)
    assert env.possible_agents == [f"player_{i}" for i in range(4)]
    assert set(movers) == set(env.possible_agents)
    assert len(set(rewards.values())) == 1  # one team result
    assert {module_for_agent(agent, None, pool_size=3) for agent in env.possible_agents} == {"learner"}


def test_a_solo_game_has_only_the_learner():
    env = RoleDealtGame({"game": "tequila", "num_players": 1})
    rewards, movers = play_out(env, 0)
    assert set(movers) == {"learner"} and set(rewards) == {"learner"}


def test_opponents_map_to_the_frozen_pool_the_same_way_all_game_long():
    class Episode:
        def __init__(self, id_: str) -> None:
            self.id_ = id_

    pool = frozen_module_ids(4)
    assert module_for_agent("learner", Episode("a"), pool_size=4) == "learner"
    chosen = {module_for_agent("opponent_1", Episode(str(i)), pool_size=4) for i in range(60)}
    assert chosen == set(pool)  # every member of the pool plays
    assert module_for_agent("opponent_2", Episode("x"), pool_size=4) == module_for_agent(
        "opponent_2", Episode("x"), pool_size=4
    )
    with pytest.raises(ValueError, match="unknown agent id 'seat_3'"):
        module_for_agent("seat_3", Episode("x"), pool_size=4)


def test_all_weights_zero_is_refused():
    with pytest.raises(ValueError, match="all 0"):
        RoleDealtGame({"game": "tequila", "num_players": 2, "baselines": {}, "self_play_weight": 0.0})


# ---------------------------------------------------------------------------------- the config
@pytest.mark.parametrize(
    ("override", "expected"),
    [
        ("backend=ray", "field 'backend': Input should be 'sb3' or 'rllib'"),
        ("rllib.num_env_runners=-1", "field 'rllib.num_env_runners': Input should be greater than or equal to 0"),
        ("rllib.adress=auto", "unknown field 'rllib.adress'; did you mean 'address'?"),
        ("rllib.address=http://head", "field 'rllib.address': not a Ray address: 'http://head'; allowed: local, auto"),
        ("pretrain={teacher: greedy}", "field 'pretrain': the rllib backend has no behaviour cloning"),
        ("reward_shaping=1.0", "field 'reward_shaping': the rllib backend trains on the game's reward"),
    ],
)
def test_bad_rllib_fields_name_the_field_and_what_is_allowed(override, expected):
    from fiesta_envs.training.config import ConfigError, load_config

    with pytest.raises(ConfigError) as error:
        load_config(CONFIGS / "fiesta_mexicana" / "ppo_rllib.yaml", [override])
    assert expected in str(error.value)


@pytest.mark.parametrize("address", [None, "local", "auto", "10.0.0.2:6379", "ray://head.example:10001"])
def test_ray_addresses_that_are_accepted(address):
    from fiesta_envs.training.config import load_config

    config = load_config(CONFIGS / "fiesta_mexicana" / "ppo_rllib.yaml", [f"rllib.address={address or 'null'}"])
    assert config.backend == "rllib" and config.rllib.address == address


# ---------------------------------------------------------------------------------- checkpoints
def test_a_policy_only_checkpoint_evaluates_and_refuses_to_resume_as_sb3(tmp_path):
    from fiesta_envs.evaluation.checkpoints import CheckpointError, CheckpointPolicy, load_model, read_meta
    from fiesta_envs.evaluation.evaluate import evaluate_against_baselines
    from fiesta_envs.registry import make_aec_env
    from fiesta_envs.training.checkpoint import save_policy_checkpoint
    from fiesta_envs.training.rllib_train import actor_from_state

    env = make_aec_env("tortilla_de_patatas", num_players=2)
    env.reset(seed=0)
    inputs = env.observation_space("player_0")["observation"].shape[0]
    actions = env.action_space("player_0").n
    rng = np.random.default_rng(0)
    state = {  # a MaskedActorCritic state dict as RLlib's learner group returns it (numpy arrays)
        "actor.0.weight": rng.normal(size=(8, inputs)).astype(np.float32),
        "actor.0.bias": np.zeros(8, np.float32),
        "actor.2.weight": rng.normal(size=(actions, 8)).astype(np.float32),
        "actor.2.bias": np.zeros(actions, np.float32),
        "critic.0.weight": np.zeros((8, inputs), np.float32),
    }
    actor = actor_from_state(state, "tanh")
    observation = rng.normal(size=inputs).astype(np.float32)
    expected = np.tanh(observation @ state["actor.0.weight"].T) @ state["actor.2.weight"].T
    np.testing.assert_allclose(actor.logits(observation), expected, rtol=1e-5, atol=1e-5)

    meta = {"game": "tortilla_de_patatas", "num_players": 2, "options": {}, "seed": 0, "backend": "rllib"}
    written = save_policy_checkpoint(actor, tmp_path, 100, meta, lambda d: (d / "rllib").mkdir())
    assert sorted(p.name for p in written.iterdir()) == ["config.yaml", "meta.json", "policy.npz", "rllib"]
    assert read_meta(tmp_path)["sha256"] is None
    policy = CheckpointPolicy(tmp_path, game="tortilla_de_patatas", num_players=2)
    assert isinstance(policy.actor, ActorSnapshot)
    results = evaluate_against_baselines(
        "tortilla_de_patatas", 2, str(tmp_path), ["random"], games_per_baseline=2, seed=0
    )
    assert results[0].games == 2
    with pytest.raises(CheckpointError, match="holds the policy only"):
        load_model(tmp_path)
    (written / "policy.npz").write_bytes(b"damaged")
    with pytest.raises(CheckpointError, match="does not match the SHA-256"):
        read_meta(tmp_path)


# ---------------------------------------------------------------------------------- with Ray (marker rllib)
@pytest.mark.rllib
def test_the_module_masks_illegal_actions_and_its_snapshot_gives_the_same_logits():
    torch = pytest.importorskip("torch")
    pytest.importorskip("ray.rllib")
    from ray.rllib.core.columns import Columns

    from fiesta_envs.training.rllib_module import MaskedActorCritic
    from fiesta_envs.training.rllib_train import actor_from_state

    env = RoleDealtGame({"game": "tortilla_de_patatas", "num_players": 2, "baselines": {"random": 1.0}})
    observations, _ = env.reset(seed=0)
    observation = observations[LEARNER]
    module = MaskedActorCritic(
        observation_space=env.observation_spaces[LEARNER],
        action_space=env.action_spaces[LEARNER],
        model_config={"hidden": [32, 16], "activation": "relu"},
    )
    batch = {Columns.OBS: {key: torch.as_tensor(value)[None] for key, value in observation.items()}}
    logits = module.forward_exploration(batch)[Columns.ACTION_DIST_INPUTS][0].detach().numpy()
    legal = observation[ACTION_MASK] > 0
    assert (logits[~legal] < -1e30).all()
    snapshot = actor_from_state(module.state_dict(), "relu")
    np.testing.assert_allclose(snapshot.logits(observation[OBSERVATIONS])[legal], logits[legal], rtol=1e-4, atol=1e-5)
    assert module.compute_values(batch).shape == (1,)


@pytest.mark.rllib
def test_two_env_runners_learn_to_beat_random_and_the_checkpoint_plays_without_ray(tmp_path):
    """Tortilla de Patatas, 2 players, against `random` only: 8,192 steps on two env runners of a local Ray
    instance take the learner from its untrained network to winning most games, and its checkpoint is a
    ``CheckpointPolicy`` (policy.npz, no Ray, no pickle)."""
    pytest.importorskip("ray.rllib")
    from fiesta_envs.evaluation.checkpoints import CheckpointPolicy, latest_checkpoint, read_meta
    from fiesta_envs.training.config import validate_config
    from fiesta_envs.training.rllib_train import PROGRESS_LOG, RllibTrainer

    config = validate_config(
        {
            "game": "tortilla_de_patatas",
            "num_players": 2,
            "seed": 0,
            "backend": "rllib",
            "total_timesteps": 8192,
            "n_envs": 2,
            "rllib": {"num_env_runners": 2, "address": "local"},
            "ppo": {
                "learning_rate": 1e-3,
                "n_steps": 512,
                "batch_size": 256,
                "n_epochs": 4,
                "ent_coef": 0.0,
                "net_arch": [64, 64],
            },
            "opponents": {"baselines": {"random": 1.0}},
            "checkpoint_every": 8192,
            "final_eval": {"games": 200, "baselines": ["random"]},
            "progress_bar": False,
        }
    )
    (row,) = RllibTrainer(config, tmp_path).run()
    assert row.opponent == "random" and row.games == 200
    assert row.ci_low > 0.6, row  # random against random wins half
    meta = read_meta(tmp_path)
    assert meta["backend"] == "rllib" and meta["step"] >= 8192 and meta["sha256"] is None
    assert (Path(meta["path"]) / "rllib").is_dir()  # RLlib's state, for --resume
    policy = CheckpointPolicy(latest_checkpoint(tmp_path), game="tortilla_de_patatas", num_players=2)
    assert policy.actor.layer_sizes[1:3] == [64, 64]
    progress = (tmp_path / PROGRESS_LOG).read_text().splitlines()
    assert len(progress) >= 8


@pytest.mark.rllib
def test_snapshots_replace_the_oldest_frozen_module_on_every_env_runner(tmp_path):
    """Self-play: after the snapshot at 1,024 steps and the one at 2,048 (pool of 2), the env runners' frozen_1
    holds the learner's final weights and frozen_0 the earlier ones; the learner group agrees."""
    pytest.importorskip("ray.rllib")
    from ray.rllib.utils.numpy import convert_to_numpy

    from fiesta_envs.training.config import validate_config
    from fiesta_envs.training.rllib_train import RllibTrainer

    seen: dict[str, Any] = {}

    class Inspecting(RllibTrainer):
        def _final_evaluation(self) -> Any:
            seen["learner"] = self.learner_state()
            seen["group"] = convert_to_numpy(self.algo.learner_group.get_weights(module_ids=["frozen_0", "frozen_1"]))
            seen["runners"] = self.algo.env_runner_group.foreach_env_runner(
                lambda runner: convert_to_numpy({m: runner.module[m].get_state() for m in ("frozen_0", "frozen_1")}),
                local_env_runner=False,
            )
            return []

    config = validate_config(
        {
            "game": "tortilla_de_patatas",
            "num_players": 2,
            "backend": "rllib",
            "total_timesteps": 2048,
            "n_envs": 2,
            "rllib": {"num_env_runners": 1, "address": "local"},
            "ppo": {"n_steps": 512, "batch_size": 256, "n_epochs": 1, "net_arch": [16]},
            "opponents": {"baselines": {}, "self_play": {"weight": 1.0, "snapshot_every": 1024, "pool_size": 2}},
            "checkpoint_every": 2048,
            "final_eval": {"games": 0},
            "progress_bar": False,
        }
    )
    Inspecting(config, tmp_path).run()
    key = "actor.0.weight"
    final = seen["learner"][key]
    np.testing.assert_array_equal(seen["group"]["frozen_1"][key], final)
    assert not np.array_equal(seen["group"]["frozen_0"][key], final)
    for runner in seen["runners"]:
        np.testing.assert_array_equal(runner["frozen_1"][key], final)
        np.testing.assert_array_equal(runner["frozen_0"][key], seen["group"]["frozen_0"][key])
