"""Fiesta de los Muertos' invariants (one round), checked by the fuzzer from state dicts only.

A second reading of the rules, using the lexicon data (characters, words, tags) but none of the
engine's rule code. La Catrina (``la_catrina.py``) reuses these checks for each of its rounds.

* ``check_state``: the 8 characters on the table are distinct and laid out by a permutation;
  under ``cortege`` they come from the round's two themes; every written word is associated
  with what its writer read (shares a tag with the character, or with the word it replaces,
  and differs from it; a first word is never part of the character's name); the team's bones
  are never negative; a skull's white boxes never exceed N - 1; once the skulls are opened,
  the white boxes are the correct matches (recomputed here, capped at N - 1) plus the Memory
  Bones spent on that skull, and the yellow box is checked exactly when every player was right.
* ``check_transition``: within a round, written words and guesses never change; Limbo Bones are
  never won back; flowers never go away; rounds only move forward.
* ``check_final``: the score every player gets is the team's result: the skulls closed
  (appeased, or with a Limbo Bone), recomputed from the final round.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fiesta_envs.muertos.components import BLANK, NOT_WRITTEN, TABLE_SIZE, Phase
from fiesta_envs.muertos.lexicon import THEMES, load_lexicon, name_tokens

LEXICON = load_lexicon()

CHARACTER_TAGS = [set(c.tags) for c in LEXICON.characters]
WORD_TAGS = [set(w.tags) for w in LEXICON.words]
NAME_WORDS = [name_tokens(c.name) for c in LEXICON.characters]


def hands(data: dict[str, Any]) -> int:
    return 2 if data["options"].get("double_challenge") else 1


def round_problems(data: dict[str, Any], game: dict[str, Any]) -> list[str]:
    """The checks of one round (``game`` is the state's ``round`` part)."""
    n = data["num_players"]
    skulls = n * hands(data)
    problems = []
    characters, extras = game["characters"], game["extras"]
    pool = characters + extras
    if game["phase"] == Phase.DRAW:  # characters are kept one by one from the offers
        offered = [c for pair in game["offers"] for c in pair] + extras
        if len(set(offered)) != len(offered):
            problems.append(f"a character is offered twice or also an extra: {game['offers']} + {extras}")
    elif len(pool) != TABLE_SIZE or len(set(pool)) != TABLE_SIZE:
        problems.append(f"the table does not hold 8 distinct characters: {characters} + {extras}")
    if sorted(game["table_order"]) != list(range(TABLE_SIZE)):
        problems.append(f"table order {game['table_order']} is not a permutation of the 8 slots")
    if sorted(game["numbers"]) != list(range(skulls)):
        problems.append(f"number cards {game['numbers']} are not a permutation of the {skulls} skulls")
    if data["options"].get("cortege") and game["phase"] != Phase.DRAW:
        themes = {THEMES[t] for t in game["themes"]}
        off = [c for c in pool if LEXICON.characters[c].theme not in themes]
        if len(themes) != 2 or off:
            problems.append(f"cortège themes {sorted(themes)} but characters {off} from others")

    for skull in range(min(skulls, len(characters))):
        character = characters[skull]
        read = ("character", character)
        for step, word in enumerate(game["words"][skull]):
            if word == NOT_WRITTEN:
                break
            if word != BLANK:
                problems += _word_problems(skull, step, word, read)
            read = ("blank", -1) if word == BLANK else ("word", word)

    whites, bones = game["whites"], game["bones"]
    for skull in range(skulls):
        if whites[skull] > n - 1 or whites[skull] < 0:
            problems.append(f"skull {skull} has {whites[skull]} white boxes checked of {n - 1}")
    if game["phase"] >= Phase.YELLOW:
        table = [pool[i] for i in game["table_order"]]
        for skull in range(skulls):
            correct = sum(1 for slot in game["guesses"][skull] if slot >= 0 and table[slot] == characters[skull])
            if whites[skull] != min(correct, n - 1) + bones[skull]:
                problems.append(
                    f"skull {skull}: {whites[skull]} white boxes, but {correct} right matches and {bones[skull]} bones"
                )
            if game["yellow"][skull] != (correct == n):
                problems.append(f"skull {skull}: yellow box {game['yellow'][skull]} with {correct} of {n} right")
    return problems


def _word_problems(skull: int, step: int, word: int, read: tuple[str, int]) -> list[str]:
    kind, ident = read
    text = LEXICON.words[word].text
    if kind == "character":
        if not CHARACTER_TAGS[ident] & WORD_TAGS[word]:
            return [f"skull {skull}: first word {text!r} shares no tag with {LEXICON.characters[ident].name}"]
        if text in NAME_WORDS[ident]:
            return [f"skull {skull}: first word {text!r} is part of the name {LEXICON.characters[ident].name}"]
    elif kind == "word":
        if word == ident:
            return [f"skull {skull} step {step}: {text!r} repeats the word it replaces"]
        if not WORD_TAGS[ident] & WORD_TAGS[word]:
            return [f"skull {skull} step {step}: {text!r} shares no tag with {LEXICON.words[ident].text!r}"]
    return []


def team_problems(data: dict[str, Any]) -> list[str]:
    team = data["state"]["team"]
    if min(team["memory"], team["limbo"], team["flowers"]) < 0:
        return [f"negative team counts {team}"]
    return []


def check_state(data: dict[str, Any]) -> list[str]:
    return team_problems(data) + round_problems(data, data["state"]["round"])


def check_transition(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    b, a = before["state"], after["state"]
    problems = []
    if a["round_index"] < b["round_index"]:
        problems.append("the round number went back")
    if a["team"]["limbo"] > b["team"]["limbo"]:
        problems.append("a Limbo Bone was won back")
    if a["team"]["flowers"] < b["team"]["flowers"]:
        problems.append("flowers went away")
    if len(a["history"]) < len(b["history"]) or a["history"][: len(b["history"])] != b["history"]:
        problems.append("the record of past rounds changed")
    if a["round_index"] == b["round_index"]:
        for skull, (old, new) in enumerate(zip(b["round"]["words"], a["round"]["words"], strict=True)):
            if any(o != NOT_WRITTEN and o != w for o, w in zip(old, new, strict=True)):
                problems.append(f"a word on skull {skull} was rewritten")
        for skull, (old, new) in enumerate(zip(b["round"]["guesses"], a["round"]["guesses"], strict=True)):
            if any(o >= 0 and o != g for o, g in zip(old, new, strict=True)):
                problems.append(f"a guess for skull {skull} changed")
    return problems


def closed_skulls(data: dict[str, Any]) -> int:
    game = data["state"]["round"]
    n = data["num_players"]
    return sum(1 for w, limbo in zip(game["whites"], game["limbo"], strict=True) if limbo or w >= n - 1)


def check_final(data: dict[str, Any], scores: Sequence[float]) -> list[str]:
    expected = closed_skulls(data)
    if any(float(s) != expected for s in scores):
        return [f"scores {list(scores)}, but {expected} skulls are closed"]
    return []
