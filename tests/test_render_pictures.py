"""Pictures (rgb_array) of every game: shape, colours, change as the game goes, no hidden information."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import numpy as np
import pytest
from fiesta_mexicana_positions import face_up_spaces

from fiesta_envs import render
from fiesta_envs.core.errors import InvalidOptionError
from fiesta_envs.registry import GameSpec
from fiesta_envs.render import canvas

ENGINES = {
    "fiesta_mexicana": "fiesta_envs.fiesta_mexicana.game:FiestaMexicana",
    "tortilla_de_patatas": "fiesta_envs.tortilla.game:TortillaDePatatas",
    "tequila": "fiesta_envs.tequila.game:Tequila",
    "fiesta_de_los_muertos": "fiesta_envs.muertos.game:FiestaDeLosMuertos",
    "la_catrina": "fiesta_envs.muertos.catrina:LaCatrina",
}


def game_class(name: str):
    module, _, cls = ENGINES[name].partition(":")
    return getattr(importlib.import_module(module), cls)


def configurations() -> list[tuple[str, int, dict]]:
    """Every player count and every non-default option choice of every game (as the API tests do)."""
    found = []
    for name, engine in ENGINES.items():
        spec = GameSpec(name, "", "", engine, "")
        found += [(name, n, options) for n, options in spec.configurations()]
    return found


def play_random(game, rng: np.random.Generator, steps: int) -> None:
    for _ in range(steps):
        if game.is_over:
            return
        game.step(int(rng.choice(game.legal_actions())))


def colour_count(frame: np.ndarray) -> int:
    pixels = frame[::2, ::2].astype(np.int64)
    return len(np.unique(pixels[..., 0] << 16 | pixels[..., 1] << 8 | pixels[..., 2]))


CONFIGS = configurations()


@pytest.mark.parametrize(("name", "num_players", "options"), CONFIGS, ids=[f"{c[0]}-{c[1]}p-{c[2]}" for c in CONFIGS])
def test_picture_of_every_configuration(name: str, num_players: int, options: dict) -> None:
    game = game_class(name)(num_players=num_players, seed=11, **options)
    rng = np.random.default_rng(3)
    frames = [render.draw(game)]
    play_random(game, rng, 3)
    assert not game.is_over
    frames.append(render.draw(game))
    play_random(game, rng, 100_000)
    assert game.is_over
    frames.append(render.draw(game))
    for frame in frames:
        assert frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[2] == 3
        assert frame.shape == frames[0].shape, "one game keeps one picture size (steady animations)"
        assert frame.shape[0] >= 300 and frame.shape[1] >= 500
        assert colour_count(frame) > 20, "a picture, not a blank canvas"
    assert not np.array_equal(frames[0], frames[1]), "the picture follows the game"
    assert not np.array_equal(frames[1], frames[2])


def test_draw_picks_the_module_of_the_game() -> None:
    game = game_class("tequila")(num_players=2, seed=1)
    from fiesta_envs.render import tequila

    assert np.array_equal(render.draw(game), tequila.draw(game))
    with pytest.raises(InvalidOptionError, match="unknown game 'chess'"):
        render.module_for("chess")


def test_missing_pillow_gives_the_install_command(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "PIL", None)
    with pytest.raises(ImportError, match=r"pip install fiesta_envs\[render\]"):
        canvas.Canvas(10, 10)


def test_a_pillow_without_scalable_fonts_gives_the_upgrade_command(monkeypatch: pytest.MonkeyPatch) -> None:
    from PIL import ImageFont

    def old_load_default() -> None:  # Pillow 10.0 has no ``size`` argument
        return None

    monkeypatch.setattr(ImageFont, "load_default", old_load_default)
    canvas.font.cache_clear()
    try:
        with pytest.raises(ImportError, match=r"Pillow >= 10.1 with FreeType: pip install -U"):
            canvas.font(99)
    finally:
        canvas.font.cache_clear()


# ---------------------------------------------------------------------- honest pictures
def same_picture_after(game, edit, seat: int | None = None) -> bool:
    """Whether the picture (the spectator's, or ``seat``'s: ``render.seen_by``) stays the same when ``edit``
    changes hidden parts of the state."""

    def picture() -> np.ndarray:
        return render.draw(game if seat is None else render.seen_by(game, seat))

    before = picture()
    data = game.state_dict()
    edit(data["state"])
    game.load_state_dict(data)
    return np.array_equal(before, picture())


def test_fiesta_mexicana_picture_hides_objectives_and_deck() -> None:
    game = game_class("fiesta_mexicana")(num_players=3, seed=5)
    play_random(game, np.random.default_rng(0), 30)
    assert game.state_dict()["state"]["phase"] in ("auction", "place", "rotate")

    def edit(state: dict) -> None:
        state["deck"] = state["deck"][::-1]
        for slots in state["objectives"]:  # other objectives, same number held
            for i, code in enumerate(slots):
                if code >= 0:
                    slots[i] = (code + 7) % 18

    assert same_picture_after(game, edit)
    # ...while a public change (points) shows
    assert not same_picture_after(game, lambda state: state["points"].__setitem__(0, state["points"][0] + 5))


def test_fiesta_mexicana_picture_hides_start_cards_until_everybody_has_oriented() -> None:
    game = game_class("fiesta_mexicana")(num_players=2, seed=2)
    game.play("orient 0 1", "orient 1 2")  # seat 0 is done, seat 1 orients now

    def other_start_cards(state: dict) -> None:
        state["rotations"][0][5] = (state["rotations"][0][5] + 1) % 4
        state["cards"][0][10], state["deck"][-1] = state["deck"][-1], state["cards"][0][10]
        state["start_cards"][1].reverse()

    assert same_picture_after(game, other_start_cards)
    game.play("orient 0 0", "orient 1 0")  # everybody has oriented: the tables show
    assert not same_picture_after(game, lambda state: state["rotations"][0].__setitem__(5, 0))


def face_up_tables(game, seat: int | None) -> list[list[int]]:
    """Per table, the spaces drawn face up in the picture of ``game`` as ``seat`` sees it (None: a spectator)."""
    return face_up_spaces(render.draw(game if seat is None else render.seen_by(game, seat)), game)


def test_fiesta_mexicana_picture_for_a_seat_shows_its_own_start_cards_while_orienting() -> None:
    """Each player knows its own start cards while orienting: the picture drawn for a seat shows them face up,
    as turned, with its points; the others' stay face down, as in the spectator's picture."""
    game = game_class("fiesta_mexicana")(num_players=3, seed=2)
    game.play("orient 0 1", "orient 1 2", "orient 0 3")  # seat 0 is done, seat 1 has oriented one card
    assert face_up_tables(game, None) == [[], [], []]
    assert face_up_tables(game, 0) == [[6, 11], [], []]
    assert face_up_tables(game, 1) == [[], [6], []]
    assert face_up_tables(game, 2) == [[], [], []]

    def seat_0_start_cards(state: dict) -> None:
        state["rotations"][0][5] = (state["rotations"][0][5] + 1) % 4
        state["cards"][0][10], state["deck"][-1] = state["deck"][-1], state["cards"][0][10]

    def seat_1_turn(state: dict) -> None:
        state["rotations"][1][5] = (state["rotations"][1][5] + 1) % 4

    def seat_1_points(state: dict) -> None:
        state["points"][1] += 1

    assert same_picture_after(game, seat_0_start_cards, seat=1)  # the others' cards stay hidden
    assert same_picture_after(game, seat_1_turn, seat=0)
    assert not same_picture_after(game, seat_1_turn, seat=1)  # its own, as it turned them...
    assert not same_picture_after(game, seat_1_points, seat=1)  # ...and its points
    assert same_picture_after(game, seat_1_points, seat=2)
    text = render.seen_by(game, 1).render_text()  # the terminal's table as seat 1 sees it
    assert "player 0: ? points" in text and "player 1: ? points" not in text and text.count("?????????") == 2
    game.play("orient 1 0", "orient 0 0", "orient 1 0")  # everybody has oriented: every table is face up
    assert face_up_tables(game, None) == face_up_tables(game, 2) == [[6, 11], [6, 11], [6, 11]]


def test_tortilla_picture_hides_hands_and_fridge_order() -> None:
    game = game_class("tortilla_de_patatas")(num_players=2, seed=5, menu="kids")
    play_random(game, np.random.default_rng(0), 3)

    def edit(state: dict) -> None:
        hand, deck = state["hands"][0], state["deck"]
        swap = next(i for i, card in enumerate(deck) if card != hand[0])
        hand[0], deck[swap] = deck[swap], hand[0]
        state["deck"] = deck[::-1]

    assert state_has_no_known_cards(game)
    assert same_picture_after(game, edit)


def state_has_no_known_cards(game) -> bool:
    return not any(game.state_dict()["state"]["known"])


def test_muertos_picture_hides_characters_and_words_while_writing() -> None:
    game = game_class("fiesta_de_los_muertos")(num_players=4, seed=2)
    play_random(game, np.random.default_rng(0), 5)
    assert game.state_dict()["state"]["round"]["phase"] == 1  # writing

    def edit(state: dict) -> None:
        characters = state["round"]["characters"]
        characters[0], characters[1] = characters[1], characters[0]
        state["round"]["numbers"] = state["round"]["numbers"][::-1]

    assert same_picture_after(game, edit)


# ---------------------------------------------------------------------- private views
def test_private_lines_show_a_seat_its_own_secrets_only() -> None:
    from fiesta_envs.fiesta_mexicana.components import OBJECTIVE_KINDS

    game = game_class("fiesta_mexicana")(num_players=2, seed=5)
    play_random(game, np.random.default_rng(0), 12)
    state = game.state_dict()["state"]
    assert state["phase"] == "auction"
    text = "\n".join(render.private_lines(game, 0))
    for code in state["objectives"][0]:
        assert OBJECTIVE_KINDS[code].label in text

    tortilla = game_class("tortilla_de_patatas")(num_players=2, seed=5)
    hand = tortilla.state_dict()["state"]["hands"][1]
    assert render.private_lines(tortilla, 1) == [f"your hand: {', '.join(hand)}"]

    muertos = game_class("fiesta_de_los_muertos")(num_players=4, seed=5)
    table = muertos.state_dict()["state"]["round"]
    from fiesta_envs.muertos.engine import LEXICON

    mine = LEXICON.characters[table["characters"][2]].name
    lines = render.private_lines(muertos, 2)
    assert f"your character(s): {mine}" in lines
    assert all(LEXICON.characters[table["characters"][s]].name not in lines[0] for s in (0, 1, 3))
    tequila = game_class("tequila")(num_players=2, seed=1)
    assert render.private_lines(tequila, 0)[0].startswith("round 1 is played by all at once")


def test_opponents_secret_moves_stay_secret_in_play_messages() -> None:
    assert render.public_action("fiesta_de_los_muertos", "write guitar") == "writes a word"
    assert render.public_action("la_catrina", "match 3 to 5") == "matches a skull"
    assert render.public_action("la_catrina", "bone 2") == "bone 2"
    assert render.public_action("fiesta_mexicana", "bid 9") == "bid 9"
    assert render.public_action("fiesta_mexicana", "rotate left") == "chooses a table turn"
    assert render.public_action("fiesta_mexicana", "orient 1 3") == "orients a start card"
    assert render.public_action("fiesta_mexicana", "keep 0 2 4") == "keeps three objectives"
    assert render.public_action("fiesta_mexicana", "reserve 9 drop 2") == "reserve 9 (gives up an objective)"


def test_importing_the_drawing_modules_does_not_import_pillow() -> None:
    import subprocess

    code = (
        "import sys, fiesta_envs.render as r\n"
        "from fiesta_envs.registry import GAMES\n"
        "for name in GAMES: r.module_for(name)\n"
        "import fiesta_envs.tools.play, fiesta_envs.tools.replay\n"
        "assert 'PIL' not in sys.modules, 'Pillow imported too early'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=Path(__file__).resolve().parents[1])


def test_square_boxes_are_where_the_tequila_farm_squares_are_drawn() -> None:
    """The web app's clickable picture relies on ``square_boxes``: a building's squares show its colour there."""
    from fiesta_envs.render.tequila import BUILDING_COLOURS, WATER
    from fiesta_envs.tequila import farm
    from fiesta_envs.tequila.game import Tequila

    game = Tequila(num_players=3, seed=1)
    game.play("reroll none", "virtual build")
    kiln = next(name for name in game.legal_action_names() if name.startswith("build kiln"))
    game.play(kiln)
    placement = farm.PLACEMENTS[game.action_names().index(kiln) - game.action_names().index("build road at 0 0 as 0")]
    picture = render.draw(game)
    for seat in range(game.num_players):
        boxes = render.square_boxes(game, seat)
        assert boxes is not None and len(boxes) == farm.SPACES
        for (r, c), (left, top, _, _) in boxes.items():
            x = farm.space(r, c)
            pixel = tuple(picture[int(top) + 5, int(left) + 5])
            if seat == 0 and placement.spaces >> x & 1:
                assert pixel == BUILDING_COLOURS[placement.kind], (r, c)
            elif farm.WATER_SPACES >> x & 1:
                assert pixel == WATER, (seat, r, c)


def test_action_boxes_are_where_the_tequila_fences_and_market_spaces_are_drawn() -> None:
    """A drawn fence is black along the middle of its box; a marked market space is ink, the others empty."""
    from fiesta_envs.tequila.game import Tequila

    game = Tequila(num_players=2, seed=3)
    game.play("reroll none", "virtual fence")
    fences = [name for name in game.legal_action_names() if name.startswith("fence")][:2]
    game.play(*fences)
    sheet = game.state_dict()["state"]["sheets"][0]
    game.state.sheets[0].market = sheet["market"] = 0b101  # two market spaces marked (drawn, not played)
    picture = render.draw(game)
    boxes = render.action_boxes(game, 0)
    assert len(boxes) == 40 + 24
    for name, (left, top, right, bottom) in boxes.items():
        pixel = tuple(picture[round((top + bottom) / 2), round((left + right) / 2)])
        if name.startswith("fence"):
            assert (pixel == canvas.COLOURS["black"]) == (name in fences), name
        else:
            row, col = map(int, name.split()[1:])
            marked = col in (0, 2) and row == 0
            assert pixel == canvas.COLOURS["ink" if marked else "empty"], name
    assert render.action_boxes(game, 1)["fence 0"] != boxes["fence 0"]
    assert render.action_boxes(game_class("fiesta_mexicana")(num_players=2, seed=1), 0) == {}


def test_square_boxes_are_where_the_fiesta_mexicana_spaces_are_drawn() -> None:
    from fiesta_envs.fiesta_mexicana.game import FiestaMexicana

    game = FiestaMexicana(num_players=2, seed=3)
    game.play("orient 0 0")  # seat 0's first start card goes on the space reading 6
    picture = render.draw(game)
    empty = canvas.COLOURS["empty"]
    for seat in range(2):
        boxes = render.square_boxes(game, seat)
        assert boxes is not None and sorted(boxes) == [(r, c) for r in range(4) for c in range(4)]
        for (r, c), (_, _, right, bottom) in boxes.items():
            filled = seat == 0 and r * 4 + c + 1 == 6
            assert (tuple(picture[int(bottom) - 6, int(right) - 6]) == empty) != filled, (seat, r, c)
    assert render.square_boxes(game.__class__.__mro__[0](num_players=2, seed=3), 0) == render.square_boxes(game, 0)
