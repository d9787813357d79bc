"""The flat action space shared by Fiesta de los Muertos and La Catrina.

The space is fixed by the lexicon (one ``keep`` per character, one ``write`` per word), so
both games use the same layout and a policy trained on one can play the other::

    keep <character>        draw choice: keep this one of the two characters dealt
    write <word>            write this word on the skull in hand
    blank                   leave the tooth blank (legal only when no word is)
    match <S> to <C>        deduction: skull number S (1..8) is the character in slot C (1..8)
    bone <S>                spend a Memory Bone on skull number S
    limbo <S>               spend a Limbo Bone on skull number S (La Catrina only)
    flower / memory         the reward for a checked yellow box (La Catrina only)
    done                    stop spending bones; the round ends

Skull numbers and character slots are 1-based in names, as on the number cards.
"""

from __future__ import annotations

import enum

from fiesta_envs.muertos.components import BLANK, MAX_SKULLS, TABLE_SIZE
from fiesta_envs.muertos.lexicon import Lexicon


class Kind(enum.IntEnum):
    KEEP = 0
    WRITE = 1
    BLANK = 2
    MATCH = 3
    BONE = 4
    LIMBO = 5
    FLOWER = 6
    MEMORY = 7
    DONE = 8


class ActionLayout:
    """Offsets of each kind of action, and decoding tables ``kind[a]``, ``first[a]``, ``second[a]``."""

    def __init__(self, lexicon: Lexicon) -> None:
        self.num_characters = len(lexicon.characters)
        self.num_words = len(lexicon.words)
        self.keep = 0
        self.write = self.keep + self.num_characters
        self.blank = self.write + self.num_words
        self.match = self.blank + 1
        self.bone = self.match + MAX_SKULLS * TABLE_SIZE
        self.limbo = self.bone + MAX_SKULLS
        self.flower = self.limbo + MAX_SKULLS
        self.memory = self.flower + 1
        self.done = self.memory + 1
        self.size = self.done + 1

        kinds: list[int] = []
        first: list[int] = []
        second: list[int] = []

        def add(kind: Kind, a: int = 0, b: int = 0) -> None:
            kinds.append(int(kind))
            first.append(a)
            second.append(b)

        for c in range(self.num_characters):
            add(Kind.KEEP, c)
        for w in range(self.num_words):
            add(Kind.WRITE, w)
        add(Kind.BLANK, BLANK)  # ``first`` is what the action writes on the tooth, as for ``write W``
        for number in range(MAX_SKULLS):
            for slot in range(TABLE_SIZE):
                add(Kind.MATCH, number, slot)
        for number in range(MAX_SKULLS):
            add(Kind.BONE, number)
        for number in range(MAX_SKULLS):
            add(Kind.LIMBO, number)
        add(Kind.FLOWER)
        add(Kind.MEMORY)
        add(Kind.DONE)
        assert len(kinds) == self.size
        self.kind: tuple[int, ...] = tuple(kinds)
        self.first: tuple[int, ...] = tuple(first)
        self.second: tuple[int, ...] = tuple(second)
        self._names = self._build_names(lexicon)

    def match_action(self, number: int, slot: int) -> int:
        """``match number+1 to slot+1`` (0-based arguments)."""
        return self.match + number * TABLE_SIZE + slot

    def names(self) -> list[str]:
        return list(self._names)

    def _build_names(self, lexicon: Lexicon) -> list[str]:
        names = [f"keep {character.name}" for character in lexicon.characters]
        names += [f"write {word.text}" for word in lexicon.words]
        names.append("blank")
        names += [f"match {s + 1} to {c + 1}" for s in range(MAX_SKULLS) for c in range(TABLE_SIZE)]
        names += [f"bone {s + 1}" for s in range(MAX_SKULLS)]
        names += [f"limbo {s + 1}" for s in range(MAX_SKULLS)]
        names += ["flower", "memory", "done"]
        return [" ".join(name.split()) for name in names]
