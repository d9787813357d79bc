"""Tequila's text board (issue 22): the farm with row and column numbers and numbered fence segments,
fields with their houses and rewards, the market, what is left of the round, one letter per meaning;
the terminal game's hints (orientations where building is asked) and its one-line summary of a turn."""

from __future__ import annotations

import io

from fiesta_envs.policies.policy import RandomPolicy
from fiesta_envs.tequila import components, farm
from fiesta_envs.tequila.game import Tequila
from fiesta_envs.tequila.render import DOWN_WIDTH, RESOURCE_LETTERS, down_column, farm_lines, render_text, square_column
from fiesta_envs.tools.guides import decision_hint
from fiesta_envs.tools.narration import summarise
from fiesta_envs.tools.play import WIDTH, PlaySession

FENCED_OFF = ("fence 4", "fence 8", "fence 25", "fence 26")  # the four sides of field F4 (rows 2-3, columns 0-1)


def built_and_fenced() -> tuple[Tequila, str]:
    """Seat 0 in round 1 with resources to spare, a distiller built and field F4 fenced off."""
    game = Tequila(num_players=2, seed=1)
    game.play("reroll none", "virtual build")
    data = game.state_dict()
    data["state"]["sheets"][0]["marked"] = [6] * len(components.RESOURCES)
    game.load_state_dict(data)
    distiller = next(name for name in game.legal_action_names() if name.startswith("build distiller"))
    game.play(distiller, *FENCED_OFF)
    return game, distiller


def seat_farm(game: Tequila, seat: int = 0) -> list[str]:
    return farm_lines(game.state.sheets[seat])


def test_rows_and_columns_are_numbered_as_the_actions_name_them() -> None:
    lines = seat_farm(Tequila(num_players=2, seed=1))
    assert lines[0].split() == [str(c) for c in range(farm.SIZE)]
    for c in range(farm.SIZE):
        assert lines[0][square_column(c)] == str(c)
    rows = [line for line in lines if line[:3].strip().isdigit()]
    assert [int(line[:3]) for line in rows] == list(range(farm.SIZE))
    for r, line in enumerate(rows):
        for c in range(farm.SIZE):
            x = farm.space(r, c)
            printed = farm.SPACE_RESOURCE[x]
            expected = "~" if farm.WATER_SPACES >> x & 1 else "." if printed is None else RESOURCE_LETTERS[printed]
            assert line[square_column(c)] == expected, (r, c)


def test_every_fence_segment_not_drawn_shows_its_action_number_and_drawn_ones_show_the_fence() -> None:
    game, _ = built_and_fenced()
    drawn = {int(name.split()[1]) for name in FENCED_OFF}
    lines = seat_farm(game)
    across = [line for line in lines if line.strip().startswith("+")]
    assert len(across) == farm.FIELDS_PER_SIDE + 1
    for fr, line in enumerate(across):
        parts = line.strip().strip("+").split("+")
        for fc, part in enumerate(parts):
            segment = fr * farm.FIELDS_PER_SIDE + fc
            assert part.strip() == ("======" if segment in drawn else str(segment)), (segment, line)
    rows = [line for line in lines if line[:3].strip().isdigit()]
    for fr in range(farm.FIELDS_PER_SIDE):
        first, second = rows[2 * fr], rows[2 * fr + 1]
        for border in range(farm.FIELDS_PER_SIDE + 1):
            segment = farm.NUM_HORIZONTAL + fr * (farm.FIELDS_PER_SIDE + 1) + border
            at = slice(down_column(border), down_column(border) + DOWN_WIDTH)
            if segment in drawn:
                assert first[at] == second[at] == "||"
            else:
                assert first[at] == str(segment).rjust(DOWN_WIDTH) and second[at].strip() == ""
    names = game.action_names()
    assert all(f"fence {s}" in names for s in range(farm.NUM_SEGMENTS))


def test_a_distiller_and_a_donkey_space_are_drawn_differently() -> None:
    game, distiller = built_and_fenced()
    placement = farm.PLACEMENTS[game.action_names().index(distiller) - game.string_to_action("build road at 0 0 as 0")]
    assert components.BUILDINGS[placement.kind] == "distiller"
    covered = set(farm.spaces_of(placement.spaces))
    rows = [line for line in seat_farm(game) if line[:3].strip().isdigit()]
    donkey = components.RESOURCES.index("donkey")
    for x in range(farm.SPACES):
        r, c = divmod(x, farm.SIZE)
        letter = rows[r][square_column(c)]
        if x in covered:
            assert letter == "d"
        elif farm.SPACE_RESOURCE[x] == donkey:
            assert letter == "y"
        else:
            assert letter != "d"
    text = render_text(game)
    assert "d distiller" in text and "y donkey" in " ".join(text.split())


def test_fields_show_houses_rewards_and_which_are_fenced_off() -> None:
    game, _ = built_and_fenced()
    text = render_text(game)
    assert "fields (gained when fenced off; H house, * fenced off)" in text
    assert "*F4 H w" in text  # fenced off: field F4 has a house and gives water
    assert " F7 H a" in text and " F5 b" in text and " F3 w w" in text
    assert "*F5" not in text


def test_the_market_shows_payments_requirements_and_marked_spaces() -> None:
    game = Tequila(num_players=2, seed=1)
    text = render_text(game)
    assert "market ('sell R C'; row 2: buildings needed; ## marked)" in text
    assert "  0 a1 w1 j1 y2 b2 a2 w3 b3" in text
    assert "  1 y1 b1 a2 j2 w2 y3 j3 a3" in text
    assert "  2 g1 k1 r2 d1 k2 c1 s1 s2" in text
    data = game.state_dict()
    data["state"]["sheets"][1]["market"] = 1  # space 0 0 marked
    game.load_state_dict(data)
    assert "  0 ## w1 j1" in render_text(game)
    green = Tequila(num_players=2, seed=1, jimadores="B", jimador_order="green,purple")
    assert "  0 -- -- -- y1 b1 a1 w2 b2" in render_text(green)  # the green jimador pays one less


def test_what_is_left_of_the_round_is_shown() -> None:
    game, _ = built_and_fenced()
    text = render_text(game)
    assert "this round: virtual die on building; left 0 fences, 1 building action, 1 gear" in text
    assert max(len(line) for line in text.splitlines()) <= WIDTH


def test_building_orientations_are_drawn_where_building_is_asked() -> None:
    game = Tequila(num_players=2, seed=1)
    game.play("reroll none", "virtual build")
    hint = decision_hint(game, 0)
    assert hint is not None and "'build KIND at R C as O'" in hint
    pictures = hint.split("\n")[1:]
    assert pictures[0].split() == ["kiln:", "as", "0", "as", "1"]  # only the kinds that may be built now
    assert pictures[1].split() == ["k", "k", "k"] and pictures[2].split() == ["k"]
    assert not any("shop" in line for line in pictures)
    run = PlaySession(game, 0, {1: ("random", RandomPolicy(seed=1))}, stdin=io.StringIO("end\n"), stdout=io.StringIO())
    run.human_turn()
    shown = run.stdout.getvalue().splitlines()
    assert "     kiln:        as 0  as 1" in shown


def test_an_opponents_round_is_summarised_in_one_paragraph() -> None:
    assert summarise(["pay agave", "pay agave", "pay water", "end"]) == "pay agave x2, water; end"
    assert summarise(["build road at 1 2 as 0", "build kiln at 2 2 as 1"]) == "build road at 1 2 as 0, kiln at 2 2 as 1"

    def told(keys: str) -> str:
        out = io.StringIO()
        game = Tequila(num_players=2, seed=1)
        PlaySession(game, 1, {0: ("random", RandomPolicy(seed=4))}, stdin=io.StringIO(keys), stdout=out).run()
        return " ".join(out.getvalue().split())

    # the round is simultaneous: while it lasts, the opponent's moves are held back ...
    during = told("quit\n")
    assert "player_0 (random) has played in this round" in during
    assert "player_0 (random), " not in during
    # ... and told as one paragraph when it ends (the re-roll, public at once, was told before)
    after = told("reroll none\nvirtual fence\nend\nquit\n")
    assert after.count("player_0 (random), 6 moves: virtual build; build road at 6 4 as 0;") == 1
    assert after.index("player_0 (random), 6 moves:") < after.index("Tequila, round 2 of 8")


def test_a_payment_of_choice_says_what_it_pays_for() -> None:
    game = Tequila(num_players=2, seed=1)
    game.play("reroll none", "virtual build", "build road at 0 0 as 0")
    assert decision_hint(game, 0) == "pay one resource of your choice for the road (2 left to pay)"
