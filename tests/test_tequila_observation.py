"""Tequila observations: the page's block table is the layout, each block decodes to the position, and
the rounds are simultaneous (the others' sheets as they stood at the start of the round)."""

from __future__ import annotations

import importlib
import re

import numpy as np
import pytest
from tequila_positions import holding, position

from fiesta_envs import tequila_v2
from fiesta_envs.tequila import components, farm, observation_layout
from fiesta_envs.tequila.game import Tequila
from fiesta_envs.tequila.sheet import MARKET_BONUS, SECTION_BONUS, TEQUILA_BONUS


def documented_blocks(num_players: int) -> list[tuple[str, int]]:
    """The (name, size) rows of the page's observation table, ``sheet K`` rows repeated per sheet."""
    page = tequila_v2.__doc__ or ""
    table = page[page.index("Observations\n") : page.index("Rewards\n")]
    rows = re.findall(r"^(\S[^\n]*?)\s{2,}(\d+)\s{2,}\S", table, flags=re.MULTILINE)
    blocks = [(name, int(size)) for name, size in rows if not name.startswith("sheet K")]
    sheet_rows = [(name.removeprefix("sheet K "), int(size)) for name, size in rows if name.startswith("sheet K")]
    for k in range(num_players):
        blocks += [(observation_layout.sheet_block(k, name), size) for name, size in sheet_rows]
    return blocks


@pytest.mark.parametrize("num_players", [1, 2, 5])
def test_the_page_lists_every_block_of_the_layout_in_order(num_players):
    game = Tequila(num_players)
    described = [(name, size) for name, _, size in game.observer.layout.describe()]
    assert documented_blocks(num_players) == described
    assert game.observation_size == 56 + 677 * num_players
    assert f"{game.observation_size}" in (tequila_v2.__doc__ or "") or num_players == 5


def blocks(game: Tequila, seat: int) -> dict[str, np.ndarray]:
    return game.observer.decode(game.observe(seat))


def test_each_table_block_decodes_to_the_position():
    game = position(
        3,
        dice=(2, 6),
        round=3,
        start_player=2,
        turn=1,  # seat 0 acts second this round
        bonus_round={SECTION_BONUS + 1: 0, TEQUILA_BONUS + 2: 3},
        cask_tile="B",
        sheets={0: {**holding(barrel=3), "fences_left": 4, "builds_left": 1, "gears_left": 2, "credits": 1}},
    )
    game.play("build road at 0 0 as 0")  # two resources of choice to pay
    seen = blocks(game, 0)
    assert seen["round"].tolist() == [0, 0, 0, 1, 0, 0, 0, 0]
    assert np.flatnonzero(seen["dice"]).tolist() == [1, 6 + 5]
    assert seen["decision"].tolist() == [0, 0, 0, 0, 0, 1, 0]  # pay
    assert seen["pending"].tolist() == pytest.approx([2 / 4, 1, 0, 0, 0])
    assert seen["seat"].tolist() == pytest.approx([0, 1 / 3])
    # section 1 was first filled in round 0 (seen); tequila 2's bonus was first taken this round (not yet)
    assert np.flatnonzero(seen["bonuses taken"]).tolist() == [SECTION_BONUS + 1]
    assert seen["cask tile B"].tolist() == [1]
    assert seen["my round"].tolist() == pytest.approx([4 / 10, 0, 2 / 3, 1 / 4, 0, 0, 1])


def test_each_sheet_block_decodes_to_the_sheet():
    market = 1 << 0 | 1 << (components.MARKET_COLUMNS + 1)  # row 0 column 0, row 1 column 1
    bonuses = 1 << (SECTION_BONUS + 2) | 1 << (MARKET_BONUS + 1)
    sheet = {
        "marked": [3, 0, 2, 0, 5],
        "crossed": [1, 0, 2, 0, 0],
        "coins": 6,
        "production": [2, 0, 1, 0],
        "collections": 0,
        "market": market,
        "fences": 1 << 5 | 1 << 30,
        "rewarded_fields": 1 << 0,
        "sections": 1 << 2,
        "bonuses": bonuses,
        "extra_bought": 3,
        "gears_unused": 5,
    }
    game = position(
        2,
        jimadores="B",
        jimador_order="orange,green",
        sheets={1: sheet},
        buildings={1: ["kiln at 2 7 as 1", "agave at 4 5 as 0", "kiln at 5 7 as 1"]},
    )
    for seen, k in ((blocks(game, 1), 0), (blocks(game, 0), 1)):  # seat 1's sheet: its own, then seat 0's other
        planes = seen[observation_layout.sheet_block(k, "farm")].reshape(len(observation_layout.FARM_PLANES), 8, 8)
        plane = {name: planes[i] for i, name in enumerate(observation_layout.FARM_PLANES)}
        assert np.flatnonzero(plane["fenced off"]).tolist() == [0, 1, 8, 9]  # field 0: spaces 0 0 to 1 1
        assert np.flatnonzero(plane["kiln"]).tolist() == [2 * 8 + 7, 3 * 8 + 7, 5 * 8 + 7, 6 * 8 + 7]
        assert np.flatnonzero(plane["agave"]).tolist() == [4 * 8 + 5, 4 * 8 + 6, 5 * 8 + 5, 5 * 8 + 6]
        assert plane["road"].sum() == plane["shop"].sum() == 0
        # only the kiln at 5 7 touches the agave field (its chain partner)
        assert np.flatnonzero(plane["linked"]).tolist() == [5 * 8 + 7, 6 * 8 + 7]
        assert np.flatnonzero(plane["section"]).tolist() == farm.spaces_of(farm.SECTIONS[2])
        assert np.flatnonzero(seen[observation_layout.sheet_block(k, "fences")]).tolist() == [5, 30]
        tracks = seen[observation_layout.sheet_block(k, "tracks")]
        parts = {}
        at = 0
        for name, size in observation_layout.TRACK_PARTS:
            parts[name] = tracks[at : at + size]
            at += size
        assert parts["held"] * 24 == pytest.approx([2, 0, 0, 0, 5])
        assert parts["marked"] * 24 == pytest.approx([3, 0, 2, 0, 5])
        assert parts["coins"] * 15 == pytest.approx([6])
        assert parts["production"] * 8 == pytest.approx([2, 0, 1, 0])
        assert parts["collections"].tolist() == [0]
        assert np.flatnonzero(parts["market"]).tolist() == [0, components.MARKET_COLUMNS + 1]
        assert np.flatnonzero(parts["bonuses"]).tolist() == [SECTION_BONUS + 2, MARKET_BONUS + 1]
        assert parts["extra bought"] * 12 == pytest.approx([3])
        assert parts["unused gears"] * 15 == pytest.approx([5])
        assert seen[observation_layout.sheet_block(k, "jimador")].tolist() == [0, 0, 0, 0, 1]  # green


def test_the_others_are_shown_in_seat_order_after_the_observer():
    game = position(3, sheets={0: {"coins": 3}, 1: {"coins": 6}, 2: {"coins": 9}})
    coins_at = 2 * len(components.RESOURCES)
    seen = blocks(game, 1)
    coins = [seen[observation_layout.sheet_block(k, "tracks")][coins_at] * 15 for k in range(3)]
    assert coins == pytest.approx([6, 9, 3])  # seats 1 (itself), 2, 0


def kiln_plane(game: Tequila, seat: int, k: int) -> np.ndarray:
    planes = blocks(game, seat)[observation_layout.sheet_block(k, "farm")].reshape(
        len(observation_layout.FARM_PLANES), 64
    )
    return planes[observation_layout.FARM_PLANES.index("kiln")]


def test_what_a_seat_does_in_a_round_is_seen_by_the_others_only_when_the_round_ends():
    game = position(2, sheets={0: holding(donkey=1, worker=1)})
    game.play("build kiln at 2 7 as 1")
    assert kiln_plane(game, 0, 0).sum() == 2  # its own sheet as it is now
    assert kiln_plane(game, 1, 1).sum() == 0  # seat 1 does not see it yet
    coins_at = 2 * len(components.RESOURCES)
    assert blocks(game, 1)[observation_layout.sheet_block(1, "tracks")][coins_at] == 0  # nor the section's coin
    game.play("end", "virtual build")
    assert game.current_player == 1 and kiln_plane(game, 1, 1).sum() == 0  # seat 1's turn: still hidden
    assert blocks(game, 1)["bonuses taken"].sum() == 0  # the section bonus first taken this round
    game.play("end")  # the round ends
    assert game.state.round == 1 and kiln_plane(game, 1, 1).sum() == 2
    assert blocks(game, 1)["bonuses taken"][SECTION_BONUS + 2] == 1


def test_the_last_observation_shows_every_sheet_as_it_ends():
    game = Tequila(2, seed=4)
    rng = np.random.default_rng(4)
    while not game.is_over:
        legal = game.legal_actions()
        game.step(legal[int(rng.integers(len(legal)))])
    assert game.state.shown_sheets == [sheet.public_sheet() for sheet in game.state.sheets]
    assert blocks(game, 0)["round"].sum() == 0


def test_shown_sheets_are_saved_and_bad_ones_are_refused_by_name():
    game = Tequila(2, seed=1)
    data = game.state_dict()
    assert data["state"]["shown_sheets"][1] == game.state.shown_sheets[1].to_dict()
    data["state"]["shown_sheets"][1]["coins"] = 99
    with pytest.raises(Exception, match=r"shown_sheets\[1\]\.coins"):
        Tequila.from_state_dict(data)
    data = game.state_dict()
    del data["state"]["shown_sheets"]
    with pytest.raises(Exception, match="shown_sheets"):
        Tequila.from_state_dict(data)


@pytest.mark.parametrize("retired", ["tequila_v0", "tequila_v1"])
def test_retired_tequila_versions_fail_with_a_message_naming_v2(retired):
    module = importlib.import_module(f"fiesta_envs.{retired}")
    for factory in (module.env, module.raw_env, module.parallel_env):
        with pytest.raises(ImportError, match="tequila_v2"):
            factory()
