"""The ``search`` agent (``fiesta_envs.policies.search``): named with options, registered, blind to what its seat
cannot know, and better than its heuristic where that heuristic blunders."""

from __future__ import annotations

import importlib

import numpy as np
import pytest
from test_determinization import MEMORY_CASES, PROVIDERS

from fiesta_envs.core.errors import InvalidOptionError
from fiesta_envs.evaluation.agents import agent_names, resolve_agent
from fiesta_envs.policies.policy import parse_agent_spec
from fiesta_envs.registry import GAMES, game_spec, make_policy
from fiesta_envs.tortilla.game import TortillaDePatatas
from fiesta_envs.tortilla.state import Phase as TortillaPhase

SEARCHING = ["fiesta_mexicana", "tortilla_de_patatas", "tequila"]


@pytest.mark.parametrize("game_name", SEARCHING)
def test_search_is_an_agent_of_the_game_by_name(game_name):
    spec = game_spec(game_name)
    assert "search" in agent_names(spec)
    source = resolve_agent(spec, 2, "search:budget=3")
    assert (source.label, source.target, dict(source.options)) == ("search:budget=3", "search", {"budget": 3})
    assert source.make(spec, 2, seed=0).budget == 3
    assert make_policy(game_name, "search:budget=2", seed=0).budget == 2  # Gymnasium opponents too
    assert "search" not in spec.baseline_classes()  # training never draws it as an opponent


def test_agent_specs_and_their_options_are_checked():
    assert parse_agent_spec("search") == ("search", {})
    assert parse_agent_spec("search:budget=16:margin_weight=0.5") == ("search", {"budget": 16, "margin_weight": 0.5})
    spec = game_spec("tortilla_de_patatas")
    with pytest.raises(InvalidOptionError, match="unknown option 'budgte' \\(did you mean 'budget'\\?\\)"):
        resolve_agent(spec, 2, "search:budgte=4")
    with pytest.raises(InvalidOptionError, match="budget=0: must be an integer >= 1"):
        resolve_agent(spec, 2, "search:budget=0")
    with pytest.raises(InvalidOptionError, match="agent 'random' takes no options"):
        resolve_agent(spec, 2, "random:budget=4")
    with pytest.raises(InvalidOptionError, match="agent 'careful': unknown option 'budget'; known options: version"):
        resolve_agent(spec, 2, "careful:budget=4")
    with pytest.raises(InvalidOptionError, match="NAME:KEY=VALUE"):
        resolve_agent(spec, 2, "search:16")


@pytest.mark.parametrize("game_name", SEARCHING)
def test_min_advantage_is_how_sure_the_rollouts_must_be_to_leave_the_first_candidate(game_name):
    spec = game_spec(game_name)
    default = resolve_agent(spec, 2, "search").make(spec, 2, seed=0)
    strict = resolve_agent(spec, 2, "search:min_advantage=3").make(spec, 2, seed=0)
    greedy_for_means = resolve_agent(spec, 2, "search:min_advantage=0").make(spec, 2, seed=0)
    assert (default.min_advantage, strict.min_advantage, greedy_for_means.min_advantage) == (1.0, 3.0, 0.0)
    # the second candidate ahead by 0.167 on average, 2.7 standard errors of the paired differences
    values = np.array([[0.0, 0.0], [0.0, 0.4], [0.0, 0.2], [0.0, 0.2], [0.0, 0.2], [0.0, 0.0]])
    assert default.choose(values) == 1 and greedy_for_means.choose(values) == 1
    assert strict.choose(values) == 0  # 2.7 standard errors are not the 3 asked for
    with pytest.raises(InvalidOptionError, match="min_advantage=-1: must be a number >= 0"):
        resolve_agent(spec, 2, "search:min_advantage=-1")


def _hidden_cases_to_act():
    cases = []
    for name in SEARCHING:
        for case in importlib.import_module(PROVIDERS[name]).hidden_cases():
            to_act = GAMES[name].game_class().from_state_dict(case.first).current_player
            if case.name not in MEMORY_CASES and to_act == case.seat and case.first["num_players"] == 2:
                cases.append(case)
    return cases


@pytest.mark.parametrize("case", _hidden_cases_to_act(), ids=lambda c: f"{c.game}: {c.name}")
def test_the_search_decides_the_same_when_only_what_its_seat_cannot_know_differs(case):
    game_class = GAMES[case.game].game_class()
    games = [game_class.from_state_dict(case.first), game_class.from_state_dict(case.second)]
    searches = [make_policy(case.game, "search:budget=2", seed=7) for _ in games]
    legal = np.flatnonzero(games[0].legal_mask())
    candidates = [int(a) for a in legal[:4]]
    values = [search.values(game, case.seat, candidates) for search, game in zip(searches, games, strict=True)]
    assert np.array_equal(values[0], values[1])
    actions = [
        make_policy(case.game, "search:budget=2", seed=7).act(None, game.legal_mask(), game, case.seat)
        for game in games
    ]
    assert actions[0] == actions[1]


def _careful_declines_to_end_a_won_game() -> TortillaDePatatas:
    """Seed 1 of ``careful:version=1`` against itself, turn 42: team A leads 7-5 with one diner card left, and
    ``careful:version=1`` plays a card instead of serving (serving pan 1 as an M ends the game at once and wins
    it; version 2 closes out such games itself)."""
    game = TortillaDePatatas(2, seed=1)
    careful = make_policy("tortilla_de_patatas", "careful:version=1", seed=1)
    while not (
        sum(game.state.diners_left) == 1 and game.state.phase == TortillaPhase.PLAY and game.current_player == 0
    ):
        game.step(careful.act(None, game.legal_mask(), game, game.current_player))
    assert (game.state.turn, game.team_scores()) == (42, [7, 5])
    return TortillaDePatatas.from_state_dict(game.state_dict())


def test_tortilla_search_takes_the_last_diner_card_to_win_where_careful_plays_on():
    game = _careful_declines_to_end_a_won_game()
    careful = make_policy("tortilla_de_patatas", "careful:version=1", seed=0)
    assert game.action_to_string(careful.act(None, game.legal_mask(), game, 0)).startswith("play potato")
    closing = make_policy("tortilla_de_patatas", "careful", seed=0).act(None, game.legal_mask(), game, 0)
    assert game.action_to_string(closing).startswith("serve")  # version 2 closes out too
    search = make_policy("tortilla_de_patatas", "search", seed=0)
    action = search.act(None, game.legal_mask(), game, 0)
    assert game.action_to_string(action).startswith("serve")
    game.step(action)
    assert game.is_over and game.winners() == [0]


def test_tortilla_search_compares_the_plays_careful_values_most():
    game = TortillaDePatatas(2, seed=3)
    while game.state.phase != TortillaPhase.PLAY:
        game.step(make_policy("tortilla_de_patatas", "careful", seed=0).act(None, game.legal_mask(), game, 0))
    search = make_policy("tortilla_de_patatas", "search", seed=0)
    player = game.current_player
    proposal = search._heuristic_action(game, player)
    candidates = search.candidates(game, player, np.flatnonzero(game.legal_mask()), proposal)
    assert candidates[0] == proposal
    assert set(search.heuristic.best_plays(game, player, 2)) <= set(candidates)


def test_tequila_search_decides_the_dice_and_leaves_the_rest_to_planner():
    game = GAMES["tequila"].game_class()(num_players=2, seed=3)
    search = make_policy("tequila", "search:budget=2", seed=0)
    planner = make_policy("tequila", "planner", seed=0)
    searched = set()
    while game.state.round < 2:
        legal = np.flatnonzero(game.legal_mask())
        if search.searched(game, game.current_player, legal):
            searched.add(game.decision.label)
        else:
            mask, seat = game.legal_mask(), game.current_player
            assert search.act(None, mask, game, seat) == planner.act(None, mask, game, seat)
        game.step(planner.act(None, game.legal_mask(), game, game.current_player))
    assert searched == {"reroll", "virtual"}


def test_a_search_started_on_a_seed_breaks_its_heuristics_ties_by_that_seed():
    """Tequila's planner draws its tie-breaks per game: a search's start_episode draws them from its seed, so two
    searches made without a seed play the same game from the same seeds (in any process)."""
    search_class = game_spec("tequila").agent_classes()["search"]
    first, second = search_class(), search_class()
    first.start_episode(7)
    second.start_episode(7)
    assert np.array_equal(first.heuristic.tie_breaks, second.heuristic.tie_breaks)


def _a_searched_position(game_name: str, seed: int = 0):
    """A position of ``game_name`` where the search compares candidates, and the search at it."""
    search = make_policy(game_name, "search:budget=2", seed=seed)
    game = game_spec(game_name).game_class()(num_players=2)
    game.reset(seed=seed)
    while True:
        legal = np.flatnonzero(game.legal_mask())
        if len(legal) > 1 and search.searched(game, game.current_player, legal):
            return game, search
        game.step(int(legal[0]))


def test_the_search_gives_its_value_distribution_and_does_not_search_a_position_twice(monkeypatch):
    game, search = _a_searched_position("fiesta_mexicana")
    calls = []
    values = search.values
    monkeypatch.setattr(search, "values", lambda *args: calls.append(1) or values(*args))
    player, mask = game.current_player, game.legal_mask()
    action = search.act(None, mask, game, player)
    probabilities = search.action_probabilities(None, mask, game, player)
    assert len(calls) == 1  # the distribution is the decision's own
    assert probabilities.shape == mask.shape and np.isclose(probabilities.sum(), 1.0)
    assert probabilities[mask == 0].sum() == 0.0 and probabilities[action] > 0
    game.step(action)
    if not game.is_over and len(np.flatnonzero(game.legal_mask())) > 1:
        search.action_probabilities(None, game.legal_mask(), game, game.current_player)
        assert len(calls) == 2  # a new position is searched anew


def test_a_sharper_temperature_puts_more_of_the_distribution_on_the_best_candidate():
    game, _ = _a_searched_position("fiesta_mexicana")
    peaks = []
    for temperature in (1.0, 0.01):
        search = make_policy("fiesta_mexicana", f"search:budget=2:temperature={temperature}", seed=0)
        peaks.append(search.action_probabilities(None, game.legal_mask(), game, game.current_player).max())
    assert peaks[1] > peaks[0]


def test_a_proposer_names_any_agent_and_proposes_the_first_candidate(monkeypatch):
    search = make_policy("fiesta_mexicana", "search:proposer=ppo:budget=2", seed=0)
    assert type(search.proposer).__name__ == "ShippedPolicy"
    game, _ = _a_searched_position("fiesta_mexicana")
    player = game.current_player
    proposed = search.proposer.act(game.observe(player), game.legal_mask(), game, player)
    seen = []

    def no_difference(game, player, candidates):
        seen.append(candidates)
        return np.zeros((2, len(candidates)))

    monkeypatch.setattr(search, "values", no_difference)
    assert search.act(None, game.legal_mask(), game, player) == proposed  # ties keep the proposal
    assert seen[0][0] == proposed
    with pytest.raises(Exception, match="option proposer=nonesuch: .*unknown agent 'nonesuch'"):
        make_policy("fiesta_mexicana", "search:proposer=nonesuch")


def test_actions_applied_counts_the_moves_of_an_engine_object_since_reset():
    game = game_spec("fiesta_mexicana").game_class()(num_players=2)
    game.reset(seed=1)
    assert game.actions_applied == 0
    game.step(game.legal_actions()[0])
    game.step(game.legal_actions()[0])
    assert game.actions_applied == 2
    game.load_state_dict(game.state_dict())
    assert game.actions_applied == 0


def test_playing_a_decision_left_to_the_proposer_asks_it_once():
    search = make_policy("fiesta_mexicana", "search:proposer=ppo:budget=2", seed=0)
    game = game_spec("fiesta_mexicana").game_class()(num_players=2)
    game.reset(seed=0)
    while True:
        legal = np.flatnonzero(game.legal_mask())
        if len(legal) > 1 and not search.searched(game, game.current_player, legal):
            break
        game.step(int(legal[0]))
    calls = []
    described = search.proposer.action_probabilities
    search.proposer.action_probabilities = lambda *args: calls.append(1) or described(*args)
    player, mask = game.current_player, game.legal_mask()
    action = search.act(None, mask, game, player)
    assert calls == []  # playing needs the proposer's choice only
    probabilities = search.action_probabilities(None, mask, game, player)
    assert calls == [1] and np.isclose(probabilities.sum(), 1.0) and probabilities[mask == 0].sum() == 0
    assert search.act(None, mask, game, player) == action  # the same position is not decided again


def test_bad_search_options_name_the_option_and_what_is_allowed():
    spec = game_spec("fiesta_mexicana")
    with pytest.raises(InvalidOptionError, match="temperature=0: must be a number > 0"):
        resolve_agent(spec, 2, "search:temperature=0")
    with pytest.raises(InvalidOptionError, match="proposer=.*must be an agent spec"):
        make_policy("fiesta_mexicana", "search", seed=0).__class__(proposer="ppo")  # not made by the registry
