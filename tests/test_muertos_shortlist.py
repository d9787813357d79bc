"""The shortlist of Fiesta de los Muertos / La Catrina (``fiesta_envs/muertos/shortlist.py``) and the generic
machinery that trains and plays on it (``fiesta_envs/core/shortlist.py``, shipped agents, the training config)."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest
from information_of_muertos import hidden_cases

from fiesta_envs.agents.shipped import ShippedAgentError, ShippedPolicy, write_shipped_agent
from fiesta_envs.core.mlp import ActorSnapshot
from fiesta_envs.core.shortlist import NO_CANDIDATE, ShortlistEnv, ShortlistPolicy
from fiesta_envs.core.team_env import TeamEnv
from fiesta_envs.muertos.baselines import WORD_MEANINGS, AssociativeTeam, shared_with_prompt
from fiesta_envs.muertos.catrina import LaCatrina
from fiesta_envs.muertos.common import LAYOUT, LEXICON
from fiesta_envs.muertos.components import Phase
from fiesta_envs.muertos.game import FiestaDeLosMuertos
from fiesta_envs.muertos.shortlist import CHOICES, CONTEXT_SIZE, FEATURES, SHORTLIST, deduction_plan
from fiesta_envs.registry import GAMES

CONFIGURATIONS = [
    (FiestaDeLosMuertos, 4, {}),
    (FiestaDeLosMuertos, 6, {"draw_choice": True, "constraints": 2}),
    (FiestaDeLosMuertos, 4, {"double_challenge": True, "cortege": True}),
    (LaCatrina, 4, {}),
    (LaCatrina, 8, {}),
]


def positions(game_class, num_players, options, seed=0, choose=lambda candidates: 0):
    """Every (game, seat) of a game whose seats play candidate ``choose(candidates)`` of the shortlist."""
    game = game_class(num_players=num_players, seed=seed, **options)
    while not game.is_over:
        player = game.current_player
        candidates = SHORTLIST.build(game, player)
        yield game, player, candidates
        game.step(candidates.action(choose(candidates)))


@pytest.mark.parametrize(("game_class", "num_players", "options"), CONFIGURATIONS)
def test_the_candidates_are_distinct_legal_actions_and_the_vector_lies_in_0_1(game_class, num_players, options):
    for game, _, candidates in positions(game_class, num_players, options, seed=num_players):
        present = candidates.actions[candidates.actions != NO_CANDIDATE]
        assert candidates.vector.shape == (SHORTLIST.size,) == (CONTEXT_SIZE + CHOICES * FEATURES,)
        assert candidates.vector.dtype == np.float32
        assert candidates.vector.min() >= 0.0 and candidates.vector.max() <= 1.0
        assert len(set(present.tolist())) == len(present) >= 1
        assert (candidates.actions[: len(present)] == present).all()  # present ones first
        mask = game.legal_mask()
        assert all(mask[a] for a in present)
        assert len(present) == min(int(mask.sum()), CHOICES)
        rows = candidates.vector[CONTEXT_SIZE:].reshape(CHOICES, FEATURES)
        assert (rows[:, 0] == candidates.mask).all()  # the "present" entry


@pytest.mark.parametrize(("game_class", "num_players", "options"), CONFIGURATIONS)
def test_candidate_0_is_the_associative_teams_choice(game_class, num_players, options):
    team = AssociativeTeam(seed=0, version=1)  # the shortlist keeps version 1's ranking
    for game, player, candidates in positions(game_class, num_players, options, seed=10 + num_players):
        first = int(candidates.actions[0])
        game_round = game.round
        if game_round.phase == Phase.WRITE and first != LAYOUT.blank:
            # associative: the most shared tags, then the most meanings (its last tie-break is random)
            legal = np.flatnonzero(game.legal_mask()[LAYOUT.write : LAYOUT.blank])
            value = shared_with_prompt(game_round) + 0.1 * WORD_MEANINGS
            assert value[first - LAYOUT.write] == value[legal].max()
        else:
            assert first == team.act(None, game.legal_mask(), game, player)


def test_the_write_candidates_rank_precise_words_after_associatives_choice():
    game = next(g for g, _, _ in positions(FiestaDeLosMuertos, 4, {}, seed=1) if g.round.phase == Phase.WRITE)
    candidates = SHORTLIST.build(game, game.current_player)
    shared = shared_with_prompt(game.round)
    words = [int(a) - LAYOUT.write for a in candidates.actions]
    rows = candidates.vector[CONTEXT_SIZE:].reshape(CHOICES, FEATURES)
    others = [(-shared[w], WORD_MEANINGS[w] - shared[w], w) for w in words[1:]]
    assert others == sorted(others)  # most shared, then fewest other meanings, then id
    for k, word in enumerate(words):
        tags = LEXICON.word_tags[word].sum()
        assert rows[k, 11] == pytest.approx(min(shared[word] / 6, 1.0))
        assert rows[k, 12] == pytest.approx(min((tags - shared[word]) / 6, 1.0))
        assert rows[k, 1 + 1] == 1.0  # kind: write


def test_the_match_candidates_start_with_the_planned_slot_and_flag_my_own_character():
    game, player, candidates = next(
        (g, p, c) for g, p, c in positions(FiestaDeLosMuertos, 4, {}, seed=2) if g.round.phase == Phase.DEDUCE
    )
    _scores, plan = deduction_plan(game.round, player)
    slots = [LAYOUT.second[a] for a in candidates.actions if a != NO_CANDIDATE]
    assert slots[0] == plan[game.round.number] and sorted(slots) == list(range(8))
    rows = candidates.vector[CONTEXT_SIZE:].reshape(CHOICES, FEATURES)
    mine = game.round.table.index(game.round.characters[player])
    assert [rows[k, 13] for k in range(8)] == [float(slot == mine) for slot in slots]


def test_a_position_without_a_decision_for_that_seat_is_refused():
    game = FiestaDeLosMuertos(num_players=4, seed=0)
    with pytest.raises(ValueError, match="seat to act"):
        SHORTLIST.build(game, (game.current_player + 1) % 4)


@pytest.mark.parametrize("case", hidden_cases(), ids=lambda c: c.name)
def test_what_the_seat_cannot_know_does_not_change_its_shortlist(case):
    game_class = GAMES[case.game].game_class()
    first, second = game_class.from_state_dict(case.first), game_class.from_state_dict(case.second)
    if first.current_player != case.seat:
        pytest.skip("the shortlist is built for the seat to act only")
    one, two = SHORTLIST.build(first, case.seat), SHORTLIST.build(second, case.seat)
    assert np.array_equal(one.vector, two.vector) and np.array_equal(one.actions, two.actions)


def test_what_the_writer_reads_changes_its_shortlist():
    game = next(g for g, _, _ in positions(FiestaDeLosMuertos, 4, {}, seed=3) if g.round.step == 1)
    state = game.state_dict()
    skull = game.round.current_skull()
    read = state["state"]["round"]["words"][skull][0]
    other = int(np.flatnonzero(LEXICON.word_links[read])[0])
    state["state"]["round"]["words"][skull][0] = other
    changed = FiestaDeLosMuertos.from_state_dict(state)
    seat = game.current_player
    assert not np.array_equal(SHORTLIST.build(game, seat).vector, SHORTLIST.build(changed, seat).vector)


# ---------------------------------------------------------------------------------- machinery
def random_actor(seed: int = 0, hidden: int = 16) -> ActorSnapshot:
    rng = np.random.default_rng(seed)
    sizes = [SHORTLIST.size, hidden, SHORTLIST.choices]
    weights = [rng.normal(size=(a, b)).astype(np.float32) for a, b in itertools.pairwise(sizes)]
    biases = [np.zeros(b, dtype=np.float32) for b in sizes[1:]]
    return ActorSnapshot(weights, biases, ["tanh", "identity"])


def test_the_shortlist_env_plays_candidates_and_masks_the_empty_places():
    env = ShortlistEnv(TeamEnv(FiestaDeLosMuertos, num_players=4), SHORTLIST)
    observation, info = env.reset(seed=5)
    assert env.observation_space.contains(observation) and env.action_space.n == CHOICES
    steps, terminated = 0, False
    while not terminated:
        mask = env.action_masks()
        assert (info["action_mask"] == mask).all() and mask.dtype == bool
        base = env.unwrapped
        assert env.choice_of(SHORTLIST.build(base.game, base.seat).actions[0]) == 0
        if not mask.all():
            with pytest.raises(ValueError, match="not on the shortlist"):
                env.step(int(np.flatnonzero(~mask)[0]))
        observation, reward, terminated, _, info = env.step(int(np.flatnonzero(mask)[-1]))
        steps += 1
    assert steps > 16 and reward == env.unwrapped.game.team_reward()


def test_a_shortlist_policy_plays_whole_games_and_refuses_a_network_of_another_size():
    policy = ShortlistPolicy(random_actor(), SHORTLIST)
    for game_class in (FiestaDeLosMuertos, LaCatrina):
        game = game_class(num_players=5, seed=1)
        while not game.is_over:
            game.step(policy.act(None, game.legal_mask(), game, game.current_player))  # step refuses illegal ones
    small = ActorSnapshot([np.zeros((3, 10), dtype=np.float32)], [np.zeros(10, dtype=np.float32)], ["identity"])
    with pytest.raises(ValueError, match="206 entries and 10 candidates"):
        ShortlistPolicy(small, SHORTLIST)


def test_a_shipped_shortlist_agent_plays_and_refuses_another_shortlist(tmp_path):
    actor = random_actor(seed=3)
    _, json_path = write_shipped_agent(actor, FiestaDeLosMuertos, 4, out_dir=tmp_path, shortlist=True)
    info = json.loads(json_path.read_text())
    assert info["shortlist"] == SHORTLIST.name and info["observation_size"] == SHORTLIST.size
    assert info["num_actions"] == CHOICES
    policy, reference = ShippedPolicy(weights_dir=tmp_path), ShortlistPolicy(actor, SHORTLIST)
    game = FiestaDeLosMuertos(num_players=4, seed=2)
    while not game.is_over:
        player = game.current_player
        action = policy.act(game.observe(player), game.legal_mask(), game, player)
        assert action == reference.act(None, game.legal_mask(), game, player)
        game.step(action)
    info["shortlist"] = "muertos/shortlist/v0"
    json_path.write_text(json.dumps(info))
    with pytest.raises(ShippedAgentError, match="trained on the shortlist 'muertos/shortlist/v0'"):
        ShippedPolicy(weights_dir=tmp_path).act(None, None, FiestaDeLosMuertos(num_players=4, seed=0), 0)


def test_writing_a_shortlist_agent_for_a_game_without_one_is_refused(tmp_path):
    from fiesta_envs.fiesta_mexicana.game import FiestaMexicana

    with pytest.raises(ShippedAgentError, match="fiesta_mexicana has no shortlist"):
        write_shipped_agent(random_actor(), FiestaMexicana, 2, out_dir=tmp_path, shortlist=True)


def test_a_config_asking_a_shortlist_of_a_game_without_one_names_the_field():
    pytest.importorskip("pydantic")
    from pathlib import Path

    from fiesta_envs.training.config import ConfigError, load_config

    smoke = Path(__file__).resolve().parent.parent / "configs" / "smoke.yaml"
    with pytest.raises(ConfigError, match="shortlist"):
        load_config(smoke, ["shortlist=true"])


def test_the_teachers_games_are_collected_as_candidates():
    pytest.importorskip("sb3_contrib")
    from pathlib import Path

    from fiesta_envs.training.config import load_config
    from fiesta_envs.training.pretrain import collect_decisions
    from fiesta_envs.training.train import env_factory

    config_file = Path(__file__).resolve().parent.parent / "configs" / "fiesta_de_los_muertos" / "ppo.yaml"
    config = load_config(config_file, ["pretrain.games=3"])
    data = collect_decisions(config, env_factory(config, [], pretraining=True), seed=1)
    assert data.observations.shape[1] == SHORTLIST.size and data.masks.shape[1] == CHOICES
    assert data.masks[np.arange(len(data)), data.actions].all()  # every label is a present candidate
    assert (data.actions == 0).mean() > 0.6  # candidate 0 is associative's choice (up to its random tie-breaks)


def test_a_shortlist_run_trains_exports_and_plays_the_same_moves_from_checkpoint_and_package(tmp_path):
    pytest.importorskip("sb3_contrib")
    from pathlib import Path

    from fiesta_envs.cli import main
    from fiesta_envs.evaluation.checkpoints import CheckpointPolicy
    from fiesta_envs.training.export import export_checkpoint

    config = Path(__file__).resolve().parent.parent / "configs" / "fiesta_de_los_muertos" / "ppo.yaml"
    run = tmp_path / "run"
    settings = ["pretrain.games=4", "total_timesteps=512", "n_envs=2", "ppo.batch_size=256", "eval.every=0"]
    settings += ["final_eval.games=0", "ppo.net_arch=[16]"]
    assert (
        main(
            ["train", "--no-progress", "--config", str(config), "--run-dir", str(run)]
            + [arg for setting in settings for arg in ("--set", setting)]
        )
        == 0
    )
    _, json_path = export_checkpoint(run, out_dir=tmp_path / "weights")
    assert json.loads(json_path.read_text())["shortlist"] == SHORTLIST.name
    from_checkpoint, shipped = CheckpointPolicy(run), ShippedPolicy(weights_dir=tmp_path / "weights")
    game = FiestaDeLosMuertos(num_players=4, seed=4)
    while not game.is_over:
        player = game.current_player
        action = from_checkpoint.act(game.observe(player), game.legal_mask(), game, player)
        assert action == shipped.act(game.observe(player), game.legal_mask(), game, player)
        game.step(action)
