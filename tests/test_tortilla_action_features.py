"""Tortilla de Patatas: the action-aligned features (option ``action_features``)."""

from __future__ import annotations

import numpy as np
import pytest
from test_tortilla_engine import hide_differently
from tortilla_positions import position

from fiesta_envs import tortilla_de_patatas_v1
from fiesta_envs.tortilla import features as F
from fiesta_envs.tortilla.actions import (
    DRAW_DOOR,
    STEAL_BASE,
    decode_steal,
    play_action,
    serve_action,
    start_action,
)
from fiesta_envs.tortilla.baselines import CarefulChef
from fiesta_envs.tortilla.components import CARD_TYPE_INDEX
from fiesta_envs.tortilla.game import TortillaDePatatas
from fiesta_envs.tortilla.observation import INFORMATION_STATE_SIZE, observation_size
from fiesta_envs.tortilla.state import Phase

MODES = ("information_state", "observation")
CONFIGS = [(n, menu) for n in (2, 4) for menu in ("kids", "day", "gourmet")]
M_PERFECT = ["potato", "potato", "potato", "egg", "egg", "onion"]
XL_PERFECT = ["potato"] * 6 + ["egg"] * 3 + ["onion"] * 2


def with_options(game: TortillaDePatatas, **options: object) -> TortillaDePatatas:
    """The same position in a game made with other options."""
    data = game.state_dict()
    data["options"] = {**data["options"], **options}
    return TortillaDePatatas.from_state_dict(data)


def play_entry(features: np.ndarray, action: str, name: str) -> float:
    card, pan = action.removeprefix("play ").split(" on ")
    index = play_action(CARD_TYPE_INDEX[card], int(pan))
    return float(features[F.PLAYS_AT + index * F.PLAY_FEATURES + F.PLAY_FEATURE_NAMES.index(name)])


def serve_entries(features: np.ndarray, pan: int, size: int, diners: int) -> list[float]:
    at = F.SERVES_AT + (serve_action(pan, size, diners) - serve_action(0, 0, 1)) * F.SERVE_FEATURES
    return features[at : at + F.SERVE_FEATURES].tolist()


def pan_entry(features: np.ndarray, slot: int, name: str) -> float:
    return float(features[F.PANS_AT + slot * F.PAN_FEATURES + F.PAN_FEATURE_NAMES.index(name)])


# ---------------------------------------------------------------- sizes, bounds, the plain part
def test_sizes() -> None:
    assert F.ACTION_FEATURES_SIZE == 447
    assert F.DRAWS_AT + F.DRAW_FEATURES == F.ACTION_FEATURES_SIZE
    for mode, plain in (
        ("information_state", INFORMATION_STATE_SIZE),
        ("observation", observation_size("observation")),
    ):
        off = TortillaDePatatas(observation=mode)
        on = TortillaDePatatas(observation=mode, action_features=True)
        assert off.observation_size == plain and on.observation_size == plain + 447
        assert on.action_features_size == 447 == len(off.action_features(0)) and off.action_features_size == 0
    assert TortillaDePatatas.options["action_features"].default is False


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(("num_players", "menu"), CONFIGS)
def test_features_in_bounds_and_the_plain_part_unchanged(num_players: int, menu: str, mode: str) -> None:
    for seed in range(3):
        plain = TortillaDePatatas(num_players=num_players, seed=seed, menu=menu, observation=mode)
        extended = TortillaDePatatas(
            num_players=num_players, seed=seed, menu=menu, observation=mode, action_features=True
        )
        chefs = [CarefulChef(seed=seed + s) for s in range(num_players)]
        rng = np.random.default_rng(seed)
        while True:
            for seat in range(num_players):
                features = plain.action_features(seat)
                assert features.dtype == np.float32 and features.shape == (447,)
                assert features.min() >= 0.0 and features.max() <= 1.0
                seen = extended.observe(seat)
                assert seen.dtype == np.float32 and seen.shape == (extended.observation_size,)
                assert seen[: plain.observation_size].tobytes() == plain.observe(seat).tobytes()
                assert seen[plain.observation_size :].tobytes() == features.tobytes()
            if plain.is_over:
                assert extended.is_over
                break
            p = plain.current_player
            if seed == 0:  # one random game, the others careful (fuller pans, more steals)
                action = int(rng.choice(plain.legal_actions()))
            else:
                action = chefs[p].act(None, plain.legal_mask(), plain, p)
            plain.step(action)
            extended.step(action)
        assert plain.state_dict()["state"] == extended.state_dict()["state"]


def test_observe_with_features_returns_a_fresh_array() -> None:
    game = TortillaDePatatas(seed=3, action_features=True)
    first = game.observe(0)
    first[:] = 7.0
    assert game.observe(0).max() <= 1.0 and game.observe(0) is not game.observe(0)


def test_the_aec_env_with_features() -> None:
    env = tortilla_de_patatas_v1.env(action_features=True)
    env.reset(seed=1)
    space = env.observation_space("player_0")["observation"]
    assert space.shape == (753,)
    observation = env.last()[0]["observation"]
    assert space.contains(observation)


# ---------------------------------------------------------------- what the entries say
def test_a_known_perfect_m_reads_perfect_plus_d_and_a_bad_xl() -> None:
    game = position(hands=[["egg"] * 3, ["potato"] * 3], pans=[[["egg"], M_PERFECT, []], [[], [], []]])
    features = game.action_features(0)
    for diners in (1, 2, 3):
        assert serve_entries(features, 1, 0, diners) == pytest.approx([(diners + 6) / 12, 1.0, 1.0])
        assert serve_entries(features, 1, 1, diners) == pytest.approx([(-2 * diners + 6) / 12, 0.0, 0.0])
        assert serve_entries(features, 2, 0, diners) == [0.5, 0.0, 0.0]  # an empty pan
    assert pan_entry(features, 1, "M surely perfect") == 1.0 and pan_entry(features, 1, "M missing") == 0.0
    assert pan_entry(features, 0, "M missing") == pytest.approx(5 / 11)  # one egg: 3 potatoes, egg, onion to go


def test_a_perfect_xl_doubles() -> None:
    game = position(hands=[["egg"] * 3, ["potato"] * 3], pans=[[XL_PERFECT, [], []], [[], [], []]])
    features = game.action_features(0)
    assert serve_entries(features, 0, 1, 3) == pytest.approx([(6 + 6) / 12, 1.0, 1.0])
    assert serve_entries(features, 0, 0, 3) == pytest.approx([(-3 + 6) / 12, 0.0, 0.0])


def test_wildcards_count_as_any_of_their_ingredients() -> None:
    pile = ["potato", "potato", "potato", "egg", "onion"]
    game = position(hands=[["potato+egg", "onion", "egg+onion"], ["potato"] * 3], pans=[[pile, [], []], NO_THEIRS])
    features = game.action_features(0)
    for card in ("potato+egg", "egg+onion"):  # either completes the M as an egg
        assert play_entry(features, f"play {card} on 0", "M possible") == 1.0
        assert play_entry(features, f"play {card} on 0", "M missing") == 0.0
    assert play_entry(features, "play onion on 0", "M possible") == 0.0  # a second onion spoils the M
    assert play_entry(features, "play onion on 0", "XL possible") == 1.0


NO_THEIRS: list[list[str]] = [[], [], []]


def test_a_play_that_makes_the_pan_impossible_reads_infeasible() -> None:
    pile = ["egg", "egg", "egg", "onion"]
    game = position(hands=[["egg", "potato", "onion"], ["potato"] * 3], pans=[[pile, [], []], NO_THEIRS])
    features = game.action_features(0)
    egg = "play egg on 0"  # four eggs: more than any recipe
    assert play_entry(features, egg, "M possible") == 0.0 and play_entry(features, egg, "XL possible") == 0.0
    assert play_entry(features, egg, "M missing") == 1.0 and play_entry(features, egg, "XL missing") == 1.0
    assert play_entry(features, egg, "pan value") == pytest.approx(0.0)  # a dead pan: -1
    potato = "play potato on 0"
    assert play_entry(features, potato, "XL possible") == 1.0 and play_entry(features, potato, "M possible") == 0.0
    assert play_entry(features, potato, "XL missing") == pytest.approx(5 / 11)  # 4 potatoes, 1 onion
    assert play_entry(features, potato, "rank") == 1.0 and play_entry(features, egg, "rank") < 0.5
    assert play_entry(features, egg, "value") < play_entry(features, potato, "value")
    # the cards not in hand are not described
    assert play_entry(features, "play potato+egg on 0", "value") == 0.0


def test_a_steal_from_the_other_team_reads_as_one() -> None:
    their_pile = ["potato", "potato", "potato", "egg", "onion", "egg"]  # a perfect M, egg on top
    game = position(hands=[["egg", "onion", "onion"], ["potato"] * 3], pans=[[["onion"], [], []], [their_pile, [], []]])
    features = game.action_features(0)
    steal = "play egg on 0"
    assert play_entry(features, steal, "steals") == 1.0 and play_entry(features, steal, "steals theirs") == 1.0
    # their perfect M loses its second egg: worth 2 -> 1.4
    assert play_entry(features, steal, "robbed worth") == pytest.approx((0.6 + 5) / 10)
    own = "play onion on 1"  # their top is an egg: the onion steals the onion of player_0's pan 0
    assert play_entry(features, own, "steals") == 1.0 and play_entry(features, own, "steals theirs") == 0.0
    assert play_entry(features, "play onion on 0", "steals") == 0.0  # not from the pan played on
    assert pan_entry(features, 3, "top stealable") == 1.0  # player_0 holds an egg
    assert play_entry(features, steal, "rank") == 1.0


def test_leaving_a_plain_card_on_top_is_exposed_and_a_wildcard_is_not() -> None:
    game = position(
        hands=[["potato", "potato+onion", "egg"], ["potato"] * 3],
        pans=[[["egg", "egg", "onion"], ["egg"], ["onion"]], [[], [], []]],
    )
    features = game.action_features(0)
    assert 0.0 < play_entry(features, "play potato on 0", "exposed") <= 1.0
    assert play_entry(features, "play potato on 0", "exposure") > 0.0
    assert play_entry(features, "play potato+onion on 0", "exposed") == 0.0
    assert play_entry(features, "play potato+onion on 0", "exposure") == 0.0
    # careful covers with the wildcard (tests/test_tortilla_baselines.py); the rank says so
    assert play_entry(features, "play potato+onion on 0", "rank") == 1.0


def test_a_card_seen_taken_from_the_door_makes_the_exposure_certain() -> None:
    hands = [["potato", "potato+onion", "egg"], ["potato", "egg", "onion"]]
    pans = [[["egg", "egg", "onion"], [], []], [[], [], []]]
    unknown = position(hands=hands, pans=pans)
    known = position(hands=hands, pans=pans, known=[[], ["potato"]])
    assert play_entry(unknown.action_features(0), "play potato on 0", "exposed") < 1.0
    assert play_entry(known.action_features(0), "play potato on 0", "exposed") == 1.0
    # from the table only, the door history is not known
    table = with_options(known, observation="observation")
    assert play_entry(table.action_features(0), "play potato on 0", "exposed") < 1.0


def test_the_steal_choice_and_the_start_are_ranked() -> None:
    their = ["potato", "potato", "potato", "egg", "onion", "egg"]
    game = position(hands=[["egg"] * 3, ["potato"] * 3], pans=[[["onion"], [], []], [their, [], ["egg"] * 4]])
    game.play("play egg on 1")
    assert game.state.phase == Phase.STEAL
    features = game.action_features(0)
    ranks = {game.action_to_string(a): features[F.STEALS_AT + (a - STEAL_BASE) * 2 + 1] for a in game.legal_actions()}
    assert ranks == {"steal from theirs 0": 1.0, "steal from theirs 2": 0.0}  # hurt the perfect M
    setup = TortillaDePatatas(seed=2, menu="day")
    features = setup.action_features(0)
    legal = [a - start_action(0) for a in setup.legal_actions()]
    assert max(features[F.STARTS_AT + 2 * card + 1] for card in legal) == 1.0
    assert all(features[F.STARTS_AT + 2 * card + 1] == 0.0 for card in range(7) if card not in legal)


def test_only_the_player_to_act_gets_the_decision_blocks() -> None:
    game = position(hands=[["egg", "potato", "onion"], ["potato"] * 3], pans=[[["egg"], [], []], NO_THEIRS])
    waiting = game.action_features(1)
    assert not waiting[F.PLAYS_AT :].any()
    assert waiting[: F.PLAYS_AT].any()  # its pans and serves are described
    assert game.action_features(0)[F.PLAYS_AT : F.STEALS_AT].any()


def test_observation_mode_knows_only_the_top_cards() -> None:
    m_under_an_onion = ["potato", "potato", "potato", "egg", "egg", "onion"]
    other_under_an_onion = ["egg", "egg", "egg", "egg", "potato", "onion"]
    games = [
        position(hands=[["egg"] * 3, ["potato"] * 3], pans=[[pile, [], []], NO_THEIRS], deck_top=[])
        for pile in (m_under_an_onion, other_under_an_onion)
    ]
    memory = [game.action_features(0) for game in games]
    assert serve_entries(memory[0], 0, 0, 3)[1] == 1.0 and serve_entries(memory[1], 0, 0, 3)[0] < 0.5
    table = [with_options(game, observation="observation").action_features(0) for game in games]
    assert table[0].tobytes() == table[1].tobytes()  # the same tops and heights: the same features
    assert serve_entries(table[0], 0, 0, 3) == [0.5, 0.0, 1.0]  # not known: 0 points, may be perfect
    assert pan_entry(table[0], 0, "M possible") == 1.0


# ---------------------------------------------------------------- honesty
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(("num_players", "menu"), [(2, "day"), (4, "gourmet"), (2, "kids"), (4, "day")])
def test_hidden_cards_do_not_change_the_features(mode: str, num_players: int, menu: str) -> None:
    changed = 0
    for seed in range(3):
        game = TortillaDePatatas(num_players=num_players, seed=seed, menu=menu, observation=mode)
        chefs = [CarefulChef(seed=seed + s) for s in range(num_players)]
        step = 0
        while not game.is_over:
            if step % 5 == 0:
                for viewer in range(num_players):
                    other = hide_differently(game, viewer, seed=step)
                    changed += other.state_dict()["state"]["hands"] != game.state_dict()["state"]["hands"]
                    assert other.action_features(viewer).tobytes() == game.action_features(viewer).tobytes()
            p = game.current_player
            game.step(chefs[p].act(None, game.legal_mask(), game, p))
            step += 1
    assert changed  # the test did hide something


def test_changing_only_the_opponents_hand_leaves_the_features_unchanged() -> None:
    pans = [[["egg", "egg", "onion"], ["potato"], []], [["egg"], ["potato", "onion"], []]]
    base = dict(pans=pans, deck_top=["onion", "egg", "potato"])
    a = position(hands=[["potato", "egg", "onion"], ["potato", "potato", "potato"]], **base)
    b = position(hands=[["potato", "egg", "onion"], ["egg", "onion", "potato+egg"]], **base)
    for mode in MODES:
        assert (
            with_options(a, observation=mode).action_features(0).tobytes()
            == with_options(b, observation=mode).action_features(0).tobytes()
        )
    assert a.action_features(1).tobytes() != b.action_features(1).tobytes()  # its own hand matters


# ---------------------------------------------------------------- agreement with careful
@pytest.mark.parametrize("menu", ["kids", "day", "gourmet"])
def test_careful_plays_a_best_ranked_action(menu: str) -> None:
    """The features say what careful weighs: its choice always reads as the best (rank 1). (The first version:
    the second also closes out won games and, in the Kids' menu, values pans past an M more.)"""
    for seed in range(4):
        game = TortillaDePatatas(num_players=2 + 2 * (seed % 2), seed=seed, menu=menu)
        chefs = [CarefulChef(seed=seed + s, version=1) for s in range(game.num_players)]
        while not game.is_over:
            p = game.current_player
            features = game.action_features(p)
            action = chefs[p].act(None, game.legal_mask(), game, p)
            name = game.action_to_string(action)
            if game.legal_mask().sum() > 1:
                if name.startswith("play") and not features[F.PLAYS_AT + action * 13 + 12]:
                    assert features[F.PLAYS_AT + action * F.PLAY_FEATURES + 1] == 1.0, name
                elif name.startswith("serve"):
                    assert serve_entries(features, *_serve_args(name))[1] == 1.0
                elif name.startswith("steal"):
                    theirs, pan = decode_steal(action)
                    assert features[F.STEALS_AT + (3 * theirs + pan) * 2 + 1] == 1.0
                elif name.startswith("start"):
                    assert features[F.STARTS_AT + (action - start_action(0)) * 2 + 1] == 1.0
                elif name.startswith("draw") and game.legal_mask()[DRAW_DOOR] and game.deck_size:
                    assert features[F.DRAWS_AT + 3] == float(name == "draw door")
            game.step(action)


def _serve_args(name: str) -> tuple[int, int, int]:
    _, pan, size, _, diners = name.split()
    return int(pan), ("M", "XL").index(size), int(diners)


def test_state_dicts_list_the_option_only_when_on() -> None:
    off, on = TortillaDePatatas(seed=5), TortillaDePatatas(seed=5, action_features=True)
    assert "action_features" not in off.state_dict()["options"]  # as saved before the option existed
    assert on.state_dict()["options"]["action_features"] is True
    assert TortillaDePatatas.from_state_dict(off.state_dict()).config["action_features"] is False
    copy = TortillaDePatatas.from_state_dict(on.state_dict())
    assert copy.observe(0).tobytes() == on.observe(0).tobytes()
    with_flag = off.state_dict()
    with_flag["options"]["action_features"] = False  # listed explicitly: also fine
    off.load_state_dict(with_flag)
    with pytest.raises(Exception, match="options"):
        on.load_state_dict(off.state_dict())
