"""A golden playthrough changes only together with its environment's version (tests/playthroughs/versions.json)."""

from __future__ import annotations

import pytest
from playthrough_pins import (
    PINS,
    environment_of,
    pin_problem,
    playthrough_files,
    read_pins,
    repin,
    text_digest,
    write_pins,
)
from playthrough_support import DIRECTORY


@pytest.mark.parametrize(("name", "game"), playthrough_files(), ids=lambda v: str(v))
def test_a_playthrough_changes_only_with_its_version(name, game):
    text = (DIRECTORY / name).read_text(encoding="utf-8")
    problem = pin_problem(name, game, text, read_pins().get(name), environment_of(game))
    assert problem is None, problem


def test_every_pin_names_a_playthrough():
    stale = sorted(set(read_pins()) - {name for name, _ in playthrough_files()})
    assert stale == [], f"{PINS.name} pins files that are no playthrough: {stale}"


def test_a_changed_playthrough_at_the_same_version_names_the_game_and_the_remedy():
    pin = {"environment": "fiesta_envs/Tequila-v2", "sha256": text_digest("step 0\n")}
    assert pin_problem("tequila-2p.txt", "tequila", "step 0\r\n", pin, "fiesta_envs/Tequila-v2") is None
    problem = pin_problem("tequila-2p.txt", "tequila", "step 1\n", pin, "fiesta_envs/Tequila-v2")
    assert problem is not None
    assert problem.startswith("playthrough tequila-2p.txt changed but tequila is still v2: bump the version")
    assert "python scripts/make_playthroughs.py" in problem
    bumped = pin_problem("tequila-2p.txt", "tequila", "step 1\n", pin, "fiesta_envs/Tequila-v3")
    assert bumped is not None and "re-pin" in bumped and "Tequila-v3" in bumped
    assert "not pinned" in (pin_problem("tequila-2p.txt", "tequila", "", None, "fiesta_envs/Tequila-v2") or "")


def test_repin_keeps_a_changed_file_at_the_same_version_unless_told(tmp_path):
    pins_path = tmp_path / "versions.json"
    current = read_pins()
    name, game = playthrough_files()[0]
    changed = {**current, name: {"environment": environment_of(game), "sha256": "0" * 64}}
    write_pins(changed, pins_path)
    problems = repin(path=pins_path)
    assert len(problems) == 1 and problems[0].startswith(f"playthrough {name} changed but {game} is still")
    assert read_pins(pins_path)[name]["sha256"] == "0" * 64
    bumped = {**current, name: {"environment": "fiesta_envs/Old-v0", "sha256": "0" * 64}}
    write_pins(bumped, pins_path)
    assert repin(path=pins_path) == []
    assert read_pins(pins_path) == current
    write_pins(changed, pins_path)
    assert repin(same_version=True, path=pins_path) == []
    assert read_pins(pins_path) == current
