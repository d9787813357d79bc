"""``fiesta play`` explains itself (issue 22): grouped menus, filtering by a beginning, previews,
decision hints, moves told from the person's side, one line per opponent's turn, end breakdowns."""

from __future__ import annotations

import io

import numpy as np
import pytest

from fiesta_envs.fiesta_mexicana.components import describe_card
from fiesta_envs.fiesta_mexicana.game import FiestaMexicana
from fiesta_envs.muertos.catrina import LaCatrina
from fiesta_envs.policies.policy import RandomPolicy
from fiesta_envs.tequila.game import Tequila
from fiesta_envs.tools.action_groups import group_actions
from fiesta_envs.tools.guides import decision_hint
from fiesta_envs.tools.narration import Before, narrate
from fiesta_envs.tools.play import WIDTH, PlaySession, _group_line
from fiesta_envs.tools.preview import has_preview
from fiesta_envs.tortilla.game import TortillaDePatatas


def session(game, script: str, seat: int = 0) -> tuple[PlaySession, io.StringIO]:
    out = io.StringIO()
    opponents = {s: ("random", RandomPolicy(seed=s)) for s in range(game.num_players) if s != seat}
    return PlaySession(game, seat, opponents, stdin=io.StringIO(script), stdout=out), out


def flat(text: str) -> str:
    """``text`` with its line wrapping undone (runs of spaces and newlines as one space)."""
    return " ".join(text.split())


def fiesta_mexicana_at(phase: str, seed: int = 3) -> FiestaMexicana:
    """A 2-player game played by first legal actions until seat 0 faces ``phase``."""
    game = FiestaMexicana(num_players=2, seed=seed)
    while not (game.state_dict()["state"]["phase"] == phase and game.current_player == 0):
        game.step(game.legal_actions()[-1] if phase == "place" else game.legal_actions()[0])
    return game


def test_a_long_list_of_actions_is_shown_as_groups_by_first_word() -> None:
    game = fiesta_mexicana_at("auction")
    assert len(game.legal_actions()) > 24
    bids = [name.split()[1] for name in game.legal_action_names() if name.startswith("bid")]
    run, out = session(game, game.legal_action_names()[0] + "\n")
    run.human_turn()
    text = out.getvalue()
    assert f"  bid ({len(bids)}): {', '.join(bids)}" in text
    assert "  reserve (" in text and "each with: drop 0, drop 1, drop 2" in text
    assert max(len(line) for line in text.splitlines()) <= WIDTH


def test_a_shared_beginning_lists_those_actions_with_their_numbers() -> None:
    game = fiesta_mexicana_at("auction")
    run, out = session(game, "")
    legal = game.legal_actions()
    assert run.parse("reserve 13", legal) is None
    names = game.action_names()
    for action in legal:
        if names[action].startswith("reserve 13 "):
            assert f"{legal.index(action) + 1}. {names[action]}" in out.getvalue()
    number = legal.index(game.string_to_action("reserve 13 drop 1")) + 1
    assert run.parse(str(number), legal) == game.string_to_action("reserve 13 drop 1")


def test_the_start_card_being_oriented_is_named() -> None:
    game = FiestaMexicana(num_players=2, seed=3)
    card = game.state_dict()["state"]["start_cards"][0][0]
    run, out = session(game, "orient 0 1\n")
    run.human_turn()
    assert f"now: start card 0 (it goes on the space reading 6): {describe_card(card)}" in flat(out.getvalue())


def test_placement_is_previewed_with_its_points_and_the_won_dish_restated() -> None:
    game = fiesta_mexicana_at("place")
    state = game.state_dict()
    third = game.action_to_string(game.legal_actions()[2])
    run, out = session(game, "preview place 1\n? 3\nplace 1\n")
    run.human_turn()
    text = out.getvalue()
    assert f"you won {describe_card(state['state']['offer'])} with the bid {state['state']['high_bid']}" in flat(text)
    copy = FiestaMexicana.from_state_dict(state)
    copy.play("place 1")
    gained = copy.scores()[0] - FiestaMexicana.from_state_dict(state).scores()[0]
    assert f"preview of 'place 1':\n  player_0 (you): {gained:+g} points" in text
    assert f"preview of '{third}':" in text and "nothing was played" in text
    assert "you: place 1" in text  # previews played nothing: the real move came after them


def test_a_table_turn_names_the_numbers_it_gives() -> None:
    game = fiesta_mexicana_at("rotate")
    run, out = session(game, "rotate none\n")
    run.human_turn()
    text = out.getvalue()
    assert "free spaces by number: none: " in flat(text) and "; left: " in flat(text) and "; right: " in flat(text)


def test_a_choice_that_draws_a_card_gets_no_preview() -> None:
    game = TortillaDePatatas(seed=1)
    while "draw deck" not in game.legal_action_names() or game.current_player != 0:
        game.step(game.legal_actions()[0])
    run, out = session(game, "preview draw deck\ndraw deck\n")
    run.human_turn()
    assert "(no preview for 'draw' in this game; nothing was played)" in out.getvalue()


def tortilla_steal_from_the_viewer() -> tuple[Before, TortillaDePatatas, str]:
    """A seeded random 2-player game up to a move of player_1 that steals a card from team A."""
    for seed in range(200):
        game = TortillaDePatatas(seed=seed)
        rng = np.random.default_rng(seed)
        while not game.is_over:
            before = Before.of(game)
            player = game.current_player
            name = game.action_to_string(int(rng.choice(game.legal_actions())))
            game.play(name)
            lost = [
                len(a) < len(b)
                for a, b in zip(game.state_dict()["state"]["pans"][0], before.state["pans"][0], strict=True)
            ]
            if player == 1 and not name.startswith("serve") and any(lost):
                return before, game, name
    raise AssertionError("no steal from team A in 200 random games")


def test_an_opponents_steal_is_told_from_the_viewers_side() -> None:
    before, game, name = tortilla_steal_from_the_viewer()
    told = narrate(before, game, 1, name, viewer=0)
    after = game.state_dict()["state"]["pans"][0]
    pan = next(p for p, cards in enumerate(before.state["pans"][0]) if len(after[p]) < len(cards))
    assert f"steals the {before.state['pans'][0][pan][-1]} from your pan {pan}" in told
    assert "theirs" not in told
    assert "from team A's pan" in narrate(before, game, 1, name, viewer=None)  # a spectator's words


def test_a_serve_is_told_with_its_points() -> None:
    game = TortillaDePatatas(seed=4)
    while not any(n.startswith("serve") for n in game.legal_action_names()):
        game.step(game.legal_actions()[0])
    player, name = game.current_player, next(n for n in game.legal_action_names() if n.startswith("serve"))
    before = Before.of(game)
    game.play(name)
    gained = game.scores()[player] - before.scores[player]
    pan, size, diners = name.split()[1], name.split()[2], name.split()[4]
    told = narrate(before, game, player, name, viewer=1 - player)
    assert (
        told == f"serves their own pan {pan} as a size-{size} omelette to the {diners}-diner card ({gained:+g} points)"
    )


def test_an_opponents_whole_turn_is_one_line() -> None:
    game = Tequila(num_players=2, seed=2)
    run, out = session(game, "1\n" * 400)
    run.run()
    lines = [line for line in out.getvalue().splitlines() if line.startswith("player_1 (random), ")]
    assert lines and all(" moves: " in line for line in lines) and any("; " in line for line in lines)
    assert all(len(line) <= WIDTH for line in out.getvalue().splitlines() if line.startswith("player_"))


def test_the_end_shows_the_breakdown_and_la_catrina_her_mood() -> None:
    game = FiestaMexicana(num_players=2, seed=5)
    run, out = session(game, "1\n" * 500)
    run.run()
    text = out.getvalue()
    info = game.final_info()
    assert "by seat:" in text
    assert "final scores " + " ".join(str(s) for s in info["final_scores"]) in flat(text)
    assert "objectives" in text
    catrina = LaCatrina(num_players=4, seed=3)
    run, out = session(catrina, "1\n" * 500)
    run.run()
    text = out.getvalue()
    info = catrina.final_info()
    assert f"end reason: {info['end_reason']}" in text and f"mood text: {info['mood_text']}" in flat(text)
    assert "skull reports:" in text


@pytest.mark.parametrize("game_class", [FiestaMexicana, Tequila, TortillaDePatatas])
def test_the_guide_and_legend_open_the_game(game_class) -> None:
    run, out = session(game_class(seed=1), "quit\n")
    run.run()
    text = out.getvalue()
    if game_class is FiestaMexicana:
        assert "Table cells read 'tos1 g.b.'" in flat(text) and "tos = tostada" in flat(text)
    elif game_class is Tequila:
        assert "'as O' its orientation" in flat(text) and "y donkey" in flat(text)
    else:
        assert "Recipes: M = 3 or 4 potatoes, exactly 2 eggs and 1 onion" in flat(text)


def test_group_lines_fit_the_width() -> None:
    names = [
        f"build {kind} at {r} {c} as {o}"
        for kind in ("road", "kiln")
        for r in range(8)
        for c in range(8)
        for o in range(2)
    ]
    (group,) = group_actions(list(enumerate(names)))
    assert _group_line(group, WIDTH) == "  build (256): road (128), kiln (128)"
    many = group_actions([(i, f"fence {i}") for i in range(40)])[0]
    line = _group_line(many, 60)
    assert len(line) <= 60 and line.endswith("... 39")


def test_each_placement_turn_is_told_with_its_points() -> None:
    from fiesta_envs.render.fiesta_mexicana import choice_outcome

    game = fiesta_mexicana_at("place")
    hint = decision_hint(game, 0)
    for action in game.legal_actions():
        copy = game.clone()
        copy.step(action)
        gained = int(copy.state_dict()["state"]["points"][0] - game.state_dict()["state"]["points"][0])
        assert choice_outcome(game, 0, action).points == gained
        assert f"{game.action_to_string(action)}: {gained:+d} point" in hint


def test_a_table_turn_tells_the_numbers_the_table_reads_once_every_table_has_turned() -> None:
    """The first player to choose a turn is told the numbers its table will read (the tables turn together
    after the last player's choice: the same numbers as the engine's)."""
    from fiesta_envs.render.fiesta_mexicana import choice_outcome, free_numbers

    game = FiestaMexicana(num_players=3, seed=3)
    rng = np.random.default_rng(0)
    while game.state_dict()["state"]["phase"] != "rotate":
        game.step(int(rng.choice(game.legal_actions())))
    seat = game.current_player
    told = {}
    for action in game.legal_actions():
        outcome = choice_outcome(game, seat, action)
        told[game.action_to_string(action)] = free_numbers(outcome.state, seat, outcome.orientation)
        copy = game.clone()
        copy.step(action)
        while copy.state_dict()["state"]["phase"] == "rotate":
            copy.play("rotate none")
        state = copy.state_dict()["state"]
        assert told[game.action_to_string(action)] == free_numbers(state, seat, state["orientation"][seat])
    assert told["rotate left"] != told["rotate none"]
    assert not has_preview(game, "rotate left")  # the tables turn together later: the numbers are told instead
    hint = flat(decision_hint(game, seat))
    assert f"left: {' '.join(map(str, told['rotate left']))};" in hint
