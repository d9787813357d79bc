"""Fiesta de los Muertos (one round): every rule of the rulings, as scenario tests."""

from __future__ import annotations

import json

import numpy as np
import pytest
from muertos_scenarios import (
    deduce,
    edit_state,
    first_legal_name,
    give_characters,
    keep_first,
    legal_words,
    play_round,
    write_all,
)

from fiesta_envs.core.errors import IllegalActionError, InvalidOptionError, InvalidStateError
from fiesta_envs.muertos.bands import result_band
from fiesta_envs.muertos.components import BLANK, MEMORY_BONES, NOT_WRITTEN, Phase
from fiesta_envs.muertos.constraints import CONSTRAINTS, INCOMPATIBLE, allowed_after, check_word, constraint_id
from fiesta_envs.muertos.engine import LAYOUT, LEXICON, OBSERVER
from fiesta_envs.muertos.game import FiestaDeLosMuertos
from fiesta_envs.muertos.lexicon import THEMES, name_tokens


def new(n: int = 4, seed: int = 0, **options) -> FiestaDeLosMuertos:
    return FiestaDeLosMuertos(num_players=n, seed=seed, **options)


def random_play(game, seed: int = 0, stop=lambda g: False) -> None:
    rng = np.random.default_rng(seed)
    while not game.is_over and not stop(game):
        legal = np.flatnonzero(game.legal_mask())
        game.step(int(legal[rng.integers(len(legal))]))


# ---------------------------------------------------------------------- options and set-up
def test_player_counts_and_defaults():
    assert FiestaDeLosMuertos.player_counts == (4, 5, 6, 7, 8)
    assert new().num_players == 4 == FiestaDeLosMuertos().num_players
    assert FiestaDeLosMuertos.cooperative
    for bad in (3, 9):
        with pytest.raises(InvalidOptionError, match="num_players"):
            FiestaDeLosMuertos(num_players=bad)


@pytest.mark.parametrize(
    ("n", "options", "pattern"),
    [
        (5, {"double_challenge": True}, "needs 4 players"),
        (4, {"double_challenge": True, "draw_choice": True}, "draw_choice"),
        (4, {"constraints": 4}, "constraints"),
        (4, {"cortege": 1}, "cortege"),
        (4, {"colour": "red"}, "unknown option"),
    ],
)
def test_invalid_options_are_refused(n, options, pattern):
    with pytest.raises(InvalidOptionError, match=pattern):
        new(n, **options)


def test_deal_without_draw_choice_starts_writing_with_eight_distinct_characters_on_the_table():
    for n in range(4, 9):
        game = new(n, seed=n)
        assert game.state.round.phase == Phase.WRITE
        table = game.state.round.table
        assert len(table) == len(set(table)) == 8
        assert set(game.state.round.characters) <= set(table)
        assert len(game.state.round.extras) == 8 - n


def test_draw_choice_keeps_one_of_two_and_the_other_never_reaches_the_table():
    game = new(6, seed=3, draw_choice=True)
    assert game.state.round.phase == Phase.DRAW
    for seat in range(6):
        assert game.current_player == seat
        offered = game.state.round.offers[seat]
        assert len(offered) == 2
        legal = [LAYOUT.keep + c for c in offered]
        assert np.flatnonzero(game.legal_mask()).tolist() == sorted(legal)
        other = LEXICON.characters[offered[0]].name
        if seat == 0:
            with pytest.raises(IllegalActionError, match="was not dealt to you"):
                game.play(f"keep {LEXICON.characters[game.state.round.offers[1][0]].name}")
        game.play(f"keep {LEXICON.characters[offered[1]].name}")
        assert game.state.round.characters[seat] == offered[1], other
    assert game.state.round.phase == Phase.WRITE
    put_back = {offer[0] for offer in game.state.round.offers}
    assert not put_back & set(game.state.round.table)


def test_every_deal_is_reshuffled_from_the_seed():
    tables = {tuple(new(4, seed=s).state.round.table) for s in range(10)}
    assert len(tables) == 10


def test_cortege_uses_two_themes_only():
    for seed in range(30):
        game = new(8, seed=seed, cortege=True)
        themes = game.state.round.theme_names()
        assert len(set(themes)) == 2 and set(themes) <= set(THEMES)
        assert {LEXICON.characters[c].theme for c in game.state.round.table} <= set(themes)


def test_no_cortege_draws_from_every_theme():
    seen = {LEXICON.characters[c].theme for s in range(20) for c in new(8, seed=s).state.round.table}
    assert seen == set(THEMES)


# ---------------------------------------------------------------------- writing
def test_first_word_is_associated_with_the_character_and_not_part_of_its_name():
    game = new(4, seed=1)
    character = game.state.round.characters[0]
    legal = legal_words(game)
    tags = set(LEXICON.characters[character].tags)
    expected = {
        w.text
        for w in LEXICON.words
        if tags & set(w.tags) and w.text not in name_tokens(LEXICON.characters[character].name)
    }
    assert legal == expected and legal


def test_named_chain_dracula_and_the_big_bad_wolf():
    """Dracula (night, castle, blood, death, grave, monster); The Big Bad Wolf (forest, animal,
    wolf, ...); sunny (sun, light, laughter); vampire (night, blood, monster, animal); bat (night,
    animal, sport); castle (castle, game)."""
    game = new(4, seed=0)
    give_characters(game, ["Dracula", "The Big Bad Wolf"])
    with pytest.raises(IllegalActionError, match="not associated with Dracula"):
        game.play("write sunny")
    game.play("write vampire")  # seat 0, on its own skull
    with pytest.raises(IllegalActionError, match="part of the name"):
        game.play("write wolf")  # seat 1: "wolf" shares the tag wolf, but it is in the name
    game.play("write forest")
    for _seat in (2, 3):
        game.play(first_legal_name(game))
    assert game.state.round.step == 1 and game.current_player == 0
    game.play(first_legal_name(game))  # seat 0 answers seat 3's skull
    assert game.state.round.prompt() == ("word", LEXICON.word_id("vampire"))  # seat 1 holds Dracula's skull
    with pytest.raises(IllegalActionError, match="must differ"):
        game.play("write vampire")
    with pytest.raises(IllegalActionError, match="not associated with 'vampire'"):
        game.play("write castle")
    game.play("write bat")
    assert game.state.round.words[0][:2] == [LEXICON.word_id("vampire"), LEXICON.word_id("bat")]


def test_named_constraints_nouns_only_and_last_letter():
    game = new(4, seed=0, constraints=2)
    nouns_only, last_letter = (
        next(c.id for c in CONSTRAINTS if c.name == n) for n in ("nouns_only", "begins_with_last_letter")
    )
    edit_state(game, lambda s: s["round"].__setitem__("constraints", [nouns_only, last_letter]))
    give_characters(game, ["Dracula"])
    with pytest.raises(IllegalActionError, match="Nouns only"):
        game.play("write red")  # associated (blood) but an adjective
    game.play("write vampire")  # a first word: the last-letter card does not apply
    for _ in range(3):
        game.play(first_legal_name(game))
    game.play(first_legal_name(game))  # seat 0, step 1
    # seat 1 reads "vampire": a noun sharing a tag and beginning with "e"
    assert legal_words(game) == {
        w.text
        for w in LEXICON.words
        if w.pos == "noun" and w.text[0] == "e" and set(w.tags) & set(LEXICON.words[LEXICON.word_id("vampire")].tags)
    }
    with pytest.raises(IllegalActionError, match="last letter"):
        game.play("write bat")


def test_a_word_of_the_name_is_refused_even_when_it_shares_a_tag():
    for c, character in enumerate(LEXICON.characters):
        for token in name_tokens(character.name):
            try:
                w = LEXICON.word_id(token)
            except ValueError:
                continue
            if (LEXICON.character_tags[c] & LEXICON.word_tags[w]).any():
                game = new(4, seed=0)
                edit_state(game, lambda s, c=c: s["round"]["characters"].__setitem__(0, c))
                if c in game.state.round.extras:
                    continue
                with pytest.raises(IllegalActionError, match="part of the name"):
                    game.play(f"write {token}")
                return
    pytest.skip("the lexicon has no name word that shares a tag with its character")


def test_ruling_name_words_are_whole_words_of_the_name():
    """Our ruling: a first word may not be a whole word of the name ("wolf", "monster"), but a
    longer word containing one ("werewolf") is another word, legal when it shares a tag."""
    game = new(4, seed=0)
    give_characters(game, ["The Big Bad Wolf", "Frankenstein's Monster"])
    assert "wolf" not in legal_words(game) and "werewolf" in legal_words(game)
    game.play("write werewolf")
    assert "monster" not in legal_words(game)
    with pytest.raises(IllegalActionError, match='part of the name "Frankenstein\'s Monster"'):
        game.play("write monster")


def test_a_word_sharing_no_tag_with_the_character_is_refused():
    game = new(4, seed=1)
    character = game.state.round.characters[0]
    stranger = next(w for w in LEXICON.words if not set(w.tags) & set(LEXICON.characters[character].tags))
    with pytest.raises(IllegalActionError, match="not associated"):
        game.play(f"write {stranger.text}")


def test_next_word_is_associated_with_the_word_it_replaces_and_differs():
    game = new(4, seed=2)
    for _ in range(4):  # step 0 for every seat
        game.play(first_legal_name(game))
    previous = game.state.round.words[game.state.round.current_skull()][0]
    assert previous >= 0
    assert legal_words(game) == {
        w.text for w in LEXICON.words if w.id != previous and set(w.tags) & set(LEXICON.words[previous].tags)
    }
    with pytest.raises(IllegalActionError, match="must differ"):
        game.play(f"write {LEXICON.words[previous].text}")


def test_a_previous_word_card_applies_to_a_next_word_but_not_after_a_blank():
    """Ruling: a constraint about the previous word does not apply after a blank (the writer
    reads no word); it applies again to the word that follows a written word."""
    game = new(4, seed=5, constraints=1)
    last_letter = constraint_id("begins_with_last_letter")
    edit_state(game, lambda s: s["round"].__setitem__("constraints", [last_letter]))
    for _ in range(4):  # step 0: every seat writes on its own skull
        game.play(first_legal_name(game))
    # step 1, seat 0 reads the first word of seat 3's skull: the card applies
    previous = LEXICON.words[game.state.round.words[3][0]]
    assert game.state.round.prompt() == ("word", previous.id)
    assert {w[0] for w in legal_words(game)} == {previous.text[-1]}
    # the same tooth left blank: every word of the lexicon is legal again
    edit_state(game, lambda s: s["round"]["words"][3].__setitem__(0, BLANK))
    assert game.state.round.prompt() == ("blank", BLANK)
    assert legal_words(game) == {w.text for w in LEXICON.words}


def test_writing_schedule_seat_i_holds_the_skull_of_seat_i_minus_k():
    for n in (4, 7):
        game = new(n, seed=n)
        for step in range(4):
            for seat in range(n):
                assert game.current_player == seat
                assert game.state.round.step == step
                skull = game.state.round.current_skull()
                assert skull == (seat - step) % n
                if step > 0:
                    # what the writer reads is the word the previous seat wrote one step before
                    kind, ident = game.state.round.prompt()
                    assert (kind, ident) == ("word", game.state.round.words[skull][step - 1])
                game.play(first_legal_name(game))
                assert game.state.round.words[skull][step] >= 0
        assert game.state.round.phase == Phase.DEDUCE


def _dead_end():
    """A constraint set and a word after which no word is legal."""
    for a in range(len(CONSTRAINTS)):
        for b in range(a + 1, len(CONSTRAINTS)):
            if frozenset((a, b)) in INCOMPATIBLE:
                continue
            for w in range(len(LEXICON.words)):
                if not (LEXICON.word_links[w] & allowed_after([a, b], w, LEXICON)).any():
                    return [a, b], w
    raise AssertionError("no dead end in the lexicon")


def test_blank_only_when_no_word_is_legal_and_after_a_blank_any_word_meeting_the_constraints():
    game = new(4, seed=5, constraints=2)
    assert not game.legal_mask()[LAYOUT.blank]
    with pytest.raises(IllegalActionError, match="blank is allowed only when no word is legal"):
        game.play("blank")
    constraints, dead = _dead_end()

    def setup(state):
        state["round"]["constraints"] = constraints
        state["round"]["step"] = 1
        state["round"]["seat"] = 0
        for skull in state["round"]["words"]:
            skull[0] = dead

    edit_state(game, setup)
    assert np.flatnonzero(game.legal_mask()).tolist() == [LAYOUT.blank]
    game.play("blank")
    assert game.state.round.words[3][1] == BLANK
    # seat 1 now; skip to step 2 where seat 0 reads the blank on skull 2... (seat 0 holds skull 0-2)
    edit_state(game, lambda s: s["round"].update(step=2, seat=0) or s["round"]["words"][2].__setitem__(1, BLANK))
    assert game.state.round.prompt() == ("blank", BLANK)
    expected = allowed_after(constraints, None, LEXICON)
    assert (game.legal_mask()[LAYOUT.write : LAYOUT.blank].astype(bool) == expected).all()


def test_what_a_writer_may_write_depends_on_what_it_reads_not_on_earlier_prompts():
    game = new(4, seed=5)

    def seat_0_draws_character_0(state):
        drawn, extras = state["round"]["characters"], state["round"]["extras"]
        for cards in (drawn, extras):
            if 0 in cards:
                cards[cards.index(0)] = drawn[0]
        drawn[0] = 0

    edit_state(game, seat_0_draws_character_0)
    assert (game.state.round.allowed_words() == LEXICON.character_links[0]).all()
    # the same round object, later: seat 1 reads a blank on skull 0
    game.state.round.words[0][0] = BLANK
    game.state.round.step, game.state.round.seat = 1, 1
    assert game.state.round.prompt() == ("blank", BLANK)
    assert game.state.round.allowed_words().all()


def test_constraints_in_play_restrict_every_word():
    for seed in range(3):
        game = new(5, seed=seed, constraints=3)
        constraints = game.state.round.constraints
        assert len(set(constraints)) == 3
        assert not any(frozenset(p) in INCOMPATIBLE for p in [(a, b) for a in constraints for b in constraints])
        while game.state.round.phase == Phase.WRITE:
            kind, ident = game.state.round.prompt()
            previous = ident if kind == "word" else None
            for w in np.flatnonzero(game.legal_mask()[LAYOUT.write : LAYOUT.blank]):
                assert check_word(constraints, int(w), previous, LEXICON) is None
            game.play(first_legal_name(game))


def test_a_word_breaking_a_constraint_is_refused_naming_the_card():
    game = new(4, seed=0)
    character = game.state.round.characters[0]
    linked = np.flatnonzero(LEXICON.character_links[character])
    for cid, card in enumerate(CONSTRAINTS):
        edit_state(game, lambda s, cid=cid: s["round"].__setitem__("constraints", [cid]))
        breaking = [w for w in linked if check_word([cid], int(w), None, LEXICON)]
        if breaking:
            with pytest.raises(IllegalActionError, match=card.text[:20]):
                game.play(f"write {LEXICON.words[breaking[0]].text}")
            return
    raise AssertionError("no constraint card restricts this character's first words")


def test_no_constraints_by_default_and_the_option_sets_the_count():
    assert new().state.round.constraints == []
    assert len(new(constraints=1).state.round.constraints) == 1


# ---------------------------------------------------------------------- deduction
def test_every_player_matches_every_skull_in_number_order_including_their_own():
    game = new(5, seed=4)
    write_all(game)
    assert game.state.round.phase == Phase.DEDUCE
    for seat in range(5):
        for number in range(5):
            assert game.current_player == seat
            legal = np.flatnonzero(game.legal_mask())
            assert legal.tolist() == [LAYOUT.match_action(number, c) for c in range(8)]
            if number == 1:
                with pytest.raises(IllegalActionError, match="skull 2 is the one to match now"):
                    game.play("match 3 to 1")
            game.play(f"match {number + 1} to 1")  # the same character for every skull is allowed
    assert game.state.round.phase != Phase.DEDUCE
    assert all(g == [0] * 5 for g in game.state.round.guesses)


def test_skull_numbers_are_a_fresh_shuffle():
    orders = {tuple(new(6, seed=s).state.round.numbers) for s in range(12)}
    assert len(orders) > 6


def test_the_eight_characters_are_laid_out_in_a_random_order():
    """Ruling: the players' characters plus the extras, in random order: the slot of a seat's
    character tells nothing about the seat."""
    slots = {seat: set() for seat in range(4)}
    for seed in range(30):
        game = new(4, seed=seed)
        for seat in range(4):
            slots[seat].add(game.state.round.table.index(game.state.round.characters[seat]))
    assert all(len(seen) >= 5 for seen in slots.values()), slots


# ---------------------------------------------------------------------- appeasement
def test_boxes_white_first_then_yellow_needs_every_player():
    game = new(5, seed=6)
    write_all(game)
    deduce(game, [5, 4, 3, 0, 1])
    by_number = [game.state.round.numbers[d] for d in range(5)]
    whites = [game.state.round.whites[j] for j in by_number]
    yellow = [game.state.round.yellow[j] for j in by_number]
    assert whites == [4, 4, 3, 0, 1]
    assert yellow == [True, False, False, False, False]
    assert [game.state.round.closed(j) for j in by_number] == [True, True, False, False, False]


@pytest.mark.parametrize(("n", "bones"), sorted(MEMORY_BONES.items()))
def test_memory_bones_at_start_by_player_count(n, bones):
    assert new(n).state.team.memory == bones == {4: 0, 5: 1, 6: 2, 7: 3, 8: 4}[n]


def test_a_yellow_box_wins_a_memory_bone_that_can_be_spent_at_once():
    game = new(4, seed=7)
    write_all(game)
    deduce(game, [4, 3, 2, 1])
    assert game.state.team.memory == 1  # 0 at start + 1 for the yellow box of skull 1
    assert game.state.round.phase == Phase.SPEND and game.current_player == 0
    assert not game.legal_mask()[LAYOUT.bone + 0] and not game.legal_mask()[LAYOUT.bone + 1]
    with pytest.raises(IllegalActionError, match="already closed"):
        game.play("bone 1")
    game.play("bone 3")  # skull 3: 2 of 3 white boxes, the bone checks the third
    assert game.state.round.closed(game.state.round.numbers[2])
    assert game.state.team.memory == 0
    assert game.is_over  # no bone left: nothing more to decide
    assert game.final_info()["appeased"] == 3
    assert np.allclose(game.returns(), 3 / 4)


def test_a_memory_bone_checks_one_white_box_only():
    game = new(8, seed=8)  # 4 bones at start
    write_all(game)
    deduce(game, [0, 5, 7, 7, 7, 7, 7, 7])
    skull = game.state.round.numbers[1]
    assert game.state.round.whites[skull] == 5
    game.play("bone 2")
    assert game.state.round.whites[skull] == 6 and not game.state.round.closed(skull)
    game.play("bone 2")
    assert game.state.round.closed(skull) and not game.state.round.yellow[skull]
    assert game.state.team.memory == 2
    assert not game.legal_mask()[LAYOUT.bone + 1]
    with pytest.raises(IllegalActionError, match="La Catrina"):
        game.play("limbo 1")
    game.play("done")
    assert game.is_over and game.team_value() == 7
    assert game.final_info()["memory_bones"] == 2


def test_no_memory_bone_no_spending_phase():
    game = new(4, seed=9)
    write_all(game)
    assert game.returns().tolist() == [0.0] * 4  # nothing until the end
    deduce(game, [3, 3, 2, 0])
    assert game.is_over
    assert game.team_value() == 2
    assert game.returns().tolist() == [0.5] * 4
    assert game.scores().tolist() == [2.0] * 4


def test_spending_the_last_bone_ends_the_round():
    game = new(5, seed=10)  # one bone
    write_all(game)
    deduce(game, [2, 2, 2, 2, 2])
    game.play("bone 1")
    assert game.is_over  # the only bone is spent: the round ends


def test_spending_is_skipped_when_every_skull_is_appeased():
    game = new(6, seed=11)
    write_all(game)
    deduce(game, [5, 5, 5, 5, 5, 5])
    assert game.is_over and game.state.team.memory == 2
    assert game.final_info()["result_band"] == "perfect"


def test_every_checked_yellow_box_wins_a_bone_even_when_every_skull_is_appeased():
    game = new(4, seed=11)
    write_all(game)
    deduce(game, [4, 4, 4, 4])
    assert game.is_over and game.state.team.memory == 4  # 0 at start + one per yellow box
    assert [r["yellow_reward"] for r in game.final_info()["skull_reports"]] == ["memory"] * 4


def test_limbo_bones_never_exist_in_the_base_game():
    game = new(5, seed=10)  # one Memory Bone: the spending phase happens
    edit_state(game, lambda s: s["team"].__setitem__("limbo", 1))
    write_all(game)
    deduce(game, [2, 2, 2, 2, 2])
    assert game.state.round.phase == Phase.SPEND
    assert not game.legal_mask()[LAYOUT.limbo : LAYOUT.limbo + 8].any()
    with pytest.raises(IllegalActionError, match="La Catrina"):
        game.play("limbo 1")
    with pytest.raises(IllegalActionError, match="wins a Memory Bone at once"):
        game.play("memory")


def test_decider_of_the_base_game_is_seat_0():
    game = new(7, seed=12)
    assert game.state.round.decider == 0
    write_all(game)
    deduce(game, [0] * 7)
    assert game.current_player == 0 and game.state.round.phase == Phase.SPEND


def test_result_bands():
    results = {}
    for correct, band in (
        ([4] * 4, "perfect"),
        ([4, 4, 4, 0], "great"),
        ([4, 4, 0, 0], "fair"),
        ([0] * 4, "restless"),
    ):
        game = new(4, seed=13)
        write_all(game)
        deduce(game, correct)
        while not game.is_over:
            game.play("done")
        results[band] = game.final_info()["result_band"]
    assert results == {band: band for band in results}


@pytest.mark.parametrize(
    ("appeased", "skulls", "band"),
    [(8, 8, "perfect"), (6, 8, "great"), (7, 8, "great"), (5, 7, "fair"), (3, 6, "fair"), (2, 5, "restless"),
     (1, 4, "restless"), (0, 8, "restless")],
)  # fmt: skip
def test_result_band_boundaries(appeased, skulls, band):
    """Our ruling: perfect 100%, great >= 75%, fair >= 50%, restless below."""
    assert result_band(appeased, skulls)[0] == band


def test_final_info_reports_every_skull():
    game = new(4, seed=14)
    write_all(game)
    deduce(game, [4, 3, 1, 0])
    while not game.is_over:
        game.play("done")
    info = game.final_info()
    reports = info["skull_reports"]
    assert [r["number"] for r in reports] == [1, 2, 3, 4]
    assert [r["correct"] for r in reports] == [4, 3, 1, 0]
    assert [r["white_boxes"] for r in reports] == [3, 3, 1, 0]
    assert [r["yellow_box"] for r in reports] == [True, False, False, False]
    for r, j in zip(reports, game.state.round.numbers, strict=True):
        assert r["character"] == LEXICON.characters[game.state.round.characters[j]].name
        assert r["guesses"].count(r["slot"]) == r["correct"]
        assert r["owner"] == j
    json.dumps(info)


# ---------------------------------------------------------------------- double challenge
def test_double_challenge_two_skulls_each_eight_characters_no_extras():
    game = new(4, seed=15, double_challenge=True)
    assert game.rules.skulls == 8 and not game.state.round.extras
    assert sorted(game.state.round.table) == sorted(game.state.round.characters)
    # each player writes on its two skulls in turn at every step
    order = []
    while game.state.round.phase == Phase.WRITE:
        order.append((game.state.round.step, game.current_player, game.state.round.current_skull()))
        game.play(first_legal_name(game))
    assert order[:4] == [(0, 0, 0), (0, 0, 4), (0, 1, 1), (0, 1, 5)]
    assert order[8:10] == [(1, 0, 3), (1, 0, 7)]
    assert len(order) == 32
    deduce(game, [4, 3, 2, 1, 0, 0, 4, 3])
    whites = [game.state.round.whites[game.state.round.numbers[d]] for d in range(8)]
    assert whites == [3, 3, 2, 1, 0, 0, 3, 3]  # N - 1 = 3 white boxes: the guessers, not the skulls
    assert game.state.team.memory == 2
    game.play("done")
    assert game.team_value() == 4 and game.returns()[0] == 4 / 8


def test_double_challenge_second_skull_starts_from_the_second_character():
    game = new(4, seed=16, double_challenge=True)
    game.play(first_legal_name(game))  # seat 0, first skull
    assert (game.current_player, game.state.round.current_skull()) == (0, 4)
    second = game.state.round.characters[4]
    assert game.state.round.prompt() == ("character", second)
    assert legal_words(game) == {LEXICON.words[w].text for w in np.flatnonzero(LEXICON.character_links[second])}


# ---------------------------------------------------------------------- observation
def test_observation_size_bounds_and_type():
    for seed in range(3):
        game = new(6, seed=seed, constraints=1)
        while not game.is_over:
            for p in range(6):
                obs = game.observe(p)
                assert obs.dtype == np.float32 and obs.shape == (game.observation_size,)
                assert obs.min() >= 0.0 and obs.max() <= 1.0
            legal = np.flatnonzero(game.legal_mask())
            game.step(int(legal[0]))


def _word_with_other_tags(word: int) -> int:
    return next(w.id for w in LEXICON.words if set(w.tags) != set(LEXICON.words[word].tags))


def _words_seen_by(game, player: int) -> set[tuple[int, int]]:
    """(skull, step) of every word ``player`` wrote or was handed so far, and the final words
    once the deduction has begun (everyone sees them then)."""
    game_round, n = game.state.round, game.num_players
    writing = game_round.phase == Phase.WRITE
    handed = game_round.step if writing else 4
    seen = set()
    for hand in range(game.rules.hands):
        for step in range(4):
            skull = hand * n + (player - step) % n
            if game_round.words[skull][step] != NOT_WRITTEN:
                seen.add((skull, step))
            if 0 < step <= handed:
                seen.add((skull, step - 1))
    if game_round.phase >= Phase.DEDUCE:
        seen |= {(skull, 3) for skull in range(game.rules.skulls)}
    return seen


def _scramble_unseen_words(game, player: int):
    """A copy of ``game`` in which every word ``player`` has not seen is another word."""
    seen = _words_seen_by(game, player)
    other = game.clone()

    def scramble(state):
        for skull, teeth in enumerate(state["round"]["words"]):
            for step, w in enumerate(teeth):
                if (skull, step) not in seen and w >= 0:
                    teeth[step] = _word_with_other_tags(w)

    edit_state(other, scramble)
    assert other.state.round.words != game.state.round.words
    return other


@pytest.mark.parametrize(
    ("n", "options", "writes"),
    [(6, {}, 24), (6, {}, 14), (4, {}, 9), (5, {"constraints": 1}, 18), (4, {"double_challenge": True}, 19)],
)
def test_no_player_sees_words_it_did_not_receive_or_write(n, options, writes):
    game = new(n, seed=17, **options)
    for _ in range(writes):
        game.play(first_legal_name(game))
    for player in range(n):
        other = _scramble_unseen_words(game, player)
        assert np.array_equal(game.observe(player), other.observe(player))
        # ... while a word the player did see changes its view
        changed = other.clone()
        received = (player - 1) % n  # the skull handed to the player at step 1
        replacement = _word_with_other_tags(game.state.round.words[received][0])
        edit_state(changed, lambda s, j=received, w=replacement: s["round"]["words"][j].__setitem__(0, w))
        assert not np.array_equal(game.observe(player), changed.observe(player))


def test_observation_hides_other_guesses_until_the_reveal_and_other_offers():
    game = new(4, seed=18)
    write_all(game)
    game.play("match 1 to 1")  # seat 0
    before = game.observe(1)
    other = game.clone()
    edit_state(other, lambda s: s["round"]["guesses"][s["round"]["numbers"][0]].__setitem__(0, 5))
    assert np.array_equal(before, other.observe(1))
    assert not np.array_equal(game.observe(0), other.observe(0))
    drawing = new(5, seed=19, draw_choice=True)
    changed = drawing.clone()
    edit_state(changed, lambda s: s["round"]["offers"][3].reverse())
    assert np.array_equal(drawing.observe(0), changed.observe(0))
    assert not np.array_equal(drawing.observe(3), changed.observe(3))


def test_the_table_and_the_skull_numbers_stay_hidden_until_the_deduction():
    """Before the deduction no player sees the extras, the table order or the number cards."""
    game = new(5, seed=27, draw_choice=True)
    keep_first(game)
    for _ in range(7):
        game.play(first_legal_name(game))
    other = game.clone()

    def reshuffle(state):
        state["round"]["table_order"] = state["round"]["table_order"][::-1]
        state["round"]["numbers"] = state["round"]["numbers"][::-1]
        on_table = state["round"]["characters"] + state["round"]["extras"]
        state["round"]["extras"][0] = next(c for c in range(len(LEXICON.characters)) if c not in on_table)

    edit_state(other, reshuffle)
    for player in range(5):
        assert np.array_equal(game.observe(player), other.observe(player))


def test_the_answers_stay_hidden_until_the_reveal_then_every_player_sees_them():
    game = new(5, seed=29)  # one Memory Bone: the round waits in the spending phase after the reveal
    write_all(game)
    for _ in range(7):  # seat 0 matches its 5 skulls, seat 1 two of them
        game.play("match 1 to 1" if game.state.round.number == 0 else f"match {game.state.round.number + 1} to 2")
    assert (game.current_player, game.state.round.number) == (1, 2)
    other = game.clone()  # the skulls of seats 3 and 4 swap characters; the table stays as it is

    def swap(state):
        characters, order = state["round"]["characters"], state["round"]["table_order"]
        characters[3], characters[4] = characters[4], characters[3]
        a, b = order.index(3), order.index(4)
        order[a], order[b] = 4, 3

    edit_state(other, swap)
    assert other.state.round.table == game.state.round.table and other.state.round.answer(3) == game.state.round.answer(
        4
    )
    for player in (0, 1, 2):
        assert np.array_equal(game.observe(player), other.observe(player))
    to_match = [OBSERVER.decode(game.observe(p))["to_match"].tolist() for p in range(5)]
    assert to_match[1] == [0, 0, 1, 0, 0, 0, 0, 0] and not any(any(v) for p, v in enumerate(to_match) if p != 1)
    deduce(game, [2, 2, 2, 2, 2])
    assert game.state.round.phase == Phase.SPEND
    reveal = OBSERVER.decode(game.observe(3))["reveal"].reshape(8, 15)
    for d, skull in enumerate(game.state.round.numbers):
        assert reveal[d, :8].tolist() == [float(c == game.state.round.answer(skull)) for c in range(8)]


def test_observation_shows_own_character_and_the_word_being_answered():
    game = new(4, seed=20)
    blocks = OBSERVER.decode(game.observe(0))
    character = game.state.round.characters[0]
    mine = blocks["my_characters"]
    assert mine[0] == 1.0 and OBSERVER.character_in(mine) == character
    assert np.array_equal(mine[1 : 1 + OBSERVER.tags], LEXICON.character_tags[character])
    prompt = blocks["prompt"]
    assert prompt[0] == 1.0  # seat 0 reads a character: its own
    assert np.array_equal(prompt[3 : 3 + OBSERVER.tags], LEXICON.character_tags[character])
    other = OBSERVER.decode(game.observe(1))
    assert not other["task"].any() and not other["prompt"].any()  # not seat 1's turn


def test_final_words_that_i_wrote_are_flagged():
    game = new(4, seed=21)
    write_all(game)
    finals = OBSERVER.decode(game.observe(2))["final_words"].reshape(8, -1)
    my_skull = (2 - 3) % 4
    number = game.state.round.numbers.index(my_skull)
    assert finals[number, OBSERVER.word_width] == 1.0


def test_the_table_shows_the_eight_characters_and_flags_my_own():
    game = new(5, seed=28)
    write_all(game)
    for player in range(5):
        slots = OBSERVER.decode(game.observe(player))["table"].reshape(8, -1)
        table = game.state.round.table
        mine = table.index(game.state.round.characters[player])
        for slot, character in enumerate(table):
            assert slots[slot, 0] == 1.0 and OBSERVER.character_in(slots[slot]) == character
            assert np.array_equal(slots[slot, 1 : 1 + OBSERVER.tags], LEXICON.character_tags[character])
            assert slots[slot, OBSERVER.character_width] == float(slot == mine)


# ---------------------------------------------------------------------- state, determinism, errors
def test_state_dict_round_trips_at_every_step_and_is_json_safe():
    game = new(5, seed=22, draw_choice=True, constraints=2)
    rng = np.random.default_rng(0)
    while not game.is_over:
        data = game.state_dict()
        restored = FiestaDeLosMuertos.from_state_dict(json.loads(json.dumps(data)))
        assert restored.state_dict() == data
        assert np.array_equal(restored.legal_mask(), game.legal_mask())
        assert np.array_equal(restored.observe(1), game.observe(1))
        legal = np.flatnonzero(game.legal_mask())
        game.step(int(legal[rng.integers(len(legal))]))
    assert FiestaDeLosMuertos.from_state_dict(game.state_dict()).is_over


@pytest.mark.parametrize(
    "breakage",
    [
        lambda s: s["round"].__setitem__("words", [[0]]),
        lambda s: s["round"].__setitem__("numbers", [0, 0, 1, 2]),
        lambda s: s["round"].__setitem__("phase", 9),
        lambda s: s["round"]["characters"].__setitem__(0, 10**6),
        lambda s: s["team"].__setitem__("memory", -1),
        lambda s: s.pop("round"),
        lambda s: s.__setitem__("lexicon_version", -5),
        lambda s: s["round"].__setitem__("seat", "0"),
        lambda s: s["round"].__setitem__("pending", [0]),  # no yellow box is checked yet
    ],
)
def test_malformed_state_raises_invalid_state_error(breakage):
    game = new(4, seed=23)
    data = json.loads(json.dumps(game.state_dict()))
    breakage(data["state"])
    with pytest.raises(InvalidStateError):
        game.load_state_dict(data)


def test_same_seed_same_actions_same_game():
    histories = []
    for _ in range(2):
        game = new(6, seed=24, draw_choice=True, constraints=1, cortege=True)
        random_play(game, seed=5)
        histories.append(game.state_dict())
    assert histories[0] == histories[1]


def test_action_names_round_trip_and_are_unique():
    game = new()
    names = game.action_names()
    assert len(names) == len(set(names)) == game.num_actions
    for name in ("blank", "match 3 to 7", "bone 8", "limbo 1", "flower", "memory", "done"):
        assert game.action_to_string(game.string_to_action(name)) == name
    assert names[LAYOUT.write] == f"write {LEXICON.words[0].text}"


def test_illegal_actions_say_which_rule_forbids_them():
    game = new(4, seed=25)
    with pytest.raises(IllegalActionError, match="not now"):
        game.play("match 1 to 1")
    with pytest.raises(IllegalActionError, match="La Catrina"):
        game.play("flower")
    keep_first(game)
    write_all(game)
    with pytest.raises(IllegalActionError, match="only 4 skulls"):
        game.play("match 6 to 1")
    with pytest.raises(IllegalActionError, match="not now"):
        game.play("bone 1")
    write_all(game)
    deduce(game, [0, 0, 0, 0])
    with pytest.raises(IllegalActionError, match="game is over"):
        game.play("done")


def test_render_text_fits_in_100_columns():
    game = new(8, seed=26, constraints=3, cortege=True)
    play_round(game, [8, 7, 6, 5, 4, 3, 2, 1])
    text = game.render_text()
    assert "skull 8" in text and all(len(line) <= 100 for line in text.splitlines())


def test_a_word_not_yet_written_is_not_written():
    game = new(4)
    assert all(w == [NOT_WRITTEN] * 4 for w in game.state.round.words)
