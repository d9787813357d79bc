"""The ``team_search`` agent of Fiesta de los Muertos and La Catrina (``fiesta_envs.muertos.search``): named
with options, registered, legal, reproducible, blind to what its seat cannot know, and its determinisation
keeps what the seat saw while it redraws the rest."""

from __future__ import annotations

import numpy as np
import pytest
from information_of_muertos import hidden_cases

from fiesta_envs.core.errors import InvalidOptionError
from fiesta_envs.evaluation.agents import agent_names, resolve_agent
from fiesta_envs.muertos.components import STEPS, Phase
from fiesta_envs.muertos.determinization import known_teeth
from fiesta_envs.registry import GAMES, game_spec, make_policy

COOPERATIVE = ["fiesta_de_los_muertos", "la_catrina"]
#: Small searches: the tests check what the agent does, not how well.
QUICK = "team_search:budget=2:width=2"
CHEAP = "team_search:budget=1:width=2"


@pytest.mark.parametrize("game_name", COOPERATIVE)
def test_team_search_is_an_agent_of_the_game_by_name(game_name):
    spec = game_spec(game_name)
    assert "team_search" in agent_names(spec)
    assert "search" not in agent_names(spec)
    source = resolve_agent(spec, 4, "team_search:budget=3:width=2")
    assert (source.target, dict(source.options)) == ("team_search", {"budget": 3, "width": 2})
    agent = source.make(spec, 4, seed=0)
    assert (agent.budget, agent.width) == (3, 2)
    assert "team_search" not in spec.baseline_classes()  # training never draws it


def test_bad_options_are_refused_naming_the_allowed_ones():
    spec = game_spec("fiesta_de_los_muertos")
    with pytest.raises(InvalidOptionError, match="unknown option 'budgte' \\(did you mean 'budget'\\?\\)"):
        resolve_agent(spec, 4, "team_search:budgte=4")
    known = "known options: budget, min_advantage, proposer, rollout, temperature, width"
    with pytest.raises(InvalidOptionError, match=known):
        resolve_agent(spec, 4, "team_search:margin_weight=0.5")  # a team's result has no margin
    with pytest.raises(InvalidOptionError, match="width=0: must be an integer >= 1"):
        resolve_agent(spec, 4, "team_search:width=0")
    with pytest.raises(InvalidOptionError, match="budget=1.5: must be an integer >= 1"):
        resolve_agent(spec, 4, "team_search:budget=1.5")
    with pytest.raises(InvalidOptionError, match="option rollout=nobody"):
        resolve_agent(spec, 4, "team_search:rollout=nobody")


def _play(game_name: str, spec: str, seed: int, num_players: int = 4, **options) -> tuple[list[int], float]:
    """The first round with ``spec`` in every seat: its actions (each checked legal first) and the team's
    result."""
    game = GAMES[game_name].game_class()(num_players=num_players, seed=seed, **options)
    agents = [make_policy(game_name, spec, seed=seed * 10 + seat) for seat in range(num_players)]
    for seat, agent in enumerate(agents):
        agent.start_episode(seed * 10 + seat)
    actions = []
    while not game.is_over and game.state.round_index == 0:
        seat = game.current_player
        mask = game.legal_mask()
        action = agents[seat].act(None, mask, game, seat)
        assert mask[action], f"{game_name}: {game.action_to_string(action)} is not legal"
        game.step(action)
        actions.append(action)
    return actions, game.team_value()


@pytest.mark.parametrize(
    ("game_name", "num_players", "options"),
    [
        ("fiesta_de_los_muertos", 4, {}),
        ("fiesta_de_los_muertos", 5, {"draw_choice": True, "constraints": 1}),
        ("fiesta_de_los_muertos", 4, {"double_challenge": True}),
        ("la_catrina", 5, {}),
    ],
    ids=str,
)
def test_it_plays_legal_moves_only_and_the_same_seed_plays_the_same_game(game_name, num_players, options):
    first = _play(game_name, CHEAP, seed=2, num_players=num_players, **options)
    assert first == _play(game_name, CHEAP, seed=2, num_players=num_players, **options)


def test_the_rollouts_may_be_played_by_another_agent():
    agent = make_policy("fiesta_de_los_muertos", "team_search:budget=2:width=2:rollout=random", seed=0)
    assert type(agent.rollout_agent).__name__ == "RandomPolicy"
    actions, _ = _play("fiesta_de_los_muertos", "team_search:budget=1:width=2:rollout=random", seed=3)
    assert actions


def _cases_to_act():
    cases = []
    for case in hidden_cases():
        game = GAMES[case.game].game_class().from_state_dict(case.first)
        if game.current_player == case.seat and len(np.flatnonzero(game.legal_mask())) > 1:
            cases.append(case)
    return cases[::3]


@pytest.mark.parametrize("case", _cases_to_act(), ids=lambda c: f"{c.game}: {c.name}")
def test_it_decides_the_same_when_only_what_its_seat_cannot_know_differs(case):
    game_class = GAMES[case.game].game_class()
    games = [game_class.from_state_dict(case.first), game_class.from_state_dict(case.second)]
    searches = [make_policy(case.game, "team_search:budget=2:width=3", seed=7) for _ in games]
    legal = np.flatnonzero(games[0].legal_mask())
    candidates = [int(a) for a in legal[:3]]
    values = [search.values(game, case.seat, candidates) for search, game in zip(searches, games, strict=True)]
    assert np.array_equal(values[0], values[1])
    actions = [make_policy(case.game, QUICK, seed=7).act(None, game.legal_mask(), game, case.seat) for game in games]
    assert actions[0] == actions[1]


def _in_the_deduction():
    """Seat 1 to match, in a round written by random legal words (the words tell little: copies differ)."""
    game = GAMES["fiesta_de_los_muertos"].game_class()(num_players=4, seed=4)
    moves = np.random.default_rng(4)
    while game.state.round.phase != Phase.DEDUCE or game.state.round.seat != 1:
        legal = game.legal_actions()
        game.step(legal[int(moves.integers(len(legal)))])
    return game


def test_the_copies_keep_what_the_seat_saw_and_redraw_what_it_did_not():
    game = _in_the_deduction()
    seat = 1
    true_round = game.state.round
    seen = known_teeth(true_round, seat)
    copies = [game.determinize(seat, np.random.default_rng(k)).state.round for k in range(12)]
    finals = [true_round.words[j][STEPS - 1] for j in true_round.numbers]
    for copy in copies:
        assert [copy.words[j][STEPS - 1] for j in copy.numbers] == finals  # public: the final word of each number
        assert copy.table == true_round.table
        assert copy.characters[seat] == true_round.characters[seat]
        for skull, teeth in seen.items():
            for tooth, word in teeth.items():
                assert copy.words[skull][tooth] == word
        for d, skull in enumerate(copy.numbers):  # my own guesses, by number
            assert copy.guesses[skull][seat] == true_round.guesses[true_round.numbers[d]][seat]
    others = [j for j in range(4) if j != seat]
    assert len({tuple(copy.characters[j] for j in others) for copy in copies}) > 1
    unseen = [(j, t) for j in range(4) for t in range(STEPS) if t not in seen.get(j, {})]
    assert len({tuple(copy.words[j][t] for j, t in unseen) for copy in copies}) > 1
    assert len({tuple(copy.numbers) for copy in copies}) > 1


def test_the_copies_do_not_hold_the_games_chance():
    game = GAMES["la_catrina"].game_class()(num_players=4, seed=6)
    true_draws = game.clone().rng.integers(1 << 30, size=8)
    for k in range(4):
        copy = game.determinize(0, np.random.default_rng(k))
        assert not np.array_equal(copy.rng.integers(1 << 30, size=8), true_draws)
