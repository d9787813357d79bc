"""The per-game invariant checks (``fiesta_envs/testing/invariants/<game>.py``) accept real positions and
catch damaged ones: each damage below breaks one rule, and the check must name it."""

from __future__ import annotations

import copy
import importlib
import itertools

import numpy as np
import pytest

from fiesta_envs.testing.invariants import invariants_for


def _engine(target: str):
    module_name, _, attribute = target.partition(":")
    try:
        return getattr(importlib.import_module(module_name), attribute)
    except ModuleNotFoundError as error:
        pytest.skip(f"{error.name} is not written yet")


def _positions(game_class, num_players, steps, options=None, seed=0):
    """State dicts before and after each of ``steps`` random legal actions, and the final one."""
    game = game_class(num_players=num_players, seed=seed, **(options or {}))
    rng = np.random.default_rng(seed)
    states = [game.state_dict()]
    while not game.is_over:
        game.step(int(rng.choice(np.flatnonzero(game.legal_mask()))))
        states.append(game.state_dict())
    return states[: steps + 1], states[-1], game.scores().tolist()


def _assert_catches(check, *args, match):
    problems = check(*args)
    assert problems, "the damage went unnoticed"
    assert any(match in p for p in problems), problems


def test_games_without_a_module_have_no_per_game_checks():
    assert invariants_for("no_such_game").empty
    assert not invariants_for("fiesta_mexicana").empty


def _clean(inv, states, final, scores):
    for before, after in itertools.pairwise(states):
        assert inv.check_state(before) == []
        assert inv.check_transition(before, after) == []
    assert inv.check_state(final) == []
    assert inv.check_final(final, scores) == []


def test_fiesta_mexicana_checks():
    cls = _engine("fiesta_envs.fiesta_mexicana.game:FiestaMexicana")
    inv = invariants_for("fiesta_mexicana")
    states, final, scores = _positions(cls, 3, 60)
    _clean(inv, states, final, scores)
    mid = copy.deepcopy(states[40])
    mid["state"]["deck"][0] = mid["state"]["deck"][1]
    _assert_catches(inv.check_state, mid, match="not each in one place")
    mid = copy.deepcopy(states[40])
    mid["state"]["points"][1] = -1
    _assert_catches(inv.check_state, mid, match="negative points")
    before, after = states[40], copy.deepcopy(states[41])
    after["state"]["points"][0] += 1
    after["state"]["points"][1] += 1
    _assert_catches(inv.check_transition, before, after, match="points changed")
    moved = copy.deepcopy(final)
    space = next(s for s, card in enumerate(moved["state"]["cards"][0]) if card >= 0)
    moved["state"]["cards"][0][space] = -1
    moved["state"]["rotations"][0][space] = -1
    _assert_catches(inv.check_transition, final, moved, match="moved or turned")
    _assert_catches(inv.check_final, final, [s + 1 for s in scores], match="recomputed")


def test_fiesta_mexicana_placement_points_are_recomputed():
    cls = _engine("fiesta_envs.fiesta_mexicana.game:FiestaMexicana")
    inv = invariants_for("fiesta_mexicana")
    states, _, _ = _positions(cls, 2, 400)
    pairs = [(b, a) for b, a in itertools.pairwise(states) if b["state"]["phase"] == "place"]
    assert pairs
    before, after = pairs[0]
    wrong = copy.deepcopy(after)
    wrong["state"]["points"][before["state"]["turn"]] += 3
    _assert_catches(inv.check_transition, before, wrong, match="placement scored")


def test_tortilla_checks():
    cls = _engine("fiesta_envs.tortilla.game:TortillaDePatatas")
    inv = invariants_for("tortilla_de_patatas")
    states, final, scores = _positions(cls, 4, 30, {"menu": "gourmet"})
    _clean(inv, states, final, scores)
    mid = copy.deepcopy(states[10])
    mid["state"]["deck"].pop()
    _assert_catches(inv.check_state, mid, match="not each in one place")
    mid = copy.deepcopy(states[10])
    mid["state"]["diners_left"][2] += 1
    _assert_catches(inv.check_state, mid, match="diner cards")
    served = next(s for s in [*states, final] if s["state"]["served"])
    taken_back = copy.deepcopy(served)
    taken_back["state"]["served"].pop()
    _assert_catches(inv.check_transition, served, taken_back, match="taken back")
    _assert_catches(inv.check_final, final, [s - 1 for s in scores], match="recomputed")


def test_tortilla_perfect_omelettes_use_wildcards_in_the_owners_favour():
    _engine("fiesta_envs.tortilla.game:TortillaDePatatas")
    from fiesta_envs.testing.invariants.tortilla_de_patatas import is_perfect

    assert is_perfect(["potato"] * 3 + ["egg"] * 2 + ["onion"], "M")
    assert is_perfect(["potato", "potato", "potato+egg", "egg", "egg+onion", "potato+egg+onion"], "M")
    assert not is_perfect(["potato"] * 3 + ["egg"] * 2 + ["onion"], "XL")
    assert is_perfect(["potato"] * 5 + ["egg"] * 3 + ["onion", "potato+onion"], "XL")


def test_muertos_checks():
    cls = _engine("fiesta_envs.muertos.game:FiestaDeLosMuertos")
    inv = invariants_for("fiesta_de_los_muertos")
    states, final, scores = _positions(cls, 5, 80)
    _clean(inv, states, final, scores)
    mid = copy.deepcopy(states[30])
    mid["state"]["round"]["extras"][0] = mid["state"]["round"]["characters"][0]
    _assert_catches(inv.check_state, mid, match="8 distinct characters")
    ended = copy.deepcopy(final)
    ended["state"]["round"]["whites"][0] = 9
    _assert_catches(inv.check_state, ended, match="white boxes")
    before = next(s for s in states if s["state"]["round"]["words"][0][0] >= 0)
    rewritten = copy.deepcopy(before)
    rewritten["state"]["round"]["words"][0][0] = (before["state"]["round"]["words"][0][0] + 1) % 100
    _assert_catches(inv.check_transition, before, rewritten, match="rewritten")
    _assert_catches(inv.check_final, final, [s + 1 for s in scores], match="skulls are closed")


def test_la_catrina_checks():
    cls = _engine("fiesta_envs.muertos.catrina:LaCatrina")
    inv = invariants_for("la_catrina")
    states, final, scores = _positions(cls, 6, 80)
    _clean(inv, states, final, scores)
    hat = copy.deepcopy(final)
    hat["state"]["team"]["flowers"] = 14
    _assert_catches(inv.check_state, hat, match="flowers on a hat")
    more_limbo = copy.deepcopy(states[1])
    more_limbo["state"]["team"]["limbo"] += 1
    _assert_catches(inv.check_transition, states[0], more_limbo, match="Limbo Bone was won back")
    _assert_catches(inv.check_final, final, [s + 1 for s in scores], match="flowers")


def test_tequila_checks():
    cls = _engine("fiesta_envs.tequila.game:Tequila")
    inv = invariants_for("tequila")
    states, final, scores = _positions(cls, 2, 150)
    _clean(inv, states, final, scores)
    spent = copy.deepcopy(final)
    sheet = spent["state"]["sheets"][0]
    sheet["crossed"][0] = sheet["marked"][0] + 1
    _assert_catches(inv.check_state, spent, match="crossed of")
    back = copy.deepcopy(final)
    back["state"]["sheets"][1]["marked"][2] -= 1
    _assert_catches(inv.check_transition, final, back, match="marked went back")
    erased = copy.deepcopy(final)
    erased["state"]["sheets"][0]["fences"] = 0
    if final["state"]["sheets"][0]["fences"]:
        _assert_catches(inv.check_transition, final, erased, match="erased from fences")
