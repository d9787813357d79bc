"""The web app (``fiesta serve``) through Flask's test client: start page, play, preview, watch, replay.

The same app in a real browser is ``tests/test_web_browser.py`` (marker ``browser``).
"""

from __future__ import annotations

import html
import io
import json
import re
import subprocess
import sys

import pytest

pytest.importorskip("flask")

import numpy as np
from fiesta_mexicana_positions import face_up_spaces
from PIL import Image
from web_support import PREVIEW_LINK, action_values, click_through, random_record, start_table

from fiesta_envs.evaluation.agents import agent_names
from fiesta_envs.registry import GAMES
from fiesta_envs.render import private_lines
from fiesta_envs.tools.guides import outcome_text
from fiesta_envs.web.app import create_app
from fiesta_envs.web.tables import PlayTable, TableStore, Timeline


@pytest.fixture
def client():
    app = create_app()
    app.config["TESTING"] = True
    return app.test_client()


def table_of(client, address: str):
    """The server-side table behind ``address`` (the tests look at the engine directly)."""
    return client.application.extensions["fiesta_tables"].get(address.rsplit("/", 1)[-1])


def test_importing_the_package_does_not_import_flask() -> None:
    code = "import sys, fiesta_envs, fiesta_envs.web, fiesta_envs.web.tables; print('flask' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def test_start_page_names_every_game_with_its_forms(client) -> None:
    page = client.get("/").get_data(as_text=True)
    for name in GAMES:
        assert f'id="game-{name}"' in page
        assert f'<input type="hidden" name="game" value="{name}">' in page
    for title in ("Fiesta Mexicana", "Tortilla de Patatas", "Tequila", "Fiesta de los Muertos", "La Catrina"):
        assert title in page
    assert page.count('class="start-play"') == len(GAMES)
    assert page.count('class="start-watch"') == len(GAMES)
    assert 'name="records"' in page  # the replay upload


def test_the_agent_menus_list_every_registered_agent(client) -> None:
    """Menus are built from the agent registry: a new agent (``search``) appears without touching the app."""
    page = client.get("/").get_data(as_text=True)
    for name, spec in GAMES.items():
        form = page[page.index(f'id="game-{name}"') :]
        form = form[: form.index("</article>")]
        for agent in agent_names(spec):
            assert f'<option value="{agent}">{agent}</option>' in form, (name, agent)
    assert "search" in agent_names(GAMES["fiesta_mexicana"]) and "search" in agent_names(GAMES["tortilla_de_patatas"])


@pytest.mark.parametrize("game", list(GAMES))
def test_a_person_plays_a_whole_game_by_pressing_buttons(client, game: str) -> None:
    address = start_table(client, "/new/play", game=game, seat="0", agent="random", seed="4")
    page = click_through(client, address)
    table = table_of(client, address)
    assert table.game.is_over
    assert 'id="end"' in page and "Game over" in page
    picture = client.get(f"{address}/picture.png")
    assert picture.mimetype == "image/png"
    assert Image.open(io.BytesIO(picture.data)).size[0] > 100
    if table.game.cooperative:
        assert "The team's result" in page
        assert outcome_text(table.game) in html.unescape(page)  # why it ended, the mood (issue 22)
    else:
        assert "Winner" in page


def test_buttons_are_the_legal_actions_grouped_by_first_word(client) -> None:
    address = start_table(client, "/new/play", game="fiesta_mexicana", seat="0", agent="greedy", seed="2")
    game = table_of(client, address).game
    page = client.get(address).get_data(as_text=True)
    grouped = page[page.index("<fieldset") :]  # after the picture buttons of the start card's turns
    assert action_values(grouped) == game.legal_actions()
    for word in {name.split()[0] for name in game.legal_action_names()}:
        assert f"<legend>{word}</legend>" in page


def test_an_illegal_or_malformed_action_is_refused_with_the_reason(client) -> None:
    address = start_table(client, "/new/play", game="fiesta_mexicana", seat="0", agent="random", seed="2")
    game = table_of(client, address).game
    illegal = next(a for a in range(game.num_actions) if not game.legal_mask()[a])
    response = client.post(f"{address}/play", data={"action": str(illegal)})
    assert response.status_code == 400
    assert "may not play" in response.get_data(as_text=True)
    response = client.post(f"{address}/play", data={"action": "nine"})
    assert response.status_code == 400
    assert "action: &#39;nine&#39; is not a whole number" in response.get_data(as_text=True)


def play_until(client, address: str, first_word: str, limit: int = 400) -> str:
    """Click the first action until one starting with ``first_word`` is offered; that page."""
    table = table_of(client, address)
    for _ in range(limit):
        page = client.get(address).get_data(as_text=True)
        if any(name.split()[0] == first_word for name in table.game.legal_action_names()):
            return page
        client.post(f"{address}/play", data={"action": str(action_values(page)[0])})
    raise AssertionError(f"no {first_word!r} action within {limit} clicks")


def test_a_placement_preview_shows_its_points_and_changes_nothing(client) -> None:
    address = start_table(client, "/new/play", game="fiesta_mexicana", seat="0", agent="greedy", seed="6")
    page = play_until(client, address, "place")
    game = table_of(client, address).game
    place = [a for a in game.legal_actions() if game.action_to_string(a).startswith("place")]
    assert {int(a) for a in PREVIEW_LINK.findall(page)} >= set(place)
    before = game.state_dict()
    copy = game.clone()
    copy.step(place[-1])
    gained = copy.scores()[0] - game.scores()[0]
    shown = client.get(f"{address}?preview={place[-1]}").get_data(as_text=True)
    assert f"Preview: {game.action_to_string(place[-1])}" in shown
    assert f"player_0 (you): {gained:+g} points" in shown
    assert 'id="preview-picture"' in shown
    assert client.get(f"{address}/picture.png?preview={place[-1]}").mimetype == "image/png"
    assert game.state_dict() == before


def test_choices_that_draw_cards_get_no_preview() -> None:
    from fiesta_envs.tools import preview as preview_module
    from fiesta_envs.tools.guides import GUIDES, GameGuide
    from fiesta_envs.tortilla.game import TortillaDePatatas

    game = TortillaDePatatas(seed=1)
    while "draw deck" not in game.legal_action_names():
        game.step(game.legal_actions()[0])
    draw = game.string_to_action("draw deck")
    assert preview_module.preview(game, draw).after is None  # "draw" is not a previewed group
    everything = GameGuide("Tortilla", frozenset({"draw"}), "")
    original = GUIDES["tortilla_de_patatas"]
    GUIDES["tortilla_de_patatas"] = everything
    try:
        result = preview_module.preview(game, draw)  # allowed by the view, refused by the deck check
    finally:
        GUIDES["tortilla_de_patatas"] = original
    assert result.after is None and "card drawn" in result.note


def test_the_private_panel_shows_the_persons_seat_only(client) -> None:
    address = start_table(client, "/new/play", game="tortilla_de_patatas", seat="1", agent="careful", seed="3")
    game = table_of(client, address).game
    page = client.get(address).get_data(as_text=True)
    mine, theirs = private_lines(game, 1), private_lines(game, 0)
    assert mine and "Only you see" in page
    for line in mine:
        assert f"<li>{line}</li>" in page
    for line in theirs:
        if line not in mine:
            assert f"<li>{line}</li>" not in page


def test_secret_words_of_other_seats_stay_secret_in_the_log(client) -> None:
    address = start_table(client, "/new/play", game="fiesta_de_los_muertos", seat="3", agent="random", seed="5")
    table = table_of(client, address)
    page = client.get(address).get_data(as_text=True)
    written = [m for m in table.moves if m.player != 3]
    assert written and all(m.name.startswith("write") for m in written)
    for move in written:
        assert f": {move.name}</li>" not in page
        assert f": {move.public}</li>" in page


def test_watching_agents_goes_forward_and_back(client) -> None:
    address = start_table(client, "/new/watch", game="tortilla_de_patatas", agent="careful", seed="8")
    timeline = table_of(client, address)
    assert isinstance(timeline, Timeline)
    page = client.get(f"{address}?step=3").get_data(as_text=True)
    assert "step 3" in page and timeline.known_steps == 3
    third = timeline.game_at(3).state_dict()
    client.get(f"{address}?step=1")
    assert timeline.position == 1 and timeline.known_steps == 3
    assert client.get(f"{address}?step=3") and timeline.game_at(3).state_dict() == third
    end = client.get(f"{address}?step=100000").get_data(as_text=True)
    assert timeline.game_at(timeline.position).is_over and "Game over" in end
    assert 'class="nav forward"' not in end


def test_replaying_an_uploaded_record_reaches_its_scores(client) -> None:
    records = [random_record("tequila", seed=2), random_record("fiesta_mexicana", seed=3, num_players=3)]
    upload = io.BytesIO("\n".join(json.dumps(r) for r in records).encode())
    response = client.post(
        "/new/replay", data={"records": (upload, "games.jsonl"), "index": "1"}, content_type="multipart/form-data"
    )
    assert response.status_code == 302
    address = response.headers["Location"]
    timeline = table_of(client, address)
    steps = len(records[1]["actions"])
    assert f"step 0 of {steps}" in client.get(address).get_data(as_text=True)
    end = client.get(f"{address}?step={steps}").get_data(as_text=True)
    assert "Game over" in end and f"step {steps} of {steps}" in end
    assert [float(s) for s in timeline.game_at(steps).scores()] == records[1]["scores"]
    back = client.get(f"{address}?step={steps - 1}").get_data(as_text=True)
    assert "Game over" not in back
    assert client.get(f"{address}/picture.png?step=5").mimetype == "image/png"


def test_a_seat_chosen_in_a_replay_shows_its_private_information(client) -> None:
    record = random_record("tortilla_de_patatas", seed=4)
    upload = io.BytesIO(json.dumps(record).encode())
    address = client.post(
        "/new/replay", data={"records": (upload, "one.jsonl")}, content_type="multipart/form-data"
    ).headers["Location"]
    timeline = table_of(client, address)
    nobody = client.get(f"{address}?step=2").get_data(as_text=True)
    assert 'id="private"' not in nobody
    seat_1 = client.get(f"{address}?step=2&seat=1").get_data(as_text=True)
    for line in private_lines(timeline.game_at(2), 1):
        assert f"<li>{line}</li>" in seat_1


def test_records_files_given_to_the_server_are_listed(tmp_path) -> None:
    path = tmp_path / "games.jsonl"
    path.write_text("\n".join(json.dumps(random_record("fiesta_mexicana", seed=s)) for s in (1, 2)) + "\n")
    client = create_app([path]).test_client()
    page = client.get("/").get_data(as_text=True)
    assert str(path) in page and page.count('class="replay-listed"') == 2
    response = client.post("/new/replay", data={"file": "0", "index": "1"})
    assert response.status_code == 302


@pytest.mark.parametrize(
    ("route", "form", "message"),
    [
        ("/new/play", {"game": "chess"}, "unknown game &#39;chess&#39;; known games: fiesta_mexicana"),
        ("/new/play", {"game": "tequila", "seat": "5"}, "seat 5 is not a seat of a 2-player game"),
        ("/new/play", {"game": "tequila", "players": "9"}, "tequila"),
        ("/new/play", {"game": "tequila", "agent": "nobody"}, "unknown agent &#39;nobody&#39;"),
        ("/new/play", {"game": "tequila", "seed": "x"}, "seed: &#39;x&#39; is not a whole number"),
        ("/new/play", {"game": "tequila", "options": "colour=red"}, "colour"),
        ("/new/watch", {"game": "tequila", "agents_typed": "random,random,random"}, "3 agents named for 2 seats"),
        ("/new/replay", {"file": "0"}, "no listed records file number 0"),
    ],
)
def test_bad_forms_are_refused_with_a_clear_message(client, route: str, form: dict, message: str) -> None:
    response = client.post(route, data=form)
    assert response.status_code == 400
    assert message in response.get_data(as_text=True)


def test_a_malformed_records_upload_names_the_line(client) -> None:
    upload = io.BytesIO(b'{"game": "tequila"}\nnot json\n')
    response = client.post("/new/replay", data={"records": (upload, "bad.jsonl")}, content_type="multipart/form-data")
    assert response.status_code == 400
    assert "bad.jsonl, line 2: not JSON" in response.get_data(as_text=True)
    upload = io.BytesIO(b'{"game": "tequila"}\n')
    response = client.post("/new/replay", data={"records": (upload, "bad.jsonl")}, content_type="multipart/form-data")
    assert "not a game record: it has no &#39;num_players&#39;" in response.get_data(as_text=True)


def test_unknown_tables_are_not_found(client) -> None:
    assert client.get("/table/nothing").status_code == 404
    assert client.post("/table/nothing/play", data={"action": "1"}).status_code == 404


def test_the_store_forgets_the_oldest_tables() -> None:
    from fiesta_envs.fiesta_mexicana.game import FiestaMexicana
    from fiesta_envs.policies.policy import RandomPolicy

    store = TableStore(limit=2)
    ids = [store.add(PlayTable(FiestaMexicana(seed=i), 0, {1: ("random", RandomPolicy(0))}, i)) for i in range(3)]
    assert store.get(ids[0]) is None and store.get(ids[2]) is not None


def test_the_log_tells_opponents_moves_from_the_persons_side(client) -> None:
    address = start_table(client, "/new/play", game="tortilla_de_patatas", seat="0", agent="careful", seed="3")
    page = click_through(client, address)
    table = table_of(client, address)
    theirs = [m for m in table.moves if m.player == 1]
    assert theirs and all(
        m.public.split()[0] in ("plays", "starts", "serves", "draws", "takes", "chooses") for m in theirs
    )
    for move in theirs[-5:]:
        assert f"player_1 (careful): {move.public}</li>" in page.replace("&#39;", "'")


def test_clicking_a_farm_square_keeps_the_choices_there(client) -> None:
    address = start_table(client, "/new/play", game="tequila", seat="0", agent="random", seed="5")
    game = table_of(client, address).game
    for _ in range(50):
        if any(" at " in name for name in game.legal_action_names()):
            break
        client.post(f"{address}/play", data={"action": str(game.legal_actions()[-1])})
    at_square = [
        a for a, name in zip(game.legal_actions(), game.legal_action_names(), strict=True) if " at 0 1 " in name
    ]
    assert at_square, "no choice at row 0, column 1 within 50 moves"
    page = client.get(address).get_data(as_text=True)
    assert 'id="grid"' in page and "Click a square" in page
    chosen = client.get(f"{address}?square=0,1").get_data(as_text=True)
    assert action_values(chosen) == at_square
    assert "Choices at row 0, column 1" in chosen


def test_the_picture_itself_is_clickable_on_the_squares_with_choices(client) -> None:
    """An image map over the picture: one area per square that has choices, in the picture's pixels, linking to
    the same choices as the grid (Tequila's farm, Fiesta Mexicana's table)."""
    from fiesta_envs.render import square_boxes
    from fiesta_envs.web.grid import square_of

    for game_name, seed in (("tequila", "1"), ("fiesta_mexicana", "5")):
        address = start_table(client, "/new/play", game=game_name, seat="0", agent="random", seed=seed)
        game = table_of(client, address).game
        while not any(square_of(name) for name in game.legal_action_names()):
            client.post(f"{address}/play", data={"action": str(game.legal_actions()[0])})
        page = html.unescape(client.get(address).get_data(as_text=True))
        assert 'usemap="#board-squares"' in page and '<map name="board-squares"' in page
        squares = {square_of(name) for name in game.legal_action_names()} - {None}
        areas = re.findall(r'<area shape="rect" coords="([\d,]+)" href="[^"]*\?square=(\d+),(\d+)"', page)
        assert {(int(r), int(c)) for _, r, c in areas} == squares
        boxes = square_boxes(game, 0)
        for coords, r, c in areas:
            assert coords == ",".join(str(round(v)) for v in boxes[(int(r), int(c))])
        assert "squares.js" in page


def test_fiesta_mexicana_bids_are_chosen_on_the_numbered_table(client) -> None:
    address = start_table(client, "/new/play", game="fiesta_mexicana", seat="0", agent="random", seed="5")
    game = table_of(client, address).game
    while not game.legal_action_names()[0].startswith("bid"):
        client.post(f"{address}/play", data={"action": str(game.legal_actions()[0])})
    number = int(game.legal_action_names()[0].split()[1])
    square = f"{(number - 1) // 4},{(number - 1) % 4}"
    chosen = client.get(f"{address}?square={square}").get_data(as_text=True)
    names = [game.action_to_string(a) for a in action_values(chosen)]
    assert names and all(name.split()[1] == str(number) for name in names)
    assert f"Choices at space {number}" in chosen


def test_the_play_page_reminds_the_recipes_of_tortilla(client) -> None:
    address = start_table(client, "/new/play", game="tortilla_de_patatas", seat="0", agent="careful", seed="1")
    assert "Recipes: M = 3 or 4 potatoes" in client.get(address).get_data(as_text=True)


def test_fiesta_mexicana_turns_are_chosen_by_clicking_their_pictures(client) -> None:
    """At a placement (and a start card, a table turn) every turn is a picture button that plays it; the
    picture is drawn on request for the person's legal pictured choices only."""
    address = start_table(client, "/new/play", game="fiesta_mexicana", seat="0", agent="random", seed="6")
    game = table_of(client, address).game
    for word in ("orient", "place", "rotate"):
        page = play_until(client, address, word)
        pictured = game.legal_actions()  # all of them are turns
        buttons = re.findall(r'class="act picture-choice" title="([^"]+)"', page)
        assert buttons == [game.action_to_string(a) for a in pictured], word
        for action in pictured:
            picture = client.get(f"{address}/choice/{action}.png")
            assert picture.mimetype == "image/png" and Image.open(io.BytesIO(picture.data)).size[0] > 100
        if word == "place":  # a picture button plays its action
            name = game.action_to_string(pictured[-1])
            client.post(f"{address}/play", data={"action": str(pictured[-1])})
            assert [m.name for m in table_of(client, address).moves if m.player == 0][-1] == name
    bid = next(a for a in range(game.num_actions) if game.action_to_string(a) == "bid 16")
    assert client.get(f"{address}/choice/{bid}.png").status_code == 404
    assert client.get(f"{address}/choice/99999.png").status_code == 404


def test_fiesta_mexicana_start_cards_are_face_up_to_their_owner_only(client) -> None:
    """While start cards are oriented, the person's picture shows its own face up and the others' face down;
    so does a replay as one seat; the spectator's picture shows none."""

    def face_up(address: str, query: str, game) -> list[list[int]]:
        png = client.get(f"{address}/picture.png{query}").data
        return face_up_spaces(np.asarray(Image.open(io.BytesIO(png)).convert("RGB")), game)

    address = start_table(client, "/new/play", game="fiesta_mexicana", seat="1", agent="random", seed="4")
    game = table_of(client, address).game
    assert game.phase_name == "orient" and game.current_player == 1  # seat 0 has oriented its two
    client.post(f"{address}/play", data={"action": str(game.string_to_action("orient 0 1"))})
    assert game.phase_name == "orient" and game.current_player == 1
    assert face_up(address, "", game) == [[], [6]]

    watched = start_table(client, "/new/watch", game="fiesta_mexicana", agent="random", seed="4")
    at_step_3 = table_of(client, watched).go(3)  # seat 0 has oriented its two, seat 1 one
    assert at_step_3.phase_name == "orient" and at_step_3.current_player == 1
    assert face_up(watched, "?step=3&seat=0", at_step_3) == [[6, 11], []]
    assert face_up(watched, "?step=3&seat=1", at_step_3) == [[], [6]]
    assert face_up(watched, "?step=3", at_step_3) == [[], []]


def test_fiesta_mexicana_the_others_points_stay_hidden_while_orienting(client) -> None:
    """The seats table tells a seat no other player's points while start cards are oriented (they count the
    skulls of hidden cards), in play and in a replay as that seat; the spectator's shows none then (its picture
    shows every start card face down), and every score once all are oriented."""

    def score_column(page: str) -> list[str]:
        return re.findall(r"<td>player_\d \([^)]*\)(?: ◀)?</td><td>([^<]*)</td>", page)

    address = start_table(client, "/new/play", game="fiesta_mexicana", seat="1", agent="random", seed="4")
    game = table_of(client, address).game
    assert game.phase_name == "orient" and game.current_player == 1 and game.state.points[0] > 0
    assert score_column(client.get(address).get_data(as_text=True)) == ["?", "0"]

    watched = start_table(client, "/new/watch", game="fiesta_mexicana", agent="random", seed="4")
    at_step_3 = table_of(client, watched).go(3)
    points = [str(p) for p in at_step_3.state.points]
    assert score_column(client.get(f"{watched}?step=3&seat=1").get_data(as_text=True)) == ["?", points[1]]
    assert score_column(client.get(f"{watched}?step=3&seat=0").get_data(as_text=True)) == [points[0], "?"]
    assert score_column(client.get(f"{watched}?step=3").get_data(as_text=True)) == ["?", "?"]
    later = table_of(client, watched).go(4)  # everybody has oriented: every score shows
    assert later.phase_name != "orient"
    scores = [str(p) for p in later.state.points]
    assert score_column(client.get(f"{watched}?step=4&seat=1").get_data(as_text=True)) == scores
    assert score_column(client.get(f"{watched}?step=4").get_data(as_text=True)) == scores


def test_tequila_fences_and_market_spaces_are_clickable_on_the_picture(client) -> None:
    """Each legal fence segment and market space is an area of the picture that previews it."""
    from fiesta_envs.render import action_boxes

    address = start_table(client, "/new/play", game="tequila", seat="0", agent="random", seed="2")
    game = table_of(client, address).game
    for _ in range(60):
        if any(name.startswith("fence") for name in game.legal_action_names()):
            break
        client.post(f"{address}/play", data={"action": str(game.legal_actions()[0])})
    wanted = {a: n for a, n in zip(game.legal_actions(), game.legal_action_names(), strict=True)}
    wanted = {a: n for a, n in wanted.items() if n.split()[0] in ("fence", "sell")}
    assert any(name.startswith("fence") for name in wanted.values())
    page = html.unescape(client.get(address).get_data(as_text=True))
    areas = re.findall(r'<area shape="rect" coords="([\d,]+)" href="[^"]*\?preview=(\d+)" alt="([^"]+)"', page)
    assert {int(action): name for _, action, name in areas} == wanted
    boxes = action_boxes(game, 0)
    for coords, _, name in areas:
        assert coords == ",".join(str(round(v)) for v in boxes[name])
    fence = next(a for a, n in wanted.items() if n.startswith("fence"))
    assert f"Preview: {wanted[fence]}" in client.get(f"{address}?preview={fence}").get_data(as_text=True)
