"""Tortilla de Patatas: the careful chef (counts, serves perfect pans, closes out won games, blocks steals)."""

from __future__ import annotations

from typing import cast

import numpy as np
import pytest
from test_tortilla_engine import careful_game, hide_differently
from tortilla_positions import position

from fiesta_envs.core.errors import InvalidOptionError
from fiesta_envs.core.game import Game
from fiesta_envs.policies.policy import Policy, RandomPolicy
from fiesta_envs.registry import make_policy
from fiesta_envs.tortilla.baselines import BASELINES, CarefulChef
from fiesta_envs.tortilla.game import TortillaDePatatas
from fiesta_envs.tortilla.state import Phase

M_PERFECT = ["potato", "potato", "potato", "egg", "egg", "onion"]
XL_PERFECT = ["potato"] * 6 + ["egg"] * 3 + ["onion"] * 2


def choose(game: TortillaDePatatas, seed: int = 0, version: int = 2) -> str:
    player = game.current_player
    action = CarefulChef(seed=seed, version=version).act(game.observe(player), game.legal_mask(), game, player)
    return game.action_to_string(action)


def choose_versions(game: TortillaDePatatas) -> tuple[str, str]:
    """What ``careful:version=1`` and the default ``careful`` (version 2) play in ``game``."""
    return choose(game, version=1), choose(game)


def assert_bad_serves_only_win(game: TortillaDePatatas) -> None:
    """A badly made omelette is served only as the last one, by a team that wins with it."""
    omelettes, scores = game.final_info()["omelettes"], game.team_scores()
    for index, dish in enumerate(omelettes):
        if not dish["perfect"]:
            assert index == len(omelettes) - 1 and scores[dish["team"]] > scores[1 - dish["team"]], omelettes


def play_match(policies: list[Policy], num_players: int, menu: str, seed: int) -> TortillaDePatatas:
    game = TortillaDePatatas(num_players=num_players, seed=seed, menu=menu)
    for s, policy in enumerate(policies):
        policy.start_episode(seed * 10 + s)
    while not game.is_over:
        p = game.current_player
        game.step(policies[p].act(game.observe(p), game.legal_mask(), game, p))
    return game


def test_baselines_table() -> None:
    assert {"careful": CarefulChef} == BASELINES


def test_the_first_version_is_an_agent_option() -> None:
    assert make_policy("tortilla_de_patatas", "careful:version=1", seed=0).version == 1
    assert make_policy("tortilla_de_patatas", "careful", seed=0).version == 2
    with pytest.raises(InvalidOptionError, match="version"):
        make_policy("tortilla_de_patatas", "careful:version=0", seed=0)


M_SERVED = ["potato", "potato", "potato", "egg", "egg", "onion"]


def last_card_left(*, leads: bool, pans: list) -> TortillaDePatatas:
    """Day's menu, five diner cards served and a 1 left: team A 7-4 up (3 + 3 + 1 against 2 + 2), or 3-8 down."""
    mine, theirs = ([3, 3, 1], [2, 2]) if leads else ([2, 1], [3, 3, 2])
    served = [{"seat": 0, "size": "M", "diners": d, "cards": M_SERVED} for d in mine]
    served += [{"seat": 1, "size": "M", "diners": d, "cards": M_SERVED} for d in theirs]
    return position(
        hands=[["potato", "potato", "onion"], ["potato", "potato", "potato"]],
        pans=pans,
        served=served,
        diners_left=[1, 0, 0],
    )


def test_closes_out_a_won_game_with_a_badly_made_pan() -> None:
    # their two pans will cost them a point each at the end
    game = last_card_left(leads=True, pans=[[["egg", "egg", "egg"], [], []], [["potato"], ["potato"], []]])
    version_1, version_2 = choose_versions(game)
    assert not version_1.startswith("serve")  # plays on: the pan is badly made
    assert version_2 == "serve 0 M with 1"  # -1 for it, but the game ends 6 against 2
    game.play(version_2)
    assert game.is_over and game.team_scores() == [6, 2] and game.winners() == [0]


def test_does_not_take_the_last_diner_card_to_lose() -> None:
    # 3-8 down: serving the perfect pan takes the last card and ends the game 4-8
    game = last_card_left(leads=False, pans=[[M_PERFECT, [], []], [[], [], []]])
    version_1, version_2 = choose_versions(game)
    assert version_1 == "serve 0 M with 1"
    assert not version_2.startswith("serve")


def test_kids_grows_an_m_past_the_recipe_towards_an_xl() -> None:
    # pan 0 is an M short of its onion; an egg instead leaves an XL four cards away (twice the diner card)
    game = position(
        "kids",
        hands=[["potato", "egg", "onion"], ["potato"] * 3],
        pans=[[["potato", "potato", "potato", "egg", "egg"], [], ["potato"]], [[], [], []]],
    )
    assert choose_versions(game) == ("play onion on 0", "play egg on 0")


def test_kids_menu_self_play_no_longer_ties_6_6() -> None:
    """The first version served every M at once with the biggest card: the cards split 3 + 2 + 1 each."""
    scores = {
        version: [
            tuple(play_match([CarefulChef(version=version)] * 2, 2, "kids", seed).team_scores()) for seed in range(10)
        ]
        for version in (1, 2)
    }
    assert scores[1].count((6, 6)) >= 8
    assert scores[2].count((6, 6)) <= 2


def test_serves_a_perfect_pan_with_the_biggest_card() -> None:
    game = position(hands=[["egg"] * 3, ["potato"] * 3], pans=[[["egg"], M_PERFECT, []], [[], [], []]])
    assert choose(game) == "serve 1 M with 3"


def test_serves_a_perfect_xl_as_xl() -> None:
    game = position(hands=[["egg"] * 3, ["potato"] * 3], pans=[[["egg"], XL_PERFECT, []], [[], [], []]])
    assert choose(game) == "serve 1 XL with 3"


def test_never_serves_a_badly_made_pan() -> None:
    game = position(hands=[["egg"] * 3, ["potato"] * 3], pans=[[["egg", "egg", "egg"], [], []], [[], [], []]])
    assert not choose(game).startswith("serve")


def test_gourmet_fills_an_empty_pan_first_to_take_a_bigger_card() -> None:
    game = position(
        "gourmet",
        hands=[["onion", "onion", "potato+egg"], ["potato"] * 3],
        pans=[[M_PERFECT, ["egg"], []], [[], [], []]],
    )
    first = choose(game)
    assert first.startswith("play") and first.endswith("on 2")
    game.play(first)
    assert choose(game) == "serve 0 M with 3"


def test_covers_with_a_wildcard_rather_than_leave_a_potato_to_steal() -> None:
    game = position(
        hands=[["potato", "potato+onion", "egg"], ["potato"] * 3],
        pans=[[["egg", "egg", "onion"], ["egg"], ["onion"]], [[], [], []]],
    )
    assert choose(game) == "play potato+onion on 0"


def test_best_plays_rank_its_own_choice_first() -> None:
    game = position(
        hands=[["potato", "potato+onion", "egg"], ["potato"] * 3],
        pans=[[["egg", "egg", "onion"], ["egg"], ["onion"]], [[], [], []]],
    )
    plays = CarefulChef(seed=0).best_plays(game, 0, 3)
    assert game.action_to_string(plays[0]) == choose(game) == "play potato+onion on 0"
    assert len(plays) == 3 and all(game.legal_mask()[a] for a in plays)


def test_steals_where_it_hurts_the_other_team_most() -> None:
    perfect_m_egg_on_top = ["potato", "potato", "potato", "egg", "onion", "egg"]
    game = position(
        hands=[["egg"] * 3, ["potato"] * 3],
        pans=[[["onion"], [], []], [perfect_m_egg_on_top, [], ["egg"] * 4]],
    )
    game.play("play egg on 1")
    assert game.state.phase == Phase.STEAL
    # taking the egg spoils their perfect M; their pan 2 has too many eggs and one fewer would help them
    assert choose(game) == "steal from theirs 0"


def test_takes_the_door_card_when_it_completes_a_pan() -> None:
    game = position(
        hands=[["egg", "egg", "egg"], ["potato"] * 3],
        door="onion",
        pans=[[["potato"] * 3 + ["egg"], [], []], [[], [], []]],
    )
    game.play("play egg on 0")
    assert choose(game) == "draw door"
    game = position(
        hands=[["egg", "egg", "egg"], ["potato"] * 3],
        door="egg",
        pans=[[["potato"] * 3 + ["egg"], [], []], [[], [], []]],
    )
    game.play("play egg on 0")
    assert choose(game) == "draw deck"  # a third egg would only spoil the pan


@pytest.mark.parametrize(("num_players", "menu"), [(2, "day"), (4, "gourmet"), (2, "kids")])
def test_careful_uses_only_what_its_seat_may_know(num_players: int, menu: str) -> None:
    for seed in range(5):
        game = careful_game(num_players, menu, seed)
        if game.is_over:
            continue
        player = game.current_player
        other = hide_differently(game, player, seed)
        assert choose(game, seed) == choose(other, seed)


def test_careful_is_deterministic_and_serves_badly_made_pans_only_to_win() -> None:
    for menu in ("kids", "day", "gourmet"):
        a = play_match([CarefulChef(), CarefulChef()], 2, menu, seed=5)
        b = play_match([CarefulChef(), CarefulChef()], 2, menu, seed=5)
        assert a.state_dict() == b.state_dict()
        assert a.state.served
        assert_bad_serves_only_win(a)
        first = play_match([CarefulChef(version=1), CarefulChef(version=1)], 2, menu, seed=5)
        assert first.state.served and all(dish["perfect"] for dish in first.final_info()["omelettes"])


def test_careful_chefs_finish_four_player_games() -> None:
    for seed in range(10):
        game = play_match([CarefulChef(), CarefulChef(), CarefulChef(), CarefulChef()], 4, "gourmet", seed)
        assert game.is_over


@pytest.mark.slow
@pytest.mark.parametrize(("num_players", "menu"), [(2, "kids"), (2, "day"), (2, "gourmet"), (4, "day")])
def test_careful_beats_random_seat_balanced(num_players: int, menu: str) -> None:
    games, wins = 200, 0
    for seed in range(games):
        careful_team = seed % 2  # seats rotate: the careful team moves first in half the games
        policies: list[Policy] = [
            CarefulChef() if seat % 2 == careful_team else RandomPolicy() for seat in range(num_players)
        ]
        game = play_match(policies, num_players, menu, seed)
        wins += game.returns()[careful_team] > 0
    # with p = 0.5 (no better than random), P(wins >= 120 of 200) < 0.2%
    assert wins >= 0.6 * games, f"careful won {wins} of {games}"


class ServesOnlyPerfectPans(CarefulChef):
    """A weaker player for comparison: serves like the careful chef, otherwise plays at random."""

    def act(self, observation: np.ndarray | None, action_mask: np.ndarray, game: Game, player: int) -> int:
        tortilla = cast(TortillaDePatatas, game)
        self._prepare(tortilla, player)
        serve = self._best_serve(tortilla, action_mask)
        if serve is not None:
            return serve
        legal = [a for a in np.flatnonzero(action_mask) if not game.action_to_string(int(a)).startswith("serve")]
        return int(legal[self.rng.integers(len(legal))])


@pytest.mark.slow
@pytest.mark.parametrize("menu", ["kids", "day", "gourmet"])
def test_careful_play_beats_random_play_with_the_same_serving(menu: str) -> None:
    games, wins = 200, 0
    for seed in range(games):
        careful_team = seed % 2
        policies: list[Policy] = [
            CarefulChef() if seat % 2 == careful_team else ServesOnlyPerfectPans() for seat in range(2)
        ]
        wins += play_match(policies, 2, menu, seed).returns()[careful_team] > 0
    assert wins >= 0.6 * games, f"careful won {wins} of {games}"


@pytest.mark.slow
def test_careful_scores_well_against_itself() -> None:
    totals = [play_match([CarefulChef(), CarefulChef()], 2, "day", seed).team_scores() for seed in range(100)]
    assert np.mean(totals) > 3.0
