"""Bad input to training and evaluation through the command line: malformed configs, truncated or
foreign checkpoints, and a training run killed while writing a checkpoint.

(The training and evaluation modules have their own detailed tests; these go through the
``fiesta`` command a user types, and the crash case through ``save_checkpoint`` itself.)
"""

from __future__ import annotations

import json

import pytest

pytest.importorskip("sb3_contrib")

from fiesta_envs import cli
from fiesta_envs.evaluation import checkpoints
from fiesta_envs.training import checkpoint as ckpt

GOOD_CONFIG = """\
game: fiesta_mexicana
num_players: 2
seed: 0
total_timesteps: 1024
n_envs: 1
"""


def _run(argv, capsys):
    try:
        status = cli.main(argv)
    except SystemExit as exit_:  # argparse errors
        status = exit_.code
    captured = capsys.readouterr()
    return status, captured.out + captured.err


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (GOOD_CONFIG.replace("n_envs: 1", "n_envz: 1"), "unknown field 'n_envz'; did you mean 'n_envs'"),
        (GOOD_CONFIG.replace("n_envs: 1", "n_envs: two"), "n_envs"),
        (GOOD_CONFIG.replace("fiesta_mexicana", "chess"), "unknown game 'chess'"),
        (GOOD_CONFIG.replace("num_players: 2", "num_players: 7"), "num_players"),
        (GOOD_CONFIG.replace("total_timesteps: 1024\n", ""), "'total_timesteps' is required"),
        ("game: [fiesta_mexicana\n", "not valid YAML"),
        ("- just\n- a list\n", "config"),
    ],
)
def test_malformed_configs_are_refused_naming_the_file_and_the_problem(tmp_path, capsys, text, expected):
    path = tmp_path / "broken.yaml"
    path.write_text(text)
    status, output = _run(["train", "--config", str(path)], capsys)
    assert status != 0
    assert expected in output
    assert "Traceback" not in output


def test_a_missing_config_file_is_a_clear_error(tmp_path, capsys):
    status, output = _run(["train", "--config", str(tmp_path / "nowhere.yaml")], capsys)
    assert status != 0
    assert "config file not found" in output


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    """A run directory with one real (untrained) Fiesta Mexicana checkpoint at step 64."""
    import gymnasium
    from sb3_contrib import MaskablePPO

    import fiesta_envs  # noqa: F401  (registers the ids)

    env = gymnasium.make("fiesta_envs/FiestaMexicana-v1", num_players=2)
    model = MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=32, policy_kwargs={"net_arch": [8]}, device="cpu")
    directory = tmp_path_factory.mktemp("run")
    meta = {"game": "fiesta_mexicana", "num_players": 2, "options": {}, "seed": 0, "config": {}}
    ckpt.save_checkpoint(model, directory, 64, meta)
    return directory, model, meta


def _copy_checkpoint(run_dir, tmp_path):
    import shutil

    source = checkpoints.latest_checkpoint(run_dir[0])
    target = tmp_path / source.name
    shutil.copytree(source, target)
    return target


def _evaluate(path, capsys, game="fiesta_mexicana"):
    return _run(["evaluate", "--game", game, "--players", "2", "--agents", f"random,{path}", "--games", "1"], capsys)


def test_a_truncated_checkpoint_is_refused(run_dir, tmp_path, capsys):
    path = _copy_checkpoint(run_dir, tmp_path)
    model = path / checkpoints.MODEL_FILE
    model.write_bytes(model.read_bytes()[: model.stat().st_size // 2])
    with pytest.raises(checkpoints.CheckpointError, match="corrupt|truncated|altered"):
        checkpoints.read_meta(path)
    status, output = _evaluate(path, capsys)
    assert status != 0 and "Traceback" not in output
    assert "checkpoint" in output


def test_a_checkpoint_with_garbage_meta_is_refused(run_dir, tmp_path):
    path = _copy_checkpoint(run_dir, tmp_path)
    (path / checkpoints.META_FILE).write_text("{not json")
    with pytest.raises(checkpoints.CheckpointError, match="not valid JSON"):
        checkpoints.read_meta(path)
    (path / checkpoints.META_FILE).write_text(json.dumps(["a", "list"]))
    with pytest.raises(checkpoints.CheckpointError, match="JSON object"):
        checkpoints.read_meta(path)


def test_a_checkpoint_of_another_game_or_player_count_is_refused(run_dir, tmp_path, capsys):
    path = checkpoints.latest_checkpoint(run_dir[0])
    status, output = _evaluate(path, capsys, game="tortilla_de_patatas")
    assert status != 0 and "Traceback" not in output
    assert "trained for game 'fiesta_mexicana'" in output
    meta = checkpoints.read_meta(path)
    with pytest.raises(checkpoints.CheckpointError, match="trained for 2 players"):
        checkpoints.check_compatible(meta, "fiesta_mexicana", 3)


def test_a_foreign_file_is_not_a_checkpoint(tmp_path, capsys):
    foreign = tmp_path / "model.zip"
    foreign.write_bytes(b"PK\x03\x04 this is no model")
    status, output = _evaluate(foreign, capsys)
    assert status != 0 and "Traceback" not in output


class Killed(BaseException):
    """Stands for SIGKILL: no ``except Exception`` or ``finally`` cleanup can be relied upon."""


def test_a_run_killed_while_writing_keeps_the_last_good_checkpoint(run_dir, tmp_path, monkeypatch):
    import shutil

    directory = tmp_path / "run"
    shutil.copytree(run_dir[0], directory)
    _, model, meta = run_dir
    good = checkpoints.latest_checkpoint(directory)

    def killed(*args, **kwargs):
        raise Killed("killed while moving the new checkpoint into place")

    monkeypatch.setattr(ckpt.os, "replace", killed)
    with pytest.raises(Killed):
        ckpt.save_checkpoint(model, directory, 128, meta)
    monkeypatch.undo()

    assert checkpoints.latest_checkpoint(directory) == good
    assert checkpoints.read_meta(good)["step"] == 64  # hash verified: intact
    assert [p.name for p in checkpoints.list_checkpoints(directory)] == [good.name]
    ckpt.save_checkpoint(model, directory, 192, meta)  # the next save cleans the leftovers up
    names = sorted(p.name for p in (directory / checkpoints.CHECKPOINTS_DIR).iterdir())
    assert names == sorted([good.name, ckpt.checkpoint_name(192), checkpoints.LATEST_FILE])
