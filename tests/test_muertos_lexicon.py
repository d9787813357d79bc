"""The Fiesta de los Muertos lexicon: sizes, associations, look-ups, and load-time validation."""

from __future__ import annotations

import copy
import itertools
import json
from importlib import resources

import numpy as np
import pytest

from fiesta_envs.muertos.constraints import check_first_words
from fiesta_envs.muertos.lexicon import (
    LEXICON_VERSION,
    PARTS_OF_SPEECH,
    THEMES,
    Lexicon,
    LexiconError,
    load_lexicon,
    name_tokens,
)


@pytest.fixture(scope="module")
def lexicon() -> Lexicon:
    return load_lexicon()


@pytest.fixture(scope="module")
def raw_data() -> dict:
    text = resources.files("fiesta_envs.muertos").joinpath("data", "lexicon.json").read_text(encoding="utf-8")
    return json.loads(text)


# ---------------------------------------------------------------------- sizes and shape of the data
def test_themes_are_the_six_cortege_themes_in_order():
    assert THEMES == ("villains", "kings_queens", "music", "tales", "literature", "mythologies")


def test_sizes_meet_the_ruling(lexicon):
    assert len(lexicon.characters) >= 120
    assert len(lexicon.words) >= 400
    assert 60 <= len(lexicon.tags) <= 120
    for theme in THEMES:
        assert sum(c.theme == theme for c in lexicon.characters) >= 12, theme


def test_ids_are_dense_and_entries_well_formed(lexicon):
    assert [c.id for c in lexicon.characters] == list(range(len(lexicon.characters)))
    assert [w.id for w in lexicon.words] == list(range(len(lexicon.words)))
    texts = [w.text for w in lexicon.words]
    assert len(set(texts)) == len(texts)
    assert len({c.name.lower() for c in lexicon.characters}) == len(lexicon.characters)
    for word in lexicon.words:
        assert word.text.isascii() and word.text.isalpha() and word.text.islower(), word
        assert word.pos in PARTS_OF_SPEECH
        assert 1 <= len(word.tags) <= 4 and len(set(word.tags)) == len(word.tags)
    for character in lexicon.characters:
        assert character.theme in THEMES
        assert 3 <= len(character.tags) <= 6 and len(set(character.tags)) == len(character.tags)


def test_every_tag_is_used_by_several_words_and_characters(lexicon):
    assert lexicon.word_tags.sum(axis=0).min() >= 5
    assert lexicon.character_tags.sum(axis=0).min() >= 3


def test_every_part_of_speech_is_present(lexicon):
    counts = lexicon.summary()["words_per_pos"]
    assert counts["noun"] >= 200 and counts["verb"] >= 100 and counts["adjective"] >= 100 and counts["adverb"] >= 5


def test_tag_matrices_match_the_tag_lists(lexicon):
    assert lexicon.character_tags.shape == (len(lexicon.characters), len(lexicon.tags))
    assert lexicon.word_tags.shape == (len(lexicon.words), len(lexicon.tags))
    assert lexicon.character_tags.dtype == bool and lexicon.word_tags.dtype == bool
    for word in lexicon.words[::37]:
        assert set(np.flatnonzero(lexicon.word_tags[word.id])) == set(word.tags)
    for character in lexicon.characters[::11]:
        assert set(np.flatnonzero(lexicon.character_tags[character.id])) == set(character.tags)


# ---------------------------------------------------------------------- associations
def _word(lexicon: Lexicon, text: str) -> int:
    return lexicon.word_id(text)


def test_word_links_mean_sharing_a_tag_between_different_words(lexicon):
    links = lexicon.word_links
    assert links.dtype == bool and links.shape == (len(lexicon.words),) * 2
    assert not links.diagonal().any()
    assert (links == links.T).all()
    rng = np.random.default_rng(0)
    for a, b in rng.integers(len(lexicon.words), size=(3000, 2)):
        expected = a != b and bool(set(lexicon.words[a].tags) & set(lexicon.words[b].tags))
        assert links[a, b] == expected


def test_examples_of_word_association(lexicon):
    links = lexicon.word_links
    assert links[_word(lexicon, "ocean"), _word(lexicon, "whale")]  # both sea
    assert links[_word(lexicon, "vampire"), _word(lexicon, "midnight")]  # both night
    assert not links[_word(lexicon, "ocean"), _word(lexicon, "guillotine")]
    assert lexicon.shared_tags(_word(lexicon, "ocean"), _word(lexicon, "whale")) == ["sea"]


def test_polysemous_words_bridge_clusters_that_are_not_associated(lexicon):
    """A chain drifts through words with several senses: "bat" ties a vampire to a ball, "crown"
    a throne to a tooth, "bow" an arrow to a violin, while the two ends share nothing."""
    links = lexicon.word_links
    for bridge, one, other in [
        ("bat", "vampire", "ball"),
        ("crown", "throne", "tooth"),
        ("bow", "arrow", "violin"),
        ("seal", "whale", "verdict"),
        ("spring", "daisy", "clockwork"),
    ]:
        bridge_id, one_id, other_id = (_word(lexicon, t) for t in (bridge, one, other))
        assert links[bridge_id, one_id] and links[bridge_id, other_id], bridge
        assert not links[one_id, other_id], (one, other)


def test_near_synonyms_rarely_share_three_tags(lexicon):
    """Words sharing 3+ tags let a chain bounce between two words without losing anything;
    they are kept rare so that four associations drift."""
    shared = lexicon.shared_word_tags.astype(int)
    np.fill_diagonal(shared, 0)
    close_pairs = int((shared >= 3).sum()) // 2
    assert close_pairs <= 0.04 * len(lexicon.words), close_pairs


def test_many_words_have_several_senses_and_characters_share_tags_across_themes(lexicon):
    tags_per_word = lexicon.word_tags.sum(axis=1)
    assert (tags_per_word >= 3).mean() >= 0.2
    for tag in ("game", "sport", "body", "color", "light", "water", "love", "death", "crown"):
        t = lexicon.tags.index(tag)
        themes = {c.theme for c in lexicon.characters if t in c.tags}
        assert len(themes) >= 2, tag


def test_character_links_share_a_tag_and_skip_words_of_the_name(lexicon):
    wolf = lexicon.character_id("The Big Bad Wolf")
    assert lexicon.tags.index("wolf") in lexicon.characters[wolf].tags
    assert not lexicon.character_links[wolf, _word(lexicon, "wolf")]  # shares the tag, but is in the name
    assert not lexicon.character_links[wolf, _word(lexicon, "big")]
    assert lexicon.character_links[wolf, _word(lexicon, "howl")]
    arthur = lexicon.character_id("King Arthur")
    assert not lexicon.character_links[arthur, _word(lexicon, "king")]
    assert lexicon.character_links[arthur, _word(lexicon, "queen")]
    hood = lexicon.character_id("Robin Hood")
    assert not lexicon.character_links[hood, _word(lexicon, "hood")]
    dracula = lexicon.character_id("Dracula")
    assert lexicon.character_links[dracula, _word(lexicon, "vampire")]
    assert not lexicon.character_links[dracula, _word(lexicon, "pizza")]


def test_character_links_match_the_definition_everywhere(lexicon):
    for character in lexicon.characters:
        tokens = name_tokens(character.name)
        shares = (lexicon.word_tags[:, list(character.tags)]).any(axis=1)
        in_name = np.array([w.text in tokens for w in lexicon.words])
        assert (lexicon.character_links[character.id] == (shares & ~in_name)).all(), character.name


def test_name_tokens_are_whole_lowercase_words():
    assert name_tokens("Frankenstein's Monster") == {"frankenstein", "s", "monster"}
    assert name_tokens("Molière") == {"molière"}
    assert name_tokens("Mary Queen of Scots") == {"mary", "queen", "of", "scots"}


def test_matrices_are_read_only(lexicon):
    for matrix in (lexicon.word_links, lexicon.character_links, lexicon.word_tags, lexicon.character_tags):
        with pytest.raises(ValueError):
            matrix[0, 0] = not matrix[0, 0]


# ---------------------------------------------------------------------- look-ups and summary
def test_word_id_and_unknown_word(lexicon):
    ocean = lexicon.word_id("ocean")
    assert lexicon.words[ocean].text == "ocean"
    with pytest.raises(ValueError, match="'zyzzyva'"):
        lexicon.word_id("zyzzyva")


def test_character_id_is_case_insensitive(lexicon):
    assert lexicon.characters[lexicon.character_id("cleopatra")].name == "Cleopatra"
    with pytest.raises(ValueError, match="Nobody"):
        lexicon.character_id("Nobody")


def test_load_lexicon_is_cached_and_versioned(lexicon):
    assert load_lexicon() is lexicon
    assert lexicon.version == LEXICON_VERSION


def test_summary_numbers(lexicon):
    summary = lexicon.summary()
    n = len(lexicon.words)
    edges = set()
    for tag in range(len(lexicon.tags)):
        members = [w.id for w in lexicon.words if tag in w.tags]
        edges.update(itertools.combinations(members, 2))
    assert summary["word_edges"] == len(edges)
    assert summary["word_pairs"] == n * (n - 1) // 2
    assert summary["word_density"] == pytest.approx(len(edges) / (n * (n - 1) / 2))
    assert summary["characters"] == len(lexicon.characters) and summary["words"] == n
    assert summary["tags"] == len(lexicon.tags)
    assert sum(summary["characters_per_theme"].values()) == len(lexicon.characters)
    assert sum(summary["words_per_pos"].values()) == n
    json.dumps(summary)  # plain Python numbers only


def test_association_graph_is_rich_but_not_trivial(lexicon):
    summary = lexicon.summary()
    assert summary["word_components"] == 1  # every word reaches every other by a chain
    assert summary["word_density"] < 0.1  # most word pairs are NOT associated
    assert summary["word_degree_min"] >= 3
    assert summary["character_first_words_min"] >= 20


# ---------------------------------------------------------------------- validation catches broken data
def _build(data: dict) -> Lexicon:
    """The lexicon and the constraint cards' promise on it, as the games load them."""
    return check_first_words(Lexicon.from_data(data))


def test_package_data_is_valid(raw_data):
    assert len(_build(copy.deepcopy(raw_data)).words) == len(raw_data["words"])


def _broken(raw_data: dict) -> dict:
    return copy.deepcopy(raw_data)


def test_validation_refuses_a_duplicate_word(raw_data):
    data = _broken(raw_data)
    data["words"][1]["text"] = data["words"][0]["text"]
    with pytest.raises(LexiconError, match="duplicate word"):
        _build(data)


def test_validation_refuses_gaps_in_ids(raw_data):
    data = _broken(raw_data)
    data["words"][5]["id"] = 500_000
    with pytest.raises(LexiconError, match="dense"):
        _build(data)
    data = _broken(raw_data)
    del data["characters"][3]
    with pytest.raises(LexiconError, match="dense"):
        _build(data)


def test_validation_refuses_tags_outside_the_vocabulary(raw_data):
    data = _broken(raw_data)
    data["words"][0]["tags"] = ["sea", "spaceship"]
    with pytest.raises(LexiconError, match="spaceship"):
        _build(data)


def test_validation_refuses_an_unknown_theme(raw_data):
    data = _broken(raw_data)
    data["characters"][0]["theme"] = "sports"
    with pytest.raises(LexiconError, match="sports"):
        _build(data)


def test_validation_refuses_too_few_or_too_many_tags(raw_data):
    data = _broken(raw_data)
    data["characters"][0]["tags"] = ["sea", "fire"]
    with pytest.raises(LexiconError, match="2 tags"):
        _build(data)
    data = _broken(raw_data)
    data["words"][0]["tags"] = ["sea", "fire", "night", "gold", "war"]
    with pytest.raises(LexiconError, match="5 tags"):
        _build(data)


def test_validation_refuses_words_that_are_not_lowercase_letters(raw_data):
    for bad in ("Ocean", "sea-shell", "ice cream", "café", ""):
        data = _broken(raw_data)
        data["words"][0]["text"] = bad
        with pytest.raises(LexiconError, match="lowercase"):
            _build(data)


def test_validation_refuses_an_unknown_part_of_speech(raw_data):
    data = _broken(raw_data)
    data["words"][0]["pos"] = "pronoun"
    with pytest.raises(LexiconError, match="pronoun"):
        _build(data)


def test_validation_refuses_a_theme_with_too_few_characters(raw_data):
    data = _broken(raw_data)
    data["characters"] = [c for c in data["characters"] if c["theme"] != "music"][:]
    music = [c for c in raw_data["characters"] if c["theme"] == "music"][:11]
    data["characters"] += copy.deepcopy(music)
    for i, character in enumerate(data["characters"]):
        character["id"] = i
    with pytest.raises(LexiconError, match="'music' has 11 characters"):
        _build(data)


def test_validation_refuses_a_word_associated_with_nothing(raw_data):
    data = _broken(raw_data)
    data["tags"].append("loneliness")
    data["words"].append({"id": len(data["words"]), "text": "zyzzyva", "pos": "noun", "tags": ["loneliness"]})
    with pytest.raises(LexiconError, match="'zyzzyva' is associated with no other word"):
        _build(data)


def _add_character(data: dict, tags: list[str]) -> None:
    data["characters"].append({"id": len(data["characters"]), "name": "Nobody", "theme": "tales", "tags": tags})


def test_validation_refuses_a_character_without_any_first_word(raw_data):
    data = _broken(raw_data)
    data["tags"] += ["alpha", "beta", "gamma"]
    _add_character(data, ["alpha", "beta", "gamma"])
    with pytest.raises(LexiconError, match="'Nobody' has no legal first word under no constraint"):
        _build(data)


def test_validation_refuses_a_character_without_a_first_word_under_one_card(raw_data):
    data = _broken(raw_data)
    data["tags"] += ["alpha", "beta", "gamma"]
    data["words"].append({"id": len(data["words"]), "text": "zyzzyva", "pos": "noun", "tags": ["alpha", "animal"]})
    _add_character(data, ["alpha", "beta", "gamma"])
    with pytest.raises(LexiconError, match="'Nobody' has no legal first word under verbs_only"):
        _build(data)


def test_validation_refuses_a_character_whose_only_clue_is_its_own_name(raw_data):
    data = _broken(raw_data)
    data["tags"] += ["alpha", "beta", "gamma"]
    data["words"].append({"id": len(data["words"]), "text": "nobody", "pos": "noun", "tags": ["alpha", "animal"]})
    _add_character(data, ["alpha", "beta", "gamma"])
    with pytest.raises(LexiconError, match="'Nobody' has no legal first word under no constraint"):
        _build(data)


def test_validation_refuses_malformed_entries(raw_data):
    data = _broken(raw_data)
    del data["words"][0]["pos"]
    with pytest.raises(LexiconError, match="malformed"):
        _build(data)
