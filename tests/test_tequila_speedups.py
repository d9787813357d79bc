"""Tequila's speed-ups against the rules computed directly (``tequila.speedups``): the kept legal masks
(``mask_cache``) equal the masks written out rule by rule (``reference_mask``), and the union-find fencing
(``fencing.Fencing``) the flood fill (``flood_fill.FloodFillFencing``), at every step of random and planner
games; and a game played with the speed-ups off is the same game, to the recorded playthrough."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest
from playthrough_support import DIRECTORY, file_name, playthrough

from fiesta_envs.policies.policy import RandomPolicy
from fiesta_envs.tequila import farm, speedups
from fiesta_envs.tequila.baselines import Planner
from fiesta_envs.tequila.fencing import Fencing
from fiesta_envs.tequila.flood_fill import FloodFillFencing, fenced_off, flood_zones
from fiesta_envs.tequila.game import Tequila
from fiesta_envs.tequila.reference_mask import reference_mask

CONFIGS = [
    {"num_players": 1},
    {"num_players": 2, "cask_tile": "B"},
    {"num_players": 3, "jimadores": "dealt"},
    {"num_players": 2, "jimadores": "B", "jimador_order": "green,red"},
    {"num_players": 6},
]


def config_id(config: dict) -> str:
    return "-".join(f"{k}={v}" for k, v in config.items())


def play(game: Tequila, seed: int, planners: tuple[int, ...] = ()):
    """Yield before every step of a game (seats in ``planners`` play the planner, the others at random)."""
    game.reset(seed)
    policies = [Planner(seed=seed) if p in planners else RandomPolicy(seed=seed + p) for p in range(game.num_players)]
    while not game.is_over:
        yield
        p = game.current_player
        game.step(int(policies[p].act(game.observe(p), game.legal_mask(), game, p)))


def assert_same_fence_facts(kept: Fencing, fences: int) -> None:
    reference = FloodFillFencing(fences)
    assert (kept.fences, kept.zones, kept.blocked, kept.legal) == (
        reference.fences,
        reference.zones,
        reference.blocked,
        reference.legal,
    )


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
@speedups.enabled(True)  # whatever the environment says
def test_the_kept_masks_and_fences_equal_the_reference_at_every_step(config: dict) -> None:
    game = Tequila(**config)
    steps = 0
    for seed, planners in ((0, ()), (1, (0,))):
        for _ in play(game, seed, planners):
            np.testing.assert_array_equal(game.mask_cache.legal_mask(game), reference_mask(game))
            sheet = game.state.sheets[game.current_player]
            assert isinstance(sheet.fencing, Fencing)
            assert_same_fence_facts(sheet.fencing, sheet.fences)
            steps += 1
    assert steps > 200


def test_fences_drawn_in_any_order_give_the_flood_fill_answers() -> None:
    """Legal fences only (as play draws them) and any fences (as loaded positions may hold): the same
    zones, forbidden segments and returned zones after every fence."""
    rng = np.random.default_rng(7)
    for sequence in range(40):
        kept, reference = Fencing(), FloodFillFencing()
        for s in (int(s) for s in rng.permutation(farm.NUM_SEGMENTS)):
            if sequence % 2 == 0 and not reference.legal >> s & 1:
                continue
            assert kept.draw(s) == reference.draw(s)
            assert (kept.zones, kept.blocked, kept.legal) == (reference.zones, reference.blocked, reference.legal)


def test_the_flood_fill_follows_the_rules_as_farm_states_them() -> None:
    rng = np.random.default_rng(3)
    for fences in [0, farm.ALL_SEGMENTS, *(int(x) for x in rng.integers(0, 1 << farm.NUM_SEGMENTS, 200))]:
        assert flood_zones(fences) == farm.zones(fences)
        assert [fenced_off(z, fences) for z in flood_zones(fences)] == [
            farm.is_fenced_off(z, fences) for z in farm.zones(fences)
        ]
        legal = FloodFillFencing(fences).legal
        assert [bool(legal >> s & 1) for s in range(farm.NUM_SEGMENTS)] == [
            farm.fence_problem(s, fences) is None for s in range(farm.NUM_SEGMENTS)
        ]


@speedups.enabled(True)  # whatever the environment says
def test_with_the_speedups_off_the_game_uses_the_reference_and_plays_the_same_game() -> None:
    fast = Tequila(num_players=3, jimadores="dealt", cask_tile="B")
    with speedups.enabled(False):
        slow = Tequila(num_players=3, jimadores="dealt", cask_tile="B")
        assert all(isinstance(sheet.fencing, FloodFillFencing) for sheet in slow.state.sheets)
        for _ in zip(play(fast, 5, (1,)), play(slow, 5, (1,)), strict=True):
            assert slow.state_dict() == fast.state_dict()
            np.testing.assert_array_equal(slow.legal_mask(), fast.legal_mask())
            assert slow.legal_mask().flags.writeable  # a new array each time: no kept mask
        assert slow.state_dict() == fast.state_dict()
    assert speedups.ENABLED


def test_with_the_speedups_off_the_game_plays_as_recorded() -> None:
    with speedups.enabled(False):
        assert playthrough("tequila", 2, {}) == (DIRECTORY / file_name("tequila", 2, {})).read_text()


def test_the_environment_variable_turns_the_speedups_off_at_import() -> None:
    code = "from fiesta_envs.tequila import speedups; print(speedups.ENABLED)"
    for value, expected in (("1", "False"), ("", "True")):
        env = {**os.environ, "FIESTA_ENVS_REFERENCE": value}
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
        assert out.stdout.strip() == expected
