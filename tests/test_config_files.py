"""Packaged configs: ``fiesta configs`` lists them, ``--config NAME`` finds them from any folder, a file path
still works, an unknown name names the packaged ones; the shipped comments speak of the product."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from fiesta_envs.cli import main
from fiesta_envs.training.config import ConfigError, load_config
from fiesta_envs.training.config_files import config_name, configs_directory, find_config, packaged_configs, summary

ROOT = Path(__file__).resolve().parents[1]
FILES = sorted((ROOT / "configs").rglob("*.yaml"))
NAMES = sorted(path.relative_to(ROOT / "configs").with_suffix("").as_posix() for path in FILES)


def test_the_packaged_configs_are_the_repositorys_configs_folder():
    assert configs_directory() == (ROOT / "configs").resolve()
    assert list(packaged_configs()) == NAMES
    assert {"smoke", "fiesta_mexicana/ppo", "tequila/ppo_solo"} <= set(NAMES)


def test_fiesta_configs_lists_every_name_with_its_first_comment_line(capsys):
    assert main(["configs"]) == 0
    lines = capsys.readouterr().out.splitlines()
    for name, path in zip(NAMES, FILES, strict=True):
        line = next(line for line in lines if line.split()[:1] == [name])
        assert line.split(maxsplit=1)[1] == summary(path)
    assert "fiesta train --config NAME" in lines[-1]


@pytest.mark.parametrize("path", FILES, ids=lambda path: path.stem)
def test_every_config_starts_with_one_line_saying_what_it_is(path):
    first = summary(path)
    assert first and first.endswith("."), f"{path}: the first line must be a comment that says what the run is"


def test_fiesta_configs_needs_no_training_extra(tmp_path):
    blocked = "import sys\nfor name in ('yaml', 'pydantic', 'torch', 'rich'):\n    sys.modules[name] = None\n"
    code = blocked + "from fiesta_envs.cli import main\nsys.exit(main(['configs']))\n"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "smoke" in result.stdout and "fiesta_mexicana/ppo" in result.stdout


def test_fiesta_configs_name_prints_the_file_and_an_unknown_name_is_refused(capsys):
    assert main(["configs", "fiesta_mexicana/quick"]) == 0
    assert capsys.readouterr().out == (ROOT / "configs" / "fiesta_mexicana" / "quick.yaml").read_text()
    assert main(["configs", "smok"]) == 2
    error = capsys.readouterr().err
    assert "no packaged config 'smok' (did you mean smoke?)" in error and "fiesta_mexicana/ppo" in error


def test_a_packaged_name_loads_from_any_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert find_config("smoke") == configs_directory() / "smoke.yaml"
    assert find_config("configs/fiesta_mexicana/ppo.yaml") == configs_directory() / "fiesta_mexicana" / "ppo.yaml"
    assert load_config("fiesta_mexicana/ppo").game == "fiesta_mexicana"
    assert load_config("tequila/ppo_solo.yaml").num_players == 1


def test_a_file_comes_before_a_packaged_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    mine = (configs_directory() / "smoke.yaml").read_text().replace("seed: 0", "seed: 7")
    Path("smoke.yaml").write_text(mine)
    assert find_config("smoke.yaml") == Path("smoke.yaml")
    assert load_config("smoke.yaml").seed == 7
    assert load_config("smoke").seed == 0  # no file named "smoke": the packaged one


def test_an_unknown_config_names_the_packaged_ones(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConfigError) as info:
        load_config("fiesta_mexicana/ppoo")
    message = str(info.value)
    assert message.startswith("config file not found: fiesta_mexicana/ppoo, and no packaged config is named")
    assert "did you mean fiesta_mexicana/ppo" in message and all(name in message for name in NAMES)


def test_fiesta_train_refuses_an_unknown_config_before_training(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["train", "--config", "nope"]) == 2
    assert "no packaged config is named 'nope'" in capsys.readouterr().err
    assert not Path("runs").exists()


def test_config_names():
    assert config_name("configs/smoke.yaml") == "smoke"
    assert config_name("./configs/tequila/ppo.yml") == "tequila/ppo"
    assert config_name("fiesta_mexicana\\ppo") == "fiesta_mexicana/ppo"


HISTORY = {
    "an issue number": re.compile(r"\bissues? #?\d+", re.IGNORECASE),
    "a commit hash": re.compile(r"\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}\b"),
    "a date": re.compile(r"\b20\d\d-\d\d-\d\d\b"),
    "'since ...'": re.compile(r"\bsince\b", re.IGNORECASE),
    "an earlier agent or run": re.compile(r"shipped before|version 1 run|this file at", re.IGNORECASE),
}


@pytest.mark.parametrize("path", FILES, ids=lambda path: path.stem)
def test_config_comments_speak_of_the_product_not_its_history(path):
    comments = [line.partition("#")[2] for line in path.read_text().splitlines() if "#" in line]
    found = [f"{what}: {text.strip()}" for text in comments for what, rule in HISTORY.items() if rule.search(text)]
    assert not found, f"{path.relative_to(ROOT)} ships to users; remove the history:\n" + "\n".join(found)
