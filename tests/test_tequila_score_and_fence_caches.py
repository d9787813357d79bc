"""Tequila's kept answers for training against the rules computed directly: the score totals kept by the
sheets' scoring facts (``scoring.score_totals``) equal the sums of ``score_breakdown``, and the planner's fence
values with the kept closing zones (``farm.closing_zones``) equal the values written out from
``farm.closed_zones_by``, its kept placements left and its wants the ones computed afresh, at every step of random
and planner games (several player counts and options, positions reloaded from their state dict)."""

from __future__ import annotations

import numpy as np
import pytest

from fiesta_envs.policies.policy import RandomPolicy
from fiesta_envs.tequila import actions, components, farm, scoring, speedups
from fiesta_envs.tequila.baselines import TEQUILA_ORDER, Planner
from fiesta_envs.tequila.game import Tequila
from fiesta_envs.tequila.sheet import Sheet

CONFIGS = [
    {"num_players": 1},
    {"num_players": 2},
    {"num_players": 2, "cask_tile": "B"},
    {"num_players": 3, "jimadores": "dealt"},
    {"num_players": 4},
    {"num_players": 6},
]


def config_id(config: dict) -> str:
    return "-".join(f"{k}={v}" for k, v in config.items())


def reference_totals(game: Tequila) -> list[int]:
    return [sum(b.values()) for b in scoring.score_breakdown(game.state.sheets)]


def reference_fence_values(planner: Planner, sheet: Sheet, need: np.ndarray, mask: np.ndarray) -> dict[int, float]:
    """The planner's fence values as first written: every zone from ``farm.closed_zones_by``, every field's
    worth summed afresh."""
    values = {}
    for segment in np.flatnonzero(mask[actions.FENCE : actions.FENCE + farm.NUM_SEGMENTS]):
        s = int(segment)
        value = 0.0
        for zone in farm.closed_zones_by(s, sheet.fences):
            for f in farm.spaces_of(zone & ~sheet.rewarded_fields):
                value += 3.0 + sum(1.0 + max(0.0, need[r]) for r in components.FIELDS[f][0])
        after = sheet.fences | 1 << s
        for f in farm.SEGMENT_FIELDS[s]:
            if f >= 0 and not sheet.rewarded_fields >> f & 1:
                missing = sum(1 for seg in farm.FIELD_SEGMENTS[f] if not after >> seg & 1)
                value += (4 - missing) * 0.5
        values[actions.FENCE + s] = value + planner.noise(actions.FENCE + s)
    return values


def reference_needs(planner: Planner, sheet: Sheet) -> np.ndarray:
    """The planner's wants as first written: a numpy array added to entry by entry."""
    need = np.full(len(components.RESOURCES), 0.5)
    kind = planner._next_building(sheet)
    if kind is not None:
        for r, n in components.BUILDING_COSTS[kind].items():
            need[r] += 2.0 * max(0, n - sheet.held(r) + 1)
    for t in TEQUILA_ORDER:
        if sheet.building_linked(components.TEQUILA_BUILDING[t]):
            for r, n in components.TEQUILA_COSTS[t].items():
                need[r] += max(0, 2 * n - sheet.held(r)) * (1 + t / 2)
    for r in range(len(components.RESOURCES)):
        if sheet.marked[r] >= components.RESOURCE_TRACK_LENGTH:
            need[r] = -1.0
    return need


def first_best(values: dict[int, float]) -> int | None:
    best, best_value = None, -1e9
    for action, value in values.items():
        if value > best_value:
            best, best_value = action, value
    return best


def played(config: dict, seed: int):
    """Yield (game, player, mask) before every step of a game of planners (even seats) and random players, the
    position reloaded from its state dict every 7th step."""
    game = Tequila(**config)
    game.reset(seed)
    n = game.num_players
    policies = [Planner(seed=seed + p) if p % 2 == 0 else RandomPolicy(seed=seed + p) for p in range(n)]
    step = 0
    while not game.is_over:
        if step % 7 == 6:
            game = Tequila.from_state_dict(game.state_dict())
        p = game.current_player
        mask = game.legal_mask()
        yield game, p, mask, policies[p]
        game.step(int(policies[p].act(game.observe(p), mask, game, p)))
        step += 1
    yield game, -1, None, None


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
@speedups.enabled(True)  # whatever the environment says
def test_the_kept_score_totals_equal_the_breakdown_at_every_step(config: dict) -> None:
    steps = 0
    for seed in (0, 1):
        for game, _, _, _ in played(config, seed):
            assert list(scoring.score_totals(game.state.sheets)) == reference_totals(game)
            np.testing.assert_array_equal(game.scores(), np.array(reference_totals(game), dtype=float))
            steps += 1
        assert game.scores().any()  # the games scored something
    assert steps > 200


@speedups.enabled(True)
def test_the_kept_score_totals_follow_a_sheet_changed_in_place() -> None:
    """A sheet scoring more under the same seats: the memo answers for the new facts, not the old."""
    game = Tequila(num_players=2)
    before = scoring.score_totals(game.state.sheets)
    game.state.sheets[1].add_production(components.RED)
    game.state.sheets[0].gain_coins(5)
    after = scoring.score_totals(game.state.sheets)
    assert after != before
    assert list(after) == reference_totals(game)


def test_with_the_speedups_off_the_totals_come_from_the_breakdown(monkeypatch: pytest.MonkeyPatch) -> None:
    game = Tequila(num_players=3)
    for _ in range(60):
        game.step(int(np.flatnonzero(game.legal_mask())[0]))
    monkeypatch.setattr(scoring, "_TOTALS", {})
    with speedups.enabled(False):
        assert list(scoring.score_totals(game.state.sheets)) == reference_totals(game)
    assert scoring._TOTALS == {}


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_the_planners_fence_values_with_kept_zones_equal_the_reference_at_every_step(config: dict) -> None:
    """At every step, every sheet (the random players' too, which fence all over their farm) weighed by a planner:
    the same values, bit for bit, and the same choice."""
    weighed = closing = 0
    planner, first_planner = Planner(seed=3), Planner(seed=3, version=1)
    for seed in (0, 1):
        for game, _, _, _ in played(config, seed):
            for sheet in game.state.sheets:
                for each in (planner, first_planner):  # the kept placements left, the wants as numpy added them
                    assert each._plan(sheet) == tuple(
                        p for p in each.layout if not farm.PLACEMENTS[p].spaces & sheet.occupied
                    )
                    assert each._needs(sheet).tobytes() == reference_needs(each, sheet).tobytes()
                mask = np.zeros(actions.NUM_ACTIONS, dtype=np.int8)
                mask[actions.FENCE : actions.FENCE + farm.NUM_SEGMENTS] = farm.segment_mask(sheet.legal_fence_bits)
                need = planner._needs(sheet)
                values = planner.fence_values(sheet, need, mask)
                reference = reference_fence_values(planner, sheet, need, mask)
                assert values == reference
                assert planner._best_fence(sheet, need, mask) == first_best(reference)
                drawable = sheet.legal_fence_bits
                assert farm.closing_zones(sheet.fences, drawable) == tuple(
                    tuple(farm.closed_zones_by(s, sheet.fences)) for s in farm.spaces_of(drawable)
                )
                weighed += 1
                fields = {
                    f
                    for action in values
                    for zone in farm.closed_zones_by(action - actions.FENCE, sheet.fences)
                    for f in farm.spaces_of(zone & ~sheet.rewarded_fields)
                }
                closing += len(fields) > 1  # fields of different worth to weigh
    assert weighed > 200
    assert closing > 20 or config["num_players"] == 1  # solo: only the planner's own tidy fences
