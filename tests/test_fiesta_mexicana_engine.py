"""Fiesta Mexicana engine contract: options, determinism, state dicts, masks, observations, speed."""

from __future__ import annotations

import copy
import json

import numpy as np
import pytest
from fiesta_mexicana_positions import card, card_with, objective, position

from fiesta_envs.core.errors import IllegalActionError, InvalidOptionError, InvalidStateError
from fiesta_envs.fiesta_mexicana import actions
from fiesta_envs.fiesta_mexicana import observation as O
from fiesta_envs.fiesta_mexicana.components import DISH_CARDS
from fiesta_envs.fiesta_mexicana.game import FiestaMexicana

CONFIGS = [(n, v) for n in (2, 3, 4) for v in ("standard", "confirmed_waiters")]


def random_game(n: int, variant: str, seed: int, stop_after: int | None = None) -> tuple[FiestaMexicana, list[int]]:
    game = FiestaMexicana(num_players=n, seed=seed, variant=variant)
    rng = np.random.default_rng(seed + 1000)
    played = []
    while not game.is_over and (stop_after is None or len(played) < stop_after):
        legal = np.flatnonzero(game.legal_mask())
        action = int(legal[rng.integers(len(legal))])
        game.step(action)
        played.append(action)
    return game, played


# ---------------------------------------------------------------------------------- options
def test_options_and_player_counts_are_checked():
    with pytest.raises(InvalidOptionError, match="variant"):
        FiestaMexicana(variant="expert")
    with pytest.raises(InvalidOptionError, match="num_players"):
        FiestaMexicana(num_players=5)
    with pytest.raises(InvalidOptionError, match="reward"):
        FiestaMexicana(reward="points")
    assert FiestaMexicana().num_players == 2


def test_action_names_round_trip_and_follow_the_rulings():
    game = FiestaMexicana(seed=0)
    names = game.action_names()
    assert len(names) == game.num_actions == 90
    for action, name in enumerate(names):
        assert game.string_to_action(name) == action
    for name in ("orient 1 3", "keep 0 2 4", "bid 16", "pass", "reserve 9 drop 2", "place 3", "rotate none"):
        assert name in names


# ---------------------------------------------------------------------------------- whole games
@pytest.mark.parametrize(("n", "variant"), CONFIGS)
def test_random_games_end_with_a_full_table_before_the_deck_runs_out(n, variant):
    for seed in range(15):
        game, _ = random_game(n, variant, seed)
        assert max(sum(c >= 0 for c in row) for row in game.state.cards) == 16
        assert game.state.deck, "the deck never runs out first"
        scores = game.scores()
        assert (scores >= 0).all()
        info = game.final_info()
        assert info["final_scores"] == scores.astype(int).tolist()
        assert len(info["objectives"]) == n


def test_cards_are_conserved_through_a_game():
    game, _ = random_game(3, "standard", 4, stop_after=120)
    on_tables = [c for row in game.state.cards for c in row if c >= 0]
    everything = on_tables + game.state.deck + ([game.state.offer] if game.state.offer >= 0 else [])
    assert sorted(everything) == list(range(len(DISH_CARDS)))


def test_same_seed_same_actions_same_game():
    first, played = random_game(3, "standard", 11)
    second = FiestaMexicana(num_players=3, seed=11)
    for action in played:
        second.step(action)
    assert second.state_dict() == first.state_dict()
    other = FiestaMexicana(num_players=3, seed=12)
    assert other.state_dict()["state"]["deck"] != FiestaMexicana(num_players=3, seed=11).state_dict()["state"]["deck"]


@pytest.mark.parametrize(("n", "variant"), CONFIGS)
def test_state_dict_round_trip_mid_game_continues_identically(n, variant):
    game, _ = random_game(n, variant, 7, stop_after=60)
    saved = json.loads(json.dumps(game.state_dict()))
    copy_game = FiestaMexicana.from_state_dict(saved)
    assert copy_game.state_dict() == game.state_dict()
    assert (copy_game.observe(1) == game.observe(1)).all()
    rng = np.random.default_rng(3)
    while not game.is_over:
        assert (copy_game.legal_mask() == game.legal_mask()).all()
        legal = np.flatnonzero(game.legal_mask())
        action = int(legal[rng.integers(len(legal))])
        game.step(action)
        copy_game.step(action)
    assert copy_game.state_dict() == game.state_dict()
    assert copy_game.scores().tolist() == game.scores().tolist()


def test_state_dict_during_setup_round_trips():
    game = FiestaMexicana(num_players=2, seed=2)
    game.play("orient 0 3")
    copy_game = FiestaMexicana.from_state_dict(json.loads(json.dumps(game.state_dict())))
    assert copy_game.legal_action_names() == ["orient 1 0", "orient 1 1", "orient 1 2", "orient 1 3"]
    copy_game.play("orient 1 0")
    game.play("orient 1 0")
    assert copy_game.state_dict() == game.state_dict()


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda s: s.update(phase="lunch"), "'phase': expected one of 'orient'"),
        (lambda s: s["cards"].pop(), "'cards': expected a list of 2 entries"),
        (lambda s: s["cards"][0].__setitem__(0, 99), "cards"),
        (lambda s: s["deck"].append(s["deck"][0]), "appears twice"),
        (lambda s: s.update(turn=7), "turn"),
        (lambda s: s.update(passed=[0, 1]), "passed"),
        (lambda s: s["rotations"][0].__setitem__(0, 2), "rotation"),
        (lambda s: s.update(offer=-1), "dish on offer"),
        (lambda s: s.update(points="many"), "'points': expected a list"),
        (lambda s: s.update(phase="place", high_bid=3, high_bidder=1), "winner must place"),
        (lambda s: s.update(phase="rotate", rotation_queue=[1]), "rotation queue"),
        (lambda s: s.update(phase="keep"), "5 cards dealt"),
        (lambda s: s.update(high_bid=5), "needs its bidder"),
        (lambda s: s.update(high_bid=5, high_bidder=0), "does not bid again"),
    ],
)
def test_malformed_state_dicts_are_refused(mutate, message):
    game = position(2, turn=0)
    data = copy.deepcopy(game.state_dict())
    mutate(data["state"])
    with pytest.raises(InvalidStateError, match=message):
        FiestaMexicana(num_players=2).load_state_dict(data)


def test_a_refused_state_leaves_the_game_unchanged():
    game = position(2, turn=0)
    before = game.state_dict()
    data = copy.deepcopy(before)
    data["state"]["deck"].append(data["state"]["deck"][0])
    with pytest.raises(InvalidStateError):
        game.load_state_dict(data)
    assert game.state_dict() == before


# ---------------------------------------------------------------------------------- masks
def test_mask_is_cached_until_the_state_changes():
    game = position(2, turn=0)
    mask = game.legal_mask()
    assert mask.dtype == np.int8 and mask.shape == (90,)
    assert game.legal_mask() is mask
    game.play("bid 5")
    assert game.legal_mask() is not mask
    assert game.legal_mask()[actions.PASS] == 1 and game.legal_mask()[actions.bid_action(5)] == 0


def test_every_masked_action_is_accepted_and_every_other_refused():
    game, _ = random_game(3, "standard", 5, stop_after=40)
    mask = game.legal_mask().copy()
    for action in range(game.num_actions):
        trial = FiestaMexicana.from_state_dict(game.state_dict())
        if mask[action]:
            trial.step(action)
        else:
            with pytest.raises(IllegalActionError):
                trial.step(action)


# ---------------------------------------------------------------------------------- observations
@pytest.mark.parametrize(("n", "variant"), CONFIGS)
def test_observations_have_the_documented_size_and_bounds(n, variant):
    game, _ = random_game(n, variant, 9, stop_after=50)
    assert game.observation_size == 441 * n + 191 == O.observation_layout(n).size
    for player in range(n):
        obs = game.observe(player)
        assert obs.dtype == np.float32 and obs.shape == (game.observation_size,)
        assert obs.min() >= 0.0 and obs.max() <= 1.0


def test_observation_shows_own_table_first_in_the_current_view():
    tostada = card_with("tostada", half="green")
    game = position(2, tables={1: {1: (tostada, 0)}}, orientation=[0, 1], turn=0)
    obs = game.observe(1)
    view = 0  # the space player 1 reads as 1
    space = obs[view * O.PER_SPACE : (view + 1) * O.PER_SPACE]
    assert space[DISH_CARDS[tostada].dish] == 1 and space[O.COVERED] == 1
    assert space[O.NUMBER] == pytest.approx(1 / 16)
    assert obs[16 * O.PER_SPACE + 1] == 1  # player 1's table is turned once to the left
    other = game.observe(0)
    block = other[O.TABLE_SIZE : 2 * O.TABLE_SIZE]  # player 1 seen by player 0: the second table
    assert (block == obs[: O.TABLE_SIZE]).all()


def edges_seen(obs: np.ndarray, number: int) -> np.ndarray:
    """The (direction, colour) one-hot of the space reading ``number`` on the observer's table."""
    start = (number - 1) * O.PER_SPACE + 7
    return obs[start : start + 16].reshape(4, 4)


def test_observation_edges_are_in_the_owners_view():
    tostada = card_with("tostada", half="green")  # green north as printed
    game = position(2, tables={0: {6: (tostada, 1)}}, turn=0)  # turned once clockwise: green faces east
    assert edges_seen(game.observe(0), 6)[1, 0] == 1  # east, green
    data = game.state_dict()
    data["state"]["orientation"][0] = 1  # the table turned a quarter left: that space reads 10,
    game.load_state_dict(data)  # and the card's east edge faces north
    assert edges_seen(game.observe(0), 10)[0, 0] == 1
    assert edges_seen(game.observe(0), 10).sum() == sum(e >= 0 for e in DISH_CARDS[tostada].edges)


def test_observation_hides_other_players_objectives_but_counts_them():
    secret = [objective("line of 3"), objective("6 bowls"), -1]
    game = position(2, objectives={1: secret}, turn=0)
    other = position(2, objectives={1: [objective("teens", "tacos"), objective("square of 4"), -1]}, turn=0)
    assert (game.observe(0) == other.observe(0)).all()
    assert not (game.observe(1) == other.observe(1)).all()
    assert game.observer.decode(game.observe(0))["objectives_held"][1] == pytest.approx(2 / 5)


def test_observation_shows_the_hand_being_kept_and_both_own_start_cards_while_orienting():
    game = FiestaMexicana(num_players=2, seed=1)
    for seat in (0, 1):  # everybody sees their own two start cards from the deal, whoever orients
        start_cards = game.observer.decode(game.observe(seat))["start_cards"].reshape(2, O.OFFER_SIZE)
        for i, start_card in enumerate(game.state.start_cards[seat]):
            assert start_cards[i, 0] == 1 and start_cards[i, 1 + DISH_CARDS[start_card].dish] == 1
    assert not game.observer.decode(game.observe(0))["offer"].any()  # no dish on offer during setup
    second = game.state.start_cards[0][1]
    game.play("orient 0 0")  # the first goes on the table, the second is still in hand
    start_cards = game.observer.decode(game.observe(0))["start_cards"].reshape(2, O.OFFER_SIZE)
    assert not start_cards[0].any() and start_cards[1, 1 + DISH_CARDS[second].dish] == 1
    game.play("orient 1 0", "orient 0 0", "orient 1 0")
    slots = game.observer.decode(game.observe(0))["objective_slots"].reshape(5, 18)
    assert slots.sum() == 5
    assert (slots.argmax(axis=1) == game.state.hands[0]).all()


# ---------------------------------------------------------------------------------- rendering and speed
def test_render_text_shows_every_table_within_100_columns():
    game, _ = random_game(4, "standard", 3, stop_after=80)
    text = game.render_text()
    assert all(len(line) <= 100 for line in text.splitlines())
    assert text.count("player ") >= 4


def test_render_text_shows_who_bid_what_in_this_auction_until_the_next_one():
    game = position(3, offer=card_with("tacos"), turn=0)
    game.play("bid 3", "bid 5", "pass", "bid 9")
    assert "bids this auction: player 0 3, 9; player 1 5; player 2 -" in game.render_text()
    game.play("pass", "pass", "place 0")
    assert "bids this auction: player 0 3, 9; player 1 5; player 2 -" in game.render_text()  # while tables turn
    game.play("rotate left", "rotate none")  # the next auction starts
    assert "bids this auction" not in game.render_text()


def test_render_text_shows_who_chose_a_table_turn_and_only_its_owner_sees_which():
    from fiesta_envs.render import private_lines

    game = position(3, offer=card_with("tacos"), turn=0)
    game.play("bid 7", "pass", "pass", "place 0")
    assert "table turns chosen: nobody yet; still to choose: player 1, player 2" in game.render_text()
    other = FiestaMexicana.from_state_dict(game.state_dict())
    game.play("rotate left")
    other.play("rotate right")
    assert "table turns chosen: player 1; still to choose: player 2" in game.render_text()
    assert game.render_text() == other.render_text()  # which turn is not told
    assert "your table turn, applied when everybody has chosen: left" in private_lines(game, 1)
    assert not any("table turn" in line for line in private_lines(game, 2))
    game.play("rotate right")
    assert "table turns chosen" not in game.render_text()


def test_render_text_hides_start_cards_and_points_until_everybody_has_oriented():
    from fiesta_envs.render import private_lines

    game = FiestaMexicana(num_players=2, seed=2)
    game.play("orient 0 1", "orient 1 2")  # seat 0 is done, seat 1 orients now
    text = game.render_text()
    assert "? points" in text and "0 points" not in text and text.count("?????????") == 2  # seat 0's two cards
    dish = DISH_CARDS[game.state.cards[0][5]].dish_name
    assert dish not in text
    own = private_lines(game, 0)[0]
    assert own.startswith("your start cards: space 6: " + dish) and "turned 1x clockwise" in own
    assert "to orient" in private_lines(game, 1)[0]
    game.play("orient 0 0", "orient 1 0")
    assert "?" not in game.render_text()


def test_variant_penalty_spaces_are_observed_where_the_owner_sees_them():
    game = position(2, variant="confirmed_waiters", orientation=[1, 0], turn=0)
    obs = game.observe(0)
    penalties = {v + 1: obs[v * O.PER_SPACE + O.PENALTY] * 5 for v in range(16) if obs[v * O.PER_SPACE + O.PENALTY]}
    # spaces reading 6, 11, 16 at the start read 10, 7 and 4 after a left turn
    assert penalties == pytest.approx({10: 5.0, 7: 5.0, 4: 3.0})
    assert not any(position(2, turn=0).observe(0)[v * O.PER_SPACE + O.PENALTY] for v in range(16))


def test_public_module_plays_a_game_and_reveals_objectives_at_the_end():
    from fiesta_envs import fiesta_mexicana_v1

    env = fiesta_mexicana_v1.env(num_players=3, variant="confirmed_waiters")
    env.reset(seed=4)
    rng = np.random.default_rng(0)
    for _agent in env.agent_iter():
        observation, _reward, termination, truncation, _info = env.last()
        if termination or truncation:
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        env.step(int(legal[rng.integers(len(legal))]))
    final = env.unwrapped.final_info()
    assert len(final["objectives"]) == 3 and len(final["objective_points"]) == 3


@pytest.mark.parametrize("orientation", [0, 1, 2, 3])
@pytest.mark.parametrize("rotation", [0, 1, 3])
def test_place_turns_the_dish_in_the_placers_current_view(orientation, rotation):
    offer = card_with("tacos", half="green")
    game = position(2, orientation=[orientation, 0], offer=offer, turn=0)
    game.play("bid 7", "pass", f"place {rotation}")
    printed = DISH_CARDS[offer].edges
    seen = edges_seen(game.observe(0), 7)
    for direction in range(4):
        colour = printed[(direction - rotation) % 4]  # R clockwise quarter turns, as the player sees it
        assert seen[direction].tolist() == [float(colour == c) for c in range(4)]


def test_observation_does_not_depend_on_the_deck_order_or_others_dealt_hands():
    """Hidden information: the order of the dish deck, and the five objectives another player keeps from."""
    game = FiestaMexicana(num_players=3, seed=8, variant="confirmed_waiters")  # keeping objectives
    data = game.state_dict()
    data["state"]["deck"] = data["state"]["deck"][::-1]
    hands = data["state"]["hands"]
    hands[1], hands[2] = hands[2], hands[1]
    other = FiestaMexicana(num_players=3, variant="confirmed_waiters")
    other.load_state_dict(data)
    assert np.array_equal(game.observe(0), other.observe(0))
    assert not np.array_equal(game.observe(1), other.observe(1))


def test_observation_blocks_follow_the_documented_layout_in_relative_seats():
    offer = card("tacos", 1, ("green", "brown", None, "white"))
    mine = [objective("children", "tacos"), -1, objective("6 bowls")]
    game = position(3, objectives={1: mine, 2: [objective("line of 3"), -1, -1]}, offer=offer,
                    points=[10, 20, 150], turn=0)  # fmt: skip
    game.play("bid 3", "pass", "bid 5", "pass")  # player 2 is high bidder, player 0 passed since
    blocks = game.observer.decode(game.observe(1))  # seen by player 1: seats 1, 2, 0
    assert blocks["offer"][0] == 1 and blocks["offer"][1 + DISH_CARDS[offer].dish] == 1
    halves = blocks["offer"][8:24].reshape(4, 4)  # as printed: N green, E brown, S none, W white
    assert halves.tolist() == [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 0, 0], [0, 0, 1, 0]]
    assert blocks["high_bid"][0] == pytest.approx(5 / 16)
    assert blocks["high_bidder"].tolist() == [0, 1, 0]
    assert blocks["passed"].tolist() == [0, 0, 1]  # player 1's earlier pass does not count any more
    bids = blocks["bids"].reshape(3, 16)  # who bid what in this auction: player 2 bid 5, player 0 bid 3
    assert bids[0].sum() == 0 and bids[1].nonzero()[0].tolist() == [4] and bids[2].nonzero()[0].tolist() == [2]
    assert blocks["to_act"].tolist() == [1, 0, 0]
    assert blocks["phase"].tolist() == [0, 0, 1, 0, 0, 0]
    assert blocks["points"].tolist() == pytest.approx([0.2, 1.0, 0.1])  # clipped at 100
    slots = blocks["objective_slots"].reshape(5, 18)
    assert slots[0, mine[0]] == 1 and slots[1].sum() == 0 and slots[2, mine[2]] == 1 and slots[3:].sum() == 0
    assert blocks["objectives_held"].tolist() == pytest.approx([2 / 5, 1 / 5, 0])
    assert blocks["deck"][0] == pytest.approx(len(game.state.deck) / 66)
    over = position(2, phase="over", turn=-1)
    assert over.observer.decode(over.observe(0))["phase"].tolist() == [0, 0, 0, 0, 0, 1]
