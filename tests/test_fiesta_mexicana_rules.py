"""Fiesta Mexicana: every rule of the rulebook and of our rulings, as scenarios played by name."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from fiesta_mexicana_positions import card, card_with, objective, position

from fiesta_envs.core.errors import IllegalActionError
from fiesta_envs.fiesta_mexicana.board import number_of_space, space_of_number
from fiesta_envs.fiesta_mexicana.components import DISH_CARDS, OBJECTIVE_DECK, OBJECTIVE_KINDS, PINATA_SPACES
from fiesta_envs.fiesta_mexicana.game import FiestaMexicana

SALAD = card("salad", 1, ("green", None, None, "brown"))


def skulls(card_index: int) -> int:
    return DISH_CARDS[card_index].skulls


# ---------------------------------------------------------------------------------- table frames
def test_left_turn_makes_1_read_13_right_turn_4_half_turn_16():
    space = space_of_number(0, 1)
    assert number_of_space(1, space) == 13  # rulebook: after a turn to the left, the 1 becomes a 13
    assert number_of_space(3, space) == 4  # a right turn is three left turns
    assert number_of_space(2, space) == 16


def test_turning_the_table_in_play_changes_which_space_a_bid_fills():
    game = position(2, turn=0)
    game.play("bid 2", "pass", "place 0")  # player 0 wins; player 1 may turn
    game.play("rotate left")
    assert game.state.orientation[1] == 1
    # player 0 opens again, player 1 outbids with 13: that is the space which read 1 before turning
    game.play("bid 3", "bid 13", "pass", "place 0")
    assert game.state.cards[1][space_of_number(0, 1)] >= 0
    assert game.phase_name == "rotate"


def test_turning_the_table_right_and_not_at_all():
    game = position(3, turn=0)
    game.play("bid 2", "pass", "pass", "place 0", "rotate right", "rotate none")
    assert game.state.orientation == [0, 3, 0]


def test_turning_keeps_dishes_and_their_turn_relative_to_the_table():
    tostada = card_with("tostada", half="green")
    game = position(2, tables={1: {6: (tostada, 0)}}, turn=0)
    edges_before = list(game.edges[1])
    game.play("bid 2", "pass", "place 0", "rotate left")
    assert game.edges[1] == edges_before  # nothing moves inside the table's own frame
    space = space_of_number(0, 6)
    assert game.state.cards[1][space] == tostada and number_of_space(game.state.orientation[1], space) == 10


# ---------------------------------------------------------------------------------- setup
def test_setup_start_cards_go_on_6_and_11_oriented_by_their_owner_in_seat_order():
    game = FiestaMexicana(num_players=2, seed=3)
    assert game.phase_name == "orient" and game.current_player == 0
    first, second = game.state.start_cards[0]
    assert game.legal_action_names() == [f"orient 0 {r}" for r in range(4)]  # the space-6 card first
    game.play("orient 0 1", "orient 1 2")
    assert game.state.cards[0][PINATA_SPACES[0]] == first and game.state.rotations[0][PINATA_SPACES[0]] == 1
    assert game.state.cards[0][PINATA_SPACES[1]] == second and game.state.rotations[0][PINATA_SPACES[1]] == 2
    assert [number_of_space(0, s) for s in PINATA_SPACES] == [6, 11]
    assert DISH_CARDS[first].pinata == 0 and DISH_CARDS[second].pinata == 1
    assert game.state.points[0] == skulls(first) + skulls(second)  # one point per skull, no bowls
    assert game.current_player == 1


def test_setup_deck_holds_the_other_start_cards_and_objectives_come_after_orienting():
    for n in (2, 3, 4):
        game = FiestaMexicana(num_players=n, seed=n)
        assert len(game.state.deck) == 66 - 2 * n
        assert all(hand == [] for hand in game.state.hands)  # objectives are dealt after the start cards
        for _ in range(n):
            game.play("orient 0 0", "orient 1 0")
        assert game.phase_name == "keep"
        assert all(len(hand) == 5 for hand in game.state.hands)


def test_keep_needs_three_colours_and_fills_slots_in_order():
    game = FiestaMexicana(num_players=2, seed=0, variant="confirmed_waiters")
    data = game.state_dict()
    red_a, red_b = objective("children", "tacos"), objective("children", "salad")
    white, blue, green = objective("teens", "tacos"), objective("line of 3"), objective("6 bowls")
    data["state"]["hands"][0] = [red_a, red_b, white, blue, green]
    game.load_state_dict(data)
    assert "keep 0 1 2" not in game.legal_action_names()  # two red cards
    with pytest.raises(IllegalActionError, match="three different colours"):
        game.play("keep 0 1 2")
    game.play("keep 1 3 4")
    assert game.state.objectives[0] == [red_b, blue, green]
    assert game.state.hands[0] == [] and game.current_player == 1


def test_a_hand_without_three_colours_is_shown_and_redrawn():
    redrawn = []
    for seed in range(200):
        game = FiestaMexicana(num_players=2, seed=seed, variant="confirmed_waiters")
        if game.state.shown_objectives:
            redrawn.append(game)
    assert redrawn, "about one hand in nine needs a redraw"
    for game in redrawn:
        for shown in game.state.shown_objectives:
            assert len({objective_colour(code) for code in shown}) < 3
        for hand in game.state.hands:
            assert len({objective_colour(code) for code in hand}) >= 3
            assert game.legal_mask()[8:18].any()


def test_four_player_deals_always_end_with_valid_hands():
    for seed in range(300):
        game = FiestaMexicana(num_players=4, seed=seed, variant="confirmed_waiters")
        assert all(len({objective_colour(c) for c in hand}) >= 3 for hand in game.state.hands)


def objective_colour(code: int) -> int:
    return OBJECTIVE_KINDS[code].colour


def test_first_auction_opened_by_seat_0_after_setup():
    game = FiestaMexicana(num_players=3, seed=1)
    for _ in range(3):
        game.play("orient 0 0", "orient 1 0")
    for _ in range(3):
        game.step(game.legal_actions()[0])
    assert game.phase_name == "auction" and game.current_player == 0 and game.state.offer >= 0
    assert len(game.state.deck) == 66 - 6 - 1


# ---------------------------------------------------------------------------------- auction
def test_the_opener_must_bid():
    game = position(2, turn=0)
    with pytest.raises(IllegalActionError, match="must make the opening bid"):
        game.play("pass")
    assert "bid 1" in game.legal_action_names()  # the opening bid has no minimum


def test_bids_use_uncovered_legible_numbers_strictly_higher():
    tostada = card_with("tostada")
    game = position(2, tables={0: {13: (tostada, 0)}}, turn=0)
    with pytest.raises(IllegalActionError, match="13 is covered by a dish"):
        game.play("bid 13")
    game.play("bid 9")  # Maria's example: 9 is free, 13 is covered
    with pytest.raises(IllegalActionError, match="strictly higher than 9"):
        game.play("bid 9")
    with pytest.raises(IllegalActionError, match="strictly higher than 9"):
        game.play("bid 4")
    game.play("bid 10")
    assert (game.state.high_bid, game.state.high_bidder) == (10, 1)


def test_a_player_without_a_higher_free_number_can_only_pass():
    full = {n: (c, 0) for n, c in zip(range(10, 17), range(7), strict=True)}
    game = position(2, tables={1: full}, turn=0)
    game.play("bid 9")
    assert game.legal_action_names() == ["pass"]


def test_passes_are_not_final():
    game = position(3, turn=0)
    game.play("bid 5", "pass", "bid 7", "pass")
    game.play("bid 9")  # player 1 passed before and bids now
    assert (game.state.high_bid, game.state.high_bidder, game.current_player) == (9, 1, 2)
    assert game.state.passed == [False, False, False]  # passes count since the last bid only


def test_auction_ends_when_the_turn_returns_to_the_high_bidder():
    game = position(3, turn=0)
    game.play("bid 5", "bid 6", "pass")
    assert game.phase_name == "auction" and game.current_player == 0
    game.play("pass")
    assert game.phase_name == "place" and game.current_player == 1 and game.state.high_bid == 6


def test_if_everybody_else_passes_the_opener_wins_at_the_opening_bid():
    game = position(4, turn=2)
    game.play("bid 3", "pass", "pass", "pass")
    assert game.phase_name == "place" and game.current_player == 2 and game.state.high_bid == 3


def test_reserve_wins_at_once_and_discards_the_chosen_objective():
    objectives = [objective("children", "tacos"), objective("teens", "salad"), objective("line of 3")]
    game = position(3, objectives={1: objectives}, turn=0)
    game.play("bid 5", "reserve 8 drop 1")
    assert game.phase_name == "place" and game.current_player == 1 and game.state.high_bid == 8
    assert game.state.objectives[1] == [objectives[0], -1, objectives[2]]
    with pytest.raises(IllegalActionError, match="only the auction winner places|auction"):
        game.play("bid 9")


def test_the_opener_may_reserve_with_the_opening_bid():
    game = position(2, objectives={0: [objective("line of 3"), -1, -1]}, turn=0)
    game.play("reserve 4 drop 0")
    assert game.phase_name == "place" and game.current_player == 0 and game.state.objectives[0] == [-1, -1, -1]


def test_reserving_needs_an_objective_and_a_legal_bid():
    tostada = card_with("tostada")
    game = position(2, tables={1: {12: (tostada, 0)}}, objectives={1: [objective("line of 3"), -1, -1]}, turn=0)
    game.play("bid 6")
    with pytest.raises(IllegalActionError, match="slot 1 is empty"):
        game.play("reserve 9 drop 1")
    with pytest.raises(IllegalActionError, match="strictly higher than 6"):
        game.play("reserve 5 drop 0")
    with pytest.raises(IllegalActionError, match="12 is covered"):
        game.play("reserve 12 drop 0")
    nobody = position(2, turn=0)
    assert not any(name.startswith("reserve") for name in nobody.legal_action_names())


# ---------------------------------------------------------------------------------- placement and points
def test_only_the_winner_places_on_the_space_of_the_winning_bid():
    game = position(2, turn=0)
    with pytest.raises(IllegalActionError, match="only the auction winner places"):
        game.play("place 0")
    offer = game.state.offer
    game.play("bid 3", "bid 7", "pass")
    assert game.legal_action_names() == ["place 0", "place 1", "place 2", "place 3"]
    game.play("place 2")
    space = space_of_number(0, 7)
    assert game.state.cards[1][space] == offer and game.state.rotations[1][space] == 2
    assert sum(c >= 0 for c in game.state.cards[1]) == 1


@pytest.mark.parametrize("orientation", [0, 1, 2, 3])
def test_the_rulebook_placement_example_scores_2(orientation):
    """Daniel's salad: +1 skull, +3 complete bowl, -1 two colours, -1 half bowl against a card.

    The same picture, as the player sees it, scores the same however the table was turned.
    """
    north = card("tostada", 1, ("green", None, "brown", None))  # shows green to the south when turned 2
    west = card("tostada", 1, ("white", None, None, "red"))  # shows red to the east when turned 2
    east = card("tostada", 1, (None, None, "white", None))  # shows white to the west when turned 1
    tables = {0: {2: (north, 2), 5: (west, 2), 7: (east, 1)}}
    game = position(2, tables=tables, orientation=[orientation, 0], offer=SALAD, points=[4, 0], turn=0)
    game.play("bid 6", "pass", "place 0")  # salad N green (meets green), W brown (meets red), E none
    assert game.state.points[0] == 4 + 2


def test_halves_facing_the_border_or_an_empty_space_score_nothing():
    game = position(2, offer=SALAD, turn=0)
    game.play("bid 1", "pass", "place 0")  # green faces the border, brown too (top-left corner)
    assert game.state.points[0] == skulls(SALAD)
    lonely = position(2, offer=SALAD, turn=0)
    lonely.play("bid 6", "pass", "place 0")  # halves face empty spaces
    assert lonely.state.points[0] == skulls(SALAD)


def test_score_floor_takes_at_most_what_the_player_has():
    bare = card("tostada", 2, (None, None, None, None))
    elotes = card("elotes", 2, (None, None, None, None))
    chilis = card("chilis", 1, (None, None, None, None))
    burritos = card("burritos", 1, (None, None, None, None))
    offer = card("tacos", 1, ("green", "brown", None, "white"))  # three halves, 1 skull
    tables = {0: {2: (bare, 0), 5: (elotes, 0), 7: (chilis, 0), 10: (burritos, 0)}}
    game = position(2, tables=tables, offer=offer, points=[1, 0], turn=0)
    game.play("bid 6", "pass", "place 0")  # 1 - 3 = -2, the player has 1: down to 0
    assert game.state.points[0] == 0
    richer = position(2, tables=tables, offer=offer, points=[5, 0], turn=0)
    richer.play("bid 6", "pass", "place 0")
    assert richer.state.points[0] == 3


def test_two_complete_bowls_around_the_new_card_score_3_each():
    offer = card("salad", 1, ("brown", None, "white", None))
    top = card("tostada", 1, ("green", None, "brown", None))  # brown faces south as printed
    bottom = card("tostada", 1, (None, None, "white", None))  # white faces north when turned 2
    game = position(2, tables={0: {2: (top, 0), 10: (bottom, 2)}}, offer=offer, turn=0)
    game.play("bid 6", "pass", "place 0")
    assert game.state.points[0] == 1 + 3 + 3


def test_a_half_on_the_neighbour_against_no_half_costs_1():
    offer = card("tostada", 2, (None, None, None, None))
    left = card("tostada", 1, ("white", None, None, "red"))  # red faces east when turned 2
    game = position(2, tables={0: {5: (left, 2)}}, offer=offer, points=[3, 0], turn=0)
    game.play("bid 6", "pass", "place 0")
    assert game.state.points[0] == 3 + 2 - 1


# ---------------------------------------------------------------------------------- rotations and turn order
def test_non_winners_turn_clockwise_from_the_winners_left_then_the_winner_opens():
    game = position(4, turn=1)
    with pytest.raises(IllegalActionError, match="only players who did not win the dish turn"):
        game.play("rotate left")
    game.play("bid 2", "bid 3", "pass", "pass", "pass")  # player 2 wins
    game.play("place 0")
    assert game.phase_name == "rotate" and game.state.rotation_queue == [3, 0, 1]
    with pytest.raises(IllegalActionError, match="only the auction winner places"):
        game.play("place 0")
    with pytest.raises(IllegalActionError, match="during an auction only"):
        game.play("bid 5")
    deck_before = len(game.state.deck)
    game.play("rotate left", "rotate none")
    assert game.current_player == 1 and game.state.offer == -1
    game.play("rotate right")
    assert game.phase_name == "auction" and game.current_player == 2
    assert len(game.state.deck) == deck_before - 1 and game.state.offer >= 0
    assert game.state.orientation == [0, 3, 0, 1]


def test_the_game_ends_at_once_when_a_table_is_full():
    filler = {n: (c, 0) for n, c in zip(range(2, 17), range(20, 35), strict=True)}
    game = position(3, tables={1: filler}, turn=1)
    game.play("bid 1", "pass", "pass", "place 0")  # player 1 fills the 16th space
    assert game.is_over and game.current_player == -1
    assert game.legal_mask().sum() == 0  # no turning of tables after the last dish
    with pytest.raises(IllegalActionError, match="game is over"):
        game.play("rotate left")


def test_a_table_with_a_free_space_left_does_not_end_the_game():
    filler = {n: (c, 0) for n, c in zip(range(3, 17), range(20, 34), strict=True)}
    game = position(2, tables={1: filler}, turn=1)
    game.play("bid 1", "pass", "place 0")
    assert not game.is_over and game.phase_name == "rotate"


def test_final_score_adds_objectives_and_ties_share_the_win():
    game = position(
        2,
        tables={0: {1: (card_with("tacos"), 0)}, 1: {1: (card_with("tostada"), 0)}},
        objectives={0: [objective("children", "tacos"), -1, -1], 1: [objective("teens", "tostada"), -1, -1]},
        points=[9, 5],
        phase="over",
        turn=-1,
    )
    assert game.scores().tolist() == [10.0, 10.0]
    assert game.winners() == [0, 1]
    assert game.returns().tolist() == [0.0, 0.0]
    info = game.final_info()
    assert info["objective_points"] == [1, 5] and info["placement_points"] == [9, 5]
    assert info["objectives"] == [["children: tacos"], ["teens: tostada"]]


# ---------------------------------------------------------------------------------- variant
def test_variant_starts_with_empty_tables_all_dishes_and_no_orienting():
    game = FiestaMexicana(num_players=2, seed=5, variant="confirmed_waiters")
    assert game.phase_name == "keep" and game.state.points == [0, 0]
    assert all(c < 0 for row in game.state.cards for c in row)
    assert len(game.state.deck) == 66


def test_variant_penalties_for_uncovered_marked_spaces():
    six, eleven, sixteen = (space_of_number(0, n) for n in (6, 11, 16))
    game = position(
        2,
        variant="confirmed_waiters",
        tables={0: {6: (card_with("tacos"), 0)}, 1: {6: (0, 0), 11: (1, 0), 16: (2, 0)}},
        points=[20, 1],
        phase="over",
        turn=-1,
    )
    assert game.penalties(0) == 5 + 3  # 11 and 16 uncovered
    assert game.penalties(1) == 0
    assert game.scores().tolist() == [12.0, 1.0]
    assert {six, eleven, sixteen} == {5, 10, 15}
    poor = position(2, variant="confirmed_waiters", points=[4, 0], phase="over", turn=-1)
    assert poor.scores().tolist() == [0.0, 0.0]  # never below 0
    standard = position(2, points=[4, 0], phase="over", turn=-1)
    assert standard.scores().tolist() == [4.0, 0.0]  # no penalties in the standard game


def test_variant_penalty_spaces_turn_with_the_table():
    game = position(2, variant="confirmed_waiters", orientation=[1, 0], phase="over", turn=-1)
    assert number_of_space(1, space_of_number(0, 6)) == 10  # after a left turn the marked 6 reads 10
    covered = position(
        2,
        variant="confirmed_waiters",
        orientation=[1, 0],
        tables={0: {number_of_space(1, 5): (card_with("tacos"), 0)}},
        phase="over",
        turn=-1,
    )
    assert game.penalties(0) == 13 and covered.penalties(0) == 8


def test_setup_decisions_are_refused_out_of_order_or_out_of_phase():
    game = FiestaMexicana(num_players=2, seed=3)
    with pytest.raises(IllegalActionError, match="start card for space 6 is oriented now"):
        game.play("orient 1 0")
    with pytest.raises(IllegalActionError, match="objectives are kept during setup only"):
        game.play("keep 0 1 2")
    with pytest.raises(IllegalActionError, match="during an auction only"):
        game.play("bid 3")
    auction = position(2, turn=0)
    with pytest.raises(IllegalActionError, match="start cards are oriented during setup only"):
        auction.play("orient 0 0")


def test_an_empty_deck_ends_the_game_instead_of_opening_an_auction():
    game = position(2, turn=0)
    data = game.state_dict()
    data["state"]["deck"] = []
    game.load_state_dict(data)
    game.play("bid 4", "pass", "place 0", "rotate none")
    assert game.is_over


# ---------------------------------------------------------------------------------- added by the rules audit
def test_shown_objective_hands_are_discarded_not_redrawn_while_the_pile_holds_5():
    """Rulings, Setup: a shown hand is discarded; it goes back in only when fewer than 5 cards remain.

    With 2 players 14 cards remain after the deal, so up to two hands can be shown and replaced
    from the pile alone: no objective card can then be seen twice among the hands and the shown ones.
    """
    deck = Counter(OBJECTIVE_DECK)
    checked = 0
    for seed in range(300):
        game = FiestaMexicana(num_players=2, seed=seed, variant="confirmed_waiters")
        if 1 <= len(game.state.shown_objectives) <= 2:
            seen = Counter(code for hand in game.state.hands + game.state.shown_objectives for code in hand)
            assert all(count <= deck[code] for code, count in seen.items()), seed
            checked += 1
    assert checked >= 10


def test_a_right_turn_makes_the_space_that_read_1_read_4_for_bids_and_placement():
    game = position(2, turn=0)
    game.play("bid 2", "pass", "place 0", "rotate right")
    corner = space_of_number(0, 1)
    assert game.space_of(1, 4) == corner
    game.play("bid 3", "bid 4", "pass", "place 0")  # player 1's bid of 4 fills the old top-left corner
    assert game.state.cards[1][corner] >= 0
    game.play("rotate none")  # player 0 does not turn; player 1, the winner, opens
    with pytest.raises(IllegalActionError, match="4 is covered by a dish"):
        game.play("bid 4")
    assert "bid 1" in game.legal_action_names()  # 1 is now read on another space, still free


def test_two_left_turns_make_the_space_that_read_1_read_16():
    game = position(2, turn=0)
    game.play("bid 2", "pass", "place 0", "rotate left", "bid 3", "pass", "place 0", "rotate left")
    assert game.state.orientation[1] == 2
    game.play("bid 4", "bid 16", "pass", "place 0")
    assert game.state.cards[1][space_of_number(0, 1)] >= 0


def test_the_dish_that_fills_a_table_still_scores_before_the_game_ends():
    salad = card("salad", 1, ("green", None, None, "brown"))  # halves N and W face the border at 1
    east = card("tostada", 1, (None, None, "white", None))  # no half towards space 1
    south = card("tostada", 2, (None, None, None, None))
    others = [c.index for c in DISH_CARDS if c.index not in (salad, east, south)][: 16 - 3]
    filler = {2: (east, 0), 5: (south, 0)} | dict(zip([3, 4, *range(6, 17)], [(c, 0) for c in others], strict=True))
    game = position(2, tables={1: filler}, offer=salad, points=[0, 7], turn=1)
    game.play("bid 1", "pass", "place 0")
    assert game.is_over and game.state.points[1] == 7 + 1  # the skull counts; halves against the border do not
    assert game.final_info()["placement_points"] == [0, 8]


def test_start_cards_count_like_any_dish_for_objectives():
    game = FiestaMexicana(num_players=2, seed=4)
    game.play("orient 0 0", "orient 1 0", "orient 0 0", "orient 1 0")
    start_dish = game.dishes[0][PINATA_SPACES[0]]
    data = game.state_dict()
    data["state"]["hands"] = [[], []]
    data["state"]["objectives"] = [[start_dish, -1, -1], [-1, -1, -1]]  # children for that dish
    data["state"].update(phase="over", turn=-1)
    game.load_state_dict(data)
    assert game.objective_points(0)[0] >= 1


def test_keeping_two_objectives_of_one_colour_is_explained_with_the_colours():
    game = FiestaMexicana(num_players=2, seed=0, variant="confirmed_waiters")
    data = game.state_dict()
    data["state"]["hands"][0] = [objective("children", "tacos"), objective("children", "salad"),
                                 objective("teens", "tacos"), objective("line of 3"), objective("6 bowls")]  # fmt: skip
    game.load_state_dict(data)
    with pytest.raises(IllegalActionError, match=r"slots \(0, 1, 2\) are red, red, white"):
        game.play("keep 0 1 2")


def test_the_objective_given_up_to_reserve_stays_hidden():
    """Rulings, Auction: only the number of objectives held is public, not which card was discarded."""
    held = [objective("children", "tacos"), objective("teens", "salad"), objective("line of 3")]
    first, second = position(2, objectives={1: held}, turn=0), position(2, objectives={1: held}, turn=0)
    first.play("bid 3", "reserve 8 drop 0")
    second.play("bid 3", "reserve 8 drop 2")
    assert np.array_equal(first.observe(0), second.observe(0))
    assert not np.array_equal(first.observe(1), second.observe(1))


def test_every_other_player_may_turn_in_a_four_player_game_but_never_the_winner():
    game = position(4, turn=3)
    game.play("bid 5", "pass", "pass", "pass", "place 1")
    assert game.state.rotation_queue == [0, 1, 2]
    game.play("rotate left", "rotate left", "rotate left")
    assert game.state.orientation == [1, 1, 1, 0] and game.current_player == 3 and game.phase_name == "auction"


def test_daniels_objective_hand_from_the_rulebook():
    """Setup example: two red cards, one of a third colour, two blue cards; Daniel keeps the 1st, 3rd, 4th."""
    game = FiestaMexicana(num_players=2, seed=0, variant="confirmed_waiters")
    data = game.state_dict()
    data["state"]["hands"][0] = [objective("children", "chilis"), objective("children", "salad"),
                                 objective("6 bowls"), objective("line of 3"), objective("square of 4")]  # fmt: skip
    game.load_state_dict(data)
    keeps = [name for name in game.legal_action_names() if name.startswith("keep")]
    assert keeps == ["keep 0 2 3", "keep 0 2 4", "keep 1 2 3", "keep 1 2 4"]  # one red, the green, one blue
    game.play("keep 0 2 3")
    assert game.state.objectives[0] == [objective("children", "chilis"), objective("6 bowls"), objective("line of 3")]


def test_bids_cost_nothing_and_the_losers_go_away_empty_handed():
    """Rulings: "all the other players share the pot" means they get nothing; bids are never paid."""
    game = position(3, points=[5, 6, 7], offer=card("tostada", 2, (None, None, None, None)), turn=0)
    game.play("bid 3", "bid 9", "bid 12", "pass", "pass", "place 0")
    assert game.state.points == [5, 6, 7 + 2]  # only the winner's dish scores: its 2 skulls
