"""Tournament schedules (seat balance, paired deals) and play (determinism, clear errors)."""

from __future__ import annotations

from collections import Counter

import pytest
from evaluation_toys import register_toys

from fiesta_envs.evaluation.agents import AgentError, resolve_agents
from fiesta_envs.evaluation.evaluate import run_tournament
from fiesta_envs.evaluation.progress import ProgressNotes
from fiesta_envs.evaluation.tournament import (
    TournamentError,
    deals_per_table,
    duel_tables,
    mixed_compositions,
    schedule,
    seat_counts,
    tournament_tables,
)
from fiesta_envs.policies.policy import Policy
from fiesta_envs.registry import GAMES

AGENTS = ["random", "take_one", "optimal"]


@pytest.fixture
def toy_registry(monkeypatch):
    return register_toys(monkeypatch)


# ---------------------------------------------------------------------- tables and schedules
def test_duels_are_unordered_pairs_with_two_players_and_ordered_with_more():
    assert [t.agents for t in duel_tables(["a", "b", "c"], 2)] == [("a", "b"), ("a", "c"), ("b", "c")]
    three = [t.agents for t in duel_tables(["a", "b"], 3)]
    assert three == [("a", "b", "b"), ("b", "a", "a")]


def test_mixed_compositions_by_hand():
    assert mixed_compositions(["a", "b"], 2) == []
    assert mixed_compositions(["a", "b"], 3) == []  # 2+1 splits are the duels already
    assert mixed_compositions(["a", "b"], 4) == [("a", "a", "b", "b")]
    assert mixed_compositions(["a", "b", "c"], 4) == [
        ("a", "a", "b", "c"),
        ("a", "b", "b", "c"),
        ("a", "b", "c", "c"),
    ]
    assert mixed_compositions(["a", "b", "c", "d"], 3) == [
        ("a", "b", "c"),
        ("a", "b", "d"),
        ("a", "c", "d"),
        ("b", "c", "d"),
    ]


@pytest.mark.parametrize("num_players", [2, 3, 4])
@pytest.mark.parametrize("agents", [["a", "b"], ["a", "b", "c"], ["a", "b", "c", "d", "e"]])
def test_every_agent_plays_every_seat_equally_often(num_players, agents):
    tables = tournament_tables(agents, num_players, teams=False)
    tasks = schedule(tables, games_per_table=10, seed=0)
    for label, counts in seat_counts(tasks, num_players).items():
        assert len(set(counts)) == 1, f"{label} sits unevenly: {counts}"
    for table in tables:  # and within every table, not just overall
        games = [t for t in tasks if t.table == table.index]
        assert len(games) % num_players == 0
        for label, counts in seat_counts(games, num_players).items():
            assert len(set(counts)) == 1, f"table {table.agents}: {label} sits {counts}"


def test_two_player_deals_are_played_twice_with_seats_swapped():
    tasks = schedule(duel_tables(["a", "b"], 2), games_per_table=6, seed=9)
    assert len(tasks) == 6
    by_deal: dict[int, list] = {}
    for task in tasks:
        by_deal.setdefault(task.deal, []).append(task)
    assert len(by_deal) == 3
    for pair in by_deal.values():
        first, second = pair
        assert first.game_seed == second.game_seed
        assert first.seats == ("a", "b") and second.seats == ("b", "a")
        assert first.policy_seeds == second.policy_seeds[::-1]  # each agent keeps its own seed


def test_game_count_rounds_up_to_whole_rotations_and_deals_are_shared_between_tables():
    tables = tournament_tables(["a", "b", "c"], 3, teams=False)
    assert deals_per_table(10, tables[0]) == 4  # 10 games -> 4 deals x 3 rotations
    tasks = schedule(tables, games_per_table=10, seed=1)
    assert Counter(t.table for t in tasks) == {t.index: 12 for t in tables}
    seeds_by_deal = {}
    for task in tasks:
        assert seeds_by_deal.setdefault(task.deal, task.game_seed) == task.game_seed
    assert len(set(seeds_by_deal.values())) == 4


def test_cooperative_tables_are_whole_teams_on_the_same_deals():
    tables = tournament_tables(["a", "b"], 4, teams=True)
    assert [t.agents for t in tables] == [("a",) * 4, ("b",) * 4]
    tasks = schedule(tables, games_per_table=5, seed=0)
    assert len(tasks) == 10
    assert [t.game_seed for t in tasks[:5]] == [t.game_seed for t in tasks[5:]]


def test_schedule_refuses_bad_seed_and_count():
    tables = duel_tables(["a", "b"], 2)
    with pytest.raises(ValueError, match="seed"):
        schedule(tables, 10, seed=-1)
    with pytest.raises(ValueError, match="at least 1"):
        schedule(tables, 0, seed=0)


# ---------------------------------------------------------------------- playing
def _outcome(evaluation):
    return [(g.index, g.seats, g.scores, g.steps) for g in evaluation.games], evaluation.ratings


def test_same_seed_same_results_and_another_seed_differs(toy_registry):
    first = run_tournament("toy_nim", 3, AGENTS, games_per_table=6, seed=4, bootstrap=50, progress=False)
    again = run_tournament("toy_nim", 3, AGENTS, games_per_table=6, seed=4, bootstrap=50, progress=False)
    other = run_tournament("toy_nim", 3, AGENTS, games_per_table=6, seed=5, bootstrap=50, progress=False)
    assert _outcome(first) == _outcome(again)
    assert _outcome(first)[0] != _outcome(other)[0]


def test_workers_do_not_change_the_results(toy_registry):
    one = run_tournament("toy_nim", 2, AGENTS, games_per_table=20, seed=2, workers=1, bootstrap=50, progress=False)
    two = run_tournament("toy_nim", 2, AGENTS, games_per_table=20, seed=2, workers=2, bootstrap=50, progress=False)
    assert _outcome(one) == _outcome(two)
    assert one.matches == two.matches


def test_strong_agent_beats_weak_one(toy_registry):
    evaluation = run_tournament("toy_nim", 2, ["random", "optimal"], games_per_table=60, seed=0, bootstrap=100)
    (match,) = evaluation.matches
    assert (match.agent, match.opponent, match.games) == ("random", "optimal", 60)
    assert match.ci_high < 0.3
    ratings = {r.agent: r for r in evaluation.ratings}
    assert ratings["random"].rating == 0.0
    assert ratings["optimal"].ci_low > 0


def test_unknown_agent_names_the_baselines(toy_registry):
    with pytest.raises(AgentError) as error:
        run_tournament("toy_nim", 2, ["random", "gredy"], games_per_table=2)
    message = str(error.value)
    assert "'gredy'" in message
    assert "optimal, random, take_one" in message
    assert "checkpoint" in message


def test_the_same_agent_twice_is_refused(toy_registry):
    with pytest.raises(AgentError, match="given twice"):
        resolve_agents(toy_registry["toy_nim"], 2, ["random", "random"])


def test_an_agent_playing_an_illegal_action_is_named(toy_registry):
    class Cheater(Policy):
        name = "cheater"

        def act(self, observation, action_mask, game, player):
            return 2 if game.pile < 3 else 0  # "take 3" with fewer than 3 stones left

    with pytest.raises(TournamentError, match=r"agent 'cheater' in seat \d played an illegal action"):
        run_tournament("toy_nim", 2, [Cheater(), "take_one"], games_per_table=20, seed=0)


def test_a_tournament_needs_two_agents_and_a_valid_game(toy_registry):
    from fiesta_envs.core.errors import InvalidOptionError

    with pytest.raises(InvalidOptionError, match="at least 2 agent"):
        run_tournament("toy_nim", 2, ["random"])
    with pytest.raises(InvalidOptionError, match="num_players=5"):
        run_tournament("toy_nim", 5, AGENTS)
    with pytest.raises(InvalidOptionError, match="max_take"):
        run_tournament("toy_nim", 2, AGENTS, options={"max_take": 7})


# ---------------------------------------------------------------------- the real games
def _registered_games() -> list[str]:
    from fiesta_envs.registry import GAMES

    return sorted(GAMES)


def _baselines_or_skip(name: str) -> list[str]:
    from fiesta_envs.registry import game_spec

    spec = game_spec(name)
    module = spec.baselines.partition(":")[0]
    try:
        return sorted(spec.baseline_classes())
    except ModuleNotFoundError as error:
        if error.name == module:
            pytest.skip(f"{name}: {module} is not written yet")
        raise


@pytest.mark.parametrize("game", _registered_games())
def test_every_registered_game_plays_a_balanced_tournament(game):
    from fiesta_envs.registry import game_spec

    agents = ["random", *_baselines_or_skip(game)][:3]
    num_players = game_spec(game).game_class().default_players
    evaluation = run_tournament(game, num_players, agents, games_per_table=1, seed=0, bootstrap=20)
    assert {len(set(counts)) for counts in seat_counts(evaluation.games, num_players).values()} == {1}
    assert [r.agent for r in evaluation.ratings] == agents
    assert all(g.steps > 0 and len(g.scores) == num_players for g in evaluation.games)
    if evaluation.cooperative:
        assert [t.agent for t in evaluation.teams] == agents


@pytest.mark.skipif("fiesta_mexicana" not in GAMES, reason="Fiesta Mexicana not registered")
def test_fiesta_mexicana_results_do_not_depend_on_workers():
    _baselines_or_skip("fiesta_mexicana")
    runs = [
        run_tournament("fiesta_mexicana", 3, ["greedy", "random"], games_per_table=3, seed=11, workers=w)
        for w in (1, 2)
    ]
    assert _outcome(runs[0]) == _outcome(runs[1])


@pytest.mark.slow
@pytest.mark.skipif("fiesta_mexicana" not in GAMES, reason="Fiesta Mexicana not registered")
def test_fiesta_mexicana_greedy_beats_random_in_200_seat_rotated_games():
    _baselines_or_skip("fiesta_mexicana")
    evaluation = run_tournament("fiesta_mexicana", 2, ["greedy", "random"], games_per_table=200, seed=0, workers=2)
    (match,) = evaluation.matches
    assert match.games == 200 and match.ci_low > 0.6, match
    assert evaluation.ratings[0].ci_low > 0


def test_every_agent_s_decisions_are_counted_and_timed():
    from fiesta_envs.evaluation.evaluate import run_tournament

    evaluation = run_tournament(
        "fiesta_mexicana", 2, ["random", "greedy"], games_per_table=2, seed=0, workers=1, progress=False
    )
    times = {t.agent: t for t in evaluation.decision_times}
    steps = sum(result.steps for result in evaluation.games)
    assert set(times) == {"random", "greedy"}
    assert times["random"].decisions + times["greedy"].decisions == steps
    assert all(t.mean_ms > 0 for t in times.values())
    assert evaluation.to_json()["decision_times"][0].keys() == {"agent", "decisions", "mean_ms"}


# ---------------------------------------------------------------------- progress in a log
def test_a_run_logged_to_a_file_notes_its_progress_in_plain_lines(toy_registry, capsys, monkeypatch):
    import fiesta_envs.evaluation.progress as progress

    monkeypatch.setattr(progress, "EVERY_SECONDS", 0.0)  # a note after every game, for the test
    run_tournament("toy_nim", 2, AGENTS[:2], games_per_table=4, seed=1, bootstrap=10)  # stderr is not a terminal
    lines = [line for line in capsys.readouterr().err.splitlines() if "toy_nim games played" in line]
    assert lines and lines[-1].startswith("4 of 4 toy_nim games played (")
    run_tournament("toy_nim", 2, AGENTS[:2], games_per_table=4, seed=1, bootstrap=10, progress=False)
    assert "games played" not in capsys.readouterr().err


def test_progress_notes_count_spent_and_left_time_and_skip_notes_in_between():
    notes: list[str] = []
    counter = ProgressNotes(10, notes.append, what="games collected", done=4, every_seconds=3600.0)
    counter.advance(3)
    assert notes == []  # within the hour: no note until the end
    counter.advance(3)
    assert notes == ["10 of 10 games collected (0 s)"]
    quick = ProgressNotes(5, notes.append, every_seconds=0.0)
    quick.advance(2)
    assert notes[-1].startswith("2 of 5 games played (0 s, about ") and notes[-1].endswith(" to go)")
