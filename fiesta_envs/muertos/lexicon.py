"""The lexicon of Fiesta de los Muertos: characters, words and the tags that tie them together.

The data (``data/lexicon.json``) is this project's own writing: famous dead people, real or
fictional, each in one of six cortège themes, and everyday English words. Every character and
every word carries tags from one controlled vocabulary, and "associated" means *sharing at least
one tag*:

- a first word is associated with a character when they share a tag and the word is not one of
  the whole words of the character's name ("wolf" is not a clue for The Big Bad Wolf);
- a word is associated with another (different) word when they share a tag.

Everything the rules need is precomputed here as boolean matrices (``word_links``,
``character_links``), so the engines only index arrays. The data is validated when loaded
(``LexiconError`` says what is wrong). The promise the constraint cards rely on (every character has a
legal first word under no card, one card or a pair that may be drawn together) is checked by
``constraints.check_first_words``, which the games call on this lexicon: this module imports nothing of
the game above it.

``LEXICON_VERSION`` is part of the environments' contract: the action space has one ``write``
action per word and one ``keep`` action per character, so any change of the data bumps it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

import numpy as np

#: Bump whenever ``data/lexicon.json`` changes (the action space depends on it).
LEXICON_VERSION: int = 2

#: The six cortège themes, in this order (the order is part of the observation encoding).
THEMES: tuple[str, ...] = ("villains", "kings_queens", "music", "tales", "literature", "mythologies")

PARTS_OF_SPEECH: tuple[str, ...] = ("noun", "verb", "adjective", "adverb")

#: Enough characters per theme for a two-theme cortège round with 8 players to find its extras.
MIN_CHARACTERS_PER_THEME = 12
CHARACTER_TAGS_RANGE = (3, 6)
WORD_TAGS_RANGE = (1, 4)

_WORD_TEXT = re.compile(r"[a-z]+")
_NAME_TOKEN = re.compile(r"[^\W\d_]+")

DATA_FILE = "lexicon.json"


class LexiconError(ValueError):
    """The lexicon data breaks one of the rules the game relies on."""


@dataclass(frozen=True)
class Character:
    id: int
    name: str
    theme: str
    tags: tuple[int, ...]


@dataclass(frozen=True)
class Word:
    id: int
    text: str
    pos: str
    tags: tuple[int, ...]


def name_tokens(name: str) -> frozenset[str]:
    """The whole words of a character's name, lowercased ("Frankenstein's Monster" gives
    frankenstein, s, monster). A word equal to one of them may not be a first clue."""
    return frozenset(_NAME_TOKEN.findall(name.lower()))


class Lexicon:
    """Characters, words and tags, with their association matrices. Build with ``from_data``."""

    def __init__(
        self,
        tags: Sequence[str],
        characters: Sequence[Character],
        words: Sequence[Word],
        version: int = LEXICON_VERSION,
    ) -> None:
        self.version = version
        self.tags: tuple[str, ...] = tuple(tags)
        self.characters: tuple[Character, ...] = tuple(characters)
        self.words: tuple[Word, ...] = tuple(words)
        n_tags = len(self.tags)

        self.character_tags: np.ndarray = _multi_hot([c.tags for c in self.characters], n_tags)
        self.word_tags: np.ndarray = _multi_hot([w.tags for w in self.words], n_tags)

        # float32 products go through BLAS; counts of shared tags (at most 6) are exact in float32.
        word_tags_f = self.word_tags.astype(np.float32)
        self.shared_word_tags: np.ndarray = (word_tags_f @ word_tags_f.T).astype(np.int8)
        """int8 (n_words, n_words): how many tags two words share (association strength)."""
        self.word_links: np.ndarray = self.shared_word_tags > 0
        np.fill_diagonal(self.word_links, False)

        character_tags_f = self.character_tags.astype(np.float32)
        self.shared_character_tags: np.ndarray = (character_tags_f @ word_tags_f.T).astype(np.int8)
        """int8 (n_characters, n_words): how many tags a character and a word share."""
        self.character_links: np.ndarray = self.shared_character_tags > 0
        self._word_ids = {w.text: w.id for w in self.words}
        self._character_ids = {c.name.lower(): c.id for c in self.characters}
        for character in self.characters:
            for token in name_tokens(character.name):
                word = self._word_ids.get(token)
                if word is not None:
                    self.character_links[character.id, word] = False

        for matrix in (
            self.character_tags,
            self.word_tags,
            self.shared_word_tags,
            self.word_links,
            self.shared_character_tags,
            self.character_links,
        ):
            matrix.flags.writeable = False

    # ------------------------------------------------------------------ construction
    @classmethod
    def from_data(cls, data: Mapping[str, Any], *, min_characters_per_theme: int = MIN_CHARACTERS_PER_THEME) -> Lexicon:
        """Parse and validate lexicon data (the JSON layout of ``data/lexicon.json``).

        Raises ``LexiconError`` naming the first broken rule. ``min_characters_per_theme`` lets
        tests build small lexicons; the package data uses the default.
        """
        try:
            version = data["version"]
            tag_names = _parse_tags(data["tags"])
            tag_index = {t: i for i, t in enumerate(tag_names)}
            characters = _parse_characters(data["characters"], tag_index)
            words = _parse_words(data["words"], tag_index)
        except (KeyError, TypeError) as error:
            raise LexiconError(f"malformed lexicon data: {error!r}") from error
        if not isinstance(version, int):
            raise LexiconError(f"lexicon version must be an int, got {version!r}")
        lexicon = cls(tag_names, characters, words, version=version)
        lexicon.validate(min_characters_per_theme=min_characters_per_theme)
        return lexicon

    def validate(self, *, min_characters_per_theme: int = MIN_CHARACTERS_PER_THEME) -> None:
        """Check the associations the rules rely on (structure is checked by ``from_data``)."""
        for theme in THEMES:
            count = sum(c.theme == theme for c in self.characters)
            if count < min_characters_per_theme:
                raise LexiconError(
                    f"theme {theme!r} has {count} characters; at least {min_characters_per_theme} needed"
                )
        lonely = np.flatnonzero(~self.word_links.any(axis=1))
        if lonely.size:
            raise LexiconError(f"word {self.words[lonely[0]].text!r} is associated with no other word")

    # ------------------------------------------------------------------ look-ups
    def word_id(self, text: str) -> int:
        """The id of a word; ``ValueError`` naming the word if it is not in the lexicon."""
        try:
            return self._word_ids[text]
        except KeyError:
            raise ValueError(f"unknown word {text!r}: not in the lexicon") from None

    def character_id(self, name: str) -> int:
        """The id of a character by name (case-insensitive); ``ValueError`` if unknown."""
        try:
            return self._character_ids[name.lower()]
        except KeyError:
            raise ValueError(f"unknown character {name!r}: not in the lexicon") from None

    def tag_names(self, tags: Sequence[int]) -> list[str]:
        return [self.tags[t] for t in tags]

    def shared_tags(self, word: int, other_word: int) -> list[str]:
        """Names of the tags two words share (why they are associated)."""
        common = self.word_tags[word] & self.word_tags[other_word]
        return [self.tags[t] for t in np.flatnonzero(common)]

    # ------------------------------------------------------------------ statistics
    def summary(self) -> dict[str, Any]:
        """Sizes and association-graph statistics (plain Python numbers, JSON-safe)."""
        n_words = len(self.words)
        pairs = n_words * (n_words - 1) // 2
        edges = int(self.word_links.sum()) // 2
        degrees = self.word_links.sum(axis=1)
        character_degrees = self.character_links.sum(axis=1)
        tag_word_uses = self.word_tags.sum(axis=0)
        tag_character_uses = self.character_tags.sum(axis=0)
        return {
            "version": self.version,
            "tags": len(self.tags),
            "characters": len(self.characters),
            "words": n_words,
            "characters_per_theme": {t: sum(c.theme == t for c in self.characters) for t in THEMES},
            "words_per_pos": {p: sum(w.pos == p for w in self.words) for p in PARTS_OF_SPEECH},
            "word_edges": edges,
            "word_pairs": pairs,
            "word_density": edges / pairs if pairs else 0.0,
            "word_degree_min": int(degrees.min()) if n_words else 0,
            "word_degree_mean": float(degrees.mean()) if n_words else 0.0,
            "word_degree_max": int(degrees.max()) if n_words else 0,
            "word_components": len(connected_components(self.word_links)),
            "character_first_words_min": int(character_degrees.min()) if self.characters else 0,
            "character_first_words_mean": float(character_degrees.mean()) if self.characters else 0.0,
            "tag_word_uses_min": int(tag_word_uses.min()) if len(self.tags) else 0,
            "tag_character_uses_min": int(tag_character_uses.min()) if len(self.tags) else 0,
        }


def connected_components(adjacency: np.ndarray) -> list[list[int]]:
    """Connected components of an undirected graph given as a boolean adjacency matrix."""
    n = adjacency.shape[0]
    seen = np.zeros(n, dtype=bool)
    components = []
    for start in range(n):
        if seen[start]:
            continue
        frontier = np.zeros(n, dtype=bool)
        frontier[start] = True
        seen[start] = True
        members = [start]
        while frontier.any():
            reached = adjacency[frontier].any(axis=0) & ~seen
            seen |= reached
            members.extend(np.flatnonzero(reached).tolist())
            frontier = reached
        components.append(sorted(members))
    return components


@cache
def load_lexicon() -> Lexicon:
    """The package's lexicon, loaded once, validated and cached."""
    text = resources.files("fiesta_envs.muertos").joinpath("data", DATA_FILE).read_text(encoding="utf-8")
    lexicon = Lexicon.from_data(json.loads(text))
    if lexicon.version != LEXICON_VERSION:
        raise LexiconError(
            f"{DATA_FILE} is version {lexicon.version} but the code expects LEXICON_VERSION={LEXICON_VERSION}"
        )
    return lexicon


# ---------------------------------------------------------------------- parsing helpers
def _multi_hot(tag_lists: Sequence[tuple[int, ...]], n_tags: int) -> np.ndarray:
    out = np.zeros((len(tag_lists), n_tags), dtype=bool)
    for row, tags in enumerate(tag_lists):
        out[row, list(tags)] = True
    return out


def _parse_tags(raw: Sequence[str]) -> list[str]:
    tags = list(raw)
    for tag in tags:
        if not isinstance(tag, str) or not re.fullmatch(r"[a-z_]+", tag):
            raise LexiconError(f"tag {tag!r} must be a lowercase identifier")
    duplicates = sorted({t for t in tags if tags.count(t) > 1})
    if duplicates:
        raise LexiconError(f"duplicate tags: {duplicates}")
    return tags


def _parse_tag_list(
    owner: str, raw: Sequence[str], tag_index: Mapping[str, int], bounds: tuple[int, int]
) -> tuple[int, ...]:
    names = list(raw)
    unknown = [t for t in names if t not in tag_index]
    if unknown:
        raise LexiconError(f"{owner} has tags not in the vocabulary: {unknown}")
    if len(set(names)) != len(names):
        raise LexiconError(f"{owner} repeats a tag: {names}")
    low, high = bounds
    if not low <= len(names) <= high:
        raise LexiconError(f"{owner} has {len(names)} tags; {low} to {high} allowed")
    return tuple(sorted(tag_index[t] for t in names))


def _check_dense_id(kind: str, position: int, entry: Mapping[str, Any]) -> None:
    if entry["id"] != position:
        raise LexiconError(f"{kind} ids must be dense 0..n-1 in order: entry {position} has id {entry['id']!r}")


def _parse_characters(raw: Sequence[Mapping[str, Any]], tag_index: Mapping[str, int]) -> list[Character]:
    characters = []
    seen: set[str] = set()
    for position, entry in enumerate(raw):
        _check_dense_id("character", position, entry)
        name = entry["name"]
        if not isinstance(name, str) or not name.strip():
            raise LexiconError(f"character {position} has no name")
        if name.lower() in seen:
            raise LexiconError(f"duplicate character {name!r}")
        seen.add(name.lower())
        theme = entry["theme"]
        if theme not in THEMES:
            raise LexiconError(f"character {name!r} has theme {theme!r}; themes are {list(THEMES)}")
        tags = _parse_tag_list(f"character {name!r}", entry["tags"], tag_index, CHARACTER_TAGS_RANGE)
        characters.append(Character(position, name, theme, tags))
    return characters


def _parse_words(raw: Sequence[Mapping[str, Any]], tag_index: Mapping[str, int]) -> list[Word]:
    words = []
    seen: set[str] = set()
    for position, entry in enumerate(raw):
        _check_dense_id("word", position, entry)
        text = entry["text"]
        if not isinstance(text, str) or not _WORD_TEXT.fullmatch(text):
            raise LexiconError(f"word {text!r} must be lowercase letters a-z only")
        if text in seen:
            raise LexiconError(f"duplicate word {text!r}")
        seen.add(text)
        pos = entry["pos"]
        if pos not in PARTS_OF_SPEECH:
            raise LexiconError(f"word {text!r} has part of speech {pos!r}; allowed: {list(PARTS_OF_SPEECH)}")
        tags = _parse_tag_list(f"word {text!r}", entry["tags"], tag_index, WORD_TAGS_RANGE)
        words.append(Word(position, text, pos, tags))
    return words
