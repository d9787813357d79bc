"""Constraint cards of Fiesta de los Muertos: each check, the previous-word cards, drawing."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from fiesta_envs.muertos.constraints import (
    CONSTRAINTS,
    INCOMPATIBLE,
    allowed_after,
    check_word,
    compatible_sets,
    constraint_id,
    draw_constraints,
    static_allowed,
)
from fiesta_envs.muertos.lexicon import Lexicon, load_lexicon


@pytest.fixture(scope="module")
def lexicon() -> Lexicon:
    return load_lexicon()


def test_there_are_at_least_twelve_distinct_cards():
    assert len(CONSTRAINTS) >= 12
    assert [c.id for c in CONSTRAINTS] == list(range(len(CONSTRAINTS)))
    assert len({c.name for c in CONSTRAINTS}) == len(CONSTRAINTS)
    assert all(c.text.endswith(".") for c in CONSTRAINTS)


def test_constraint_id_by_name():
    assert CONSTRAINTS[constraint_id("nouns_only")].text == "Nouns only."
    with pytest.raises(ValueError, match="rhymes_only"):
        constraint_id("rhymes_only")


# (card, previous word or None, words it allows, words it refuses)
CASES = [
    ("nouns_only", None, ["ocean", "whale"], ["drown", "salty", "quickly"]),
    ("verbs_only", None, ["drown", "swim"], ["ocean", "salty"]),
    ("adjectives_only", None, ["salty", "deep"], ["salt", "swim", "quickly"]),
    ("no_nouns", None, ["swim", "salty", "quickly"], ["whale", "ocean"]),
    ("max_five_letters", None, ["whale", "sea"], ["anchor", "octopus"]),
    ("min_seven_letters", None, ["octopus", "shipwreck"], ["anchor", "whale"]),
    ("contains_a", None, ["whale", "ocean"], ["storm", "fire"]),
    ("no_letter_e", None, ["storm", "moon"], ["whale", "ocean"]),
    ("no_letter_o", None, ["whale", "sea"], ["storm", "moon"]),
    ("starts_a_to_m", None, ["anchor", "mermaid"], ["night", "ocean", "wave"]),
    ("even_length", None, ["anchor", "moon"], ["whale", "sea"]),
    ("no_double_letter", None, ["whale", "ocean"], ["kiss", "moon", "balloon"]),
    ("begins_with_last_letter", "ocean", ["night", "nest"], ["whale", "ocean"]),
    ("new_first_letter", "storm", ["whale", "night"], ["sea", "storm", "swim"]),
    ("change_part_of_speech", "ocean", ["swim", "salty"], ["whale", "storm"]),
]


@pytest.mark.parametrize(("card", "previous", "allowed", "refused"), CASES, ids=[c[0] for c in CASES])
def test_each_card_on_example_words(lexicon, card, previous, allowed, refused):
    cid = constraint_id(card)
    prev = None if previous is None else lexicon.word_id(previous)
    mask = allowed_after([cid], prev, lexicon)
    for text in allowed:
        word = lexicon.word_id(text)
        assert check_word([cid], word, prev, lexicon) is None, text
        assert mask[word], text
    for text in refused:
        word = lexicon.word_id(text)
        assert check_word([cid], word, prev, lexicon) == CONSTRAINTS[cid].text, text
        assert not mask[word], text


def test_every_card_is_covered_by_the_examples():
    assert {c[0] for c in CASES} == {c.name for c in CONSTRAINTS}


def test_every_card_is_a_real_restriction(lexicon):
    """Each card refuses some words (or some words after some previous word) and allows others."""
    for card in CONSTRAINTS:
        static = static_allowed([card.id], lexicon)
        after = np.array([allowed_after([card.id], p, lexicon).mean() for p in range(0, len(lexicon.words), 50)])
        fraction = min(static.mean(), after.mean())
        assert 0.02 < fraction < 0.95, card.name


def test_previous_word_cards_do_not_apply_without_a_previous_word(lexicon):
    for name in ("begins_with_last_letter", "new_first_letter", "change_part_of_speech"):
        cid = constraint_id(name)
        assert allowed_after([cid], None, lexicon).all()
        assert check_word([cid], lexicon.word_id("whale"), None, lexicon) is None


def test_allowed_after_begins_with_last_letter_exactly(lexicon):
    begins = constraint_id("begins_with_last_letter")
    no_e = constraint_id("no_letter_e")
    for previous_text in ("ocean", "storm", "quickly", "whale"):
        previous = lexicon.word_id(previous_text)
        mask = allowed_after([begins, no_e], previous, lexicon)
        expected = np.array([w.text[0] == previous_text[-1] and "e" not in w.text for w in lexicon.words], dtype=bool)
        assert (mask == expected).all(), previous_text
        assert mask.any() == (previous_text != "whale")  # nothing begins with E without an E


def test_allowed_after_agrees_with_check_word(lexicon):
    rng = np.random.default_rng(3)
    for _ in range(40):
        cards = draw_constraints(int(rng.integers(1, 4)), rng)
        previous = None if rng.random() < 0.2 else int(rng.integers(len(lexicon.words)))
        mask = allowed_after(cards, previous, lexicon)
        for word in rng.integers(len(lexicon.words), size=60):
            assert mask[word] == (check_word(cards, int(word), previous, lexicon) is None)


def test_static_allowed_is_the_and_of_the_cards_cached_and_read_only(lexicon):
    a, b = constraint_id("contains_a"), constraint_id("max_five_letters")
    both = static_allowed([a, b], lexicon)
    assert (both == (static_allowed([a], lexicon) & static_allowed([b], lexicon))).all()
    assert static_allowed([b, a], lexicon) is both
    assert static_allowed([], lexicon).all()
    with pytest.raises(ValueError):
        both[0] = True


def test_allowed_after_returns_a_fresh_array(lexicon):
    cards = [constraint_id("contains_a")]
    mask = allowed_after(cards, None, lexicon)
    mask[:] = False
    assert allowed_after(cards, None, lexicon).any()


def test_unknown_card_ids_are_refused(lexicon):
    with pytest.raises(ValueError, match="unknown constraint id 99"):
        static_allowed([99], lexicon)
    with pytest.raises(ValueError, match="unknown constraint id"):
        check_word([-1], 0, None, lexicon)


def test_check_word_names_the_first_broken_card_in_order(lexicon):
    nouns, short = constraint_id("nouns_only"), constraint_id("max_five_letters")
    word = lexicon.word_id("shipwreck")  # a noun of 9 letters
    assert check_word([nouns, short], word, None, lexicon) == "No more than 5 letters."
    verbs = constraint_id("verbs_only")
    swim = lexicon.word_id("swim")
    assert check_word([short, nouns], swim, None, lexicon) == "Nouns only."
    assert check_word([verbs, short], swim, None, lexicon) is None


# ---------------------------------------------------------------------- incompatible pairs and drawing
def test_logically_contradictory_pairs_are_incompatible():
    for a, b in [
        ("nouns_only", "verbs_only"),
        ("nouns_only", "adjectives_only"),
        ("verbs_only", "adjectives_only"),
        ("nouns_only", "no_nouns"),
        ("max_five_letters", "min_seven_letters"),
        ("nouns_only", "change_part_of_speech"),
    ]:
        assert frozenset((constraint_id(a), constraint_id(b))) in INCOMPATIBLE
    assert all(len(pair) == 2 for pair in INCOMPATIBLE)


def test_contradictory_pairs_really_leave_nothing(lexicon):
    """A pair of static cards is declared incompatible only if it really is (or is unplayable)."""
    for pair in INCOMPATIBLE:
        a, b = sorted(pair)
        if CONSTRAINTS[b].name == "change_part_of_speech":
            # after any word, nothing of the same forced part of speech may follow
            previous = int(np.flatnonzero(static_allowed([a], lexicon))[0])
            assert not allowed_after([a, b], previous, lexicon).any()
        else:
            static = static_allowed([a, b], lexicon)
            no_first = ~(lexicon.character_links & static).any(axis=1)
            assert not static.any() or no_first.any(), (CONSTRAINTS[a].name, CONSTRAINTS[b].name)


def test_every_character_has_a_first_word_under_every_drawable_pair(lexicon):
    for cards in compatible_sets(2):
        legal = lexicon.character_links & static_allowed(cards, lexicon)
        counts = legal.sum(axis=1)
        assert counts.min() >= 1, [CONSTRAINTS[c].name for c in cards]


def test_every_character_has_several_first_words_under_each_single_card(lexicon):
    for card in CONSTRAINTS:
        legal = lexicon.character_links & static_allowed([card.id], lexicon)
        assert legal.sum(axis=1).min() >= 2, card.name


def test_draws_never_hold_an_incompatible_pair():
    rng = np.random.default_rng(11)
    seen = set()
    for _ in range(3000):
        k = int(rng.integers(1, 4))
        cards = draw_constraints(k, rng)
        assert len(cards) == k == len(set(cards))
        assert cards == sorted(cards)
        assert not any(frozenset(pair) in INCOMPATIBLE for pair in itertools.combinations(cards, 2))
        seen.update(cards)
    assert seen == {c.id for c in CONSTRAINTS}


def test_draws_respect_exclude_and_are_deterministic():
    excluded = [constraint_id("nouns_only"), constraint_id("contains_a")]
    rng = np.random.default_rng(5)
    for _ in range(500):
        assert not set(draw_constraints(3, rng, exclude=excluded)) & set(excluded)
    first = [draw_constraints(3, np.random.default_rng(42)) for _ in range(3)]
    assert first[0] == first[1] == first[2]


def test_drawing_zero_cards_or_too_many():
    rng = np.random.default_rng(0)
    state = rng.bit_generator.state
    assert draw_constraints(0, rng) == []
    assert rng.bit_generator.state == state  # drawing nothing consumes no randomness
    with pytest.raises(ValueError):
        draw_constraints(len(CONSTRAINTS), rng)
    with pytest.raises(ValueError):
        draw_constraints(-1, rng)


def test_draws_are_uniform_over_valid_sets():
    rng = np.random.default_rng(9)
    counts = np.zeros(len(CONSTRAINTS))
    for _ in range(6000):
        counts[draw_constraints(1, rng)] += 1
    assert counts.min() > 6000 / len(CONSTRAINTS) * 0.8
