"""The scripted players and the shipped agents play exactly the moves they played when these digests were pinned.

Speed work (caches of valuations shared by the features and the baselines, batched network opponents) must not
change a single decision: each case plays seeded games through the engine and compares a SHA-256 of every
move (with the game's seed and final scores) to a constant computed on the code before that work; likewise
Fiesta Mexicana's action features of every seat at every step of seeded random games. A digest
that changes means an agent now plays differently: either a bug, or a deliberate change of its behaviour that
bumps its version (and then the new version gets its own digest here).
"""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

from fiesta_envs.registry import game_spec, make_policy


def play_digest(game: str, agents: list[str], games: int, num_players: int | None = None, **options: object) -> str:
    """SHA-256 over ``games`` seeded games of ``agents`` (one spec per seat, seats rotated game by game)."""
    spec = game_spec(game)
    engine = spec.game_class()(num_players=num_players or len(agents), **options)
    n = engine.num_players
    policies = [make_policy(spec.name, agent) for agent in agents]
    digest = hashlib.sha256()
    for seed in range(games):
        engine.reset(seed)
        seats = [policies[(seat + seed) % n] for seat in range(n)]
        for k, policy in enumerate(seats):
            policy.start_episode(1000 * seed + k)
        moves = []
        while not engine.is_over:
            player = engine.current_player
            policy = seats[player]
            observation = engine.observe(player) if getattr(policy, "needs_observation", True) else None
            action = int(policy.act(observation, engine.legal_mask(), engine, player))
            moves.append(action)
            engine.step(action)
        scores = [float(s) for s in engine.scores()]
        digest.update(f"{seed}:{moves}:{scores};".encode())
    return digest.hexdigest()[:16]


CASES = {
    "fiesta_mexicana greedy x2": (("fiesta_mexicana", ["greedy", "greedy"], 30, None, {}), "d033de36e775bfdc"),
    "fiesta_mexicana greedy v1 vs v2": (
        ("fiesta_mexicana", ["greedy:version=1", "greedy"], 30, None, {}),
        "3e8faeb3d5f43c5c",
    ),
    "fiesta_mexicana greedy x3, features on": (
        ("fiesta_mexicana", ["greedy", "greedy", "random"], 12, None, {"action_features": True}),
        "ca97c49b6a17a623",
    ),
    "fiesta_mexicana greedy x4, confirmed waiters": (
        ("fiesta_mexicana", ["greedy"] * 4, 8, None, {"variant": "confirmed_waiters"}),
        "58c5f5e0f04fde2a",
    ),
    "fiesta_mexicana ppo vs greedy": (("fiesta_mexicana", ["ppo", "greedy"], 30, None, {}), "9b9ef43e664bd8f9"),
    "fiesta_mexicana ppo vs greedy, features on": (
        ("fiesta_mexicana", ["ppo", "greedy"], 12, None, {"action_features": True, "reward": "margin"}),
        "aae41eb9fdca2dda",
    ),
    "fiesta_mexicana against_search vs greedy": (
        ("fiesta_mexicana", ["against_search", "greedy"], 12, None, {}),
        "cf01c2e27f7ef6aa",
    ),
    "fiesta_mexicana search vs greedy": (
        ("fiesta_mexicana", ["search:budget=2", "greedy"], 2, None, {}),
        "e76f0298612c5751",
    ),
    "tortilla careful x2": (("tortilla_de_patatas", ["careful", "careful"], 30, None, {}), "4f4a16e278d1c3f1"),
    "tortilla careful v1 vs ppo": (
        ("tortilla_de_patatas", ["careful:version=1", "ppo"], 12, None, {}),
        "1fcf42bd62d4d1c4",
    ),
    "tequila planner solo": (("tequila", ["planner"], 30, None, {}), "74a8bb7a331cad90"),
    "tequila planner x2": (("tequila", ["planner", "planner:version=1"], 20, None, {}), "516ebb0623b76cf7"),
    "tequila ppo vs planner": (("tequila", ["ppo", "planner"], 10, None, {}), "9db14af828c5c423"),
}


def features_digest(num_players: int, games: int, **options: object) -> str:
    """SHA-256 of Fiesta Mexicana's action features of every seat at every step of seeded random games."""
    from fiesta_envs.fiesta_mexicana.game import FiestaMexicana

    digest = hashlib.sha256()
    for seed in range(games):
        game = FiestaMexicana(num_players=num_players, seed=seed, **options)
        rng = np.random.default_rng(seed)
        while not game.is_over:
            for seat in range(num_players):
                digest.update(game.action_features(seat).tobytes())
            legal = np.flatnonzero(game.legal_mask())
            game.step(int(legal[rng.integers(len(legal))]))
    return digest.hexdigest()[:16]


FEATURE_CASES = {
    (2, "standard"): "e5d174aac3aa4a44",
    (3, "confirmed_waiters"): "cfaa929409b1e025",
    (4, "standard"): "e1ed4c06fcf88ead",
}


@pytest.mark.parametrize(("num_players", "variant"), list(FEATURE_CASES))
def test_fiesta_mexicana_action_features_are_the_pinned_ones(num_players, variant):
    assert features_digest(num_players, 6, variant=variant) == FEATURE_CASES[num_players, variant]


@pytest.mark.parametrize("case", list(CASES))
def test_agents_play_the_pinned_moves(case):
    (game, agents, games, num_players, options), expected = CASES[case]
    assert play_digest(game, agents, games, num_players, **options) == expected
