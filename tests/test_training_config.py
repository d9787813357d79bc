"""The training config: every mistake names the file, the field and what is allowed."""

from __future__ import annotations

from pathlib import Path

import pytest
from training_helpers import TOY_CONFIG, register_toys

from fiesta_envs.registry import GAMES
from fiesta_envs.training.config import (
    ConfigError,
    apply_overrides,
    config_to_dict,
    load_config,
    parse_yaml,
    validate_config,
)

CONFIGS = Path(__file__).resolve().parent.parent / "configs"


@pytest.fixture
def toy_file(tmp_path, monkeypatch):
    register_toys(monkeypatch)
    path = tmp_path / "toy.yaml"
    path.write_text(TOY_CONFIG)
    return path


def error_of(path, *overrides) -> str:
    with pytest.raises(ConfigError) as info:
        load_config(path, overrides)
    return str(info.value)


def test_a_valid_config_loads_with_defaults_filled_in(toy_file):
    config = load_config(toy_file)
    assert config.game == "toy_nim"
    assert config.ppo.learning_rate == 3e-3  # "3e-3" is a number, not YAML 1.1's string
    assert config.ppo.gamma == 0.99  # default
    assert config.opponents.baselines == {"random": 0.5, "take_one": 0.5}
    assert config.rollout_size == 128
    assert config.eval_baselines([]) == ["random", "take_one"]


def test_set_overrides_dotted_keys_with_yaml_values(toy_file):
    config = load_config(
        toy_file,
        [
            "ppo.learning_rate=1e-4",
            "ppo.net_arch=[8, 8, 8]",
            "seed=7",
            "opponents.baselines.random=2",
            "options.max_take=2",
        ],
    )
    assert config.ppo.learning_rate == 1e-4
    assert config.ppo.net_arch == [8, 8, 8]
    assert config.seed == 7
    assert config.opponents.baselines["random"] == 2.0
    assert config.options == {"max_take": 2}


def test_set_creates_missing_sections_and_does_not_touch_the_input():
    data = {"game": "x"}
    result = apply_overrides(data, ["eval.every=100", "final_eval.baselines=[random]"])
    assert result["eval"] == {"every": 100} and result["final_eval"] == {"baselines": ["random"]}
    assert data == {"game": "x"}


@pytest.mark.parametrize(
    ("override", "expected"),
    [
        ("nokey", "expected KEY=VALUE"),
        ("=3", "expected KEY=VALUE"),
        ("seed.x=1", "seed is an int, not a section"),
        ("ppo..n_steps=3", "not a dotted field name"),
        ("seed=[1", "not valid YAML"),
    ],
)
def test_malformed_set_overrides(toy_file, override, expected):
    assert expected in error_of(toy_file, override)


@pytest.mark.parametrize(
    ("override", "expected"),
    [
        # typos: did-you-mean and the allowed fields of that section
        ("ppo.learnig_rate=0.1", "unknown field 'ppo.learnig_rate'; did you mean 'learning_rate'?"),
        ("evall.every=3", "unknown field 'evall'; did you mean 'eval'?"),
        ("opponents.self_play.snapshot_evry=5", "did you mean 'snapshot_every'?"),
        # wrong types (no silent coercion)
        ("ppo.n_steps=abc", "field 'ppo.n_steps': Input should be a valid integer (got 'abc', a str)"),
        ("n_envs=true", "field 'n_envs': Input should be a valid integer (got True, a bool)"),
        ("ppo.net_arch=64", "field 'ppo.net_arch': Input should be a valid list"),
        # bad values
        ("ppo.activation=sigmoid", "field 'ppo.activation': Input should be 'tanh' or 'relu'"),
        ("ppo.gamma=1.5", "field 'ppo.gamma': Input should be less than or equal to 1"),
        ("total_timesteps=-5", "field 'total_timesteps': Input should be greater than or equal to 0 (got -5, an int)"),
        ("ppo.net_arch=[0]", "field 'ppo.net_arch.0': Input should be greater than 0"),
        ("reward_shaping=-1", "field 'reward_shaping': Input should be greater than or equal to 0"),
        ("vec_env=threads", "field 'vec_env': Input should be 'subproc' or 'dummy'"),
        ("ppo.batch_size=4096", "batch_size 4096 exceeds the rollout size n_steps x n_envs = 128 x 1 = 128"),
        # the game decides
        ("game=toy_nmi", "unknown game 'toy_nmi'; did you mean 'toy_nim'? allowed:"),
        ("num_players=5", "field 'num_players': toy_nim is played by 2, 3 players, not 5"),
        ("options.max_take=7", "field 'options': toy_nim: option max_take=7 is not allowed; allowed values: 2, 3"),
        ("options.foo=1", "field 'options': toy_nim: unknown option 'foo'"),
        ("opponents.baselines.greedy=1", "field 'opponents.baselines': toy_nim: unknown agent 'greedy'; allowed:"),
        ("eval.baselines=[rand]", "field 'eval.baselines': toy_nim: unknown agent 'rand'; did you mean 'random'?"),
        ("eval.baselines=[random:x=1]", "field 'eval.baselines': toy_nim: agent 'random' takes no options, got ['x']"),
        (
            "eval.baselines=[rand:x=1]",
            "field 'eval.baselines': toy_nim: unknown agent 'rand:x=1'; did you mean 'random'?",
        ),
    ],
)
def test_bad_fields_name_the_file_the_field_and_what_is_allowed(toy_file, override, expected):
    message = error_of(toy_file, override)
    assert str(toy_file) in message
    assert expected in message


def test_all_opponent_weights_zero_is_refused(toy_file):
    message = error_of(
        toy_file, "opponents.baselines.random=0", "opponents.baselines.take_one=0", "opponents.self_play.weight=0"
    )
    assert "must not all be 0" in message


def test_several_problems_are_listed_together(tmp_path, monkeypatch):
    register_toys(monkeypatch)
    path = tmp_path / "typo.yaml"
    path.write_text("gmae: toy_nim\ntotal_timesteps: 100\n")
    message = error_of(path)
    assert "2 problems" in message
    assert "field 'game' is required" in message
    assert "unknown field 'gmae'; did you mean 'game'?" in message


def test_missing_empty_broken_and_non_mapping_files(tmp_path):
    assert "config file not found" in error_of(tmp_path / "nope.yaml")
    assert "is not a file" in error_of(tmp_path)
    empty = tmp_path / "empty.yaml"
    empty.write_text("")
    assert "is empty" in error_of(empty)
    broken = tmp_path / "broken.yaml"
    broken.write_text("game: x\nppo: [1, 2\n")
    message = error_of(broken)
    assert str(broken) in message and "not valid YAML at line 3" in message
    listing = tmp_path / "list.yaml"
    listing.write_text("- a\n- b\n")
    assert "must be a YAML mapping" in error_of(listing)


def test_cooperative_games_take_no_scripted_opponents(toy_file):
    config = load_config(toy_file, ["game=toy_coop_nim", "opponents={}"])
    assert config.cooperative() and config.opponents.baselines == {}  # the default (random) is dropped
    message = error_of(toy_file, "game=toy_coop_nim")  # the toy file gives baselines explicitly
    assert "toy_coop_nim is cooperative" in message and "opponents.baselines" in message


def test_config_round_trips_through_plain_data(toy_file):
    config = load_config(toy_file)
    again = validate_config(parse_yaml(__import__("yaml").safe_dump(config_to_dict(config))))
    assert again == config


def test_num_players_defaults_to_the_games_default(toy_file):
    assert load_config(toy_file, ["num_players=null"]).num_players == 2


@pytest.mark.parametrize("path", sorted(CONFIGS.rglob("*.yaml")), ids=lambda p: str(p.relative_to(CONFIGS)))
def test_shipped_configs_are_valid(path):
    game = parse_yaml(path.read_text())["game"]
    if game not in GAMES:
        pytest.skip(f"{game} is not registered yet")
    try:
        GAMES[game].baseline_classes()
    except ImportError:
        pytest.skip(f"{game} is registered but not importable yet")
    config = load_config(path)
    assert config.game == game
    if path.parent.name == game and path.name == "ppo.yaml":  # the per-game default configs
        assert config.num_players == (4 if config.cooperative() else 2)


def test_a_solo_game_takes_no_opponents():
    solo = CONFIGS / "tequila" / "ppo_solo.yaml"
    assert load_config(solo).opponents.baselines == {}
    message = error_of(solo, "opponents.baselines.planner=1")
    assert "field 'opponents'" in message and "solo game of tequila has no opponents" in message
