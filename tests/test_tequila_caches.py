"""The speed machinery never changes an answer.

The engine keeps facts up to date as the game goes (observation blocks written entry by entry,
legal fences and zones, connections, open market spaces, what a hand can pay for) instead of
recomputing them. At every step of random games these tests compare them with the slow paths
kept for that purpose: observations built from the state alone (``observe_from_scratch``), masks
built straight from the rules (below), farm facts recomputed by ``farm``; with a fresh copy loaded
from the state dict (which starts with empty caches); and, through digests recorded before the
speed work, with the engine as it was (same seed + same actions = the same game).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import pickle
from copy import deepcopy

import numpy as np
import pytest

from fiesta_envs.tequila import actions as A
from fiesta_envs.tequila import components as C
from fiesta_envs.tequila import farm as F
from fiesta_envs.tequila.affordable import affordable, market_cost
from fiesta_envs.tequila.baselines import BASELINES
from fiesta_envs.tequila.game import Tequila
from fiesta_envs.tequila.observation import (
    EMPTY_OWN_VIEWS,
    EMPTY_PUBLIC,
    observe_from_scratch,
    own_view_from_scratch,
    public_from_scratch,
)
from fiesta_envs.tequila.sheet import Sheet, open_market_spaces

CONFIGS = [
    {"num_players": 1},
    {"num_players": 2},
    {"num_players": 3, "jimadores": "dealt", "cask_tile": "B"},
    {"num_players": 2, "jimadores": "B", "jimador_order": "green,red"},
    {"num_players": 5},
]


def config_id(config: dict) -> str:
    return "-".join(f"{k}={v}" for k, v in config.items())


def random_steps(game: Tequila, seed: int):
    """Yield before every step of a random legal game, then play the step."""
    rng = np.random.default_rng(seed)
    game.reset(seed)
    while not game.is_over:
        yield
        legal = np.flatnonzero(game.legal_mask())
        game.step(int(legal[rng.integers(len(legal))]))


# ---------------------------------------------------------------- slow paths straight from the rules
def reference_mask(game: Tequila) -> np.ndarray:
    """The legal-action mask written out rule by rule, without any cached fact."""
    mask = np.zeros(A.NUM_ACTIONS, dtype=np.int8)
    if game.is_over:
        return mask
    player = game.current_player
    sheet = game.sheets[player]
    held = [m - c for m, c in zip(sheet.marked, sheet.crossed, strict=True)]
    decision = game.decision
    if decision == "pay":
        for r in range(len(C.RESOURCES)):
            mask[A.PAY + r] = held[r] > 0
    elif decision == "gain":
        for r in range(len(C.RESOURCES)):
            mask[A.GAIN + r] = sheet.marked[r] < C.RESOURCE_TRACK_LENGTH
    elif decision == "reroll":
        mask[A.REROLL : A.REROLL + 4] = 1
    elif decision == "virtual":
        mask[A.VIRTUAL : A.VIRTUAL + 2] = 1
    elif decision == "cask":
        matching = F.max_matching(
            [
                [d for d, (k2, j) in enumerate(sheet.buildings) if k2 == C.DISTILLER and reach & F.PLACEMENTS[j].spaces]
                for (k, _), reach in zip(sheet.buildings, F.connections(sheet.buildings).reach, strict=True)
                if k == C.CASK
            ]
        )
        room = sheet.marked[C.BARREL] < C.RESOURCE_TRACK_LENGTH
        mask[A.CASK + A.YES] = held[C.AGAVE] >= 1 and matching > 0 and room
        mask[A.CASK + A.NO] = 1
    elif decision == "shop":
        linked = F.connections(sheet.buildings).linked
        shops = sum(1 for (k, _), ok in zip(sheet.buildings, linked, strict=True) if k == C.SHOP and ok)
        mask[A.SHOP + A.YES] = sum(held) >= 1 and shops > 0
        mask[A.SHOP + A.NO] = 1
    else:
        main_reference(game, player, sheet, held, mask)
    return mask


def main_reference(game: Tequila, player: int, sheet: Sheet, held: list[int], mask: np.ndarray) -> None:
    mask[A.END] = 1
    occupied = 0
    for _, index in sheet.buildings:
        occupied |= F.PLACEMENTS[index].spaces
    if sheet.fences_left:
        for s in range(F.NUM_SEGMENTS):
            mask[A.FENCE + s] = F.fence_problem(s, sheet.fences) is None
    if sheet.builds_left:
        for i, placement in enumerate(F.PLACEMENTS):
            if placement.kind == C.ROAD:
                paid = sum(held) >= C.ROAD_COST_OF_CHOICE
            else:
                paid = all(held[r] >= n for r, n in C.BUILDING_COSTS[placement.kind].items())
            mask[A.BUILD + i] = paid and not placement.spaces & occupied
    if sheet.free_road:
        for x in range(F.SPACES):
            mask[A.FREE_ROAD + x] = not occupied >> x & 1
    if sheet.credits + sheet.gears_left:
        links = F.connections(sheet.buildings)
        linked_kinds = {k for (k, _), ok in zip(sheet.buildings, links.linked, strict=True) if ok}
        for t, cost in enumerate(C.TEQUILA_COSTS):
            mask[A.PRODUCE + t] = (
                sheet.production[t] < C.PRODUCTION_TRACK_LENGTH
                and C.TEQUILA_BUILDING[t] in linked_kinds
                and all(held[r] >= n for r, n in cost.items())
            )
        for m in range(C.MARKET_ROWS * C.MARKET_COLUMNS):
            mask[A.SELL + m] = game._sale_problem(player, m) is None
    mask[A.EXTRA] = sum(held) >= C.EXTRA_ACTION_COST


def assert_sheet_facts_are_current(sheet: Sheet) -> None:
    """Every fact a sheet keeps equals the same fact recomputed from its saved fields."""
    assert sheet.hand == [m - c for m, c in zip(sheet.marked, sheet.crossed, strict=True)]
    links = F.connections(sheet.buildings)
    assert (sheet.links.reach, sheet.links.kind_spaces, sheet.links.linked) == (
        links.reach,
        links.kind_spaces,
        links.linked,
    )
    assert sheet.occupied == links.kind_spaces[0] | sum(
        F.PLACEMENTS[i].spaces for k, i in sheet.buildings if k != C.ROAD
    )
    assert sheet.zones == F.zones(sheet.fences)
    assert sheet.legal_fence_bits == F.legal_fence_bits(sheet.fences)
    assert sheet.fence_mask.tolist() == [int(ok) for ok in F.legal_fences(sheet.fences)]
    assert sheet.open_market == open_market_spaces(sheet.market) & ~sheet.market


# ---------------------------------------------------------------- the comparisons
@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_kept_facts_match_the_slow_paths_at_every_step(config: dict) -> None:
    game = Tequila(**config)
    for _ in random_steps(game, seed=3):
        assert game.current_player == game._seat_to_act()  # the kept seat
        np.testing.assert_array_equal(game.legal_mask(), reference_mask(game))
        for p in range(game.num_players):
            np.testing.assert_array_equal(game.observe(p), observe_from_scratch(game, p))
        for sheet in game.sheets:
            assert_sheet_facts_are_current(sheet)
    for p in range(game.num_players):  # the final position too
        np.testing.assert_array_equal(game.observe(p), observe_from_scratch(game, p))


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_cached_masks_and_observations_match_a_fresh_copy(config: dict) -> None:
    game = Tequila(**config)
    fresh = Tequila(**config)
    for _ in itertools.chain(random_steps(game, seed=0), random_steps(game, seed=1)):
        mask = game.legal_mask()
        observations = [game.observe(p) for p in range(game.num_players)]
        fresh.load_state_dict(game.state_dict())
        np.testing.assert_array_equal(mask, fresh.legal_mask())
        for p in range(game.num_players):
            np.testing.assert_array_equal(observations[p], fresh.observe(p))
        np.testing.assert_array_equal(game.scores(), fresh.scores())


@pytest.mark.parametrize("config", CONFIGS[1:3], ids=config_id)
def test_a_loaded_game_keeps_its_facts_current_as_it_goes_on(config: dict) -> None:
    """A load rebuilds the observation blocks only when first read: steps taken before must not
    leave them wrong (the first observation comes after several steps here)."""
    game = Tequila(**config)
    rng = np.random.default_rng(5)
    for step, _ in enumerate(random_steps(game, seed=5)):
        if step % 17:
            continue
        copy = Tequila.from_state_dict(game.state_dict())
        for _ in range(4):
            if copy.is_over:
                break
            legal = np.flatnonzero(copy.legal_mask())
            copy.step(int(legal[rng.integers(len(legal))]))
        np.testing.assert_array_equal(copy.legal_mask(), reference_mask(copy))
        for p in range(copy.num_players):
            np.testing.assert_array_equal(copy.observe(p), observe_from_scratch(copy, p))
        for sheet in copy.sheets:
            assert_sheet_facts_are_current(sheet)


@pytest.mark.parametrize("how", ["deepcopy", "pickle"])
def test_a_copied_game_goes_on_like_the_original(how: str) -> None:
    """A game's kept blocks share memory with its buffers: copies are rebuilt from the state dict."""
    game = Tequila(num_players=3, seed=4, jimadores="dealt")
    rng = np.random.default_rng(4)
    for _ in range(60):
        legal = np.flatnonzero(game.legal_mask())
        game.step(int(legal[rng.integers(len(legal))]))
    copy = deepcopy(game) if how == "deepcopy" else pickle.loads(pickle.dumps(game))
    assert copy.state_dict() == game.state_dict()
    for _ in range(40):
        legal = np.flatnonzero(game.legal_mask())
        np.testing.assert_array_equal(copy.legal_mask(), game.legal_mask())
        action = int(legal[rng.integers(len(legal))])
        game.step(action)
        copy.step(action)
        for p in range(3):
            np.testing.assert_array_equal(copy.observe(p), game.observe(p))
            np.testing.assert_array_equal(copy.observe(p), observe_from_scratch(copy, p))


@pytest.mark.parametrize("config", CONFIGS[1:], ids=config_id)
def test_observing_only_the_seat_to_act_leaves_every_buffer_right(config: dict) -> None:
    """As in a rollout, only the seat to act is observed, its decision entries rewritten only when they
    changed and the others' blocks copied from where each sheet keeps them; now and then every seat
    is compared with the observation built from the state alone."""
    game = Tequila(**config)
    for step, _ in enumerate(random_steps(game, seed=11)):
        player = game.current_player
        np.testing.assert_array_equal(game.observe(player), observe_from_scratch(game, player))
        if step % 7 == 0:
            for p in range(game.num_players):
                np.testing.assert_array_equal(game.observe(p), observe_from_scratch(game, p))


def test_an_observation_is_a_new_array_each_time() -> None:
    """Callers may keep or modify what ``observe`` returns without touching the kept blocks."""
    game = Tequila(num_players=2)
    game.reset(0)
    first = game.observe(0)
    first[:] = -1.0
    assert (game.observe(0) >= 0).all()
    assert (game.observe(1) >= 0).all()


def assert_items_write_into_the_arrays(game: Tequila) -> None:
    """Single entries are written through memoryviews: each must be one of the array it stands for."""
    for sheet in game.sheets:
        assert sheet._view_items.obj is sheet.view and sheet._public_items.obj is sheet.public
    for kept in game._main_masks:
        assert kept.items.obj is kept.mask


@pytest.mark.parametrize("config", CONFIGS[:3], ids=config_id)
def test_single_entries_are_written_into_the_kept_arrays(config: dict) -> None:
    """The memoryviews that single entries go through follow the arrays: on a new game, as the game
    goes (buffers attached, a load), and a memoryview write stores numpy's float32 bit for bit."""
    game = Tequila(**config)
    for step, _ in enumerate(random_steps(game, seed=5)):
        if step % 40 == 0:
            assert_items_write_into_the_arrays(game)
            loaded = Tequila.from_state_dict(game.state_dict())
            assert_items_write_into_the_arrays(loaded)
    values = [n / d for d in (3, 7, 9, 10, 12, 15, 20, 25, 30, 40) for n in range(d + 1)]
    through_numpy = np.zeros(len(values), dtype=np.float32)
    through_memoryview = np.zeros(len(values), dtype=np.float32)
    items = memoryview(through_memoryview)
    for i, value in enumerate(values):
        through_numpy[i] = value
        items[i] = value
    assert through_numpy.tobytes() == through_memoryview.tobytes()


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_the_seat_to_act_and_the_end_are_kept_with_the_phase(config: dict) -> None:
    """``current_player`` and ``is_over`` read what the game keeps (``_seat``, ``_over``): at every
    step and after a load they say what the phase says, and they cannot be set."""
    game = Tequila(**config)
    for _ in random_steps(game, seed=2):
        assert game.current_player == game._seat_to_act() and game.is_over is (game.phase == "over") is False
        assert game.sheets[game.current_player] is not None
    assert game.is_over and game.phase == "over" and game.current_player == -1
    loaded = Tequila.from_state_dict(game.state_dict())
    assert loaded.is_over and loaded.current_player == -1
    game.reset(3)
    assert not game.is_over and game.current_player == game._seat_to_act()
    with pytest.raises(AttributeError):
        game.current_player = 1  # type: ignore[misc]
    with pytest.raises(AttributeError):
        game.is_over = True  # type: ignore[misc]


@pytest.mark.parametrize("jimador", [None, *C.JIMADORES])
def test_a_new_sheet_starts_from_the_templates_and_facts_of_an_empty_sheet(jimador) -> None:
    sheet = Sheet(jimador)
    np.testing.assert_array_equal(sheet.view, own_view_from_scratch(sheet))
    np.testing.assert_array_equal(sheet.public, public_from_scratch(sheet))
    assert_sheet_facts_are_current(sheet)
    assert EMPTY_OWN_VIEWS[jimador] is not sheet.view and EMPTY_PUBLIC[jimador] is not sheet.public
    loaded = Sheet.from_dict(sheet.to_dict(), jimador)
    loaded.rebuild_view()
    np.testing.assert_array_equal(loaded.view, sheet.view)
    np.testing.assert_array_equal(loaded.public, sheet.public)


def test_what_a_hand_can_pay_for_matches_the_costs() -> None:
    for hand in itertools.product(range(5), repeat=len(C.RESOURCES)):
        can = affordable(hand)

        def pays(cost: dict[int, int], hand: tuple[int, ...] = hand) -> bool:
            return all(hand[r] >= n for r, n in cost.items())

        buildings = [
            sum(hand) >= C.ROAD_COST_OF_CHOICE if kind == C.ROAD else pays(cost)
            for kind, cost in enumerate(C.BUILDING_COSTS)
        ]
        assert [bool(can.buildings >> k & 1) for k in range(len(C.BUILDINGS))] == buildings
        assert [bool(can.tequilas >> t & 1) for t in range(len(C.TEQUILAS))] == [pays(c) for c in C.TEQUILA_COSTS]
        for m in range(2 * C.MARKET_COLUMNS):
            assert bool(can.market >> m & 1) == pays(market_cost(m, False))
            assert bool(can.green_market >> m & 1) == pays(market_cost(m, True))
        assert can.extra == (sum(hand) >= C.EXTRA_ACTION_COST)
        assert [bool(can.held >> r & 1) for r in range(len(C.RESOURCES))] == [n > 0 for n in hand]


def test_two_single_die_draws_are_the_draws_of_a_pair() -> None:
    """The engine rolls the round's dice one by one (faster): numpy must give the numbers, and leave
    the generator, exactly as ``integers(1, 7, size=2)`` did before (same seed, same game)."""
    for seed in range(200):
        pair, single = np.random.default_rng(seed), np.random.default_rng(seed)
        for _ in range(8):
            assert pair.integers(1, 7, size=2).tolist() == [int(single.integers(1, 7)), int(single.integers(1, 7))]
        assert pair.bit_generator.state == single.bit_generator.state


# ---------------------------------------------------------------- the engine as it was
#: Digests of random games (every mask, every seat's observation and the scores at every step, then
#: the final state and returns) and of planner games (actions and scores), recorded with the engine
#: before the speed work (session 2, issue 11). A change here means a changed game. (4 {"jimadores": "B"}
#: and 8 {} re-recorded when tie rewards became exactly 0 instead of 5.55e-17: the same games.)
GOLDEN: dict[str, str] = {
    "1 {}": "387b6a77d0b586c0",
    "2 {}": "e611c87a55b53c7a",
    '3 {"cask_tile": "B", "jimadores": "dealt"}': "04f2c75c1e2fdfb6",
    '4 {"jimadores": "B"}': "a438135e46647f26",
    "5 {}": "6e68d7cb1b651dcb",
    "8 {}": "e8998a490db59c5d",
    '2 {"cask_tile": "B", "jimador_order": "green,orange", "jimadores": "B"}': "2962a4f83ce23d31",
    "planner 1": "8560924aa8b5ac72",
    "planner 2": "65aa23d595bacab8",
    "planner 4": "a0389b472dd20778",
}
GOLDEN_CONFIGS = [
    (1, {}),
    (2, {}),
    (3, {"jimadores": "dealt", "cask_tile": "B"}),
    (4, {"jimadores": "B"}),
    (5, {}),
    (8, {}),
    (2, {"jimadores": "B", "jimador_order": "green,orange", "cask_tile": "B"}),
]


def random_game_digest(num_players: int, options: dict, seed: int) -> str:
    game = Tequila(num_players=num_players, seed=seed, **options)
    rng = np.random.default_rng(seed)
    h = hashlib.sha256()
    while not game.is_over:
        mask = game.legal_mask()
        h.update(mask.tobytes())
        for p in range(num_players):
            h.update(game.observe(p).tobytes())
        h.update(game.scores().tobytes())
        legal = np.flatnonzero(mask)
        game.step(int(legal[rng.integers(len(legal))]))
    h.update(json.dumps(game.state_dict(), sort_keys=True).encode())
    h.update(game.returns().tobytes())
    return h.hexdigest()[:16]


def planner_digest(num_players: int, seed: int) -> str:
    game = Tequila(num_players=num_players, seed=seed)
    players = [BASELINES["planner"](seed=seed + p) for p in range(num_players)]
    actions = []
    while not game.is_over:
        p = game.current_player
        action = players[p].act(game.observe(p), game.legal_mask(), game, p)
        actions.append(action)
        game.step(action)
    return hashlib.sha256(json.dumps([actions, game.scores().tolist()]).encode()).hexdigest()[:16]


@pytest.mark.parametrize("index", range(len(GOLDEN_CONFIGS)))
def test_random_games_are_the_games_of_the_engine_before_the_speed_work(index: int) -> None:
    num_players, options = GOLDEN_CONFIGS[index]
    key = f"{num_players} {json.dumps(options, sort_keys=True)}"
    assert random_game_digest(num_players, options, 17 + index) == GOLDEN[key]


@pytest.mark.parametrize("num_players", [1, 2, 4])
def test_the_planner_plays_as_before_the_speed_work(num_players: int) -> None:
    assert planner_digest(num_players, 3) == GOLDEN[f"planner {num_players}"]
