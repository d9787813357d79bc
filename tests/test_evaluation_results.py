"""How results count (hand-made games), the library API, result files and the command line."""

from __future__ import annotations

import csv
import json
import os

import pytest
from evaluation_toys import register_toys

from fiesta_envs.cli import main
from fiesta_envs.evaluation.agents import AgentSource
from fiesta_envs.evaluation.evaluate import (
    Evaluation,
    MatchResult,
    evaluate_against_baselines,
    pairwise_credit,
    print_results_table,
    run_tournament,
    summarize,
)
from fiesta_envs.evaluation.tournament import GameResult, Table
from fiesta_envs.files.atomic import write_atomically


@pytest.fixture
def toy_registry(monkeypatch):
    return register_toys(monkeypatch)


def _game(index, deal, seats, scores, winners=None):
    if winners is None:
        winners = [i for i, s in enumerate(scores) if s == max(scores)]
    return GameResult(index, 0, deal, tuple(seats), tuple(scores), tuple(winners), (0.0,) * len(seats), 10)


def _evaluation(games, num_players=2, tables=None):
    agents = [AgentSource("a", "baseline", "a"), AgentSource("b", "baseline", "b")]
    tables = tables or [Table(0, "duel", ("a",) + ("b",) * (num_players - 1))]
    return Evaluation("toy_nim", num_players, {}, False, False, 0, len(games), agents, tables, games)


def test_two_player_wins_draws_losses_and_margins_by_hand():
    games = [
        _game(0, 0, ["a", "b"], [10, 4]),  # a wins by 6
        _game(1, 0, ["b", "a"], [3, 7]),  # a wins by 4
        _game(2, 1, ["a", "b"], [5, 5]),  # tie: half a win each
        _game(3, 1, ["b", "a"], [9, 1]),  # a loses by 8
    ]
    evaluation = summarize(_evaluation(games), bootstrap=0)
    (match,) = evaluation.matches
    assert (match.agent, match.opponent, match.games) == ("a", "b", 4)
    assert (match.wins, match.draws, match.losses) == (2.5, 1, 1)
    assert match.win_rate == 0.625
    assert match.mean_score == pytest.approx((10 + 7 + 5 + 1) / 4)
    assert match.mean_margin == pytest.approx((6 + 4 + 0 - 8) / 4)
    assert match.ci_low < 0.625 < match.ci_high
    ratings = {r.agent: r.rating for r in evaluation.ratings}
    # pairwise 2.5 of 4, plus the virtual draw: 3 of 5 -> 400 log10(3/2) above b, b anchored at 0
    assert ratings["a"] == 0.0  # no random: the first agent is the anchor
    assert ratings["b"] == pytest.approx(-400 * 0.17609, abs=0.01)
    assert evaluation.rating_anchor == "a"


def test_a_first_place_shared_by_three_is_a_third_of_a_win():
    tables = [Table(0, "duel", ("a", "b", "b", "b"))]
    games = [_game(0, 0, ["a", "b", "b", "b"], [5, 5, 5, 2]), _game(1, 0, ["b", "a", "b", "b"], [1, 2, 3, 4])]
    (match,) = [m for m in summarize(_evaluation(games, 4, tables), bootstrap=0).matches if m.agent == "a"]
    assert match.wins == pytest.approx(1 / 3)
    assert (match.draws, match.losses) == (1, 1)
    assert match.mean_margin == pytest.approx(((5 - 5) + (2 - 4)) / 2)


def test_a_tie_break_in_winners_decides_pairwise_results():
    game = _game(0, 0, ["a", "b", "b"], [5, 5, 1], winners=[1])  # b wins the tie-break
    assert pairwise_credit(game, 0, 1) == 0.0
    assert pairwise_credit(game, 0, 2) == 1.0
    assert pairwise_credit(_game(0, 0, ["a", "b"], [3, 3]), 0, 1) == 0.5


def test_evaluate_against_baselines(toy_registry):
    results = evaluate_against_baselines("toy_nim", 3, "optimal", ["random", "take_one"], games_per_baseline=10, seed=1)
    assert [(r.agent, r.opponent) for r in results] == [("optimal", "random"), ("optimal", "take_one")]
    for r in results:
        assert isinstance(r, MatchResult)
        assert r.games == 12  # rounded up to whole rotations of 3 seats
        assert r.win_rate == pytest.approx(r.wins / r.games)
        assert r.ci_low <= r.win_rate <= r.ci_high
    assert results[1].win_rate > 1 / 3  # optimal against take_one: far above an equal share
    again = evaluate_against_baselines(
        "toy_nim", 3, "optimal", ["random", "take_one"], games_per_baseline=10, seed=1, workers=2
    )
    assert again == results


def test_evaluate_against_baselines_keeps_an_agent_apart_from_its_namesake(toy_registry):
    (result,) = evaluate_against_baselines("toy_nim", 2, "random", ["random"], games_per_baseline=20, seed=0)
    assert (result.agent, result.opponent) == ("agent:random", "random")
    assert 0.2 < result.win_rate < 0.8


def test_cooperative_teams_have_means_histograms_and_paired_comparisons(toy_registry):
    results = evaluate_against_baselines("toy_team", 3, "take_one", ["take_three"], games_per_baseline=20, seed=0)
    (result,) = results
    assert result.games == 20 and result.win_rate == 1.0  # one stone at a time always takes more turns
    assert result.mean_margin > 0
    evaluation = run_tournament("toy_team", 4, ["random", "take_one", "take_three"], games_per_table=30, seed=0)
    teams = {t.agent: t for t in evaluation.teams}
    assert sum(teams["take_three"].histogram.values()) == 30
    assert set(teams["take_three"].histogram) <= {"3", "4"}  # 7..12 stones, 3 at a time
    assert teams["take_one"].mean_score > teams["random"].mean_score > teams["take_three"].mean_score
    assert teams["take_one"].ci_low <= teams["take_one"].mean_score <= teams["take_one"].ci_high
    ratings = {r.agent: r.rating for r in evaluation.ratings}
    assert ratings["take_one"] > 0 == ratings["random"] > ratings["take_three"]


def test_one_player_games_compare_agents_deal_by_deal(toy_registry):
    evaluation = run_tournament("toy_solo", 1, ["random", "take_one"], games_per_table=12, seed=0)
    assert evaluation.team_play and not evaluation.cooperative
    (match,) = evaluation.matches
    assert (match.agent, match.opponent, match.games, match.losses) == ("random", "take_one", 12, 12)
    assert [t.agent for t in evaluation.teams] == ["random", "take_one"]
    assert evaluation.ratings[1].rating > 0


def test_print_results_table(capsys):
    result = MatchResult("greedy", "random", 200, 151.0, 2, 48, 0.755, 0.691, 0.809, 31.2, 4.5)
    print_results_table([result], "greedy against random")
    out = capsys.readouterr().out
    assert "greedy against random" in out and "0.755 [0.691, 0.809]" in out and "150 / 2 / 48" in out


# ---------------------------------------------------------------------- files and the command line
def test_write_atomically_never_leaves_a_half_written_file(tmp_path, monkeypatch):
    path = tmp_path / "results.json"
    write_atomically(path, "old")

    def broken_replace(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError):
        write_atomically(path, "new")
    assert path.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["results.json"]


def test_command_line_tournament_writes_tables_json_csv_and_plot(toy_registry, tmp_path, capsys):
    out = tmp_path / "results"
    records = tmp_path / "games.jsonl"
    argv = [
        "evaluate",
        "--game",
        "toy_nim",
        "--players",
        "3",
        "--agents",
        "random,take_one,optimal",
        "--games",
        "6",
        "--seed",
        "3",
        "--out",
        str(out),
        "--records",
        str(records),
        "--option",
        "max_take=3",
        "--bootstrap",
        "50",
    ]
    assert main(argv) == 0
    printed = capsys.readouterr().out
    assert "duels" in printed and "mixed tables" in printed and "ratings" in printed
    assert sorted(p.name for p in out.iterdir()) == [
        "matches.csv",
        "ratings.csv",
        "ratings.png",
        "results.json",
    ]
    data = json.loads((out / "results.json").read_text())
    assert data["total_games"] == 7 * 6  # 6 ordered duels + 1 mixed table, 6 games each
    assert data["rating_anchor"] == "random"
    assert {label: len(set(c)) for label, c in data["seat_counts"].items()} == {
        "random": 1,
        "take_one": 1,
        "optimal": 1,
    }
    with open(out / "matches.csv") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 6 + 3 and {"win_rate", "ci_low", "ci_high", "mean_margin"} <= set(rows[0])
    assert (out / "ratings.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(records.read_text().splitlines()) == 42


def test_command_line_errors_are_one_clear_line(toy_registry, capsys):
    assert main(["evaluate", "--game", "toy_nim", "--agents", "random,optimus"]) == 2
    error = capsys.readouterr().err
    assert "unknown agent 'optimus'" in error and "optimal, random, take_one" in error
    assert "Traceback" not in error
    assert main(["evaluate", "--game", "no_such_game", "--agents", "random,random"]) == 2
    assert "unknown game" in capsys.readouterr().err
    assert main(["evaluate", "--game", "toy_nim", "--agents", "random,optimal", "--option", "max_take=9"]) == 2
    assert "max_take" in capsys.readouterr().err


def test_solo_results_are_graded_by_the_rulebooks_ranks():
    from fiesta_envs.evaluation.evaluate import run_tournament
    from fiesta_envs.tequila.game import Tequila

    assert [Tequila.result_grade(1, s) for s in (0, 119, 120, 180, 229, 230, 330)] == [
        "Clear tequilero", "Clear tequilero", "Young tequilero", "Rested tequilero",
        "Rested tequilero", "Aged tequilero", "Golden tequilero",
    ]  # fmt: skip
    assert Tequila.result_grade(2, 400) is None  # ranks are for the solo game only
    evaluation = run_tournament("tequila", 1, ["random"], games_per_table=3, seed=0, bootstrap=10)
    (team,) = evaluation.teams
    assert team.grades == {"Clear tequilero": 3}  # random play scores far below 120
