"""Tequila's rounds are played by all at once: what one seat is shown never holds another seat's moves of the
round under way, in the terminal text, the web page and picture, the previews or the narration.

Each test plays the starting player's round two different ways from the same position (the same dice: it
re-rolls nothing), stops at the next seat's first decision, and checks that what that seat is shown is the
same in both games, although the games differ; once the round is over, the moves are told.
"""

from __future__ import annotations

import io
import re

import numpy as np
import pytest

from fiesta_envs.policies.policy import Policy, legal_actions
from fiesta_envs.render import draw, private_lines, seen_by
from fiesta_envs.tequila.game import Tequila
from fiesta_envs.tools.narration import Before, held_round, is_told
from fiesta_envs.tools.play import PlaySession
from fiesta_envs.tools.preview import preview

VIEWER = 1  # the seat after the starting player (seat 0) in the first round


class KeepTheDice(Policy):
    """Re-rolls nothing, then plays random legal actions, preferring to build (so that its round shows)."""

    needs_observation = False

    def act(self, observation: np.ndarray, action_mask: np.ndarray, game: Tequila, player: int) -> int:
        names = [game.action_to_string(int(a)) for a in legal_actions(action_mask)]
        for wanted in ("reroll none", "build", "fence", "virtual build"):
            chosen = [i for i, name in enumerate(names) if name.startswith(wanted)]
            if chosen:
                return int(legal_actions(action_mask)[chosen[self.rng.integers(len(chosen))]])
        return int(legal_actions(action_mask)[self.rng.integers(len(names))])


def first_seat_played(policy_seed: int) -> Tequila:
    """A 3-player game in which seat 0 played its first round with ``policy_seed``; seat 1 to act."""
    game = Tequila(num_players=3, seed=11)
    policy = KeepTheDice(seed=policy_seed)
    while game.current_player != VIEWER:
        game.step(policy.act(None, game.legal_mask(), game, game.current_player))
    return game


@pytest.fixture(scope="module")
def two_games() -> tuple[Tequila, Tequila]:
    games = first_seat_played(1), first_seat_played(2)
    assert games[0].state.sheets[0].buildings != games[1].state.sheets[0].buildings  # seat 0's rounds differ...
    assert games[0].state.sheets[0].buildings  # ...and show on its farm
    return games


def test_the_text_picture_scores_and_private_lines_hide_the_others_round(two_games) -> None:
    first, second = (seen_by(game, VIEWER) for game in two_games)
    assert first.render_text() == second.render_text()
    assert np.array_equal(draw(first), draw(second))
    assert list(first.scores()) == list(second.scores())
    assert private_lines(two_games[0], VIEWER) == private_lines(two_games[1], VIEWER)
    assert two_games[0].render_text() != two_games[1].render_text()  # the spectator's text shows both rounds


def test_the_seat_sees_its_own_moves_of_the_round_at_once() -> None:
    game = first_seat_played(1)
    game.play("virtual build")
    assert seen_by(game, VIEWER).state.sheets[VIEWER].virtual == game.state.sheets[VIEWER].virtual
    assert "virtual die on building" in " ".join(private_lines(game, VIEWER))


def test_previews_are_drawn_and_scored_as_the_seat_sees_the_table(two_games) -> None:
    shown = []
    for game in two_games:
        game = game.clone()
        game.play("virtual build")
        action = next(a for a in game.legal_actions() if game.action_to_string(a).startswith("build road"))
        result = preview(game, action)
        assert result.after is not None
        shown.append((result.after.render_text(), result.score_changes))
    assert shown[0] == shown[1]


def test_at_the_end_of_the_game_every_sheet_is_shown() -> None:
    game = Tequila(num_players=2, seed=3)
    policy = KeepTheDice(seed=0)
    while not game.is_over:
        game.step(policy.act(None, game.legal_mask(), game, game.current_player))
    assert seen_by(game, 1) is game


def test_a_move_of_the_round_is_told_to_the_others_when_the_round_ends() -> None:
    game = Tequila(num_players=2, seed=3)
    reroll = Before.of(game)
    game.play("reroll none")
    assert held_round(reroll, game, "reroll none") is None  # the dice are seen by all at once
    before = Before.of(game)
    game.play("virtual fence")
    held = held_round(before, game, "virtual fence")
    assert held == 0
    assert not is_told(game, held, 0, viewer=1)
    assert is_told(game, held, 0, viewer=0) and is_told(game, held, 0, viewer=None)
    policy = KeepTheDice(seed=0)
    while game.state.round == 0:
        game.step(policy.act(None, game.legal_mask(), game, game.current_player))
    assert is_told(game, held, 0, viewer=1)


def terminal_until_first_prompt(policy_seed: int) -> str:
    """What seat 1 is shown in the terminal up to its first decision (it quits there)."""
    out = io.StringIO()
    game = Tequila(num_players=3, seed=11)
    opponents = {0: ("agent", KeepTheDice(seed=policy_seed)), 2: ("agent", KeepTheDice(seed=0))}
    PlaySession(game, VIEWER, opponents, stdin=io.StringIO("quit\n"), stdout=out).run()
    return out.getvalue().split("You left the game.")[0]


def test_the_terminal_tells_the_others_round_when_it_ends() -> None:
    first, second = terminal_until_first_prompt(1), terminal_until_first_prompt(2)
    assert first == second
    assert "player_0 (agent): reroll none" in first
    assert "player_0 (agent) has played in this round: its moves are shown when the round ends" in first
    out = io.StringIO()
    game = Tequila(num_players=3, seed=11)
    opponents = {0: ("agent", KeepTheDice(seed=1)), 2: ("agent", KeepTheDice(seed=0))}
    script = "virtual fence\nend\n" + "1\n" * 10 + "quit\n"
    PlaySession(game, VIEWER, opponents, stdin=io.StringIO(script), stdout=out).run()
    told = out.getvalue()
    assert re.search(r"player_0 \(agent\), \d+ moves: virtual", told)  # told once the round is over
    assert told.index("player_2 (agent)") > told.index("you: end")


def web_page_and_picture(client, game_seed_policy: int) -> tuple[str, bytes]:
    from fiesta_envs.web.tables import PlayTable

    game = Tequila(num_players=3, seed=11)
    agents = {0: ("agent", KeepTheDice(seed=game_seed_policy)), 2: ("agent", KeepTheDice(seed=0))}
    table = PlayTable(game, VIEWER, agents, seed=None)
    table_id = client.application.extensions["fiesta_tables"].add(table)
    page = client.get(f"/table/{table_id}").get_data(as_text=True).replace(table_id, "ID")
    picture = client.get(f"/table/{table_id}/picture.png").data
    return page, picture


def test_the_web_page_and_picture_hide_the_others_round() -> None:
    pytest.importorskip("flask")
    from fiesta_envs.web.app import create_app

    client = create_app().test_client()
    first, second = web_page_and_picture(client, 1), web_page_and_picture(client, 2)
    assert first[0] == second[0]
    assert first[1] == second[1]
    assert "player_0 (agent): reroll none" in first[0]
    assert "has played in this round: its moves are shown when the round ends" in first[0]


def test_a_replay_seen_by_one_seat_hides_the_others_round_until_it_ends() -> None:
    """Watching a record as one seat saw it: its picture, scores and log; as a spectator: everything."""
    pytest.importorskip("flask")
    from fiesta_envs.registry import game_spec
    from fiesta_envs.render import draw
    from fiesta_envs.web.app import create_app, png_bytes
    from fiesta_envs.web.tables import Timeline

    client = create_app().test_client()
    game = Tequila(num_players=3, seed=11)
    actions = []
    watched = game.clone()
    policy = KeepTheDice(seed=1)
    while watched.current_player != VIEWER:
        action = policy.act(None, watched.legal_mask(), watched, watched.current_player)
        actions.append(watched.action_to_string(action))
        watched.step(action)
    timeline = Timeline(game_spec("tequila"), game, ["agent"] * 3, actions=actions)
    table_id = client.application.extensions["fiesta_tables"].add(timeline)
    step = len(actions)
    as_seat = client.get(f"/table/{table_id}?step={step}&seat={VIEWER}").get_data(as_text=True)
    spectator = client.get(f"/table/{table_id}?step={step}").get_data(as_text=True)
    assert as_seat.count("<li value=") == 1 and "reroll none" in as_seat  # only the re-roll is told
    assert "has played in this round" in as_seat
    assert spectator.count("<li value=") == step
    picture = client.get(f"/table/{table_id}/picture.png?step={step}&seat={VIEWER}").data
    assert picture == png_bytes(draw(seen_by(watched, VIEWER)))
    assert client.get(f"/table/{table_id}/picture.png?step={step}").data == png_bytes(draw(watched))
    assert client.get(f"/table/{table_id}/picture.png?step={step}&seat=7").status_code == 404
