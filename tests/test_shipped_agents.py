"""Shipped agents (``ppo``): exported from a checkpoint, played without torch, refused when they do not fit.

The tests export a tiny trained Fiesta Mexicana model into a temporary weights folder and point
the loader at it (``weights_dir=`` or ``$FIESTA_ENVS_WEIGHTS``). The last test goes over every
agent really shipped in ``fiesta_envs/agents/weights/``: each must load without torch, play
legal games and beat ``random``.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import fiesta_envs
from fiesta_envs.agents.shipped import (
    PACKAGE_WEIGHTS_DIR,
    WEIGHTS_ENV,
    ShippedAgentError,
    ShippedPolicy,
    check_shipped,
    has_shipped,
    shipped_agents,
    write_shipped_agent,
)
from fiesta_envs.core.errors import InvalidOptionError
from fiesta_envs.fiesta_mexicana.game import FiestaMexicana
from fiesta_envs.fiesta_mexicana.observation import observation_size
from fiesta_envs.policies.mlp import ActorSnapshot
from fiesta_envs.policies.policy import RandomPolicy
from fiesta_envs.registry import GAMES, make_gym_env, make_policy

REPO = Path(__file__).resolve().parents[1]
GAME = "fiesta_mexicana"


# ---------------------------------------------------------------------------------- helpers
def play_games(policy, game_class, num_players, games, seed=0, options=None):
    """``policy`` in one seat (rotated), random elsewhere; every action is checked legal by ``step``."""
    wins = 0.0
    for index in range(games):
        game = game_class(num_players=num_players, seed=seed + index, **dict(options or {}))
        seat = index % num_players
        others = RandomPolicy(seed=seed + index)
        policy.start_episode(index)
        while not game.is_over:
            player = game.current_player
            actor = policy if player == seat else others
            game.step(actor.act(game.observe(player), game.legal_mask(), game, player))
        winners = game.winners()
        wins += 1 / len(winners) if seat in winners else 0.0
    return wins


def run_without_torch(code: str, weights_dir: Path | None) -> subprocess.CompletedProcess:
    """Run ``code`` in a fresh interpreter where ``import torch`` (and the RL libraries) fail."""
    blocker = "import sys\nfor _name in ('torch', 'stable_baselines3', 'sb3_contrib'):\n    sys.modules[_name] = None\n"
    env = {k: v for k, v in os.environ.items() if k != WEIGHTS_ENV}
    if weights_dir is not None:
        env[WEIGHTS_ENV] = str(weights_dir)
    return subprocess.run(
        [sys.executable, "-c", blocker + textwrap.dedent(code)],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def copy_weights(source: Path, target: Path) -> Path:
    shutil.copytree(source, target, dirs_exist_ok=True)  # with the subfolders of agents named other than ppo
    return target


# ---------------------------------------------------------------------------------- fixtures
@pytest.fixture(scope="module")
def checkpoint(tmp_path_factory):
    """A MaskablePPO trained for a few steps on 2-player Fiesta Mexicana, saved as a checkpoint."""
    pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO

    from fiesta_envs.training.checkpoint import save_checkpoint

    env = make_gym_env(GAME, num_players=2, opponents="random")
    model = MaskablePPO(
        "MlpPolicy", env, n_steps=64, batch_size=64, n_epochs=1, seed=0, device="cpu", policy_kwargs={"net_arch": [32]}
    )
    model.learn(128)
    run_dir = tmp_path_factory.mktemp("fm_run")
    config = {"game": GAME, "num_players": 2, "total_timesteps": 128, "ppo": {"net_arch": [32]}, "seed": 0}
    meta = {"game": GAME, "num_players": 2, "options": {}, "seed": 0, "config": config, "algorithm": "MaskablePPO"}
    return save_checkpoint(model, run_dir, 128, meta)


@pytest.fixture(scope="module")
def weights(checkpoint, tmp_path_factory):
    """The checkpoint exported into a weights folder of its own."""
    from fiesta_envs.training.export import export_checkpoint

    out = tmp_path_factory.mktemp("weights")
    export_checkpoint(checkpoint, out_dir=out, command="fiesta train --config configs/smoke.yaml")
    return out


# ---------------------------------------------------------------------------------- export
def test_export_writes_weights_and_a_description(checkpoint, tmp_path, capsys):
    from fiesta_envs.cli import main
    from fiesta_envs.evaluation.checkpoints import read_meta

    evaluation = tmp_path / "results.json"
    evaluation.write_text(json.dumps({"matches": [{"agent": "ppo", "opponent": "random", "win_rate": 0.5}]}))
    out = tmp_path / "weights"
    command = "fiesta train --config configs/smoke.yaml --set total_timesteps=128"
    argv = ["export", str(checkpoint.parent.parent), "--name", "ppo", "--out", str(out)]
    assert main([*argv, "--eval-json", str(evaluation), "--command", command]) == 0
    printed = capsys.readouterr().out
    npz, description = out / "fiesta_mexicana-2p.npz", out / "fiesta_mexicana-2p.json"
    assert f"wrote {npz} (" in printed and f"wrote {description} (" in printed
    assert f"{FiestaMexicana(num_players=2).observation_size} -> 32 -> 90" in printed

    info = json.loads(description.read_text())
    game = FiestaMexicana(num_players=2)
    assert info["game"] == GAME and info["num_players"] == 2 and info["agent"] == "ppo"
    assert info["options"] == game.config  # all options, defaults filled in
    assert info["environment"] == "fiesta_envs/FiestaMexicana-v1"  # the environment it was trained on
    assert info["version"] == FiestaMexicana.version
    assert info["observation_size"] == info["plain_observation_size"] == game.observation_size
    assert info["num_actions"] == game.num_actions
    assert info["network"] == {"layers": [game.observation_size, 32, game.num_actions],
                               "activations": ["tanh", "identity"],
                               "parameters": (game.observation_size + 1) * 32 + 33 * game.num_actions}  # fmt: skip
    assert info["steps"] == 128 and info["seed"] == 0 and info["command"] == command
    assert info["evaluation"]["results"]["matches"][0]["win_rate"] == 0.5
    assert info["training"]["summary"]["ppo"] == {"net_arch": [32]}
    assert info["training"]["checkpoint_sha256"] == read_meta(checkpoint)["sha256"]
    assert info["npz_bytes"] == npz.stat().st_size
    from fiesta_envs.files.saved_files import sha256_of

    assert info["sha256"] == sha256_of(npz)
    with np.load(npz, allow_pickle=False) as data:
        assert sorted(data.files) == ["activations", "b0", "b1", "w0", "w1"]

    # an existing agent is only replaced with --force
    assert main(argv) == 2
    assert "already exists" in capsys.readouterr().err
    assert main([*argv, "--force"]) == 0

    # only a shortlist agent plays other player counts
    assert main([*argv, "--force", "--also-plays", "3,4"]) == 2
    assert "with --also-plays: only a shortlist agent (trained with 'shortlist: true')" in capsys.readouterr().err
    assert "also_plays" not in json.loads(description.read_text())
    with pytest.raises(SystemExit):
        main([*argv, "--force", "--also-plays", "three"])
    assert "player counts are whole numbers (5 6 7 or 5,6,7), got 'three'" in capsys.readouterr().err


def test_an_agent_of_another_name_ships_in_its_own_subfolder(checkpoint, tmp_path, monkeypatch, capsys):
    from fiesta_envs.agents.registry import agent_names
    from fiesta_envs.cli import main
    from fiesta_envs.evaluation.evaluate import run_tournament
    from fiesta_envs.registry import game_spec

    out = tmp_path / "weights"
    argv = ["export", str(checkpoint.parent.parent), "--name", "against_search", "--out", str(out)]
    assert main(argv) == 0
    description = out / "against_search" / "fiesta_mexicana-2p.json"
    assert f"wrote {description} (" in capsys.readouterr().out
    assert json.loads(description.read_text())["agent"] == "against_search"
    assert not (out / "fiesta_mexicana-2p.json").exists()  # no ppo agent was written
    assert main(argv) == 2 and "already exists" in capsys.readouterr().err

    monkeypatch.setenv(WEIGHTS_ENV, str(out))
    assert "against_search" in agent_names(game_spec(GAME)) and "ppo" not in agent_names(game_spec(GAME))
    evaluation = run_tournament(GAME, 2, ["against_search", "random"], games_per_table=2, seed=0, progress=False)
    assert [(a.label, a.kind) for a in evaluation.agents] == [("against_search", "shipped"), ("random", "baseline")]
    message = "no shipped 'ppo' agent for this game yet; allowed: against_search, greedy, random, search"
    with pytest.raises(InvalidOptionError, match=message):
        make_policy(GAME, "ppo")


def test_export_refuses_a_network_that_is_not_a_plain_mlp(tmp_path):
    pytest.importorskip("sb3_contrib")
    import torch
    from sb3_contrib import MaskablePPO

    from fiesta_envs.training.checkpoint import save_checkpoint
    from fiesta_envs.training.export import ExportError, export_checkpoint

    env = make_gym_env(GAME, num_players=2, opponents="random")
    model = MaskablePPO(
        "MlpPolicy", env, n_steps=64, seed=0, policy_kwargs={"net_arch": [8], "activation_fn": torch.nn.ELU}
    )
    path = save_checkpoint(model, tmp_path / "run", 0, {"game": GAME, "num_players": 2, "options": {}, "config": {}})
    assert not (path / "policy.npz").exists()  # only plain MLPs get a pickle-free copy
    with pytest.raises(ExportError, match="unpickles Python objects"):
        export_checkpoint(path, out_dir=tmp_path / "weights")
    with pytest.raises(ExportError, match="not a plain MLP: cannot freeze a policy layer of type ELU"):
        export_checkpoint(path, out_dir=tmp_path / "weights", trust_checkpoint=True)
    assert not (tmp_path / "weights").exists() or not any((tmp_path / "weights").iterdir())


# ---------------------------------------------------------------------------------- playing
def test_the_shipped_agent_plays_the_checkpoints_moves(checkpoint, weights):
    from fiesta_envs.evaluation.checkpoints import CheckpointPolicy

    shipped = ShippedPolicy(GAME, weights_dir=weights)
    trained = CheckpointPolicy(checkpoint, game=GAME, num_players=2)
    game = FiestaMexicana(num_players=2, seed=3)
    rng = np.random.default_rng(0)
    compared = 0
    while not game.is_over:
        player, mask = game.current_player, game.legal_mask()
        observation = game.observe(player)
        action = shipped.act(observation, mask, game, player)
        assert action == trained.act(observation, mask, game, player)
        compared += 1
        game.step(action if rng.random() < 0.5 else int(rng.choice(np.flatnonzero(mask))))
    assert compared > 30


def test_the_shipped_agent_plays_legal_full_games(weights):
    policy = ShippedPolicy(GAME, weights_dir=weights)
    wins = play_games(policy, FiestaMexicana, 2, games=4)
    assert 0 <= wins <= 4
    sampling = ShippedPolicy(GAME, sample=True, seed=1, weights_dir=weights)
    play_games(sampling, FiestaMexicana, 2, games=2)


def test_gymnasium_evaluate_and_play_accept_ppo(weights, monkeypatch):
    import gymnasium

    from fiesta_envs.evaluation.agents import AgentError
    from fiesta_envs.evaluation.evaluate import run_tournament
    from fiesta_envs.tools.play import play

    monkeypatch.setenv(WEIGHTS_ENV, str(weights))
    env = gymnasium.make("fiesta_envs/FiestaMexicana-v1", opponents="ppo", seat=0)
    assert isinstance(env.unwrapped.opponents[0], ShippedPolicy)
    _, info = env.reset(seed=0)
    done = False
    while not done:
        _, reward, done, _, info = env.step(int(np.flatnonzero(info["action_mask"])[-1]))
    assert reward in (-1.0, 0.0, 1.0)

    with pytest.raises(
        InvalidOptionError, match=r"^fiesta_mexicana: no shipped 'ppo' agent for 3 players; shipped: 2 players$"
    ):
        gymnasium.make("fiesta_envs/FiestaMexicana-v1", num_players=3, opponents="ppo")
    with pytest.raises(InvalidOptionError, match="variant='confirmed_waiters'; shipped: 2 players"):
        make_gym_env(GAME, opponents="ppo", variant="confirmed_waiters")

    # the name appears in messages only for games that ship an agent
    with pytest.raises(InvalidOptionError, match="allowed: greedy, ppo, random"):
        make_policy(GAME, "grandmaster")
    with pytest.raises(InvalidOptionError, match="tortilla_de_patatas: no shipped 'ppo' agent for this game yet"):
        make_policy("tortilla_de_patatas", "ppo")
    assert has_shipped(GAME) and not has_shipped("tortilla_de_patatas")

    evaluation = run_tournament(GAME, 2, ["ppo", "random"], games_per_table=2, seed=0, bootstrap=10, progress=False)
    assert [(a.label, a.kind) for a in evaluation.agents] == [("ppo", "shipped"), ("random", "baseline")]
    assert evaluation.matches[0].games == 2
    with pytest.raises(AgentError, match="no shipped 'ppo' agent for 4 players; shipped: 2 players"):
        run_tournament(GAME, 4, ["ppo", "random"], games_per_table=4, progress=False)
    with pytest.raises(AgentError, match="tequila: no shipped 'ppo' agent for 2 players; shipped: none"):
        run_tournament("tequila", 2, ["ppo", "random"], games_per_table=2, progress=False)

    out = io.StringIO()
    assert play(GAME, 2, ["ppo"], seat=0, seed=4, stdin=io.StringIO("1\n" * 400), stdout=out) == 0
    assert "player_1 (ppo): " in out.getvalue()


def test_loading_needs_no_torch(weights):
    result = run_without_torch(
        """
        import gymnasium, numpy as np
        import fiesta_envs
        env = gymnasium.make("fiesta_envs/FiestaMexicana-v1", opponents="ppo", seat=1)
        for seed in range(2):
            _, info = env.reset(seed=seed)
            done = False
            while not done:
                _, reward, done, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        from fiesta_envs.agents import ShippedPolicy
        assert type(env.unwrapped.opponents[0]) is ShippedPolicy
        assert sys.modules["torch"] is None
        print("played without torch")
        """,
        weights,
    )
    assert result.returncode == 0, result.stderr
    assert "played without torch" in result.stdout


# ---------------------------------------------------------------------------------- refusals
def test_a_new_engine_version_with_another_observation_layout_is_refused(weights, monkeypatch):
    trained = FiestaMexicana.version  # Fiesta Mexicana's layout is named by its engine version
    monkeypatch.setattr(FiestaMexicana, "version", trained + 1)
    layouts = f"'fiesta_mexicana/v{trained}', this game has 'fiesta_mexicana/v{trained + 1}'"
    expected = f"trained on the observation layout {layouts}"
    with pytest.raises(ShippedAgentError, match=expected):
        check_shipped(FiestaMexicana, 2, weights_dir=weights)
    policy = ShippedPolicy(GAME, weights_dir=weights)  # lazy: refuses at its first move
    game = FiestaMexicana(num_players=2, seed=0)
    with pytest.raises(ShippedAgentError, match="retrain"):
        policy.act(game.observe(0), game.legal_mask(), game, 0)


def test_an_agent_that_names_no_layout_plays_only_on_its_engine_version(weights, tmp_path, monkeypatch):
    folder = copy_weights(weights, tmp_path / "old")
    description = folder / "fiesta_mexicana-2p.json"
    info = json.loads(description.read_text())
    del info["observation_layout"]  # as agents exported before layouts were named
    description.write_text(json.dumps(info))
    check_shipped(FiestaMexicana, 2, weights_dir=folder)
    trained = FiestaMexicana.version
    monkeypatch.setattr(FiestaMexicana, "version", trained + 1)
    with pytest.raises(
        ShippedAgentError, match=f"retrain: trained on version {trained}, this is version {trained + 1}"
    ):
        check_shipped(FiestaMexicana, 2, weights_dir=folder)


def test_tortilla_agents_play_on_a_new_engine_version_with_the_layout_they_were_trained_on(tmp_path):
    from fiesta_envs.tortilla.game import TortillaDePatatas

    info = json.loads((PACKAGE_WEIGHTS_DIR / "tortilla_de_patatas-2p.json").read_text())
    assert info["version"] < TortillaDePatatas.version  # trained on v0: v1 changed only the 'observation' mode
    assert info["observation_layout"] == TortillaDePatatas(menu="day").observation_layout
    check_shipped(TortillaDePatatas, 2, {"menu": "day"})
    assert TortillaDePatatas(observation="observation").observation_layout == "tortilla_de_patatas/observation/v1"
    folder = copy_weights(PACKAGE_WEIGHTS_DIR, tmp_path / "moved")
    description = folder / "tortilla_de_patatas-2p.json"
    info["observation_layout"] = "tortilla_de_patatas/information_state/v9"
    description.write_text(json.dumps(info))
    with pytest.raises(
        ShippedAgentError, match="trained on the observation layout 'tortilla_de_patatas/information_state/v9'"
    ):
        check_shipped(TortillaDePatatas, 2, {"menu": "day"}, weights_dir=folder)


def test_a_wrong_observation_size_is_refused(weights, monkeypatch):
    size = FiestaMexicana.observation_size
    monkeypatch.setattr(FiestaMexicana, "observation_size", property(lambda self: size.fget(self) + 3))
    expected = f"observation size differs: trained on {observation_size(2)} plain observation entries"
    with pytest.raises(ShippedAgentError, match=expected):
        check_shipped(FiestaMexicana, 2, weights_dir=weights)


def test_a_corrupt_weights_file_is_refused(weights, tmp_path):
    folder = copy_weights(weights, tmp_path / "corrupt")
    npz = folder / "fiesta_mexicana-2p.npz"
    data = bytearray(npz.read_bytes())
    data[len(data) // 2] ^= 0xFF
    npz.write_bytes(bytes(data))
    with pytest.raises(
        ShippedAgentError, match=r"corrupt weights: fiesta_mexicana-2p.npz .* does not match the sha256"
    ):
        check_shipped(FiestaMexicana, 2, weights_dir=folder)
    npz.unlink()
    with pytest.raises(ShippedAgentError, match="weights file .* is missing"):
        check_shipped(FiestaMexicana, 2, weights_dir=folder)


def test_a_missing_player_count_names_what_is_shipped(weights):
    with pytest.raises(ShippedAgentError) as error:
        check_shipped(FiestaMexicana, 3, weights_dir=weights)
    assert str(error.value) == "fiesta_mexicana: no shipped 'ppo' agent for 3 players; shipped: 2 players"
    assert isinstance(error.value, InvalidOptionError)
    with pytest.raises(ShippedAgentError, match="shipped: none for this game"):
        check_shipped(GAMES["tequila"].game_class(), 2, weights_dir=weights)
    assert [a.num_players for a in shipped_agents(GAME, weights_dir=weights)] == [2]
    check_shipped(FiestaMexicana, 2, {"reward": "margin"}, weights_dir=weights)  # the reward never matters


# ---------------------------------------------------------------------------------- action features
def _random_actor(inputs: int, outputs: int, seed: int = 0) -> ActorSnapshot:
    rng = np.random.default_rng(seed)
    weights = [rng.normal(0, 0.3, (inputs, 16)), rng.normal(0, 0.3, (16, outputs))]
    biases = [rng.normal(0, 0.1, 16), rng.normal(0, 0.1, outputs)]
    return ActorSnapshot(weights, biases, ["relu", "identity"])


@pytest.mark.skipif(
    "action_features" not in FiestaMexicana.options, reason="FiestaMexicana has no action_features option yet"
)
def test_an_env_without_action_features_feeds_a_policy_trained_with_them(tmp_path):
    with_features = FiestaMexicana(num_players=2, action_features=True)
    plain = FiestaMexicana(num_players=2)
    assert with_features.observation_size > plain.observation_size
    actor = _random_actor(with_features.observation_size, plain.num_actions)
    npz, description = write_shipped_agent(
        actor, FiestaMexicana, 2, options={"action_features": True}, out_dir=tmp_path
    )
    info = json.loads(description.read_text())
    assert npz.name == "fiesta_mexicana-2p.npz" and info["options"]["action_features"] is True
    assert info["observation_size"] == with_features.observation_size
    assert info["plain_observation_size"] == plain.observation_size
    assert info["action_features_size"] == with_features.action_features_size

    # the same game twice, one with the features in its observation: the network sees the same input
    policy = ShippedPolicy(GAME, weights_dir=tmp_path)
    twin = FiestaMexicana(num_players=2, seed=5, action_features=True)
    game = FiestaMexicana(num_players=2, seed=5)
    while not game.is_over:
        player = game.current_player
        built = policy.network_input(game.observe(player), game, player)
        np.testing.assert_array_equal(built, twin.observe(player))
        action = policy.act(game.observe(player), game.legal_mask(), game, player)
        assert game.legal_mask()[action]
        game.step(action)
        twin.step(action)

    env = make_gym_env(GAME, opponents=ShippedPolicy(GAME, weights_dir=tmp_path))  # made without the option
    _, info = env.reset(seed=0)
    done = False
    while not done:
        _, _, done, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))


@pytest.mark.skipif(
    "action_features" not in FiestaMexicana.options, reason="FiestaMexicana has no action_features option yet"
)
def test_an_env_with_action_features_feeds_a_policy_trained_without(weights):
    policy = ShippedPolicy(GAME, weights_dir=weights)
    game = FiestaMexicana(num_players=2, seed=1, action_features=True)
    observation = game.observe(game.current_player)
    built = policy.network_input(observation, game, game.current_player)
    np.testing.assert_array_equal(built, observation[: game.observation_size - game.action_features_size])
    play_games(policy, FiestaMexicana, 2, games=1, options={"action_features": True})


# ---------------------------------------------------------------------------------- what is really shipped
def _package_agents() -> list:
    """Every shipped agent's JSON: ``ppo`` in the weights folder, the other names in their subfolders."""
    folder = PACKAGE_WEIGHTS_DIR
    paths = sorted([*folder.glob("*.json"), *folder.glob("*/*.json")]) if folder.is_dir() else []
    if not paths:
        return [pytest.param(None, id="none", marks=pytest.mark.skip(reason="no shipped agents yet"))]
    return [pytest.param(path, id=str(path.relative_to(folder).with_suffix(""))) for path in paths]


def test_every_shipped_file_is_where_its_name_says():
    for param in _package_agents():
        path = param.values[0]
        if path is not None:
            name = json.loads(path.read_text())["agent"]
            assert path.parent == (PACKAGE_WEIGHTS_DIR if name == "ppo" else PACKAGE_WEIGHTS_DIR / name), path


BEATS_RANDOM = """
    import json
    import numpy as np
    from fiesta_envs.agents.shipped import ShippedPolicy, check_shipped, PACKAGE_WEIGHTS_DIR
    from fiesta_envs.policies.policy import RandomPolicy
    from fiesta_envs.registry import game_spec

    info = json.loads((PACKAGE_WEIGHTS_DIR / NAME).read_text())
    game_class = game_spec(info["game"]).game_class()
    n, options = info["num_players"], info["options"]
    check_shipped(game_class, n, options, name=info["agent"])  # the package's own folder
    policy, opponents = ShippedPolicy(info["game"], info["agent"]), RandomPolicy(seed=0)

    def play(seed, seats):
        game = game_class(num_players=n, seed=seed, **options)
        for p in (policy, opponents):
            p.start_episode(seed)
        while not game.is_over:
            player = game.current_player
            actor = policy if player in seats else opponents
            game.step(actor.act(game.observe(player), game.legal_mask(), game, player))  # refuses illegal moves
        return game

    wins = 0.0
    for index in range(10):
        seed = 1000 + index
        if game_class.cooperative:  # a team of the agent against a team of random, on the same deal
            ours, theirs = play(seed, range(n)).scores()[0], play(seed, ()).scores()[0]
            wins += 1.0 if ours > theirs else 0.5 if ours == theirs else 0.0
        else:
            game = play(seed, (index % n,))
            winners = game.winners()
            wins += 1 / len(winners) if index % n in winners else 0.0
    assert sys.modules["torch"] is None
    print(json.dumps({"wins": wins}))
"""


@pytest.mark.parametrize("description", _package_agents())
def test_every_shipped_agent_loads_without_torch_and_beats_random(description):
    name = str(description.relative_to(PACKAGE_WEIGHTS_DIR))
    result = run_without_torch(f"NAME = {name!r}\n" + textwrap.dedent(BEATS_RANDOM), None)
    assert result.returncode == 0, result.stderr
    wins = json.loads(result.stdout.strip().splitlines()[-1])["wins"]
    assert wins >= 7, f"{description.stem} won only {wins} of 10 seat-rotated games against random"


def test_the_package_folder_is_the_default(monkeypatch):
    from fiesta_envs.agents.shipped import weights_directory

    monkeypatch.delenv(WEIGHTS_ENV, raising=False)
    assert weights_directory() == PACKAGE_WEIGHTS_DIR == Path(fiesta_envs.__file__).parent / "agents" / "weights"
    monkeypatch.setenv(WEIGHTS_ENV, "/somewhere/else")
    assert weights_directory() == Path("/somewhere/else")


def test_league_names_are_still_importable():
    from fiesta_envs.training.league import ActorSnapshot as LeagueSnapshot
    from fiesta_envs.training.league import masked_choice

    assert LeagueSnapshot is ActorSnapshot
    assert masked_choice(np.array([3.0, 1.0, 2.0]), np.array([0, 1, 1]), None) == 2
