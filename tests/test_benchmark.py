"""``fiesta benchmark``: an agent against the reference ladder on a published deal set, the stored references,
and the rating of one agent against a ladder of fixed ratings."""

from __future__ import annotations

import importlib.util
import json
from collections import Counter
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

import fiesta_envs
from fiesta_envs.cli import main
from fiesta_envs.core.errors import InvalidOptionError
from fiesta_envs.core.rng import derive_seed
from fiesta_envs.evaluation.benchmark import (
    BenchmarkResult,
    benchmark,
    benchmark_schedule,
    split_named_spec,
)
from fiesta_envs.evaluation.evaluate import Evaluation, plays_as_teams, summarize
from fiesta_envs.evaluation.ladder import (
    REFERENCES_DIR,
    BenchmarkError,
    deal_set_seed,
    ladder_agents,
    load_references,
    stored_references,
)
from fiesta_envs.evaluation.stats import fit_against_ladder, rate_against_ladder
from fiesta_envs.evaluation.tournament import GameResult, tournament_tables
from fiesta_envs.policies.policy import Policy, RandomPolicy
from fiesta_envs.registry import game_spec

ROOT = Path(__file__).resolve().parents[1]
GAME = "fiesta_mexicana"
LADDER = ["random", "greedy:version=1", "greedy:version=2", "search:budget=2", "ppo", "against_search"]


def load_script():
    spec = importlib.util.spec_from_file_location("benchmark_references", ROOT / "scripts" / "benchmark_references.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# ---------------------------------------------------------------------- rating against a fixed ladder
def test_an_agent_scoring_as_expected_at_200_points_is_rated_200():
    ladder = np.array([0.0, 400.0])
    games = np.array([1000.0, 1000.0])
    expected = 1.0 / (1.0 + 10.0 ** ((ladder - 200.0) / 400.0))
    rating, error = fit_against_ladder(expected * games, games, ladder, prior_draws=0.0)
    assert rating == pytest.approx(200.0, abs=1e-6)
    assert 0 < error < 20


def test_the_interval_holds_the_rating_and_shrinks_with_more_results():
    few = [(deal, deal % 2, 1.0 if deal % 3 else 0.0) for deal in range(12)]
    many = [(deal, deal % 2, 1.0 if deal % 3 else 0.0) for deal in range(120)]
    rating, low, high = rate_against_ladder(few, [0.0, 300.0], bootstrap=200)
    assert low < rating < high
    _, low_many, high_many = rate_against_ladder(many, [0.0, 300.0], bootstrap=200)
    assert high_many - low_many < high - low


# ---------------------------------------------------------------------- the schedule
def test_the_agent_plays_every_seat_equally_often_against_every_reference_on_the_same_deals():
    for players in (2, 3):
        labels = ["mine", "random", "greedy"]
        tasks = benchmark_schedule(labels, players, games=2 * players, deal_set="deals-v1")
        for reference in labels[1:]:
            games = [t for t in tasks if reference in t.seats]
            assert len(games) == 2 * players
            assert Counter(t.seats.index("mine") for t in games) == {seat: 2 for seat in range(players)}
            assert all(t.seats.count("mine") == 1 for t in games)
            seeds = {t.deal: t.game_seed for t in games}
            assert seeds == {deal: derive_seed(deal_set_seed("deals-v1"), 0, deal) for deal in range(2)}


def test_the_seed_changes_the_agents_random_choices_never_the_deals():
    labels = ["mine", "random"]
    plain = benchmark_schedule(labels, 2, games=4, deal_set="deals-v1")
    seeded = benchmark_schedule(labels, 2, games=4, deal_set="deals-v1", seed=7)
    assert [t.game_seed for t in plain] == [t.game_seed for t in seeded]
    assert [t.policy_seeds for t in plain] != [t.policy_seeds for t in seeded]


def test_agent_names_are_told_apart_from_specs_with_options_and_paths():
    assert split_named_spec("mine=greedy:version=1") == ("mine", "greedy:version=1")
    assert split_named_spec("search:budget=16") == (None, "search:budget=16")
    assert split_named_spec("runs/a=b/checkpoint") == (None, "runs/a=b/checkpoint")


def test_an_existing_path_with_an_equals_sign_is_not_a_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "lr=0.1").mkdir()
    assert split_named_spec("lr=0.1") == (None, "lr=0.1")
    assert split_named_spec("lr=0.2") == ("lr", "0.2")


# ---------------------------------------------------------------------- the stored references
def test_the_ladder_is_random_each_baseline_version_search_and_the_shipped_agent():
    assert ladder_agents(game_spec(GAME), 2) == LADDER
    assert ("fiesta_mexicana", 2) in stored_references()
    assert load_references(GAME, 2).ladder == LADDER


@pytest.mark.parametrize(
    ("game", "players"), [(GAME, 2), ("la_catrina", 4), ("fiesta_de_los_muertos", 4), ("tequila", 1)]
)
def test_the_stored_references_agree_with_what_the_script_makes(tmp_path, game, players):
    """The script with 2 games per pair plays the first deals of every pair: those games are in the stored file."""
    argv = ["--game", game, "--players", str(players), "--games", "2", "--out-dir", str(tmp_path)]
    assert load_script().main(argv) == 0
    tiny = load_references(game, players, tmp_path)
    stored = load_references(game, players)
    for field in ("game", "env_id", "game_version", "num_players", "options", "deal_set", "ladder", "shipped_weights"):
        assert getattr(tiny, field) == getattr(stored, field), field
    games = {(g["table"], g["deal"], tuple(g["seats"])): g for g in stored.games}
    assert len(tiny.games) >= 2 * len(stored.ladder)
    for played in tiny.games:
        assert games[(played["table"], played["deal"], tuple(played["seats"]))] == played
    assert stored.command.endswith(f"--games {stored.games_per_pair} --deal-set {stored.deal_set}")


@pytest.mark.parametrize(("game", "players"), stored_references())
def test_the_stored_ratings_and_duels_are_those_of_the_stored_games(game, players):
    stored = load_references(game, players)
    teams = plays_as_teams(game_spec(game), players)
    evaluation = Evaluation(
        game=stored.game,
        num_players=players,
        options=stored.options,
        cooperative=game_spec(game).game_class().cooperative,
        team_play=teams,
        seed=deal_set_seed(stored.deal_set),
        games_per_table=stored.games_per_pair,
        agents=[SimpleNamespace(label=label) for label in stored.ladder],
        tables=tournament_tables(stored.ladder, players, teams, mixed=False),
        games=[GameResult(index=i, returns=(0.0,) * players, steps=0, **g) for i, g in enumerate(stored.games)],
    )
    summarize(evaluation)
    assert evaluation.ratings == stored.ratings
    assert evaluation.matches == stored.duels


def test_the_docs_name_every_stored_ladder():
    page = " ".join((ROOT / "docs" / "benchmark.md").read_text().split())
    names = {"fiesta_mexicana": "Fiesta Mexicana", "tortilla_de_patatas": "Tortilla de Patatas"}
    names |= {"tequila": "Tequila", "la_catrina": "La Catrina", "fiesta_de_los_muertos": "Fiesta de los Muertos"}
    listed = page[page.index("Stored ladders:") :].split(". ")[0]
    for game, players in stored_references():
        assert f"{names[game]} {players}p" in listed, (game, players)


# ---------------------------------------------------------------------- running
class FirstLegal(Policy):
    needs_observation = False

    def act(self, observation, action_mask, game, player):
        return int(np.flatnonzero(action_mask)[0])


def test_a_tiny_run_in_python_gives_a_rating_duels_and_a_citation_and_repeats_exactly():
    result = fiesta_envs.benchmark(FirstLegal(), game=GAME, players=2, games=2, name="first", bootstrap=50)
    assert [d.opponent for d in result.duels] == LADDER
    assert all(d.agent == "first" and d.games == 2 for d in result.duels)
    assert result.rating.agent == "first" and result.rating.games == 2 * len(LADDER)
    assert result.rating in result.ratings and len(result.ratings) == len(LADDER) + 1
    assert result.rating.ci_low <= result.rating.rating <= result.rating.ci_high
    assert "deal set deals-v1" in result.citation and fiesta_envs.__version__ in result.citation
    assert "fiesta_envs/FiestaMexicana-v1" in result.citation
    assert "* first" in result.table() and "cite: first:" in result.table()
    again = fiesta_envs.benchmark(FirstLegal(), game=GAME, players=2, games=2, name="first", bootstrap=50)
    assert again.to_json() == result.to_json()
    assert BenchmarkResult.from_json(json.loads(json.dumps(result.to_json()))).table() == result.table()


def test_a_tiny_run_through_the_command_line_prints_the_tables_and_saves_json(tmp_path, capsys):
    out = tmp_path / "result.json"
    argv = ["benchmark", "--game", GAME, "--players", "2", "--agent", "mine=greedy:version=1", "--games", "2"]
    assert main([*argv, "--workers", "1", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    saved = BenchmarkResult.from_json(json.loads(out.read_text()))
    assert saved.agent == "mine" and saved.agent_spec == "greedy:version=1"
    assert printed == saved.table() + f"saved: {out}\n"
    assert "reference" in printed and "search:budget=2" in printed


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"game": "checkers"}, ["unknown game 'checkers'", "fiesta_mexicana"]),
        ({"game": "tequila", "players": 3}, ["no benchmark references for 3 players", "fiesta_mexicana with 2"]),
        ({"game": GAME, "players": 2, "agent": "grredy"}, ["unknown agent 'grredy'", "greedy"]),
        ({"game": GAME, "players": 2, "agent": "random"}, ["'random' is a reference's", "NAME=random"]),
        ({"game": GAME, "players": 2, "deal_set": "deals-v9"}, ["unknown deal set 'deals-v9'", "deals-v1"]),
        ({"game": GAME, "players": 2, "games": 0}, ["games must be a positive integer"]),
    ],
)
def test_bad_input_is_refused_naming_what_is_allowed(kwargs, words):
    kwargs = {"agent": RandomPolicy(), **kwargs}
    with pytest.raises(InvalidOptionError) as error:
        benchmark(kwargs.pop("agent"), **kwargs)
    for word in words:
        assert word in str(error.value)


def test_the_command_refuses_a_game_without_references_naming_the_stored_ones(capsys):
    assert main(["benchmark", "--game", "tequila", "--players", "3", "--agent", "planner"]) == 2
    message = capsys.readouterr().err
    assert message.startswith("fiesta benchmark: error: tequila: no benchmark references for 3 players")
    assert "fiesta_mexicana with 2 players" in message


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"game_version": -1}, "were played on engine version"),
        ({"shipped_weights": {"ppo": "0" * 64}}, "the shipped agent 'ppo' has other weights"),
    ],
)
def test_outdated_references_are_refused(tmp_path, change, words):
    data = json.loads((REFERENCES_DIR / f"{GAME}-2p.json").read_text())
    data.update({key: {**data[key], **value} if isinstance(value, dict) else value for key, value in change.items()})
    (tmp_path / f"{GAME}-2p.json").write_text(json.dumps(data))
    with pytest.raises(BenchmarkError, match="make them again with scripts/benchmark_references.py") as error:
        load_references(GAME, 2, tmp_path)
    assert words in str(error.value)


def test_the_docs_example_is_the_output_of_the_committed_result_file():
    page = (ROOT / "docs" / "benchmark.md").read_text()
    marker = "<!-- benchmark-output: "
    start = page.index(marker) + len(marker)
    path = page[start : page.index(" -->", start)]
    block = page[page.index("```text\n", start) + len("```text\n") :]
    block = block[: block.index("```\n")]
    result = BenchmarkResult.from_json(json.loads((ROOT / path).read_text()))
    assert block == result.table()
    command = next(line for line in page.splitlines() if line.startswith("fiesta benchmark") and path in line)
    assert f"--agent {result.agent}={result.agent_spec} --games {result.games_per_reference} --out {path}" in command
    assert f"--game {result.game} --players {result.num_players}" in command and result.seed == 0


def test_a_cooperative_game_compares_the_agents_team_deal_by_deal_with_the_stored_teams(tmp_path):
    script = load_script()
    assert script.main(["--game", "la_catrina", "--players", "4", "--games", "3", "--out-dir", str(tmp_path)]) == 0
    stored = load_references("la_catrina", 4, tmp_path)
    assert {tuple(g["seats"]) for g in stored.games} == {(label,) * 4 for label in stored.ladder}
    result = benchmark("mine=associative:version=1", game="la_catrina", players=4, games=2, references_dir=tmp_path)
    assert result.team_play and result.total_games == 2 and result.rating.games == 2
    assert [d.opponent for d in result.duels] == stored.ladder and all(d.games == 2 for d in result.duels)
    scores = {d.mean_score for d in result.duels}
    assert len(scores) == 1  # the same two team results, against every reference
    random_team = [sum(g["scores"]) / 4 for g in stored.games if g["seats"][0] == "random" and g["deal"] < 2]
    duel = result.duels[0]
    assert duel.mean_margin == pytest.approx(duel.mean_score - sum(random_team) / 2)
    assert "as a team against each reference's team, deal by deal" in result.table()
    with pytest.raises(BenchmarkError, match="at most 3 games with 4 player"):
        benchmark("mine=random", game="la_catrina", players=4, games=4, references_dir=tmp_path)
