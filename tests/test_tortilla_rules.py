"""Tortilla de Patatas: every rule of the rulebook and of our rulings, as scenarios.

Positions are built with ``tortilla_positions.position`` (pans listed per team, bottom card
first; team A = player_0 (+ player_2), team B = player_1 (+ player_3)) and played by name.
"""

from __future__ import annotations

import pytest
from tortilla_positions import hand, legal, pan, position

from fiesta_envs.core.errors import IllegalActionError, InvalidOptionError
from fiesta_envs.tortilla.game import TortillaDePatatas
from fiesta_envs.tortilla.state import Phase

M_PERFECT = ["potato", "potato", "potato", "egg", "egg", "onion"]
XL_PERFECT = ["potato"] * 6 + ["egg"] * 3 + ["onion"] * 2


# ---------------------------------------------------------------- players and options
def test_two_or_four_players_only() -> None:
    for n in (1, 3, 5):
        with pytest.raises(InvalidOptionError, match="allowed: 2, 4"):
            TortillaDePatatas(num_players=n)


def test_unknown_menu_is_refused_with_the_allowed_values() -> None:
    with pytest.raises(InvalidOptionError, match="menu='brunch'.*'kids', 'day', 'gourmet'"):
        TortillaDePatatas(menu="brunch")
    with pytest.raises(InvalidOptionError, match="observation"):
        TortillaDePatatas(observation="everything")


# ---------------------------------------------------------------- setup
@pytest.mark.parametrize(("num_players", "fridge"), [(2, 62 - 6 - 4), (4, 62 - 12 - 4)])
def test_kids_setup_deals_three_and_starts_two_pans_per_chef_from_the_fridge(num_players: int, fridge: int) -> None:
    game = TortillaDePatatas(num_players=num_players, seed=3, menu="kids")
    assert [sum(game.state.hands[seat]) for seat in range(num_players)] == [3] * num_players
    for team in (0, 1):
        assert [len(pan(game, team, p)) for p in range(3)] == [1, 1, 0]
    assert game.deck_size == fridge and game.state.door == -1
    assert game.state.phase == Phase.PLAY and game.current_player == 0


@pytest.mark.parametrize(("num_players", "fridge"), [(2, 62 - 10 - 1), (4, 62 - 16 - 1)])
def test_day_setup_deals_five_to_chefs_three_to_assistants_and_opens_the_door(num_players: int, fridge: int) -> None:
    game = TortillaDePatatas(num_players=num_players, seed=3, menu="day")
    assert [sum(game.state.hands[seat]) for seat in range(num_players)] == [5, 5, 3, 3][:num_players]
    assert game.deck_size == fridge and game.state.door >= 0
    assert game.state.phase == Phase.SETUP and game.current_player == 0
    assert all(name.startswith("start ") for name in game.legal_action_names())


def test_day_setup_each_chef_starts_pans_0_and_1_from_hand_then_player_0_plays() -> None:
    game = position(phase="setup", hands=[["potato"] * 5, ["potato"] * 3 + ["egg"] * 2])
    game.play("start potato")
    assert game.current_player == 0 and pan(game, 0, 0) == ["potato"]
    game.play("start potato")
    # setup never steals: the second potato does not take the first one
    assert pan(game, 0, 0) == ["potato"] and pan(game, 0, 1) == ["potato"]
    assert game.current_player == 1 and hand(game, 0) == ["potato"] * 3
    game.play("start potato", "start egg")
    assert pan(game, 1, 0) == ["potato"] and pan(game, 1, 1) == ["egg"] and pan(game, 0, 0) == ["potato"]
    assert game.state.phase == Phase.PLAY and game.current_player == 0
    with pytest.raises(IllegalActionError, match="setup is over"):
        game.play("start potato")


def test_four_player_setup_only_the_chefs_start_pans_then_player_0_plays() -> None:
    game = position(
        "gourmet",
        num_players=4,
        phase="setup",
        hands=[["potato"] * 5, ["egg"] * 5, ["onion"] * 3, ["onion"] * 3],
    )
    game.play("start potato", "start potato")
    assert game.current_player == 1
    game.play("start egg", "start egg")
    assert game.state.phase == Phase.PLAY and game.current_player == 0
    assert [pan(game, team, p) for team in (0, 1) for p in range(3)] == [
        ["potato"],
        ["potato"],
        [],
        ["egg"],
        ["egg"],
        [],
    ]
    assert [len(hand(game, seat)) for seat in range(4)] == [3, 3, 3, 3]


def test_a_chef_can_only_start_with_a_card_in_hand() -> None:
    game = TortillaDePatatas(seed=0, menu="gourmet")
    missing = next(
        name for i, name in enumerate(game.action_names()) if name.startswith("start") and not game.legal_mask()[i]
    )
    with pytest.raises(IllegalActionError, match="you hold no"):
        game.play(missing)
    with pytest.raises(IllegalActionError, match="setup first"):
        game.play("draw deck")


# ---------------------------------------------------------------- a turn
def test_play_covers_a_pan_or_starts_an_empty_one_then_draw_refills_and_passes() -> None:
    game = position(
        "kids",
        hands=[["egg", "onion", "potato"], ["potato"] * 3],
        pans=[[["potato"], [], []], [[], [], []]],
        deck_top=["onion"],
        diners_left=(0, 0, 2),
        served=[
            {"seat": 1, "size": "M", "diners": 1, "cards": ["egg"]},
            {"seat": 1, "size": "M", "diners": 1, "cards": ["egg"]},
            {"seat": 1, "size": "M", "diners": 2, "cards": ["egg"]},
            {"seat": 1, "size": "M", "diners": 2, "cards": ["egg"]},
        ],
    )
    game.play("play egg on 0")
    assert pan(game, 0, 0) == ["potato", "egg"]
    assert game.state.phase == Phase.AFTER
    game.play("draw deck")
    assert hand(game, 0) == ["potato", "onion", "onion"] and game.current_player == 1
    game.play("play potato on 2", "draw deck")
    assert pan(game, 1, 2) == ["potato"]
    assert game.current_player == 0 and game.state.turn == 2


def test_one_card_per_turn_and_no_draw_before_playing() -> None:
    game = position(hands=[["egg", "onion", "potato"], ["potato"] * 3])
    with pytest.raises(IllegalActionError, match="play a card first"):
        game.play("draw deck")
    game.play("play egg on 0")
    with pytest.raises(IllegalActionError, match="already played a card this turn"):
        game.play("play onion on 1")


def test_you_can_only_play_a_card_you_hold() -> None:
    game = position(hands=[["egg", "egg", "potato"], ["potato"] * 3])
    assert "play onion on 0" not in game.legal_action_names()
    with pytest.raises(IllegalActionError, match="you hold no onion"):
        game.play("play onion on 0")


def test_kids_menu_draws_automatically_when_no_serve_is_legal() -> None:
    game = position(
        "kids", hands=[["egg"] * 3, ["potato"] * 3], pans=[[["potato"], [], []], [[], [], []]], deck_top=["onion"]
    )
    game.play("serve 0 M with 1", "play egg on 1")  # served already: the refill happens by itself
    assert game.current_player == 1 and hand(game, 0) == ["egg", "egg", "onion"]


def test_kids_menu_asks_when_a_serve_is_still_possible() -> None:
    game = position("kids", hands=[["egg"] * 3, ["potato"] * 3], pans=[[["potato"], [], []], [[], [], []]])
    with pytest.raises(IllegalActionError, match="no fridge door"):
        game.play("draw door")
    game.play("play egg on 1")
    assert game.current_player == 0 and game.state.phase == Phase.AFTER
    assert "draw deck" in legal(game) and "serve 0 M with 3" in legal(game)
    assert "draw door" not in legal(game)
    with pytest.raises(IllegalActionError, match="no fridge door"):
        game.play("draw door")


def test_kids_menu_draws_automatically_after_serving_once_the_card_is_played() -> None:
    game = position(
        "kids", hands=[["egg"] * 3, ["potato"] * 3], pans=[[M_PERFECT, [], []], [[], [], []]], deck_top=["onion"]
    )
    game.play("play egg on 1", "serve 0 M with 3")
    assert game.current_player == 1 and game.state.phase == Phase.PLAY and hand(game, 0) == ["egg", "egg", "onion"]


def test_kids_menu_has_no_stealing() -> None:
    game = position("kids", hands=[["egg"] * 3, ["potato"] * 3], pans=[[[], [], []], [["egg"], [], []]])
    game.play("play egg on 0")
    assert pan(game, 0, 0) == ["egg"] and pan(game, 1, 0) == ["egg"]


# ---------------------------------------------------------------- serving
def test_serve_before_or_after_playing_but_only_once_per_turn() -> None:
    game = position(hands=[["egg"] * 3, ["potato"] * 3], pans=[[M_PERFECT, ["potato"], []], [[], [], ["onion"]]])
    game.play("serve 0 M with 2")
    assert pan(game, 0, 0) == [] and game.state.phase == Phase.PLAY and game.state.diners_left == [2, 1, 2]
    assert not legal(game, "serve")
    game.play("play egg on 2")
    with pytest.raises(IllegalActionError, match="already served this turn"):
        game.play("serve 1 M with 1")
    game.play("draw deck")
    assert game.current_player == 1 and legal(game, "serve")  # a new turn, a new serve
    game = position(hands=[["egg"] * 3, ["potato"] * 3], pans=[[M_PERFECT, [], []], [[], [], []]])
    game.play("play egg on 1", "serve 0 M with 3")
    assert game.state.phase == Phase.AFTER and legal(game) == ["draw deck", "draw door"]


def test_serving_moves_the_pan_to_a_face_down_pile_under_the_diner_card() -> None:
    game = position(hands=[["egg"] * 3, ["potato"] * 3], pans=[[M_PERFECT, [], []], [[], [], []]])
    game.play("serve 0 XL with 3")
    dish = game.state.served[0]
    assert (dish.seat, dish.size, dish.diners) == (0, 1, 3)
    assert dish.counts == (3, 2, 1, 0, 0, 0, 0)
    assert game.state.diners_left == [2, 2, 1]


def test_an_empty_pan_cannot_be_served() -> None:
    game = position(hands=[["egg"] * 3, ["potato"] * 3], pans=[[["potato"], [], []], [[], [], []]])
    assert not legal(game, "serve 1")
    with pytest.raises(IllegalActionError, match="pan 1 is empty"):
        game.play("serve 1 M with 1")


def test_any_non_empty_pan_may_be_served_as_either_size() -> None:
    game = position(hands=[["egg"] * 3, ["potato"] * 3], pans=[[["onion"], [], []], [[], [], []]])
    assert legal(game, "serve") == [f"serve 0 {s} with {d}" for s in ("M", "XL") for d in (1, 2, 3)]


def test_a_diner_card_can_only_be_taken_once() -> None:
    served = [{"seat": 1, "size": "M", "diners": 3, "cards": ["egg"]}] * 2
    game = position(
        hands=[["egg"] * 3, ["potato"] * 3],
        pans=[[["onion"], [], []], [[], [], []]],
        diners_left=(2, 2, 0),
        served=served,
    )
    assert "serve 0 M with 3" not in legal(game)
    with pytest.raises(IllegalActionError, match="no 3-diner card is left"):
        game.play("serve 0 M with 3")


def test_team_mates_serve_the_chefs_pans_and_share_the_score() -> None:
    game = position(num_players=4, hands=[["egg"] * 3] * 4, pans=[[M_PERFECT, [], []], [[], [], []]], current=2)
    game.play("serve 0 M with 2")
    assert game.state.served[0].seat == 2
    assert game.team_scores()[0] == 2
    assert game.scores().tolist() == [2, 0, 2, 0]


# ---------------------------------------------------------------- Gourmet diner cards
def test_gourmet_one_pan_with_cards_allows_only_one_diner() -> None:
    game = position("gourmet", hands=[["egg"] * 3, ["potato"] * 3], pans=[[M_PERFECT, [], []], [[], [], []]])
    assert legal(game, "serve") == ["serve 0 M with 1", "serve 0 XL with 1"]
    with pytest.raises(IllegalActionError, match="Gourmet: with 1 pan holding cards only a 1-diner card"):
        game.play("serve 0 M with 2")


def test_gourmet_two_pans_allow_one_or_two_diners_and_three_pans_any() -> None:
    game = position("gourmet", hands=[["potato"] * 3, ["egg"] * 3], pans=[[M_PERFECT, ["egg"], []], [[], [], []]])
    assert legal(game, "serve 0 M") == ["serve 0 M with 1", "serve 0 M with 2"]
    with pytest.raises(IllegalActionError, match="Gourmet: with 2 pans holding cards only a 1- or 2-diner card"):
        game.play("serve 0 M with 3")
    game.play("play potato on 2")  # a third pan now holds cards: any card, after playing
    assert legal(game, "serve 0 M") == ["serve 0 M with 1", "serve 0 M with 2", "serve 0 M with 3"]


def test_gourmet_counts_the_pans_at_the_moment_of_serving_after_a_steal_emptied_one() -> None:
    # three pans would allow any card, but the egg played on pan 2 steals pan 1's only card
    game = position(
        "gourmet", hands=[["egg"] * 3, ["potato"] * 3], pans=[[M_PERFECT, ["egg"], ["onion"]], [[], [], []]]
    )
    assert "serve 0 M with 3" in legal(game)
    game.play("play egg on 2")
    assert pan(game, 0, 1) == [] and pan(game, 0, 2) == ["onion", "egg", "egg"]
    assert legal(game, "serve 0 M") == ["serve 0 M with 1", "serve 0 M with 2"]


def test_gourmet_an_assistant_is_limited_by_its_chefs_pans() -> None:
    game = position(
        "gourmet",
        num_players=4,
        current=2,
        hands=[["potato"] * 3] * 4,
        pans=[[M_PERFECT, ["onion"], []], [["egg"], ["egg"], ["egg"]]],
    )
    assert legal(game, "serve 0 M") == ["serve 0 M with 1", "serve 0 M with 2"]
    game.play("serve 0 M with 2")
    assert game.state.served[-1].seat == 2 and game.team_scores() == [2, 0]


def test_gourmet_counts_only_the_own_teams_pans() -> None:
    game = position(
        "gourmet", hands=[["egg"] * 3, ["potato"] * 3], pans=[[M_PERFECT, [], []], [["egg"], ["onion"], ["potato"]]]
    )
    assert legal(game, "serve 0 M") == ["serve 0 M with 1"]


def test_gourmet_no_permitted_diner_card_means_no_serve() -> None:
    served = [{"seat": 1, "size": "M", "diners": 1, "cards": ["egg"]}] * 2
    game = position(
        "gourmet",
        hands=[["egg"] * 3, ["potato"] * 3],
        pans=[[M_PERFECT, [], []], [[], [], []]],
        diners_left=(0, 2, 2),
        served=served,
    )
    assert not legal(game, "serve")


def test_day_menu_has_no_diner_limit() -> None:
    game = position("day", hands=[["egg"] * 3, ["potato"] * 3], pans=[[M_PERFECT, [], []], [[], [], []]])
    assert "serve 0 M with 3" in legal(game)


# ---------------------------------------------------------------- stealing (Day's and Gourmet)
def test_steal_from_the_opponent_puts_their_top_card_on_mine() -> None:
    game = position(hands=[["egg"] * 3, ["potato"] * 3], pans=[[["potato"], [], []], [["onion", "egg"], [], []]])
    game.play("play egg on 0")
    assert pan(game, 0, 0) == ["potato", "egg", "egg"]
    assert pan(game, 1, 0) == ["onion"]  # the card below becomes the new top
    assert game.state.phase == Phase.AFTER


def test_opponents_pan_comes_before_my_own() -> None:
    game = position("gourmet", hands=[["egg"] * 3, ["potato"] * 3], pans=[[[], ["egg"], []], [["potato"], ["egg"], []]])
    game.play("play egg on 0")
    assert pan(game, 0, 0) == ["egg", "egg"] and pan(game, 0, 1) == ["egg"] and pan(game, 1, 1) == []


def test_my_own_pan_when_no_opponent_pan_matches() -> None:
    game = position(hands=[["onion"] * 3, ["potato"] * 3], pans=[[["potato"], ["egg", "onion"], []], [[], [], []]])
    game.play("play onion on 0")
    assert pan(game, 0, 0) == ["potato", "onion", "onion"] and pan(game, 0, 1) == ["egg"]


def test_a_card_into_an_empty_pan_steals_too_and_a_steal_may_empty_a_pan() -> None:
    game = position(hands=[["egg"] * 3, ["potato"] * 3], pans=[[[], [], []], [["egg"], [], []]])
    game.play("play egg on 2")
    assert pan(game, 0, 2) == ["egg", "egg"] and pan(game, 1, 0) == []


def test_choice_among_opponent_pans_of_equal_priority() -> None:
    game = position(
        hands=[["egg"] * 3, ["potato"] * 3], pans=[[[], ["egg"], []], [["egg"], ["potato"], ["onion", "egg"]]]
    )
    game.play("play egg on 0")
    assert game.state.phase == Phase.STEAL and game.current_player == 0
    assert legal(game) == ["steal from theirs 0", "steal from theirs 2"]
    with pytest.raises(IllegalActionError, match="opponent's pan .* must be stolen from first"):
        game.play("steal from mine 1")
    with pytest.raises(IllegalActionError, match="first choose which pan to steal from"):
        game.play("draw deck")
    with pytest.raises(IllegalActionError, match="the other team.s pan 1 does not show an egg on top"):
        game.play("steal from theirs 1")
    game.play("steal from theirs 2")
    assert pan(game, 0, 0) == ["egg", "egg"] and pan(game, 1, 2) == ["onion"] and pan(game, 1, 0) == ["egg"]
    assert game.state.phase == Phase.AFTER


def test_choice_among_my_own_pans() -> None:
    game = position(hands=[["onion"] * 3, ["potato"] * 3], pans=[[[], ["onion"], ["egg", "onion"]], [[], [], []]])
    game.play("play onion on 0")
    assert legal(game) == ["steal from mine 1", "steal from mine 2"]
    with pytest.raises(IllegalActionError, match="cannot steal from the pan you just played on"):
        game.play("steal from mine 0")
    game.play("steal from mine 1")
    assert pan(game, 0, 0) == ["onion", "onion"] and pan(game, 0, 1) == [] and pan(game, 0, 2) == ["egg", "onion"]


def test_wildcards_neither_steal_nor_are_stolen() -> None:
    game = position(
        hands=[["potato+egg", "egg", "egg"], ["potato"] * 3],
        pans=[[[], [], []], [["potato+egg"], ["egg", "potato+egg"], []]],
    )
    game.play("play potato+egg on 0")  # a wildcard does not steal an equal wildcard
    assert pan(game, 0, 0) == ["potato+egg"] and pan(game, 1, 0) == ["potato+egg"]
    game.play("draw deck", "play potato on 0", "draw deck")
    game.play("play egg on 1")  # a plain egg does not match an egg wildcard
    assert pan(game, 0, 1) == ["egg"] and pan(game, 1, 1) == ["egg", "potato+egg"]


def test_only_one_steal_per_turn() -> None:
    # the stolen egg lands on top of mine and matches another pan: no second steal
    game = position(hands=[["egg"] * 3, ["potato"] * 3], pans=[[[], [], ["egg"]], [["egg"], [], []]])
    game.play("play egg on 0")
    assert pan(game, 0, 0) == ["egg", "egg"] and pan(game, 0, 2) == ["egg"] and pan(game, 1, 0) == []
    assert game.state.phase == Phase.AFTER


def test_four_players_partner_pans_are_mine_and_the_other_team_is_the_opponent() -> None:
    game = position(num_players=4, current=2, hands=[["egg"] * 3] * 4, pans=[[["egg"], [], []], [[], ["egg"], []]])
    game.play("play egg on 2")  # the assistant of team A plays into its chef's pan, stealing from team B
    assert pan(game, 0, 2) == ["egg", "egg"] and pan(game, 1, 1) == [] and pan(game, 0, 0) == ["egg"]
    game.play("draw deck")
    assert game.current_player == 3
    game.play("play egg on 1")  # team B's assistant: two of team A's pans show an egg, a choice
    assert legal(game) == ["steal from theirs 0", "steal from theirs 2"]
    game.play("steal from theirs 2")
    assert pan(game, 1, 1) == ["egg", "egg"] and pan(game, 0, 2) == ["egg"] and pan(game, 0, 0) == ["egg"]


def test_four_players_an_assistant_steals_from_its_chefs_other_pan_when_no_opponent_matches() -> None:
    game = position(
        num_players=4,
        current=2,
        hands=[["potato"] * 3, ["potato"] * 3, ["onion"] * 3, ["potato"] * 3],
        pans=[[["onion"], ["egg"], []], [["egg"], [], []]],
    )
    game.play("play onion on 1")
    assert pan(game, 0, 1) == ["egg", "onion", "onion"] and pan(game, 0, 0) == []
    assert pan(game, 1, 0) == ["egg"]


def test_a_steal_happens_on_the_card_just_placed_only_not_on_the_card_it_uncovers() -> None:
    # stealing team B's egg uncovers their onion; my pan 1 shows an onion: nothing more happens
    game = position(hands=[["egg"] * 3, ["potato"] * 3], pans=[[[], ["onion"], []], [["onion", "egg"], [], []]])
    game.play("play egg on 0")
    assert pan(game, 0, 0) == ["egg", "egg"] and pan(game, 1, 0) == ["onion"] and pan(game, 0, 1) == ["onion"]


# ---------------------------------------------------------------- refilling
def test_draw_door_takes_the_face_up_card_and_turns_the_next_one() -> None:
    game = position(hands=[["egg"] * 3, ["potato"] * 3], door="onion", deck_top=["potato+egg", "egg"])
    game.play("play egg on 0", "draw door")
    assert hand(game, 0) == ["egg", "egg", "onion"]
    assert game.state.door == 3 and game.deck_size == 62 - 6 - 1 - 1  # hands, old door, new door
    assert game.state.known[0] == [0, 0, 1, 0, 0, 0, 0]  # everyone saw the onion taken


def test_known_cards_are_forgotten_once_played() -> None:
    game = position(hands=[["egg", "egg", "onion"], ["potato"] * 3], known=[["onion"], []], door="egg")
    game.play("play onion on 0")
    assert game.state.known[0] == [0] * 7


def test_draw_deck_takes_the_top_card() -> None:
    game = position(hands=[["egg"] * 3, ["potato"] * 3], deck_top=["potato+egg+onion"])
    game.play("play egg on 0", "draw deck")
    assert hand(game, 0) == ["egg", "egg", "potato+egg+onion"] and game.state.known[0] == [0] * 7


# ---------------------------------------------------------------- end of the game
def test_kids_game_ends_when_the_fridge_runs_out() -> None:
    game = position("kids", hands=[["egg"] * 3, ["potato"] * 3], deck=["onion"], pans=[[[], [], []], [[], [], []]])
    game.play("play egg on 0", "draw deck")
    assert game.is_over and game.current_player == -1 and game.deck_size == 0
    assert not game.legal_mask().any()
    with pytest.raises(IllegalActionError, match="game is over"):
        game.play("play egg on 0")


def test_day_game_goes_on_while_the_door_holds_a_card() -> None:
    game = position(hands=[["egg"] * 3, ["potato"] * 3], deck=[], door="onion")
    game.play("play egg on 0")
    assert legal(game, "draw") == ["draw door"]
    with pytest.raises(IllegalActionError, match="draw pile is empty"):
        game.play("draw deck")
    game.play("draw door")
    assert game.is_over


def test_day_game_ends_when_the_last_deck_card_is_drawn_and_the_door_is_taken() -> None:
    game = position(hands=[["egg"] * 3, ["potato"] * 3], deck=["egg"], door="onion")
    game.play("play egg on 0", "draw door")  # the door is refilled with the last deck card
    assert not game.is_over and game.state.door == 1 and game.deck_size == 0
    game.play("play potato on 0", "draw door")
    assert game.is_over


def test_game_ends_at_once_when_the_last_diner_card_is_taken() -> None:
    served = [{"seat": 1, "size": "M", "diners": d, "cards": ["egg"]} for d in (1, 1, 2, 2, 3)]
    game = position(
        hands=[["egg"] * 3, ["potato"] * 3],
        pans=[[M_PERFECT, ["egg"], []], [[], [], []]],
        diners_left=(0, 0, 1),
        served=served,
    )
    game.play("serve 0 M with 3")
    assert game.is_over  # the rest of the turn (playing a card, refilling) is skipped
    assert hand(game, 0) == ["egg"] * 3 and not game.legal_mask().any()


def test_last_diner_card_taken_after_playing_skips_the_refill() -> None:
    served = [{"seat": 1, "size": "M", "diners": d, "cards": ["egg"]} for d in (1, 1, 2, 2, 3)]
    game = position(
        hands=[["egg"] * 3, ["potato"] * 3],
        pans=[[M_PERFECT, [], []], [[], [], []]],
        diners_left=(0, 0, 1),
        served=served,
        deck_top=["onion"],
    )
    deck = game.deck_size
    game.play("play egg on 1", "serve 0 M with 3")
    assert game.is_over and hand(game, 0) == ["egg", "egg"] and game.deck_size == deck
    assert game.team_scores() == [3 - 1, -9]  # -1: the egg left in pan 1; team B: five bad M


# ---------------------------------------------------------------- scoring
def test_rulebook_scoring_example_totals_4() -> None:
    bad_m = ["potato", "potato", "egg", "egg", "onion"]  # missing a potato
    bad_xl = ["potato"] * 5 + ["egg"] * 4 + ["onion"]  # one egg too many, one onion missing
    served = [
        {"seat": 0, "size": "M", "diners": 2, "cards": bad_m},
        {"seat": 0, "size": "XL", "diners": 1, "cards": bad_xl},
        {"seat": 0, "size": "M", "diners": 2, "cards": M_PERFECT},
    ]
    game = position(
        "kids",
        hands=[["egg"] * 3, ["potato"] * 3],
        pans=[[XL_PERFECT, [], []], [[], [], []]],
        deck=["onion"],
        diners_left=(1, 0, 2),
        served=served,
    )
    game.play("serve 0 XL with 3", "play egg on 1")  # the automatic refill empties the fridge
    assert game.is_over
    assert [dish["points"] for dish in game.final_info()["omelettes"]] == [-2, -2, 2, 6]
    assert game.team_scores()[0] == 4
    assert [dish["perfect"] for dish in game.final_info()["omelettes"]] == [False, False, True, True]


@pytest.mark.parametrize("potatoes", [3, 4])
def test_a_perfect_m_has_3_or_4_potatoes(potatoes: int) -> None:
    cards = ["potato"] * potatoes + ["egg", "egg", "onion"]
    game = position(hands=[["egg"] * 3, ["potato"] * 3], pans=[[cards, [], []], [[], [], []]])
    game.play("serve 0 M with 2")
    assert game.team_scores()[0] == 2


@pytest.mark.parametrize("potatoes", [2, 5])
def test_an_m_with_2_or_5_potatoes_is_badly_made(potatoes: int) -> None:
    cards = ["potato"] * potatoes + ["egg", "egg", "onion"]
    game = position(hands=[["egg"] * 3, ["potato"] * 3], pans=[[cards, [], []], [[], [], []]])
    game.play("serve 0 M with 2")
    assert game.team_scores()[0] == -2


@pytest.mark.parametrize(("potatoes", "points"), [(4, -6), (5, 6), (6, 6), (7, -6)])
def test_an_xl_needs_5_or_6_potatoes_and_scores_double(potatoes: int, points: int) -> None:
    cards = ["potato"] * potatoes + ["egg"] * 3 + ["onion"] * 2
    game = position(hands=[["egg"] * 3, ["potato"] * 3], pans=[[cards, [], []], [[], [], []]])
    game.play("serve 0 XL with 3")
    assert game.team_scores()[0] == points


def test_a_perfect_xl_declared_as_m_is_badly_made() -> None:
    game = position(hands=[["egg"] * 3, ["potato"] * 3], pans=[[XL_PERFECT, [], []], [[], [], []]])
    game.play("serve 0 M with 3")
    assert game.team_scores()[0] == -3


def test_wildcards_count_in_the_owners_favour() -> None:
    # potato+egg must be the egg and potato+onion the onion: the only perfect reading
    cards = ["potato", "potato", "potato", "egg", "potato+egg", "potato+onion"]
    game = position(hands=[["egg"] * 3, ["potato"] * 3], pans=[[cards, [], []], [[], [], []]])
    game.play("serve 0 M with 3")
    assert game.team_scores()[0] == 3


@pytest.mark.parametrize("menu", ["day", "gourmet"])
def test_each_unserved_pan_costs_a_point_in_day_and_gourmet(menu: str) -> None:
    game = position(
        menu, hands=[["egg"] * 3, ["onion"] * 3], deck=["onion"], door="egg", pans=[[["potato"], [], []], [[], [], []]]
    )
    assert game.team_scores() == [0, 0]
    game.play("play egg on 1", "draw deck", "play onion on 2", "draw door")
    assert game.is_over
    # team A: pans 0 and 1; team B: its pan 2, which holds the rest of the cards (see tortilla_positions)
    assert game.final_info()["unserved_pans"] == [2, 1]
    assert game.team_scores() == [-2, -1]


def test_unserved_pans_cost_nothing_in_the_kids_menu() -> None:
    game = position(
        "kids", hands=[["egg"] * 3, ["onion"] * 3], deck=["onion"], pans=[[["potato"], [], []], [[], [], []]]
    )
    game.play("play egg on 1", "draw deck")
    assert game.is_over and game.final_info()["unserved_pans"] == [2, 1]
    assert game.team_scores() == [0, 0]


def test_four_player_teams_win_together() -> None:
    game = position(
        "kids", num_players=4, hands=[["egg"] * 3] * 4, deck=["onion"], pans=[[M_PERFECT, [], []], [[], [], []]]
    )
    game.play("serve 0 M with 2", "play egg on 1")
    assert game.is_over
    assert game.returns().tolist() == [1.0, -1.0, 1.0, -1.0]
    assert game.winners() == [0, 2]


def test_a_tie_is_a_shared_win() -> None:
    game = position("kids", hands=[["egg"] * 3] * 2, deck=["onion"])
    game.play("play egg on 1", "draw deck")
    assert game.is_over and game.returns().tolist() == [0.0, 0.0]


def test_margin_reward_is_the_team_lead_over_ten() -> None:
    game = TortillaDePatatas(num_players=4, menu="kids", reward="margin")
    data = position(
        "kids", num_players=4, hands=[["egg"] * 3] * 4, deck=["onion"], pans=[[M_PERFECT, [], []], [[], [], []]]
    ).state_dict()
    data["options"]["reward"] = "margin"
    game.load_state_dict(data)
    game.play("serve 0 M with 3", "play egg on 1")
    assert game.returns().tolist() == pytest.approx([0.3, -0.3, 0.3, -0.3])


# ---------------------------------------------------------------- turn order
def test_four_players_alternate_between_the_teams() -> None:
    game = TortillaDePatatas(num_players=4, seed=5, menu="kids")
    seats = []
    while len(seats) < 6:
        seats.append(game.current_player)
        card = next(name for name in legal(game, "play"))
        game.play(card)
        if game.state.phase == Phase.AFTER:
            game.play("draw deck")
    assert seats == [0, 1, 2, 3, 0, 1]
