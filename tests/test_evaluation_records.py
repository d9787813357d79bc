"""Game records: saved during a tournament, replayed through the engine to the same scores."""

from __future__ import annotations

import json

import pytest
from evaluation_toys import register_toys

from fiesta_envs.evaluation.evaluate import run_tournament
from fiesta_envs.evaluation.records import RecordError, read_records, replay_record, write_records
from fiesta_envs.registry import GAMES


@pytest.fixture
def toy_registry(monkeypatch):
    return register_toys(monkeypatch)


@pytest.fixture
def nim_records(toy_registry, tmp_path):
    path = tmp_path / "games.jsonl"
    evaluation = run_tournament(
        "toy_nim", 3, ["random", "optimal"], games_per_table=3, seed=7, records=path, bootstrap=0
    )
    return evaluation, list(read_records(path)), path


def test_every_game_is_recorded_with_what_replays_it(nim_records):
    evaluation, records, path = nim_records
    assert len(records) == len(evaluation.games) == 6  # duels (random, 2x optimal) and (optimal, 2x random), 3 seats
    for record, game in zip(records, evaluation.games, strict=True):
        assert record["game"] == "toy_nim" and record["num_players"] == 3
        assert record["options"] == {"reward": "rank", "max_take": 3}
        assert record["agents"] == list(game.seats)
        assert record["scores"] == list(game.scores)
        assert record["tournament"]["index"] == game.index
        assert all(isinstance(name, str) and name.startswith("take ") for name in record["actions"])
    assert [p.name for p in path.parent.iterdir()] == ["games.jsonl"]  # no temporary file left behind


def test_a_record_replays_to_the_same_final_scores(nim_records):
    _, records, _ = nim_records
    for record in records:
        assert replay_record(record) == record["scores"]


def test_a_record_that_does_not_match_the_game_is_refused(nim_records):
    _, records, _ = nim_records
    record = records[0]
    wrong_scores = {**record, "scores": [record["scores"][0] + 1, *record["scores"][1:]]}
    with pytest.raises(RecordError, match="differ from the recorded"):
        replay_record(wrong_scores)
    with pytest.raises(RecordError, match="not over"):
        replay_record({**record, "actions": record["actions"][:-1]})
    with pytest.raises(RecordError, match="ended after"):
        replay_record({**record, "actions": [*record["actions"], "take 1"]})
    with pytest.raises(RecordError, match="missing seed"):
        replay_record({k: v for k, v in record.items() if k != "seed"})
    other_seed = {**record, "seed": record["seed"] + 1}
    with pytest.raises(RecordError):  # another pile: the actions no longer fit or end elsewhere
        replay_record(other_seed)


def test_records_files_round_trip_and_bad_lines_are_named(toy_registry, tmp_path):
    path = tmp_path / "r.jsonl"
    assert write_records(path, [{"a": 1}, {"b": 2}]) == 2
    assert list(read_records(path)) == [{"a": 1}, {"b": 2}]
    path.write_text('{"a": 1}\nnot json\n')
    with pytest.raises(RecordError, match=r"r.jsonl:2"):
        list(read_records(path))


def test_a_failed_tournament_leaves_no_records_file(toy_registry, tmp_path):
    path = tmp_path / "games.jsonl"
    with pytest.raises(Exception, match="illegal action"):
        from fiesta_envs.policies.policy import Policy

        class Cheater(Policy):
            name = "cheater"

            def act(self, observation, action_mask, game, player):
                return 2

        run_tournament("toy_nim", 2, [Cheater(), "random"], games_per_table=20, records=path)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif("fiesta_mexicana" not in GAMES, reason="Fiesta Mexicana not registered")
def test_fiesta_mexicana_records_replay(tmp_path):
    pytest.importorskip("fiesta_envs.fiesta_mexicana.baselines")
    path = tmp_path / "fm.jsonl"
    evaluation = run_tournament("fiesta_mexicana", 2, ["random", "greedy"], games_per_table=4, seed=3, records=path)
    records = list(read_records(path))
    assert len(records) == len(evaluation.games) == 4
    for record in records:
        assert replay_record(record) == record["scores"]
    json.dumps(records)  # JSON-safe throughout
