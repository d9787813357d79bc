"""Files written atomically get the permissions a plain ``open(path, "w")`` would give them."""

from __future__ import annotations

import os
import stat

import numpy as np
import pytest

from fiesta_envs.files.atomic import write_atomically, write_json_atomically
from fiesta_envs.policies.mlp import ActorSnapshot


@pytest.fixture
def umask_022():
    previous = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(previous)


def mode(path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_new_files_get_the_usual_0644_not_mkstemps_0600(tmp_path, umask_022):
    write_json_atomically(tmp_path / "results.json", {"games": 3})
    write_atomically(tmp_path / "notes.txt", "hello")
    assert mode(tmp_path / "results.json") == 0o644
    assert mode(tmp_path / "notes.txt") == 0o644


def test_a_replaced_file_keeps_its_permissions(tmp_path, umask_022):
    path = tmp_path / "private.json"
    path.write_text("{}")
    path.chmod(0o600)
    write_json_atomically(path, {"secret": 1})
    assert mode(path) == 0o600 and path.read_text() == '{\n  "secret": 1\n}\n'


def test_saved_network_weights_too(tmp_path, umask_022):
    snapshot = ActorSnapshot([np.ones((2, 3), np.float32)], [np.zeros(3, np.float32)], ["identity"])
    snapshot.save(tmp_path / "actor.npz")
    assert mode(tmp_path / "actor.npz") == 0o644
    assert [p.name for p in tmp_path.iterdir()] == ["actor.npz"]


def test_game_records_too(tmp_path, umask_022):
    from fiesta_envs.evaluation.records import RecordWriter

    with RecordWriter(tmp_path / "games.jsonl") as writer:
        writer.write({"game": 1})
    assert mode(tmp_path / "games.jsonl") == 0o644
    assert [p.name for p in tmp_path.iterdir()] == ["games.jsonl"]  # no temporary file left behind
