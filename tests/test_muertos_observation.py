"""The observation of Fiesta de los Muertos / La Catrina (version 1): the page's table is the code's layout, every
block decodes to what the rules say a seat knows, words and characters carry an identity, and version 0 is retired.
"""

from __future__ import annotations

import importlib
import json
import re
import sys
from pathlib import Path

import gymnasium
import numpy as np
import pettingzoo
import pytest
from muertos_scenarios import deduce, keep_first, write_all
from pettingzoo.env_registry.exceptions import VersionNotFound
from pettingzoo.utils.deprecated_module import DeprecatedEnv

import fiesta_envs
from fiesta_envs import fiesta_de_los_muertos_v1
from fiesta_envs.muertos.catrina import LaCatrina
from fiesta_envs.muertos.components import BLANK, STEPS, Phase
from fiesta_envs.muertos.constraints import CONSTRAINTS
from fiesta_envs.muertos.engine import LEXICON, OBSERVER
from fiesta_envs.muertos.game import FiestaDeLosMuertos
from fiesta_envs.muertos.identity import BITS, MIN_DISTANCE, WEIGHT, IdentityCodes, load_identity_codes
from fiesta_envs.muertos.lexicon import LexiconError

ROOT = Path(__file__).resolve().parent.parent


def page_blocks() -> list[tuple[str, int]]:
    """(block, size) rows of the observation table in the page's docstring."""
    section = fiesta_de_los_muertos_v1.__doc__.split("Observation: ", 1)[1].split("\nRewards\n", 1)[0]
    table = re.split(r"^=+ +=+ +=+$", section, flags=re.MULTILINE)[2]  # between the header rule and the last
    return [(name, int(size)) for name, size in re.findall(r"^([a-z_]+) +(\d+) +\S", table, flags=re.MULTILINE)]


def test_the_page_lists_the_blocks_of_the_code_in_order_with_their_sizes():
    layout = [(name, size) for name, _, size in OBSERVER.layout.describe()]
    assert page_blocks() == layout
    total = OBSERVER.size
    assert f"Box(0, 1, ({total},), float32)" in fiesta_de_los_muertos_v1.__doc__
    assert total == 5180 and FiestaDeLosMuertos().observation_size == LaCatrina().observation_size == total
    assert OBSERVER.word_width == 2 + len(LEXICON.tags) + BITS == 133
    assert OBSERVER.character_width == 1 + len(LEXICON.tags) + BITS == 132


def words_in(block: np.ndarray, count: int, flags: int = 0) -> list[int | None]:
    rows = block.reshape(count, OBSERVER.word_width + flags)
    return [OBSERVER.word_in(row[: OBSERVER.word_width]) for row in rows]


def characters_in(block: np.ndarray, count: int, flags: int = 0) -> list[int | None]:
    rows = block.reshape(count, OBSERVER.character_width + flags)
    return [OBSERVER.character_in(row[: OBSERVER.character_width]) for row in rows]


def test_every_block_decodes_to_what_the_seat_knows_during_the_draw_and_the_writing():
    game = FiestaDeLosMuertos(num_players=5, seed=4, draw_choice=True, constraints=2, cortege=True)
    state = game.state.round
    blocks = OBSERVER.decode(game.observe(0))
    assert blocks["players"].tolist() == [0, 1, 0, 0, 0]
    assert np.flatnonzero(blocks["phase"]).tolist() == [Phase.DRAW]
    assert blocks["round"].tolist() == [1, 0, 0, 0]
    assert np.flatnonzero(blocks["constraints"]).tolist() == sorted(state.constraints)
    assert len(state.constraints) == 2 and len(blocks["constraints"]) == len(CONSTRAINTS)
    assert np.flatnonzero(blocks["themes"]).tolist() == state.themes
    assert blocks["team"].tolist() == [pytest.approx(1 / game.memory_cap), 0, 0, 1]  # 1 Memory Bone; seat 0 decides
    assert characters_in(blocks["offers"], 2) == state.offers[0]
    assert characters_in(blocks["my_characters"], 2) == [None, None]  # nothing kept yet
    keep_first(game)
    rng = np.random.default_rng(0)
    while state.step < 2 or state.seat < 3:  # step 3 (0-based 2), seat 3 to write
        legal = game.legal_actions()
        game.step(legal[int(rng.integers(len(legal)))])
    for seat in range(5):
        blocks = OBSERVER.decode(game.observe(seat))
        assert np.flatnonzero(blocks["phase"]).tolist() == [Phase.WRITE]
        assert characters_in(blocks["my_characters"], 2) == [state.characters[seat], None]
        memory = words_in(blocks["memory"], 16)
        for step in range(STEPS):
            skull = (seat - step) % 5
            handed = state.words[skull][step - 1] if 0 < step <= 2 else None
            written = state.words[skull][step] if step < 2 or (step == 2 and seat < 3) else None
            assert memory[2 * step : 2 * step + 2] == [handed, written], (seat, step)
        assert memory[8:] == [None] * 8  # no second hand
        assert blocks["team"][3] == float(seat == 0)
        if seat == 3:
            assert blocks["task"].tolist() == [1, 0, 0, 0, 1, 0]
            read = state.words[(3 - 2) % 5][1]
            prompt = blocks["prompt"]
            if read == BLANK:
                assert prompt[:3].tolist() == [0, 0, 1] and not prompt[3:].any()
            else:
                assert prompt[:3].tolist() == [0, 1, 0]
                assert OBSERVER.word_in(np.concatenate([[1, 0], prompt[3:]])) == read
        else:
            assert not blocks["task"].any() and not blocks["prompt"].any()
        for name in ("table", "final_words", "to_match", "my_guesses", "reveal"):
            assert not blocks[name].any(), name


def test_every_block_decodes_to_what_the_seat_knows_in_the_deduction_and_after_the_reveal():
    game = FiestaDeLosMuertos(num_players=4, seed=8, double_challenge=True)
    state = game.state.round
    write_all(game)
    game.play("match 1 to 3", "match 2 to 5")
    seat = 0
    blocks = OBSERVER.decode(game.observe(seat))
    assert characters_in(blocks["table"], 8, flags=2) == state.table
    table = blocks["table"].reshape(8, -1)[:, OBSERVER.character_width :]
    for hand in range(2):
        mine = state.table.index(state.characters[hand * 4 + seat])
        assert np.flatnonzero(table[:, hand]).tolist() == [mine]
    finals = [state.words[skull][STEPS - 1] for skull in state.numbers]
    assert words_in(blocks["final_words"], 8, flags=2) == finals
    flags = blocks["final_words"].reshape(8, -1)[:, OBSERVER.word_width :]
    for hand in range(2):
        last = state.words[hand * 4 + (seat - 3) % 4][STEPS - 1]
        assert flags[:, hand].tolist() == [float(word == last) for word in finals]
    assert blocks["to_match"].tolist() == [0, 0, 1, 0, 0, 0, 0, 0]
    guesses = blocks["my_guesses"].reshape(8, 8)
    assert np.flatnonzero(guesses[0]).tolist() == [2] and np.flatnonzero(guesses[1]).tolist() == [4]
    assert not guesses[2:].any() and not blocks["reveal"].any()
    assert not OBSERVER.decode(game.observe(1))["my_guesses"].any()  # seat 1 has not matched yet
    deduce(game, [4, 3, 2, 4, 0, 1, 4, 4])
    blocks = OBSERVER.decode(game.observe(2))
    reveal = blocks["reveal"].reshape(8, 15)
    for number, skull in enumerate(state.numbers):
        row = reveal[number]
        assert np.flatnonzero(row[:8]).tolist() == [state.answer(skull)]
        assert row[8] == pytest.approx(state.correct_count(skull) / 4)
        assert row[9] == pytest.approx(state.whites[skull] / 3)
        assert row[10:15].tolist() == [
            state.yellow[skull],
            pytest.approx(state.bones[skull] / 3),
            state.limbo[skull],
            state.closed(skull),
            0.0,
        ]


def test_words_and_characters_with_the_same_tags_have_different_slots():
    codes = load_identity_codes()
    clock, minute = LEXICON.word_id("clock"), LEXICON.word_id("minute")
    assert LEXICON.words[clock].tags == LEXICON.words[minute].tags
    assert not np.array_equal(OBSERVER.word_slots[clock], OBSERVER.word_slots[minute])
    attila, genghis = LEXICON.character_id("Attila the Hun"), LEXICON.character_id("Genghis Khan")
    assert LEXICON.characters[attila].tags == LEXICON.characters[genghis].tags
    assert not np.array_equal(OBSERVER.character_slots[attila], OBSERVER.character_slots[genghis])
    # Every slot names its word or character back, and the codes keep their promised shape.
    assert [OBSERVER.word_in(row) for row in OBSERVER.word_slots[:-2]] == list(range(len(LEXICON.words)))
    assert OBSERVER.word_in(OBSERVER.word_slots[BLANK]) == BLANK
    characters = OBSERVER.character_slots[:-1]
    assert [OBSERVER.character_in(row) for row in characters] == list(range(len(LEXICON.characters)))
    every = np.vstack([codes.characters, codes.words]).astype(int)
    assert (every.sum(axis=1) == WEIGHT).all()
    distances = (every[:, None, :] != every[None, :, :]).sum(axis=2)
    assert distances[~np.eye(len(every), dtype=bool)].min() >= MIN_DISTANCE


def test_the_shipped_identity_codes_are_what_the_script_writes():
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        script = importlib.import_module("make_identity_codes")
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    shipped = json.loads((ROOT / "fiesta_envs/muertos/data/identity_codes.json").read_text(encoding="utf-8"))
    assert script.build(shipped) == shipped
    assert script.build(None) == shipped  # made from scratch, the same codes


def test_identity_codes_refuse_a_missing_or_malformed_code():
    data = json.loads((ROOT / "fiesta_envs/muertos/data/identity_codes.json").read_text(encoding="utf-8"))
    codes = dict(data["codes"])
    del codes["word:clock"]
    with pytest.raises(LexiconError, match="no code for 'word:clock'"):
        IdentityCodes(LEXICON, codes)
    codes = dict(data["codes"], **{"word:clock": "10"})
    with pytest.raises(LexiconError, match="the code of 'word:clock' must be 20 characters"):
        IdentityCodes(LEXICON, codes)
    codes = dict(data["codes"], **{"word:clock": data["codes"]["word:minute"]})
    with pytest.raises(LexiconError, match="the codes of .word:clock. and .word:minute. differ in 0 bits"):
        IdentityCodes(LEXICON, codes)


@pytest.mark.parametrize(
    ("old", "new", "old_id", "new_id"),
    [
        ("fiesta_de_los_muertos_v0", "fiesta_de_los_muertos_v1", "FiestaDeLosMuertos-v0", "FiestaDeLosMuertos-v1"),
        ("la_catrina_v0", "la_catrina_v1", "LaCatrina-v0", "LaCatrina-v1"),
    ],
)
@pytest.mark.filterwarnings("ignore:.*is out of date")
def test_version_0_fails_with_a_message_naming_version_1(old, new, old_id, new_id):
    module = importlib.import_module(f"fiesta_envs.{old}")
    for function in (module.env, module.raw_env, module.parallel_env):
        with pytest.raises(DeprecatedEnv, match=f"use fiesta_envs.{new} or the id 'fiesta_envs/{new_id}'"):
            function(num_players=4)
    assert fiesta_envs  # (registers the ids)
    with pytest.raises(gymnasium.error.DeprecatedEnv, match=f"fiesta_envs/{new_id}"):
        gymnasium.make(f"fiesta_envs/{old_id}")
    with pytest.raises(VersionNotFound, match="Available version: v1"):
        pettingzoo.make("aec", f"fiesta_envs/{old_id}")
    assert importlib.import_module(f"fiesta_envs.{new}").env(num_players=4) is not None
