"""The web app's parts that need no web server: grouped controls, the end-of-game breakdown, the command line."""

from __future__ import annotations

import argparse

from fiesta_envs.tools.action_groups import group_actions
from fiesta_envs.tools.breakdown import build_breakdown
from fiesta_envs.web.serve import add_arguments, run


def test_actions_are_grouped_by_first_word_in_order() -> None:
    groups = group_actions([(3, "bid 9"), (4, "bid 10"), (7, "pass"), (1, "rotate left")])
    assert [g.title for g in groups] == ["bid", "pass", "rotate"]
    assert [(b.action, b.label) for b in groups[0].buttons] == [(3, "9"), (4, "10")]
    assert [(b.action, b.label) for b in groups[1].buttons] == [(7, "pass")]


def test_a_large_group_is_split_by_its_second_word() -> None:
    names = [f"reserve {bid} drop {slot}" for bid in range(1, 8) for slot in range(3)]
    (group,) = group_actions(list(enumerate(names)))
    assert group.buttons == [] and group.size == 21
    assert [s.title for s in group.subgroups] == [f"reserve {bid}" for bid in range(1, 8)]
    assert [b.label for b in group.subgroups[0].buttons] == ["drop 0", "drop 1", "drop 2"]


def test_a_group_whose_second_words_are_all_alike_stays_whole() -> None:
    names = [f"fence {i}" for i in range(30)]
    (group,) = group_actions(list(enumerate(names)), split_above=12)
    assert group.size == 30 and not group.subgroups


def test_the_breakdown_lays_out_final_info_by_shape() -> None:
    info = {
        "final_scores": [17, 18],
        "objectives": [["a", "b"], []],
        "score_breakdown": [{"coins": 2, "market": 5}, {"coins": 5, "market": 8}],
        "omelettes": [{"team": 0, "points": -1}, {"team": 1, "points": 3}, {"team": 0, "points": 2}],
        "end_reason": "failed round",
        "team": {"flowers": 3, "mood": {"band": "happy"}},
        "constraints": [],
    }
    breakdown = build_breakdown(info, ["player_0 (you)", "player_1 (greedy)"])
    assert ("end reason", "failed round") in breakdown.facts
    assert ("team.flowers", "3") in breakdown.facts and ("team.mood.band", "happy") in breakdown.facts
    assert ("constraints", "none") in breakdown.facts
    by_seat, per_seat_records, items = breakdown.tables
    assert by_seat.header == ["", "player_0 (you)", "player_1 (greedy)"]
    assert by_seat.rows == [["final scores", "17", "18"], ["objectives", "a, b", "none"]]
    assert per_seat_records.rows == [["player_0 (you)", "2", "5"], ["player_1 (greedy)", "5", "8"]]
    assert items.header == ["#", "team", "points"] and items.rows[2] == ["3", "0", "2"]


def test_fiesta_serve_is_a_subcommand(capsys) -> None:
    from fiesta_envs.cli import main

    assert main(["serve", "--port", "0"]) == 2
    assert "--port 0 is not a port number" in capsys.readouterr().err


def test_serve_refuses_a_port_out_of_range(capsys) -> None:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    assert run(parser.parse_args(["--port", "70000"])) == 2
    assert "--port 70000 is not a port number" in capsys.readouterr().err


def test_squares_are_read_from_action_names() -> None:
    from fiesta_envs.web.grid import square_of, without_square

    assert square_of("build road at 2 3 as 1") == (2, 3)
    assert without_square("build road at 2 3 as 1") == "build road as 1"
    assert square_of("bid 7") == (1, 2) and square_of("reserve 16 drop 2") == (3, 3)
    assert without_square("reserve 16 drop 2") == "reserve drop 2" and without_square("bid 7") == "bid"
    assert square_of("fence 12") is None and square_of("pass") is None


def test_the_grid_spans_the_board_and_counts_the_legal_actions_per_square() -> None:
    from fiesta_envs.web.grid import actions_shown, square_grid

    every = [f"build road at {r} {c} as 0" for r in range(8) for c in range(8)] + ["end"]
    legal = [(0, "build road at 0 1 as 0"), (1, "build road at 0 1 as 1"), (2, "build kiln at 5 6 as 0"), (3, "end")]
    grid = square_grid(every, legal, "0,1")
    assert (grid.rows, grid.columns, grid.numbered) == (8, 8, False)
    assert grid.count(0, 1) == 2 and grid.count(5, 6) == 1 and grid.count(7, 7) == 0
    assert actions_shown(legal, grid) == [(0, "build road as 0"), (1, "build road as 1")]
    assert square_grid(every, legal, "7,7").chosen is None  # nothing legal there: every choice is shown
    assert actions_shown(legal, square_grid(every, legal, None)) == legal
    assert square_grid(every, [(3, "end")], None) is None
