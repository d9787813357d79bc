"""The speed-ups of the Tortilla engine change nothing a player or a learner can see.

* ``legal_mask`` reads precomputed, read-only tables; ``legal_mask_from_rules`` works every
  action out from the rules: both agree at every step of random games.
* Pinned trajectories: digests of every mask, every seat's observation, the scores, the returns
  and the final state dict of a few seeded random games in each menu, player count and mode.
  They were recorded with the engine as it was before the speed work of issue 11 (version 0),
  so they also pin the card shuffling and the rng draw order. A deliberate change of behaviour
  must bump ``TortillaDePatatas.version`` and record them again. Version 1 changed only the
  ``observation`` mode, so the default mode's digests still pin version 0.
"""

from __future__ import annotations

import hashlib
import json

import numpy as np
import pytest

from fiesta_envs.tortilla.game import TortillaDePatatas, legal_mask_from_rules
from fiesta_envs.tortilla.state import Phase

CONFIGURATIONS = [(menu, n) for menu in ("kids", "day", "gourmet") for n in (2, 4)]

PINNED_DIGESTS = {
    "kids-2-information_state": "c283add4a9d92eb9",
    "kids-4-information_state": "13813d8d727cd11a",
    "day-2-information_state": "702a4f64a71c8342",
    "day-4-information_state": "45315a0ced84fbaa",
    "gourmet-2-information_state": "7aefbd0d5d0de953",
    "gourmet-4-information_state": "a44007e63cee1db5",
}


def trajectory_digest(num_players: int, menu: str, mode: str, games: int = 4) -> str:
    """A digest of everything the engine shows along ``games`` seeded random games."""
    digest = hashlib.sha256()
    game = TortillaDePatatas(num_players=num_players, menu=menu, observation=mode)
    for seed in range(games):
        game.reset(seed)
        rng = np.random.default_rng(seed)
        while True:
            mask = game.legal_mask()
            digest.update(mask.tobytes())
            for seat in range(num_players):
                digest.update(game.observe(seat).tobytes())
            digest.update(game.scores().tobytes())
            if game.is_over:
                break
            legal = np.flatnonzero(mask)
            game.step(int(legal[rng.integers(len(legal))]))
        digest.update(game.returns().tobytes())
        saved = game.state_dict()  # as version 0 saved it: v1 added the events seen since each seat's last decision
        saved["version"] = 0
        del saved["state"]["events"], saved["state"]["events_seen_from"]
        digest.update(json.dumps(saved, sort_keys=True).encode())
    return digest.hexdigest()[:16]


@pytest.mark.parametrize(("menu", "num_players"), CONFIGURATIONS)
def test_default_mode_trajectories_are_those_of_version_0(menu: str, num_players: int) -> None:
    """Version 1 changed the ``observation`` mode only (tests/playthroughs pins it): the default mode is as in v0."""
    mode = "information_state"
    assert trajectory_digest(num_players, menu, mode) == PINNED_DIGESTS[f"{menu}-{num_players}-{mode}"]


@pytest.mark.parametrize(("menu", "num_players"), CONFIGURATIONS)
def test_table_masks_equal_the_masks_worked_out_from_the_rules(menu: str, num_players: int) -> None:
    game = TortillaDePatatas(num_players=num_players, menu=menu)
    phases = set()
    for seed in range(40):
        game.reset(seed)
        rng = np.random.default_rng(seed)
        while True:
            mask = game.legal_mask()
            phases.add(game.state.phase.label)
            assert mask.dtype == np.int8
            assert np.array_equal(mask, legal_mask_from_rules(game)), f"seed {seed}, {game.state.phase.label}"
            if game.is_over:
                break
            game.step(int(rng.choice(np.flatnonzero(mask))))
    assert {"play", "after", "over"} <= phases


def test_shared_masks_are_read_only() -> None:
    """Masks are rows of tables every game shares: writing into one must fail, not corrupt others."""
    game = TortillaDePatatas(seed=2)
    rng = np.random.default_rng(0)
    while not game.is_over:
        mask = game.legal_mask()
        if game.state.phase != Phase.STEAL:  # a steal choice's mask is built fresh
            assert not mask.flags.writeable
            with pytest.raises(ValueError):
                mask[0] = 1
        game.step(int(rng.choice(np.flatnonzero(mask))))
    assert not game.legal_mask().any()
