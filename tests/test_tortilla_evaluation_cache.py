"""The pan evaluation ``careful`` plays by (``features.PositionEvaluator``) keeps each pan's worth
(``features._PAN_WORTHS``) and changes only the pans a play touches; it gives the same floats as the evaluation
written out from scratch (``reference_evaluation``): the position, every play on every pan with and without
steals, every card's gain, from every seat's outlook (the Kids' menu's XL decay too), at every step of careful and
random games in every menu and player count, positions reloaded from their state dict. The cards a seat has not
seen, as careful's draw counts them (``features.unseen_pool``), are the observation's (``unseen_counts``)."""

from __future__ import annotations

import numpy as np
import pytest

from fiesta_envs.policies.policy import RandomPolicy
from fiesta_envs.tortilla import features
from fiesta_envs.tortilla.baselines import KIDS_XL_DECAY, CarefulChef
from fiesta_envs.tortilla.components import NUM_CARD_TYPES
from fiesta_envs.tortilla.features import after_play, card_gain, outlook, position_value, unseen_pool
from fiesta_envs.tortilla.game import TortillaDePatatas
from fiesta_envs.tortilla.observation import unseen_counts
from fiesta_envs.tortilla.reference_evaluation import (
    reference_after_play,
    reference_card_gain,
    reference_position_value,
)
from fiesta_envs.tortilla.steals import NUM_PANS, steal_sources

CONFIGURATIONS = [(menu, n) for menu in ("kids", "day", "gourmet") for n in (2, 4)]


def played(menu: str, num_players: int, seed: int):
    """Yield the game before every step: careful chefs (versions 1 and 2) and a random player, the position
    reloaded from its state dict every 5th step."""
    game = TortillaDePatatas(num_players=num_players, seed=seed, menu=menu)
    players = [CarefulChef(seed=seed, version=2), RandomPolicy(seed=seed), CarefulChef(seed=seed + 1, version=1)]
    step = 0
    while not game.is_over:
        if step % 5 == 4:
            game = TortillaDePatatas.from_state_dict(game.state_dict())
        yield game
        p = game.current_player
        game.step(int(players[(p + seed) % len(players)].act(game.observe(p), game.legal_mask(), game, p)))
        step += 1
    yield game


@pytest.mark.parametrize(("menu", "num_players"), CONFIGURATIONS)
def test_the_kept_pan_worths_give_the_reference_values_at_every_step(menu: str, num_players: int) -> None:
    features._PAN_WORTHS.clear()
    steps = steals = 0
    for seed in (0, 1, 2):
        for game in played(menu, num_players, seed):
            pans = game.state.pans
            for player in range(num_players):
                assert unseen_pool(game, player, memory=True) == unseen_counts(game, player)  # careful's draw reads it
                for view in {outlook(game, player), outlook(game, player)._replace(xl_decay=KIDS_XL_DECAY)}:
                    assert position_value(pans, view) == reference_position_value(pans, view)
                    for card in range(NUM_CARD_TYPES):
                        assert card_gain(pans, card, view) == reference_card_gain(pans, card, view)
                        for target in range(NUM_PANS):
                            for stealing in (False, True):
                                fast = after_play(pans, card, target, view=view, stealing=stealing)
                                assert fast == reference_after_play(pans, card, target, view=view, stealing=stealing)
                            grown = [list(pile) for pile in pans]
                            grown[target].append(card)
                            steals += bool(steal_sources(grown, target))
            steps += 1
    assert steps > 60 and steals > 100
    assert features._PAN_WORTHS  # the values came through the memo


def test_the_careful_chef_plays_the_same_with_the_memo_emptied_at_every_step() -> None:
    """The memo only keeps answers: a chef whose memo is emptied before every decision plays the same game."""
    moves: list[list[int]] = []
    for empty in (False, True):
        game = TortillaDePatatas(num_players=4, seed=3, menu="day")
        chefs = [CarefulChef(seed=3 + s, version=1 + s % 2) for s in range(4)]
        played_moves = []
        while not game.is_over:
            if empty:
                features._PAN_WORTHS.clear()
            p = game.current_player
            action = int(chefs[p].act(game.observe(p), game.legal_mask(), game, p))
            played_moves.append(action)
            game.step(action)
        moves.append(played_moves)
    assert moves[0] == moves[1] and len(moves[0]) > 50
    assert np.asarray(moves[0]).size == len(moves[0])
