"""Atomic writes: a reader sees the old file or the new one, never half of one, and no temporary is left."""

from __future__ import annotations

import pytest

from fiesta_envs.files.atomic import atomic_target, write_json_atomically


def test_a_failed_block_leaves_the_old_file_and_no_temporary(tmp_path):
    path = tmp_path / "snapshot.npz"
    path.write_bytes(b"old")
    with pytest.raises(RuntimeError), atomic_target(path) as temporary:
        temporary.write_bytes(b"half")
        raise RuntimeError("killed mid-write")
    assert path.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["snapshot.npz"]


def test_a_finished_block_replaces_the_file_and_creates_missing_folders(tmp_path):
    path = tmp_path / "deep" / "results.json"
    write_json_atomically(path, {"games": 3})
    assert path.read_text() == '{\n  "games": 3\n}\n'
    assert [p.name for p in path.parent.iterdir()] == ["results.json"]
