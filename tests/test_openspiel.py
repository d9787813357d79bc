"""Our games as OpenSpiel games (marker ``openspiel``; ``bash scripts/openspiel_test.sh`` runs them in
.venv-openspiel, where the openspiel extra is installed).

Every game loads with ``pyspiel.load_game`` at every player count and with its options as parameters; random
games end through OpenSpiel's ``evaluate_bots``; OpenSpiel's IS-MCTS plays on our determinisation and beats
uniform random; at every step of random games the OpenSpiel state shows exactly what our AEC environment
shows (legal actions = the action mask, observation tensor = the observation, for every seat); clones and
serialised states continue identically; Shimmy's ``OpenSpielCompatibilityV0`` passes PettingZoo's
``api_test``; ``AgentBot`` plays our agents; the docs page's example runs.
"""

from __future__ import annotations

import math
import pickle
import re
from pathlib import Path

import numpy as np
import pytest

pytestmark = pytest.mark.openspiel

pyspiel = pytest.importorskip("pyspiel", reason="the openspiel extra: bash scripts/openspiel_test.sh")
evaluate_bots = pytest.importorskip("open_spiel.python.algorithms.evaluate_bots").evaluate_bots
make_observation = pytest.importorskip("open_spiel.python.observation").make_observation

import fiesta_envs.openspiel as fo  # noqa: E402  (after the skip: needs pyspiel)
from fiesta_envs.core.configurations import configurations  # noqa: E402
from fiesta_envs.core.errors import InvalidOptionError  # noqa: E402
from fiesta_envs.evaluation.agents import AgentError  # noqa: E402
from fiesta_envs.evaluation.stats import wilson_interval  # noqa: E402
from fiesta_envs.policies.policy import Policy  # noqa: E402
from fiesta_envs.registry import GAMES, make_aec_env  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
#: Side by side with our environment, every seat's observation is compared every this many steps (the acting
#: seat's at every step).
EVERY_SEAT_EVERY = 8
Utility = pyspiel.GameType.Utility


def all_counts() -> list[tuple[str, int]]:
    return [(name, count) for name, spec in GAMES.items() for count in spec.game_class().player_counts]


def every_configuration() -> list[tuple[str, int, dict]]:
    return [
        (name, count, options)
        for name, spec in GAMES.items()
        for count, options in configurations(spec.game_class(), every_count=False, skip=("reward",))
    ]


def load(name: str, players: int | None = None, **params) -> fo.FiestaGame:
    if players is not None:
        params["players"] = players
    return pyspiel.load_game(fo.short_name(name), params)


def random_actions(state, rng: np.random.Generator, steps: int) -> None:
    for _ in range(steps):
        if state.is_terminal():
            return
        state.apply_action(int(rng.choice(state.legal_actions())))


# ---------------------------------------------------------------------------------------------- registration


def test_importing_registers_every_game_of_the_registry():
    assert [f"python_{name}" for name in GAMES] == fo.GAME_NAMES
    assert set(fo.GAME_NAMES) <= set(pyspiel.registered_names())
    assert fo.register_games() == fo.GAME_NAMES  # registering again changes nothing


@pytest.mark.parametrize(("name", "players"), all_counts(), ids=lambda value: str(value))
def test_load_game_at_every_player_count(name, players):
    game = load(name, players)
    engine_class = GAMES[name].game_class()
    engine = engine_class(players, seed=0)
    game_type = game.get_type()
    assert game.num_players() == players
    assert game.num_distinct_actions() == engine.num_actions
    assert game.observation_tensor_shape() == [engine.observation_size]
    assert game.max_chance_outcomes() == 0
    assert (game_type.min_num_players, game_type.max_num_players) == (
        min(engine_class.player_counts),
        max(engine_class.player_counts),
    )
    assert game_type.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert game_type.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert game_type.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert game_type.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert (game.min_utility(), game.max_utility()) == (-1.0, 1.0)
    state = game.new_initial_state()
    assert not state.is_chance_node() and state.current_player() == state.engine.current_player


def test_utility_follows_the_reward():
    assert load("fiesta_de_los_muertos").get_type().utility == Utility.IDENTICAL
    assert load("la_catrina", 5).get_type().utility == Utility.IDENTICAL
    assert load("fiesta_mexicana", 3).get_type().utility == Utility.ZERO_SUM
    assert load("fiesta_mexicana", 3).utility_sum() == 0.0
    assert load("fiesta_mexicana", reward="margin").get_type().utility == Utility.GENERAL_SUM
    assert load("tortilla_de_patatas", 4).get_type().utility == Utility.ZERO_SUM  # two teams of two
    assert load("tequila", 1).get_type().utility == Utility.GENERAL_SUM  # solo: a score in [0, 1]


@pytest.mark.parametrize(("name", "players", "options"), every_configuration(), ids=lambda value: str(value))
def test_options_are_parameters(name, players, options):
    game = load(name, players, **options)
    engine = game.new_initial_state().engine
    assert engine.num_players == players
    assert {key: engine.config[key] for key in options} == options
    again = pyspiel.load_game(str(game))  # the game's name, with its parameters, loads the same game
    assert again.new_initial_state().engine.config == engine.config
    assert again.get_parameters() == game.get_parameters()


def test_an_option_whose_default_is_none_takes_an_empty_string():
    assert load("tequila").new_initial_state().engine.config["jimador_order"] is None
    assert load("tequila").get_parameters()["jimador_order"] == ""


def test_bad_parameters_are_refused_naming_what_is_allowed():
    with pytest.raises(pyspiel.SpielError, match=r"Unknown parameter 'player'. Available parameters are: .*players"):
        load("fiesta_mexicana", player=3)
    with pytest.raises(pyspiel.SpielError, match=r"Wrong type for parameter rng_seed"):
        load("tequila", rng_seed="x")
    with pytest.raises(InvalidOptionError, match=r"players=5 is not allowed; allowed: 2, 3, 4"):
        load("fiesta_mexicana", 5)
    with pytest.raises(InvalidOptionError, match=r"variant='fancy' is not allowed; allowed values: 'standard'"):
        load("fiesta_mexicana", variant="fancy")
    # made directly (not through load_game), the game class checks the names itself
    mexicana = fo.game.game_class_for(GAMES["fiesta_mexicana"])
    with pytest.raises(InvalidOptionError, match=r"unknown OpenSpiel parameter 'player'; did you mean 'players'\?"):
        mexicana({"player": 3})
    with pytest.raises(InvalidOptionError, match=r"rng_seed='x' must be an integer"):
        mexicana({"rng_seed": "x"})
    with pytest.raises(TypeError, match="load a game with pyspiel.load_game"):
        fo.FiestaGame({})


def test_rng_seed_makes_the_sequence_of_deals_reproducible():
    def deals(seed):
        game = load("fiesta_mexicana", rng_seed=seed)
        states = [game.new_initial_state() for _ in range(3)]
        return [state.engine.state_dict()["state"] for state in states]

    assert deals(5) == deals(5)
    first = deals(5)
    assert first[0] != first[1]  # each new state is a new deal
    assert deals(5) != deals(6)
    game = load("fiesta_mexicana")
    assert game.deal(9).engine.state_dict() == game.deal(9).engine.state_dict()


# ---------------------------------------------------------------------------------------------- playing


@pytest.mark.parametrize("name", list(GAMES))
def test_random_games_end_through_evaluate_bots(name):
    game = load(name)
    rng = np.random.RandomState(0)
    for index in range(3):
        bots = [pyspiel.make_uniform_random_bot(player, 10 * index + player) for player in range(game.num_players())]
        state = game.new_initial_state()
        returns = evaluate_bots(state, bots, rng)
        assert state.is_terminal() and state.current_player() == pyspiel.PlayerId.TERMINAL
        assert returns == pytest.approx(state.engine.returns().tolist())
        assert len(state.history()) == state.move_number() > 0
        if game.get_type().utility == Utility.ZERO_SUM:
            assert sum(returns) == pytest.approx(0.0)
        if game.get_type().utility == Utility.IDENTICAL:
            assert len(set(returns)) == 1


@pytest.mark.parametrize(("name", "players", "options"), every_configuration(), ids=lambda value: str(value))
def test_every_step_shows_what_our_environment_shows(name, players, options):
    """Side by side on the same deal: OpenSpiel's legal actions are our mask and its observation tensor (and
    string) our observation, for every seat at every step; the returns are our rewards."""
    seed = 1234
    game = load(name, players, **options)
    state = game.deal(seed)
    env = make_aec_env(name, num_players=players, **options)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    blocks = fo.observer.observation_blocks(state.engine)
    steps = 0
    while not state.is_terminal():
        agent = env.agent_selection
        player = int(agent.rsplit("_", 1)[1])
        assert state.current_player() == player
        mask = env.observe(agent)["action_mask"]
        assert state.legal_actions() == np.flatnonzero(mask).tolist()
        seats = range(players) if steps % EVERY_SEAT_EVERY == 0 else [player]
        for seat in seats:  # the acting seat at every step, every seat regularly (8 seats x 5472 entries is slow)
            observation = env.observe(env.possible_agents[seat])["observation"]
            assert np.array_equal(np.asarray(state.observation_tensor(seat), dtype=np.float32), observation)
            assert state.observation_string(seat) == fo.observer.observation_text(blocks, observation, seat)
        action = int(rng.choice(state.legal_actions()))
        assert state.action_to_string(player, action) == env.unwrapped.action_to_string(action)
        state.apply_action(action)
        env.step(action)
        steps += 1
    assert state.returns() == pytest.approx([env._cumulative_rewards[agent] for agent in env.possible_agents])
    assert steps == len(state.history())


def test_observation_strings_tell_observations_apart_and_name_the_blocks():
    game = load("fiesta_mexicana")
    state = game.new_initial_state()
    random_actions(state, np.random.default_rng(0), 20)
    text = state.observation_string(0)
    assert text.startswith("player 0 | tables: ")
    blocks = [name for name, _ in fo.observer.observation_blocks(state.engine)]
    assert [part.split(":")[0] for part in text.split(" | ")[1:]] == blocks
    observation = make_observation(game)
    observation.set_from(state, 1)
    assert list(observation.dict) == blocks
    assert np.array_equal(observation.tensor, state.engine.observe(1))
    seen: dict[str, bytes] = {}
    for _ in range(40):
        for seat in (0, 1):
            vector = np.asarray(state.observation_tensor(seat), dtype=np.float32).tobytes()
            assert seen.setdefault(state.observation_string(seat), vector) == vector  # same text, same vector
        random_actions(state, np.random.default_rng(len(seen)), 1)


def test_information_state_where_the_observation_is_one():
    game = load("tortilla_de_patatas")
    assert game.get_type().provides_information_state_tensor and game.get_type().provides_information_state_string
    assert game.information_state_tensor_shape() == game.observation_tensor_shape()
    state = game.new_initial_state()
    random_actions(state, np.random.default_rng(1), 6)
    assert state.information_state_tensor(1) == state.observation_tensor(1)
    assert state.information_state_string(1) == state.observation_string(1)
    plain = load("tortilla_de_patatas", observation="observation")
    assert not plain.get_type().provides_information_state_tensor
    mexicana = load("fiesta_mexicana")
    assert not mexicana.get_type().provides_information_state_string
    with pytest.raises(Exception, match="has no information state"):
        mexicana.new_initial_state().information_state_string(0)
    with pytest.raises(Exception, match="only a seat's own view"):
        mexicana.make_py_observer(
            pyspiel.IIGObservationType(
                public_info=True, perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE
            )
        )


def test_clones_and_serialised_states_continue_identically():
    game = load("tequila", 3)
    state = game.new_initial_state()
    random_actions(state, np.random.default_rng(2), 40)
    clone = state.clone()
    restored = game.deserialize_state(state.serialize())
    pickled = pickle.loads(pickle.dumps(state.engine))  # the engine pickles (pyspiel pickles no sampled state)
    assert clone.history() == state.history() and clone.engine is not state.engine
    for copy in (clone, restored):
        assert copy.engine.state_dict() == state.engine.state_dict()
    rng = np.random.default_rng(3)
    while not state.is_terminal():
        action = int(rng.choice(state.legal_actions()))
        for copy in (state, clone, restored):
            copy.apply_action(action)  # the same chance too: each copy carries the engine's generator
        pickled.step(action)
        assert clone.observation_tensor(0) == restored.observation_tensor(0) == state.observation_tensor(0)
    assert clone.returns() == restored.returns() == pickled.returns().tolist() == state.returns()
    assert restored.history() == state.history()


def test_games_pickle_as_their_name_and_parameters():
    game = load("tequila", 3, jimadores="B")
    again = pickle.loads(pickle.dumps(game))
    assert str(again) == str(game) and again.get_type().short_name == "python_tequila"
    assert fo.load_game(str(game)).get_parameters() == game.get_parameters()


def test_a_state_of_any_position_of_the_engine():
    game = load("fiesta_mexicana", 3)
    engine = GAMES["fiesta_mexicana"].game_class()(3, seed=8)
    for _ in range(12):
        engine.step(engine.legal_actions()[0])
    state = game.state_of(engine)
    assert state.engine is engine and state.current_player() == engine.current_player
    assert np.array_equal(np.asarray(state.observation_tensor(1), dtype=np.float32), engine.observe(1))
    with pytest.raises(ValueError, match="is not a game of this configuration"):
        load("fiesta_mexicana", 2).state_of(engine)
    with pytest.raises(ValueError, match="options"):
        load("fiesta_mexicana", 3, variant="confirmed_waiters").state_of(engine)


def test_a_clone_of_a_fresh_state_is_the_same_deal():
    game = load("fiesta_mexicana", 3)
    state = game.new_initial_state()
    assert state.clone().engine.state_dict() == state.engine.state_dict()


@pytest.mark.parametrize("name", list(GAMES))
def test_resample_from_infostate_is_our_determinisation(name):
    game = load(name)
    state = game.new_initial_state()
    random_actions(state, np.random.default_rng(4), 15)
    player = state.current_player()
    sampler = np.random.default_rng(5).random
    worlds = [state.resample_from_infostate(player, sampler) for _ in range(6)]
    first = worlds[0].engine.state_dict()
    hidden_differs = False
    for world in worlds:
        assert isinstance(world, fo.FiestaState)
        assert world.current_player() == player
        assert world.legal_actions() == state.legal_actions()
        assert world.observation_tensor(player) == state.observation_tensor(player)
        assert world.observation_string(player) == state.observation_string(player)
        hidden_differs |= world.engine.state_dict()["state"] != state.engine.state_dict()["state"]
        random_actions(world, np.random.default_rng(6), 10_000)  # a resampled world plays to its end
        assert world.is_terminal()
    assert hidden_differs  # what the seat cannot see is drawn afresh
    again = state.resample_from_infostate(player, np.random.default_rng(5).random)
    assert again.engine.state_dict() == first  # the sampler's numbers decide


# ---------------------------------------------------------------------------------------------- bots


@pytest.mark.parametrize(
    ("name", "simulations", "deals"), [("fiesta_mexicana", 24, 5), ("tortilla_de_patatas", 16, 10)]
)
def test_ismcts_beats_uniform_random(name, simulations, deals):
    """OpenSpiel's IS-MCTS plays whole games on our determinisation, from both seats of every deal, and wins
    more than half of them beyond doubt (the 95% interval's lower end above 1/2)."""
    game = load(name)
    score = 0.0
    for deal in range(deals):
        for seat in (0, 1):
            bots = [pyspiel.make_uniform_random_bot(player, 100 * deal + player) for player in (0, 1)]
            bots[seat] = fo.ismcts_bot(game, simulations, seed=deal)
            returns = evaluate_bots(game.deal(deal), bots, np.random.RandomState(deal))
            score += 1.0 if returns[seat] > 0 else 0.5 if returns[seat] == 0 else 0.0
    low, _ = wilson_interval(score, 2 * deals)
    assert low > 0.5, f"IS-MCTS scored {score} of {2 * deals} against uniform random"


def test_ismcts_keys_its_tree_by_information_state_where_there_is_one():
    assert not fo.ismcts_bot(load("tortilla_de_patatas"), 4)._use_observation_string
    assert fo.ismcts_bot(load("fiesta_mexicana"), 4)._use_observation_string
    with pytest.raises(ValueError, match="max_simulations must be a positive integer"):
        fo.ismcts_bot(load("fiesta_mexicana"), 0)


def test_an_ismcts_game_is_reproducible_from_its_seeds():
    game = load("tortilla_de_patatas")

    def play():
        state = game.deal(3)
        bots = [fo.ismcts_bot(game, 6, seed=1), pyspiel.make_uniform_random_bot(1, 2)]
        evaluate_bots(state, bots, np.random.RandomState(0))
        return state.history()

    assert play() == play()


@pytest.mark.parametrize("spec", ["greedy", "search:budget=4", "ppo"])
def test_agent_bots_play_our_agents_through_evaluate_bots(spec):
    game = load("fiesta_mexicana")
    state = game.deal(11)
    bots = [fo.AgentBot(game, 0, spec, seed=1), pyspiel.make_uniform_random_bot(1, 2)]
    returns = evaluate_bots(state, bots, np.random.RandomState(0))
    assert state.is_terminal() and returns == state.engine.returns().tolist()


def test_an_agent_bot_beats_uniform_random():
    game = load("fiesta_mexicana")
    score = 0.0
    for deal in range(6):
        for seat in (0, 1):
            bots = [pyspiel.make_uniform_random_bot(player, deal) for player in (0, 1)]
            bots[seat] = fo.AgentBot(game, seat, "greedy", seed=deal)
            returns = evaluate_bots(game.deal(deal), bots, np.random.RandomState(deal))
            score += 1.0 if returns[seat] > 0 else 0.5 if returns[seat] == 0 else 0.0
    assert wilson_interval(score, 12)[0] > 0.5


def test_an_agent_bot_acts_as_its_policy_would():
    class Recorder(Policy):
        def __init__(self) -> None:
            super().__init__(seed=0)
            self.calls = []

        def act(self, observation, action_mask, game, player):
            self.calls.append((observation, action_mask, player))
            return int(np.flatnonzero(action_mask)[-1])

    game = load("tortilla_de_patatas")
    recorder = Recorder()
    bot = fo.AgentBot(game, 1, recorder)
    state = game.new_initial_state()
    while state.current_player() != 1:
        state.apply_action(state.legal_actions()[0])
    policy = bot._policy
    assert bot.step(state) == state.legal_actions()[-1]
    observation, mask, player = policy.calls[-1]
    assert player == 1 and np.array_equal(observation, state.observation_tensor(1))
    assert np.flatnonzero(mask).tolist() == state.legal_actions()
    with pytest.raises(ValueError, match="not that seat's turn"):
        fo.AgentBot(game, 0, "random").step(state)


def test_agent_bots_refuse_what_they_cannot_play():
    game = load("fiesta_mexicana")
    with pytest.raises(AgentError, match="unknown agent 'grredy'"):
        fo.AgentBot(game, 0, "grredy")
    with pytest.raises(ValueError, match=r"player must be a seat in 0..1"):
        fo.AgentBot(game, 2, "greedy")
    with pytest.raises(TypeError, match="plays the games of fiesta_envs.openspiel"):
        fo.AgentBot(pyspiel.load_game("kuhn_poker"), 0, "greedy")


# ---------------------------------------------------------------------------------------------- Shimmy, docs


@pytest.mark.parametrize("name", list(GAMES))
def test_shimmy_wraps_every_game_for_pettingzoos_api_test(name):
    from pettingzoo.test import api_test
    from shimmy import OpenSpielCompatibilityV0

    env = OpenSpielCompatibilityV0(game_name=fo.short_name(name), config={"rng_seed": 0})
    api_test(env, num_cycles=300)
    env.reset()
    assert env.num_agents == load(name).num_players()


def test_shimmy_keeps_the_configuration_through_reset():
    from shimmy import OpenSpielCompatibilityV0

    env = OpenSpielCompatibilityV0(game_name="python_fiesta_mexicana", config={"players": 3})
    env.reset()
    assert env.num_agents == 3
    assert env.observation_space("player_0").shape == (load("fiesta_mexicana", 3).observation_tensor_shape()[0],)


def test_the_docs_example_runs():
    """The first Python block of docs/openspiel.md, as a reader would paste it."""
    page = (ROOT / "docs" / "openspiel.md").read_text()
    code = re.search(r"```python\n(.*?)```", page, re.DOTALL).group(1)
    namespace: dict = {}
    exec(compile(code, "docs/openspiel.md", "exec"), namespace)
    assert math.isfinite(namespace["score"])
