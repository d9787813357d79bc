"""``fiesta play`` as a person reads it: the table in parts, the legend once, phases in words, per-game help."""

from __future__ import annotations

import importlib
import io
import itertools
import re

import numpy as np
import pytest

from fiesta_envs.fiesta_mexicana.state import Phase as FiestaMexicanaPhase
from fiesta_envs.muertos.components import Phase as MuertosPhase
from fiesta_envs.policies.policy import RandomPolicy
from fiesta_envs.registry import game_spec
from fiesta_envs.tequila import components as tequila_components
from fiesta_envs.tequila.render import BUILDING_LETTERS, LEGEND, RESOURCE_LETTERS
from fiesta_envs.tequila.state import Phase as TequilaPhase
from fiesta_envs.tools.guides import GUIDES, guide_for
from fiesta_envs.tools.play import WIDTH, PlaySession, help_text
from fiesta_envs.tools.table_text import PHASE_WORDS, table_text
from fiesta_envs.tortilla.state import Phase as TortillaPhase

GAMES = ("fiesta_mexicana", "tortilla_de_patatas", "tequila", "fiesta_de_los_muertos", "la_catrina")
RULE = "-" * WIDTH


def new_game(name: str, num_players: int | None = None, seed: int = 3, **options):
    return game_spec(name).game_class()(num_players=num_players, seed=seed, **options)


def play_lines(game, lines: list[str], seat: int = 0, then_numbers: int = 0) -> str:
    """What the person in ``seat`` reads after typing ``lines`` (then ``then_numbers`` random menu numbers)."""
    rng = np.random.default_rng(0)
    script = "".join(f"{line}\n" for line in lines) + "".join(f"{rng.integers(1, 4)}\n" for _ in range(then_numbers))
    out = io.StringIO()
    opponents = {s: ("random", RandomPolicy(seed=s)) for s in range(game.num_players) if s != seat}
    PlaySession(game, seat, opponents, stdin=io.StringIO(script), stdout=out).run()
    return out.getvalue()


def flat(text: str) -> str:
    """``text`` with every run of white space one space (wrapped lines read as one)."""
    return " ".join(text.split())


def boards(text: str) -> list[str]:
    """The output split at each showing of the table (the first piece is the introduction)."""
    return text.split(RULE + "\n")


# ---------------------------------------------------------------------- Tequila: own farm, others when changed
def test_tequila_shows_the_own_farm_at_every_decision_and_the_legend_once() -> None:
    game = new_game("tequila", 2)
    text = play_lines(game, ["reroll none", "virtual build", "legend", "board"])
    intro, first, second, third, board = boards(text)
    legend_start = flat(LEGEND)[:60]
    assert legend_start in flat(intro)  # the legend once, before the game
    main_phase = third.split("player_0> ")[0]  # what was shown before 'legend' was typed
    assert all(legend_start not in flat(shown) for shown in (first, second, main_phase))
    for shown in (first, second, third):  # the own farm always
        assert "player_0 (side A jimador)" in shown and "  0 20 " in shown
    assert "player_1 (side A jimador)" in first  # the other farm: the first time ...
    for shown in (second, main_phase):  # ... then not while it is unchanged, with a line that says so
        assert "player_1 (side A jimador)" not in shown
        assert (
            "(unchanged since you last saw it, not shown: player_1's farm; 'board' shows all, 'board 1' one)" in shown
        )
        assert len(shown.splitlines()) <= len(first.splitlines()) - 10
    assert flat(third).count(legend_start) == 1  # 'legend' shows it again
    assert "player_1 (side A jimador)" in board and "player_0 (side A jimador)" in board  # 'board': every farm
    assert board.startswith("Tequila, round 1 of 8")


def test_tequila_shows_another_farm_again_when_it_changed() -> None:
    """The others' moves of a round are shown when it ends (``render.seen_by``): their farm is shown again then,
    at the person's first decision of each new round, and not at the others."""
    game = new_game("tequila", 2, seed=5)
    text = play_lines(game, [], then_numbers=400)
    rounds, other_shown = [], []
    for board in boards(text)[1:]:
        found = re.match(r"Tequila, round (\d) of 8", board)
        if found:  # not the end of the game
            rounds.append(int(found.group(1)))
            other_shown.append("player_1 (side A jimador)" in board)
    assert rounds[-1] >= 3 and len(rounds) > 2 * rounds[-1]  # several rounds, several decisions in each
    new_round = [True] + [now != before for before, now in itertools.pairwise(rounds)]
    assert other_shown == new_round


def test_board_n_shows_one_player_s_part() -> None:
    text = play_lines(new_game("tequila", 3), ["board 2", "board player_1", "board 5"])
    asked = text.split("player_0> ", 1)[1]
    first, second, wrong = asked.split("player_0> ")[:3]
    assert first.startswith("player_2 (side A jimador)") and "player_1 (" not in first and "player_0 (" not in first
    assert second.startswith("player_1 (side A jimador)") and "player_2 (" not in second
    assert wrong.startswith("'board N' shows player_N's part of the table: N is one of 0, 1, 2")
    shared_only = play_lines(new_game("fiesta_de_los_muertos", 4), ["board 1"])
    assert "this game's table has no part of its own per player: 'board' shows it all" in shared_only


def test_the_table_parts_put_the_own_area_first() -> None:
    game = new_game("tequila", 3)
    parts = table_text(game, 1).parts
    assert [(part.title, part.seat) for part in parts] == [
        ("your farm", 1),
        ("player_2's farm", 2),
        ("player_0's farm", 0),
    ]
    assert parts[0].lines[0].startswith("player_1 (")
    table = table_text(new_game("fiesta_mexicana", 3), 2)
    assert [part.title for part in table.parts] == ["the table", "your table", "player_0's table", "player_1's table"]
    assert table.parts[1].lines[0].startswith("player 2: ")


def test_a_tequila_decision_is_less_than_half_the_lines_it_was() -> None:
    """Before: the engine's whole text (both farms and the legend), 46 lines for 2 players, at every decision."""
    game = new_game("tequila", 2)
    engine_text = len(game.render_text().splitlines())
    shown = boards(play_lines(game, ["reroll none", "virtual build"]))[2]
    assert len(shown.splitlines()) <= engine_text // 2 + 10


# ---------------------------------------------------------------------- the status line
@pytest.mark.parametrize(
    ("game", "phases", "asked_never"),
    [
        ("tequila", TequilaPhase, {"turn_done", "over"}),
        ("fiesta_mexicana", FiestaMexicanaPhase, {"over"}),
        ("tortilla_de_patatas", TortillaPhase, {"over"}),
        ("fiesta_de_los_muertos", MuertosPhase, {"done"}),
        ("la_catrina", MuertosPhase, {"done"}),
    ],
)
def test_every_phase_a_person_is_asked_in_has_words(game: str, phases, asked_never: set[str]) -> None:
    labels = {phase.name.lower() for phase in phases}
    assert set(PHASE_WORDS[game]) == labels - asked_never
    for words in PHASE_WORDS[game].values():  # the words do not name the phase by its label alone
        assert not re.fullmatch(r"\w+", words)


JARGON = re.compile(r"\bphase\b|\bto act\b|\bdecider\b|\bseat \d|player_\d to \w+$|\bturn 0\b")


@pytest.mark.parametrize("name", GAMES)
def test_status_lines_speak_plain_words(name: str) -> None:
    game = new_game(name, seed=4)
    text = play_lines(game, [], seat=0, then_numbers=3000)
    assert game.is_over
    statuses = [" ".join(board.replace("\n    ", " ").splitlines()[0].split()) for board in boards(text)[1:]]
    assert len(statuses) > 3
    labels = set(PHASE_WORDS[name])
    for status in statuses:
        assert status.startswith(guide_for(name).title), status
        assert not JARGON.search(status), status
        if "Your move: " in status:
            said = status.split("Your move: ", 1)[1].rstrip(".")
            assert said in PHASE_WORDS[name].values(), status
            assert said not in labels
        else:
            assert status.endswith(": game over."), status
    assert statuses[-1].endswith(": game over.")


def test_the_engine_status_lines_are_not_shown() -> None:
    """The engines' first lines name phases as the state dicts do; the terminal shows its status line instead."""
    shown = {
        "tequila": "to reroll",
        "fiesta_mexicana": "phase: orient",
        "tortilla_de_patatas": "to act: setup",
        "fiesta_de_los_muertos": "phase write, decider seat 0",
    }
    for name, engine_words in shown.items():
        game = new_game(name, seed=1)
        assert engine_words in game.render_text()
        table = table_text(game, 0)
        assert all(engine_words not in line for part in table.parts for line in part.lines)
        assert engine_words not in table.status


# ---------------------------------------------------------------------- the turn counter
@pytest.mark.parametrize("menu", ["day", "kids"])
def test_the_tortilla_turn_counter_starts_at_1(menu: str) -> None:
    game = new_game("tortilla_de_patatas", 2, seed=1, menu=menu)
    while game.state.phase == TortillaPhase.SETUP:
        assert "setting up the pans" in table_text(game, game.current_player).status
        assert game.render_text().splitlines()[0].endswith(", setup")
        game.step(game.legal_actions()[0])
    assert ", turn 1, " in table_text(game, game.current_player).status
    assert game.render_text().splitlines()[0].endswith(", turn 1")
    first = game.current_player
    while game.current_player == first:  # the first turn ends with a draw
        game.step(game.legal_actions()[-1])
    assert ", turn 2, " in table_text(game, game.current_player).status
    assert game.render_text().splitlines()[0].endswith(", turn 2")


def test_round_counters_start_at_1() -> None:
    assert table_text(new_game("tequila", 2), 0).status.startswith("Tequila, round 1 of 8,")
    assert table_text(new_game("la_catrina", 4), 0).status.startswith("La Catrina (campaign), round 1 of 4,")


# ---------------------------------------------------------------------- help and legend
@pytest.mark.parametrize("name", GAMES)
def test_help_shows_the_game_s_own_action_names(name: str) -> None:
    game = new_game(name)
    text = help_text(game, game.legal_actions())
    examples = re.findall(r"'([^']+)'", text.split("\n")[1])
    assert examples and set(examples) <= set(GUIDES[name].examples)
    for example in examples:
        game.string_to_action(example)  # raises if the example is not one of this game's actions
    legal = game.legal_action_names()
    beginning = re.search(r"e\.g\. '([^']+)' now, as '([^']+)' is the only legal action", text)
    if beginning:
        short, full = beginning.groups()
        assert full in legal and [n for n in legal if n.startswith(short)] == [full]
    else:  # said in general only when no legal name has a shorter unique beginning
        assert "  a unique beginning    of a legal action's name, when no other legal action starts so" in text
        for legal_name in legal:
            ends = range(len(legal_name.split()[0]), len(legal_name))
            assert all(sum(n.startswith(legal_name[:end]) for n in legal) > 1 for end in ends)
    others = {example for other, guide in GUIDES.items() if other != name for example in guide.examples}
    for example in others - set(GUIDES[name].examples):
        assert f"'{example}'" not in text


def test_help_typed_in_a_game_is_that_game_s() -> None:
    text = play_lines(new_game("tequila", 2), ["help"])
    assert "e.g. 'build kiln at 1 4 as 0', 'fence 7' or 'virtual build'" in text
    assert "'reroll n' now, as 'reroll none' is the only legal action starting so" in text
    assert "'bid 9'" not in text and "rotate" not in text
    assert "'legend' (what the symbols mean)" in flat(text)


@pytest.mark.parametrize("name", ["fiesta_de_los_muertos", "la_catrina"])
def test_legend_in_a_game_without_symbols_says_so(name: str) -> None:
    text = play_lines(new_game(name), ["legend"])
    assert "this game's table uses no symbols that need a legend" in text


# ---------------------------------------------------------------------- one symbol per thing
def test_the_tequila_legend_gives_each_letter_one_meaning() -> None:
    letters = [*BUILDING_LETTERS, *RESOURCE_LETTERS]
    assert len(set(letters)) == len(letters)
    legend = " ".join(guide_for("tequila").legend.split())
    for letter, noun in zip(BUILDING_LETTERS, tequila_components.BUILDING_NOUNS, strict=True):
        assert f" {letter} {noun}" in legend
    for letter, name in zip(RESOURCE_LETTERS, tequila_components.RESOURCES, strict=True):
        assert f" {letter} {name}" in legend
    said = re.findall(r"(?:: |, )([a-z~.]) (\w+)", legend)
    meanings: dict[str, set[str]] = {}
    for letter, noun in said:
        meanings.setdefault(letter, set()).add(noun)
    assert all(len(nouns) == 1 for nouns in meanings.values()), meanings


def test_the_documented_farm_map_is_the_farm_the_terminal_draws() -> None:
    """The game page's farm map shows, square by square, the letters ``fiesta play`` draws for the empty farm,
    and its legend gives each resource the terminal's letter."""
    from fiesta_envs.tequila import farm
    from fiesta_envs.tequila.render import ICON_LETTERS, WATER

    page = importlib.import_module(game_spec("tequila").aec_module).__doc__
    legend = re.search(r"resource: ((?:\w \w+, )*\w \w+)", flat(page)).group(1)
    documented = dict(pair.split() for pair in legend.split(", "))
    assert documented == dict(zip(RESOURCE_LETTERS, tequila_components.RESOURCES, strict=True))
    rows = re.findall(r"^    (\d)  ((?:[^ ] ){7}[^ ])$", page, flags=re.MULTILINE)
    assert [int(r) for r, _ in rows] == list(range(farm.SIZE))
    for r, squares in rows:
        for c, letter in enumerate(squares.split()):
            x = farm.space(int(r), c)
            drawn = WATER if farm.WATER_SPACES >> x & 1 else ICON_LETTERS[farm.SPACE_RESOURCE[x]]
            assert letter == drawn, (r, c)


def test_fiesta_mexicana_says_who_passed_in_words() -> None:
    game = new_game("fiesta_mexicana", 3)
    while game.phase_name != "auction":
        game.step(game.legal_actions()[0])
    assert "high bid: - by nobody; passed: nobody" in game.render_text()
    game.play(game.legal_action_names()[0], "pass")
    assert "high bid: 1 by player 0; passed: player 1" in game.render_text()


def test_the_writing_steps_count_teeth_in_words() -> None:
    game = new_game("fiesta_de_los_muertos", 4)
    said = []
    while game.state.round.phase == MuertosPhase.WRITE:
        said += [line for line in game.render_text().splitlines() if line.startswith("writing step")]
        game.step(game.legal_actions()[0])
    assert said[0] == "writing step 1 of 4: 0 teeth written on each skull"
    assert "writing step 2 of 4: 1 tooth written on each skull" in said
    assert said[-1] == "writing step 4 of 4: 3 teeth written on each skull"
