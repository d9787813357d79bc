"""Shipped shortlist agents at other player counts (``also_plays`` in their JSON, ``fiesta_envs.agents.shipped``).

A shortlist agent reads a vector that is the same at every player count, so its JSON may list the other counts it
was measured at; ``find_shipped`` takes an agent trained at the count first, else one that also plays it. The
networks here are random (``write_shipped_agent`` into a temporary folder), except the last tests, which copy the
shipped 4-player Fiesta de los Muertos agent into a folder of their own and set its ``also_plays`` there.
"""

from __future__ import annotations

import itertools
import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from shortlist_support import assert_plays_like

from fiesta_envs.agents.shipped import (
    PACKAGE_WEIGHTS_DIR,
    WEIGHTS_ENV,
    ShippedAgentError,
    ShippedPolicy,
    check_shipped,
    count_ranges,
    find_shipped,
    shipped_agents,
    write_shipped_agent,
)
from fiesta_envs.fiesta_mexicana.game import FiestaMexicana
from fiesta_envs.muertos.game import FiestaDeLosMuertos
from fiesta_envs.muertos.shortlist import SHORTLIST_V2
from fiesta_envs.policies.mlp import ActorSnapshot
from fiesta_envs.policies.shortlist import ShortlistPolicy

GAME = "fiesta_de_los_muertos"
NOT_A_LIST = (
    r"shipped agent file .*fiesta_de_los_muertos-4p\.json: 'also_plays' must be a list of other player counts of "
    r"fiesta_de_los_muertos, each once, from 5, 6, 7, 8; got "
)


def random_actor(inputs: int, outputs: int, seed: int = 0) -> ActorSnapshot:
    rng = np.random.default_rng(seed)
    sizes = [inputs, 16, outputs]
    weights = [rng.normal(size=(a, b)).astype(np.float32) for a, b in itertools.pairwise(sizes)]
    return ActorSnapshot(weights, [np.zeros(b, dtype=np.float32) for b in sizes[1:]], ["tanh", "identity"])


def write_muertos(folder: Path, num_players: int = 4, seed: int = 0, also_plays=None) -> tuple[ActorSnapshot, Path]:
    """A random shortlist network (version 2) shipped for ``num_players``; returns it and its JSON's path."""
    actor = random_actor(SHORTLIST_V2.size, SHORTLIST_V2.choices, seed)
    _, json_path = write_shipped_agent(
        actor,
        FiestaDeLosMuertos,
        num_players,
        out_dir=folder,
        shortlist=True,
        shortlist_version=2,
        also_plays=also_plays,
    )
    return actor, json_path


def set_field(json_path: Path, **fields) -> None:
    info = json.loads(json_path.read_text())
    info.update(fields)
    json_path.write_text(json.dumps(info))


# ---------------------------------------------------------------------------------- reading and finding
def test_an_agent_also_plays_the_counts_its_json_lists(tmp_path):
    actor, json_path = write_muertos(tmp_path, also_plays=(8, 5))
    assert json.loads(json_path.read_text())["also_plays"] == [5, 8]  # written sorted
    agent = find_shipped(FiestaDeLosMuertos, 8, weights_dir=tmp_path)
    assert (agent.json_path, agent.num_players, agent.also_plays) == (json_path, 4, (5, 8))
    assert find_shipped(FiestaDeLosMuertos, 4, weights_dir=tmp_path) == agent
    assert check_shipped(FiestaDeLosMuertos, 5, weights_dir=tmp_path) == agent
    with pytest.raises(ShippedAgentError) as error:
        check_shipped(FiestaDeLosMuertos, 6, weights_dir=tmp_path)
    assert str(error.value) == (
        "fiesta_de_los_muertos: no shipped 'ppo' agent for 6 players; shipped: 4 players (also 5, 8)"
    )

    # at 5 players it plays the network's choices among the shortlist's candidates
    policy, reference = ShippedPolicy(GAME, weights_dir=tmp_path), ShortlistPolicy(actor, SHORTLIST_V2)
    assert_plays_like(policy, reference, FiestaDeLosMuertos(num_players=5, seed=3))


def test_an_agent_trained_at_the_count_wins_over_one_that_also_plays_it(tmp_path):
    write_muertos(tmp_path, 4, seed=0, also_plays=[5, 6, 7, 8])
    _, trained_at_5 = write_muertos(tmp_path, 5, seed=1)
    assert find_shipped(FiestaDeLosMuertos, 5, weights_dir=tmp_path).json_path == trained_at_5
    assert find_shipped(FiestaDeLosMuertos, 6, weights_dir=tmp_path).num_players == 4
    assert sorted(a.describe(FiestaDeLosMuertos) for a in shipped_agents(GAME, weights_dir=tmp_path)) == [
        "4 players (also 5-8)",
        "5 players",
    ]
    set_field(trained_at_5, also_plays=[6])  # two agents that only also play 6: neither is preferred
    with pytest.raises(ShippedAgentError, match=r"several shipped 'ppo' agents fit 6 players: .*-4p.json, .*-5p.json"):
        find_shipped(FiestaDeLosMuertos, 6, weights_dir=tmp_path)
    assert find_shipped(FiestaDeLosMuertos, 7, weights_dir=tmp_path).num_players == 4


def test_the_description_joins_runs_of_counts_and_names_the_options():
    assert [count_ranges(c) for c in ([5, 6, 7, 8], (8, 5), [2, 3, 5, 7, 8], [6])] == [
        "5-8",
        "5, 8",
        "2-3, 5, 7-8",
        "6",
    ]


def test_a_description_with_options_and_other_counts(tmp_path):
    actor = random_actor(SHORTLIST_V2.size, SHORTLIST_V2.choices)
    write_shipped_agent(
        actor, FiestaDeLosMuertos, 4, options={"cortege": True}, out_dir=tmp_path, shortlist=True,
        shortlist_version=2, also_plays=[5, 6],
    )  # fmt: skip
    with pytest.raises(ShippedAgentError, match=r"for 6 players; shipped: 4 players \(also 5-6; cortege=True\)$"):
        find_shipped(FiestaDeLosMuertos, 6, weights_dir=tmp_path)  # the options differ: not this agent
    assert find_shipped(FiestaDeLosMuertos, 6, {"cortege": True}, weights_dir=tmp_path).num_players == 4


# ---------------------------------------------------------------------------------- refusals
@pytest.mark.parametrize(
    "value",
    ["5-8", 5, None, {"5": True}, [5.0], [True], ["5"], [4], [9], [3], [5, 6, 5]],
    ids=["text", "int", "null", "object", "float", "bool", "string", "own-count", "too-many", "too-few", "twice"],
)
def test_a_bad_also_plays_is_refused_when_the_json_is_read(tmp_path, value):
    _, json_path = write_muertos(tmp_path)
    set_field(json_path, also_plays=value)
    if value in ([9], [3]):  # legal for the game or not: checked where the game is known (find_shipped)
        shipped_agents(GAME, weights_dir=tmp_path)
        with pytest.raises(ShippedAgentError, match=NOT_A_LIST):
            check_shipped(FiestaDeLosMuertos, 4, weights_dir=tmp_path)
        return
    not_a_list = NOT_A_LIST.replace(", from 5, 6, 7, 8; got ", "; got ")
    with pytest.raises(ShippedAgentError, match=not_a_list):
        shipped_agents(GAME, weights_dir=tmp_path)
    with pytest.raises(ShippedAgentError, match=not_a_list):
        check_shipped(FiestaDeLosMuertos, 4, weights_dir=tmp_path)


def test_a_bad_also_plays_is_refused_before_writing(tmp_path):
    with pytest.raises(ShippedAgentError, match=r"'also_plays' must be .* from 5, 6, 7, 8; got \[4, 9\]"):
        write_muertos(tmp_path, also_plays=[4, 9])
    assert list(tmp_path.iterdir()) == []


def test_an_agent_reading_the_observation_refuses_also_plays(tmp_path):
    game = FiestaMexicana(num_players=2)
    actor = random_actor(game.observation_size, game.num_actions)
    with pytest.raises(ShippedAgentError, match="'also_plays' is allowed only for shortlist agents"):
        write_shipped_agent(actor, FiestaMexicana, 2, out_dir=tmp_path, also_plays=[3])
    _, json_path = write_shipped_agent(actor, FiestaMexicana, 2, out_dir=tmp_path)
    check_shipped(FiestaMexicana, 2, weights_dir=tmp_path)
    set_field(json_path, also_plays=[3])
    with pytest.raises(
        ShippedAgentError,
        match=r"fiesta_mexicana-2p\.json: 'also_plays' is allowed only for shortlist agents \(a JSON with "
        r"'shortlist'\): a network reading the observation plays only the player count it was trained at \(2\)",
    ):
        check_shipped(FiestaMexicana, 2, weights_dir=tmp_path)


# ---------------------------------------------------------------------------------- the shipped network at 8 players
@pytest.fixture
def muertos_weights(tmp_path) -> Path:
    """The shipped 4-player Fiesta de los Muertos agent in a folder of its own, without ``also_plays``."""
    folder = tmp_path / "weights"
    folder.mkdir()
    for suffix in (".json", ".npz"):
        shutil.copy(PACKAGE_WEIGHTS_DIR / f"{GAME}-4p{suffix}", folder / f"{GAME}-4p{suffix}")
    info = json.loads((folder / f"{GAME}-4p.json").read_text())
    info.pop("also_plays", None)
    (folder / f"{GAME}-4p.json").write_text(json.dumps(info))
    return folder


def test_evaluate_and_gymnasium_play_the_4_player_network_at_8_players_when_it_also_plays_8(
    muertos_weights, monkeypatch
):
    import gymnasium

    from fiesta_envs.evaluation.agents import AgentError
    from fiesta_envs.evaluation.evaluate import run_tournament

    monkeypatch.setenv(WEIGHTS_ENV, str(muertos_weights))
    with pytest.raises(AgentError, match="no shipped 'ppo' agent for 8 players; shipped: 4 players$"):
        run_tournament(GAME, 8, ["ppo", "associative"], games_per_table=1, progress=False)

    set_field(muertos_weights / f"{GAME}-4p.json", also_plays=[5, 6, 7, 8])
    evaluation = run_tournament(
        GAME, 8, ["ppo", "associative"], games_per_table=1, seed=0, bootstrap=10, progress=False
    )
    assert [(a.label, a.kind) for a in evaluation.agents] == [("ppo", "shipped"), ("associative", "baseline")]
    assert evaluation.matches[0].games == 1 and evaluation.teams[0].mean_score >= 0

    env = gymnasium.make("fiesta_envs/FiestaDeLosMuertos-v1", num_players=8, opponents="ppo", seat=0)
    _, info = env.reset(seed=0)
    done = False
    while not done:
        _, _, done, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert env.unwrapped.game.num_players == 8 and env.unwrapped.game.is_over


# ---------------------------------------------------------------------------------- what is really shipped
def _agents_that_also_play() -> list:
    paths = sorted(PACKAGE_WEIGHTS_DIR.glob("*.json"))
    found = [path for path in paths if json.loads(path.read_text()).get("also_plays")]
    skip = pytest.mark.skip(reason="no shipped agent plays other player counts")
    return [pytest.param(path, id=path.stem) for path in found] or [pytest.param(None, id="none", marks=skip)]


@pytest.mark.parametrize("description", _agents_that_also_play())
def test_a_shipped_agent_also_plays_only_counts_where_it_won_half_of_1000_deals(description, monkeypatch):
    from fiesta_envs.registry import game_spec

    monkeypatch.delenv(WEIGHTS_ENV, raising=False)
    info = json.loads(description.read_text())
    measured = info["also_plays_evaluation"]["results"]
    for count in info["also_plays"]:
        result = measured[str(count)]
        assert result["games"] >= 1000 and result["win_rate"] >= 0.5, (count, result)
        assert result["won"] + result["drawn"] + result["lost"] == result["games"]
        assert f"--players {count} --games {result['games']}" in result["command"]
        game_class = game_spec(info["game"]).game_class()
        assert check_shipped(game_class, count, info["options"]).json_path == description
