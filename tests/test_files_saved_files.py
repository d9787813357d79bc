"""files.saved_files: the one reader of the JSON objects written beside weights, and the one SHA-256."""

from __future__ import annotations

import hashlib

import pytest

from fiesta_envs.files.saved_files import read_json_object, sha256_of


class Corrupt(Exception):
    pass


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("{not json", "is not valid JSON"),
        ("[1, 2]", "must hold a JSON object"),
        ('{"a": 1}', "lacks b, c"),
    ],
)
def test_a_bad_file_raises_the_callers_error_saying_what_is_wrong(tmp_path, text, problem):
    path = tmp_path / "meta.json"
    path.write_text(text)
    with pytest.raises(Corrupt, match=f"^meta.json {problem}"):
        read_json_object(path, required=("a", "b", "c"), corrupt=lambda p: Corrupt(f"meta.json {p}"))


def test_a_good_file_is_read_and_hashed(tmp_path):
    path = tmp_path / "info.json"
    path.write_text('{"a": 1, "b": [2]}')
    assert read_json_object(path, required=("a",), corrupt=Corrupt) == {"a": 1, "b": [2]}
    assert sha256_of(path) == hashlib.sha256(path.read_bytes()).hexdigest()
    with pytest.raises(Corrupt, match="is not valid JSON"):
        read_json_object(tmp_path / "missing.json", required=(), corrupt=Corrupt)


def test_a_result_table_aligns_names_left_and_numbers_right():
    from rich.console import Console

    from fiesta_envs.tools.result_tables import result_table

    table = result_table("title", ("agent", "games"), [("greedy", "12")], left={"agent"}, caption="note")
    assert [column.justify for column in table.columns] == ["left", "right"]
    out = Console(width=60, record=True)
    out.print(table)
    text = out.export_text()
    assert "greedy" in text and "12" in text and "title" in text and "note" in text
