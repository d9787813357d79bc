"""Constraint cards: restrictions on the words the players may write during a round.

Each card is a real check, on the word itself (its letters or its part of speech) or on the word
it replaces (the previous word on the skull). All cards drawn for a round apply to every word of
that round; a check on the previous word does not apply to a first word nor after a blank.

  id  name                     the card
  --  -----------------------  ---------------------------------------------------------------
   0  nouns_only               Nouns only.
   1  verbs_only               Verbs only.
   2  adjectives_only          Adjectives only.
   3  no_nouns                 No nouns.
   4  max_five_letters         No more than 5 letters.
   5  min_seven_letters        At least 7 letters.
   6  contains_a               Must contain the letter A.
   7  no_letter_e              No word with the letter E.
   8  no_letter_o              No word with the letter O.
   9  starts_a_to_m            Must begin with a letter from A to M.
  10  even_length              Must have an even number of letters.
  11  no_double_letter         No doubled letter (like the "ss" in "kiss").
  12  begins_with_last_letter  Must begin with the last letter of the previous word.   (previous)
  13  new_first_letter         Must not begin with the first letter of the previous word. (previous)
  14  change_part_of_speech    Must not be the same part of speech as the previous word. (previous)

Incompatible pairs (never drawn together): two different "... only" parts of speech, nouns only
with no nouns, at most 5 with at least 7 letters, a "... only" part of speech with "change part
of speech" (after the first word nothing would be legal), and the data-driven pairs listed in
``_UNPLAYABLE_PAIRS``: pairs under which some character of the lexicon would have no legal first
word (the lexicon's validation proves every other pair leaves every character one).

Speed: per lexicon, each card's word check is one precomputed boolean row, and each previous-word
card one (n_words, n_words) table; ``allowed_after`` is a single AND of two cached rows.
"""

from __future__ import annotations

import itertools
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np

from fiesta_envs.muertos.lexicon import Lexicon, LexiconError, Word


@dataclass(frozen=True)
class Constraint:
    id: int
    name: str
    text: str


# A word check says whether a word may be written. A previous-word rule compares one feature of
# the candidate with one feature of the word it replaces: they must be equal (``same=True``) or
# differ. Each card has exactly one of the two.
WordCheck = Callable[["Word"], bool]


@dataclass(frozen=True)
class PreviousRule:
    candidate: Callable[[Word], str]  # the feature of the word being written
    previous: Callable[[Word], str]  # the feature of the word it replaces
    same: bool  # True: the features must be equal; False: they must differ


def _first_letter(word: Word) -> str:
    return word.text[0]


def _last_letter(word: Word) -> str:
    return word.text[-1]


def _part_of_speech(word: Word) -> str:
    return word.pos


def _no_double_letter(word: Word) -> bool:
    return all(a != b for a, b in itertools.pairwise(word.text))


_CARDS: tuple[tuple[str, str, WordCheck | None, PreviousRule | None], ...] = (
    ("nouns_only", "Nouns only.", lambda w: w.pos == "noun", None),
    ("verbs_only", "Verbs only.", lambda w: w.pos == "verb", None),
    ("adjectives_only", "Adjectives only.", lambda w: w.pos == "adjective", None),
    ("no_nouns", "No nouns.", lambda w: w.pos != "noun", None),
    ("max_five_letters", "No more than 5 letters.", lambda w: len(w.text) <= 5, None),
    ("min_seven_letters", "At least 7 letters.", lambda w: len(w.text) >= 7, None),
    ("contains_a", "Must contain the letter A.", lambda w: "a" in w.text, None),
    ("no_letter_e", "No word with the letter E.", lambda w: "e" not in w.text, None),
    ("no_letter_o", "No word with the letter O.", lambda w: "o" not in w.text, None),
    ("starts_a_to_m", "Must begin with a letter from A to M.", lambda w: "a" <= w.text[0] <= "m", None),
    ("even_length", "Must have an even number of letters.", lambda w: len(w.text) % 2 == 0, None),
    ("no_double_letter", 'No doubled letter (like the "ss" in "kiss").', _no_double_letter, None),
    (
        "begins_with_last_letter",
        "Must begin with the last letter of the previous word.",
        None,
        PreviousRule(candidate=_first_letter, previous=_last_letter, same=True),
    ),
    (
        "new_first_letter",
        "Must not begin with the first letter of the previous word.",
        None,
        PreviousRule(candidate=_first_letter, previous=_first_letter, same=False),
    ),
    (
        "change_part_of_speech",
        "Must not be the same part of speech as the previous word.",
        None,
        PreviousRule(candidate=_part_of_speech, previous=_part_of_speech, same=False),
    ),
)

CONSTRAINTS: tuple[Constraint, ...] = tuple(Constraint(i, name, text) for i, (name, text, _, _) in enumerate(_CARDS))
_ID_BY_NAME = {c.name: c.id for c in CONSTRAINTS}
_WORD_CHECKS: dict[int, WordCheck] = {i: check for i, (_, _, check, _) in enumerate(_CARDS) if check is not None}
_PREVIOUS_RULES: dict[int, PreviousRule] = {i: check for i, (_, _, _, check) in enumerate(_CARDS) if check is not None}


def constraint_id(name: str) -> int:
    """The id of a card by its short name; ``ValueError`` if unknown."""
    try:
        return _ID_BY_NAME[name]
    except KeyError:
        raise ValueError(f"unknown constraint {name!r}; known: {sorted(_ID_BY_NAME)}") from None


_LOGICAL_PAIRS = (
    ("nouns_only", "verbs_only"),
    ("nouns_only", "adjectives_only"),
    ("verbs_only", "adjectives_only"),
    ("nouns_only", "no_nouns"),
    ("max_five_letters", "min_seven_letters"),
    ("nouns_only", "change_part_of_speech"),
    ("verbs_only", "change_part_of_speech"),
    ("adjectives_only", "change_part_of_speech"),
)
#: Pairs that are consistent but leave some character of the lexicon without a legal first word.
_UNPLAYABLE_PAIRS: tuple[tuple[str, str], ...] = ()

INCOMPATIBLE: frozenset[frozenset[int]] = frozenset(
    frozenset((constraint_id(a), constraint_id(b))) for a, b in _LOGICAL_PAIRS + _UNPLAYABLE_PAIRS
)


# ---------------------------------------------------------------------- drawing
@cache
def _valid_draws(k: int, excluded: frozenset[int]) -> tuple[tuple[int, ...], ...]:
    candidates = [c.id for c in CONSTRAINTS if c.id not in excluded]
    return tuple(
        combo
        for combo in itertools.combinations(candidates, k)
        if not any(frozenset(pair) in INCOMPATIBLE for pair in itertools.combinations(combo, 2))
    )


def draw_constraints(k: int, rng: np.random.Generator, exclude: Sequence[int] = ()) -> list[int]:
    """Draw ``k`` distinct cards (ascending ids), none in ``exclude``, with no incompatible pair.

    Every valid set is equally likely; the draw uses one ``rng.integers`` call (none when k = 0).
    """
    if k < 0:
        raise ValueError(f"cannot draw {k} constraint cards")
    if k == 0:
        return []
    draws = _valid_draws(k, frozenset(int(c) for c in exclude))
    if not draws:
        raise ValueError(f"no set of {k} compatible constraint cards avoids {sorted(exclude)}")
    return list(draws[int(rng.integers(len(draws)))])


# ---------------------------------------------------------------------- checks on a lexicon
class _Tables:
    """The per-lexicon precomputed checks and the caches built on them."""

    def __init__(self, lexicon: Lexicon) -> None:
        words = lexicon.words
        n = len(words)
        self.static = np.ones((len(CONSTRAINTS), n), dtype=bool)
        for cid, check in _WORD_CHECKS.items():
            self.static[cid] = [check(w) for w in words]
        self.previous: dict[int, np.ndarray] = {}
        for cid, rule in _PREVIOUS_RULES.items():
            self.previous[cid] = _previous_table(words, rule)
        self.static_cache: dict[tuple[int, ...], np.ndarray] = {}
        self.previous_cache: dict[tuple[int, ...], np.ndarray | None] = {}


def _previous_table(words: Sequence[Word], rule: PreviousRule) -> np.ndarray:
    """(n_words, n_words): row = previous word, column = candidate word."""
    candidate = np.array([rule.candidate(w) for w in words])
    previous = np.array([rule.previous(w) for w in words])
    equal = previous[:, None] == candidate[None, :]
    return equal if rule.same else ~equal


_TABLES: weakref.WeakKeyDictionary[Lexicon, _Tables] = weakref.WeakKeyDictionary()


def _tables(lexicon: Lexicon) -> _Tables:
    tables = _TABLES.get(lexicon)
    if tables is None:
        tables = _TABLES[lexicon] = _Tables(lexicon)
    return tables


def _key(constraint_ids: Sequence[int]) -> tuple[int, ...]:
    key = tuple(sorted({int(c) for c in constraint_ids}))
    for cid in key:
        if not 0 <= cid < len(CONSTRAINTS):
            raise ValueError(f"unknown constraint id {cid}; ids are 0..{len(CONSTRAINTS) - 1}")
    return key


def static_allowed(constraint_ids: Sequence[int], lexicon: Lexicon) -> np.ndarray:
    """bool (n_words,): the words every given card's word check accepts (read-only, cached)."""
    tables = _tables(lexicon)
    key = _key(constraint_ids)
    allowed = tables.static_cache.get(key)
    if allowed is None:
        allowed = np.logical_and.reduce(tables.static[list(key)], axis=0) if key else np.ones(len(lexicon.words), bool)
        allowed.flags.writeable = False
        tables.static_cache[key] = allowed
    return allowed


def _previous_allowed(key: tuple[int, ...], tables: _Tables) -> np.ndarray | None:
    """(n_words, n_words) AND of the previous-word tables of the cards in ``key`` (None if none)."""
    if key not in tables.previous_cache:
        rows = [tables.previous[c] for c in key if c in tables.previous]
        combined = np.logical_and.reduce(rows, axis=0) if rows else None
        if combined is not None:
            combined.flags.writeable = False
        tables.previous_cache[key] = combined
    return tables.previous_cache[key]


def allowed_after(constraint_ids: Sequence[int], previous_word: int | None, lexicon: Lexicon) -> np.ndarray:
    """bool (n_words,): the words the cards allow after ``previous_word`` (a new array).

    ``previous_word`` is None for a first word or after a blank: then only the word checks apply.
    """
    tables = _tables(lexicon)
    key = _key(constraint_ids)
    allowed = static_allowed(key, lexicon)
    if previous_word is None:
        return allowed.copy()
    previous = _previous_allowed(key, tables)
    if previous is None:
        return allowed.copy()
    return allowed & previous[previous_word]


def check_word(constraint_ids: Sequence[int], word_id: int, previous_word: int | None, lexicon: Lexicon) -> str | None:
    """None if the word meets every card, else the text of the first card (in the given order)
    that it breaks, for error messages."""
    tables = _tables(lexicon)
    _key(constraint_ids)  # refuses unknown ids
    for cid in constraint_ids:
        if not tables.static[cid, word_id]:
            return CONSTRAINTS[cid].text
        if previous_word is not None and cid in tables.previous and not tables.previous[cid][previous_word, word_id]:
            return CONSTRAINTS[cid].text
    return None


def compatible_sets(max_size: int = 2) -> list[tuple[int, ...]]:
    """Every drawable set of at most ``max_size`` cards, the empty set first."""
    return [combo for k in range(max_size + 1) for combo in _valid_draws(k, frozenset())]


def first_word_problems(lexicon: Lexicon) -> list[str]:
    """Characters left without a legal first word under no card, one card or a drawable pair.

    Previous-word checks never apply to a first word, so only the word checks matter. An empty list means
    the promise holds (``check_first_words``).
    """
    problems = []
    links = lexicon.character_links
    for combo in compatible_sets(2):
        legal = links & static_allowed(combo, lexicon)
        for character in np.flatnonzero(~legal.any(axis=1)):
            cards = " + ".join(CONSTRAINTS[c].name for c in combo) or "no constraint"
            problems.append(f"character {lexicon.characters[character].name!r} has no legal first word under {cards}")
    return problems


def check_first_words(lexicon: Lexicon) -> Lexicon:
    """``lexicon`` itself, once it keeps the cards' promise: every character has a legal first word under no
    card, one card or a drawable pair. Raises ``LexiconError`` naming the first character without one."""
    problems = first_word_problems(lexicon)
    if problems:
        raise LexiconError(problems[0] + (f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""))
    return lexicon
