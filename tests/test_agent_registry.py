"""The agent registry (``fiesta_envs.agents.registry``): every spec form becomes a policy, everywhere agents are
taken -- evaluation, play, the Gymnasium environment's opponents, training's opponents and teacher."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest

from fiesta_envs.agents.registry import AgentError, resolve_agent
from fiesta_envs.agents.shipped import ShippedPolicy
from fiesta_envs.policies.policy import CallablePolicy, Policy
from fiesta_envs.registry import GAMES, make_policy

ROOT = Path(__file__).resolve().parent.parent
SMOKE = ROOT / "configs" / "smoke.yaml"
TORTILLA = GAMES["tortilla_de_patatas"]
MEXICANA = GAMES["fiesta_mexicana"]


# ---------------------------------------------------------------------- names with options
def test_baseline_names_with_options_the_shipped_agent_and_search():
    assert resolve_agent(MEXICANA, 2, "greedy:version=1").make(MEXICANA, 2).version == 1
    assert isinstance(resolve_agent(MEXICANA, 2, "ppo").make(MEXICANA, 2), ShippedPolicy)
    source = resolve_agent(TORTILLA, 2, "search:budget=16")
    assert (source.kind, source.label, source.make(TORTILLA, 2).budget) == ("baseline", "search:budget=16", 16)
    labelled = resolve_agent(TORTILLA, 2, "old=careful:version=1")
    assert (labelled.label, labelled.make(TORTILLA, 2).version) == ("old", 1)
    with pytest.raises(AgentError, match="did you mean 'careful'"):
        resolve_agent(TORTILLA, 2, "carefull")
    with pytest.raises(AgentError, match="options are written NAME:KEY=VALUE"):
        resolve_agent(TORTILLA, 2, "careful:foo")  # an agent's name before ':' is never read as an import


# ---------------------------------------------------------------------- training
def test_training_accepts_any_agent_spec_as_teacher_and_opponent():
    from fiesta_envs.training.config import ConfigError, load_config

    config = load_config(SMOKE, ["pretrain={teacher: ppo, games: 2}", "opponents.baselines={ppo: 1.0}"])
    assert config.pretrain.teacher == "ppo" and config.pretrain_opponents == {"ppo": 1.0}
    assert load_config(SMOKE, ["pretrain={teacher: 'search:budget=4', games: 2}"]).pretrain.teacher
    with pytest.raises(ConfigError, match=r"pretrain\.teacher.*unknown agent 'ppo:x=1'|takes no options"):
        load_config(SMOKE, ["pretrain={teacher: 'ppo:x=1'}"])
    with pytest.raises(ConfigError, match=r"field 'opponents\.baselines'.*no shipped 'ppo' agent for 3 players"):
        load_config(SMOKE, ["num_players=3", "opponents.baselines={ppo: 1.0}"])


def test_the_shipped_agent_teaches_and_plays_as_a_training_opponent():
    pytest.importorskip("sb3_contrib")
    from fiesta_envs.training.config import load_config
    from fiesta_envs.training.pretrain import collect_decisions
    from fiesta_envs.training.train import env_factory

    config = load_config(SMOKE, ["pretrain={teacher: ppo, games: 2}", "opponents.baselines={ppo: 1.0}"])
    decisions = collect_decisions(config, env_factory(config, [], pretraining=True), seed=3)
    teacher = ShippedPolicy("fiesta_mexicana")
    env = env_factory(config, [], pretraining=True)().unwrapped
    observation, _ = env.reset(seed=0)
    assert teacher.act(observation, env.game.legal_mask(), env.game, env.seat) in np.flatnonzero(env.action_masks())
    assert len(decisions.actions) > 10 and decisions.masks[np.arange(len(decisions.actions)), decisions.actions].all()
    league_env = env_factory(config, [])().unwrapped
    assert isinstance(league_env.opponents[0].baselines["ppo"][0], ShippedPolicy)


# ---------------------------------------------------------------------- Python objects
def _last_legal(observation, action_mask):
    return int(np.flatnonzero(action_mask)[-1])


class _First(Policy):
    def act(self, observation, action_mask, game, player):
        return int(np.flatnonzero(action_mask)[0])


def _factory(seed=None):
    return _First(seed=seed)


def test_python_objects_become_policies():
    assert isinstance(make_policy("tortilla_de_patatas", _last_legal), CallablePolicy)
    assert isinstance(make_policy("tortilla_de_patatas", _First), _First)
    assert isinstance(make_policy("tortilla_de_patatas", _factory), _First)
    ready = _First()
    assert make_policy("tortilla_de_patatas", ready) is ready
    with pytest.raises(AgentError, match="takes \\(observation, action_mask\\)"):
        make_policy("tortilla_de_patatas", lambda observation: 0)
    with pytest.raises(AgentError, match="an agent must be"):
        make_policy("tortilla_de_patatas", 42)


# ---------------------------------------------------------------------- checkpoints of our trainer
def _random_actor(inputs: int, outputs: int):
    from fiesta_envs.policies.mlp import ActorSnapshot

    rng = np.random.default_rng(0)
    weights = [rng.normal(size=(inputs, 8)).astype(np.float32), rng.normal(size=(8, outputs)).astype(np.float32)]
    return ActorSnapshot(weights, [np.zeros(8, np.float32), np.zeros(outputs, np.float32)], ["tanh", "identity"])


@pytest.fixture
def features_run(tmp_path):
    """A policy-only checkpoint of a network trained on Tortilla with ``action_features=true`` (more inputs than
    the default observation), its options in meta.json as the trainer writes them."""
    pytest.importorskip("yaml")
    from fiesta_envs.training.checkpoint import save_policy_checkpoint

    game = TORTILLA.game_class()(num_players=2, seed=0, action_features=True)
    run = tmp_path / "run"
    meta = {"game": TORTILLA.name, "num_players": 2, "options": dict(game.config), "seed": 0, "config": {}}
    path = save_policy_checkpoint(_random_actor(game.observation_size, game.num_actions), run, 64, meta)
    return run, path


def test_a_checkpoint_plays_with_the_options_its_meta_records(features_run, capsys):
    from fiesta_envs.cli import main
    from fiesta_envs.evaluation.evaluate import run_tournament

    run, path = features_run
    assert TORTILLA.game_class()(num_players=2, seed=0).observation_size < _observation_size_with_features()
    evaluation = run_tournament(
        TORTILLA.name, 2, [f"learner={path}", "careful"], games_per_table=2, bootstrap=10, progress=False
    )
    assert evaluation.options["action_features"] is False and evaluation.matches[0].games == 2
    out = run.parent / "evaluation"
    command = ["evaluate", "--game", TORTILLA.name, "--agents", f"learner={path},careful", "--games", "2"]
    assert main([*command, "--workers", "1", "--out", str(out), "--no-plot", "--bootstrap", "10"]) == 0
    assert "learner" in capsys.readouterr().out
    policy = make_policy(TORTILLA.name, str(run))  # the Gymnasium opponents' route: a run directory
    game = TORTILLA.game_class()(num_players=2, seed=1)
    assert policy.act(game.observe(0), game.legal_mask(), game, 0) in np.flatnonzero(game.legal_mask())


def _observation_size_with_features() -> int:
    return TORTILLA.game_class()(num_players=2, seed=0, action_features=True).observation_size


def test_an_evaluation_without_options_plays_the_rules_the_checkpoint_was_trained_on(tmp_path):
    from fiesta_envs.agents.registry import recorded_options
    from fiesta_envs.evaluation.evaluate import run_tournament
    from fiesta_envs.training.checkpoint import save_policy_checkpoint

    game = TORTILLA.game_class()(num_players=2, seed=0, menu="gourmet")
    meta = {"game": TORTILLA.name, "num_players": 2, "options": dict(game.config), "seed": 0, "config": {}}
    path = save_policy_checkpoint(_random_actor(game.observation_size, game.num_actions), tmp_path, 8, meta)
    assert recorded_options(TORTILLA, [f"mine={path}", "careful"])["menu"] == "gourmet"
    evaluation = run_tournament(TORTILLA.name, 2, [f"mine={path}", "careful"], games_per_table=2, progress=False)
    assert evaluation.options["menu"] == "gourmet"
    with pytest.warns(UserWarning, match="trained with options"):
        run_tournament(TORTILLA.name, 2, [str(path), "careful"], games_per_table=2, options={}, progress=False)


def test_a_network_that_fits_no_observation_is_refused_in_words(tmp_path):
    from fiesta_envs.training.checkpoint import save_policy_checkpoint

    game = TORTILLA.game_class()(num_players=2, seed=0)
    meta = {"game": TORTILLA.name, "num_players": 2, "options": {}, "seed": 0, "config": {}}
    path = save_policy_checkpoint(_random_actor(game.observation_size + 5, game.num_actions), tmp_path, 8, meta)
    with pytest.raises(AgentError, match=f"reads observations of {game.observation_size + 5} numbers"):
        resolve_agent(TORTILLA, 2, str(path))


def test_the_trainer_records_every_option_of_the_game():
    from fiesta_envs.training.config import checkpoint_meta, load_config

    options = checkpoint_meta(load_config(SMOKE, ["options={action_features: true}"]))["options"]
    assert options == MEXICANA.game_class()(num_players=2, seed=0, action_features=True).config


# ---------------------------------------------------------------------- files and modules
AGENT_FILE = """
import numpy as np
from fiesta_envs.policies.policy import Policy


class Highest(Policy):
    def act(self, observation, action_mask, game, player):
        return int(np.flatnonzero(action_mask)[-1])


instance = Highest()


def factory(seed=None):
    return Highest(seed=seed)


def policy(observation, action_mask):
    return int(np.flatnonzero(action_mask)[0])
"""


@pytest.mark.parametrize("attr", ["Highest", "instance", "factory", "policy"])
def test_an_attribute_of_a_python_file_is_an_agent(tmp_path, attr):
    from fiesta_envs.evaluation.evaluate import run_tournament

    path = tmp_path / "my_agent.py"
    path.write_text(AGENT_FILE)
    spec = f"mine={path}:{attr}"
    source = resolve_agent(TORTILLA, 2, spec)
    assert (source.label, source.kind) == ("mine", "import")
    evaluation = run_tournament(TORTILLA.name, 2, [spec, "careful"], games_per_table=2, bootstrap=10, progress=False)
    assert evaluation.matches[0].agent == "mine" and evaluation.matches[0].games == 2


def test_a_module_attribute_is_an_agent_and_a_missing_one_is_named(tmp_path, monkeypatch, capsys):
    import gymnasium

    from fiesta_envs.cli import main

    package = tmp_path / "my_agents"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "heuristics.py").write_text(AGENT_FILE)
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    assert resolve_agent(TORTILLA, 2, "my_agents.heuristics:Highest").label == "Highest"
    env = gymnasium.make("fiesta_envs/TortillaDePatatas-v1", opponents="my_agents.heuristics:policy", seat=0)
    assert isinstance(env.unwrapped.opponents[0], CallablePolicy)
    with pytest.raises(AgentError, match="has no 'Lowest'; it defines: .*Highest"):
        resolve_agent(TORTILLA, 2, "my_agents.heuristics:Lowest")
    with pytest.raises(AgentError, match="names a Python file; name the agent in it too: agent.py:ATTR"):
        (tmp_path / "agent.py").write_text(AGENT_FILE)
        resolve_agent(TORTILLA, 2, "agent.py")
    with pytest.raises(AgentError, match="agent file nowhere.py does not exist"):
        resolve_agent(TORTILLA, 2, "nowhere.py:policy")
    (tmp_path / "agent.py").write_text(AGENT_FILE)
    command = ["evaluate", "--game", TORTILLA.name, "--agents", "mine=agent.py:policy,careful", "--games", "2"]
    assert main([*command, "--workers", "1", "--out", str(tmp_path / "out"), "--no-plot", "--bootstrap", "10"]) == 0
    assert "mine" in capsys.readouterr().out


def test_a_plain_function_plays_a_tournament():
    from fiesta_envs.evaluation.evaluate import run_tournament

    evaluation = run_tournament(
        TORTILLA.name, 2, [_last_legal, "careful"], games_per_table=2, bootstrap=10, progress=False
    )
    assert evaluation.matches[0].agent == "_last_legal"


# ---------------------------------------------------------------------- stable-baselines3 models
@pytest.fixture(scope="module")
def user_models(tmp_path_factory):
    """A MaskablePPO and a PPO trained for a moment on Tortilla's Gymnasium id (2 players), and a MaskablePPO on
    Fiesta Mexicana's with 3 players, saved as a user would."""
    pytest.importorskip("sb3_contrib")
    import gymnasium
    from sb3_contrib import MaskablePPO
    from stable_baselines3 import PPO

    folder = tmp_path_factory.mktemp("models")
    paths = {}
    for name, algorithm, gym_id, players in (
        ("maskable", MaskablePPO, TORTILLA.gym_id, 2),
        ("plain", PPO, TORTILLA.gym_id, 2),
        ("three", MaskablePPO, MEXICANA.gym_id, 3),
    ):
        env = gymnasium.make(gym_id, num_players=players, opponents="random")
        model = algorithm("MlpPolicy", env, n_steps=32, batch_size=32, n_epochs=1, seed=0, device="cpu")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # plain PPO plays illegal actions while it learns
            model.learn(32)
        paths[name] = folder / f"{name}.zip"
        model.save(paths[name])
    return paths


def test_a_user_model_is_refused_untrusted_and_plays_trusted(user_models):
    from fiesta_envs.evaluation.evaluate import run_tournament

    with pytest.raises(AgentError, match="unpickles Python objects.*pass --trust-checkpoint"):
        resolve_agent(TORTILLA, 2, f"mine={user_models['maskable']}")
    for name in ("maskable", "plain"):
        evaluation = run_tournament(
            TORTILLA.name,
            2,
            [f"mine={user_models[name]}", "careful"],
            games_per_table=2,
            bootstrap=10,
            progress=False,
            trust_checkpoints=True,
        )
        assert evaluation.agents[0].kind == "sb3" and evaluation.matches[0].games == 2


def test_a_user_model_of_another_player_count_is_refused_in_words(user_models):
    three = MEXICANA.game_class()(num_players=3, seed=0).observation_size
    with pytest.raises(AgentError, match=f"reads observations of {three} numbers; fiesta_mexicana with 2 players"):
        resolve_agent(MEXICANA, 2, str(user_models["three"]), trust_checkpoints=True)
    with pytest.raises(AgentError, match="chooses among 90 actions, tortilla_de_patatas with 2 players has 54"):
        resolve_agent(TORTILLA, 2, str(user_models["three"]), trust_checkpoints=True)


def test_play_and_web_tables_seat_a_file_agent(tmp_path):
    import io

    from fiesta_envs.agents.registry import seat_agents
    from fiesta_envs.tools.play import play

    path = tmp_path / "my_agent.py"
    path.write_text(AGENT_FILE)
    seated = seat_agents(TORTILLA, 2, [1], [f"mine={path}:policy"], options={}, seed=0)  # fiesta serve's route
    assert seated[1][0] == "mine" and isinstance(seated[1][1], CallablePolicy)
    out = io.StringIO()
    play(TORTILLA.name, 2, [f"{path}:Highest"], seat=0, seed=1, stdin=io.StringIO("quit\n"), stdout=out)
    assert "You left the game" in out.getvalue()
