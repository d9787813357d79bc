"""One round of Fiesta de los Muertos: draw, four writing steps, deduction, appeasement.

Both games drive a ``Round``: Fiesta de los Muertos plays one, La Catrina up to four. The
round owns everything that is drawn for it and everything written and guessed in it; the
team's bones and flowers live in a ``Team`` that the game keeps across rounds.

Vocabulary used below (N players, S skulls: S = N, or 8 under the double challenge):
  skull index ``j = hand * N + owner``: the skull of seat ``owner`` (its first, or with the
      double challenge its second, character);
  skull number ``d`` (0-based here, 1-based in action names): the number card the skull gets
      for the deduction, a fresh random shuffle (``numbers[d]`` is the skull index);
  table slot ``c``: one of the 8 characters laid face up (``table[c]`` is a character id).

Rules (see the package docs for the rulings):
  Draw: each seat holds one character (two under the double challenge); with ``draw_choice``
      each seat is dealt two and keeps one with ``keep C``.
  Writing: four steps; at step k seat i holds the skull of seat i - k. The first word must be
      associated with the character (share a tag) and not be part of its name; each next word
      must be associated with the word it replaces and differ from it; every word must meet the
      constraints in play. ``blank`` only when no word is legal; after a blank any word that
      meets the constraints is legal.
  Deduction: seat by seat, every player matches every skull in number order (their own too);
      two skulls may get the same character.
  Appeasement: each correct match checks a box: N - 1 white boxes, then the yellow box, which
      needs every player right. All whites checked = appeased. A checked yellow box gives a
      Memory Bone (base game) or, in La Catrina, the decider chooses ``memory`` or ``flower``.
      Then the decider spends bones: ``bone S`` checks one missing white box, ``limbo S``
      (La Catrina) closes an unappeased skull; ``done`` ends the round.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from fiesta_envs.core.state_fields import FieldReader
from fiesta_envs.muertos.actions import ActionLayout, Kind
from fiesta_envs.muertos.components import BLANK, MAX_SKULLS, NOT_WRITTEN, STEPS, TABLE_SIZE, Phase
from fiesta_envs.muertos.constraints import CONSTRAINTS, allowed_after, check_word
from fiesta_envs.muertos.lexicon import THEMES, Lexicon
from fiesta_envs.muertos.state import RoundRules, RoundState, Team


class Round(RoundState):
    """The state of one round (a ``RoundState``) and the rules that move it. Build it with ``Round.undealt`` (then
    ``deal``) or ``Round.from_saved``."""

    def __init__(
        self, *, rules: RoundRules, lexicon: Lexicon, layout: ActionLayout, team: Team, state: RoundState
    ) -> None:
        super().__init__(**{name: getattr(state, name) for name in RoundState.__dataclass_fields__})
        self.rules = rules
        self.lexicon = lexicon
        self.layout = layout
        self.team = team
        self.rebuild()

    def copy_for(self, team: Team) -> Round:
        """An independent copy of the round playing for ``team`` (the rules, lexicon and layout are shared)."""
        return Round(rules=self.rules, lexicon=self.lexicon, layout=self.layout, team=team, state=self.copied())

    def rebuild(self) -> None:
        """Forget every value derived from the position (after a deal, a load, a copy or a draw): the one place.
        The caches are not part of the state: ``to_json_safe`` writes the ``RoundState`` fields only."""
        self._table_cache: list[int] | None = None
        self._allowed_cache: dict[int, np.ndarray] = {}

    # ------------------------------------------------------------------ setting up
    @classmethod
    def undealt(cls, *, rules: RoundRules, lexicon: Lexicon, layout: ActionLayout, team: Team) -> Round:
        """A round before the deal (``deal`` draws it): nothing drawn, written or guessed yet."""
        return cls(rules=rules, lexicon=lexicon, layout=layout, team=team, state=RoundState.before_the_deal(rules))

    def deal(self, rng: np.random.Generator, constraints: list[int], decider: int) -> None:
        """Deal this round (made by ``undealt``): all its chance (themes, deck, table order, number cards) drawn
        from ``rng``."""
        rules = self.rules
        self.constraints = list(constraints)
        self.decider = decider
        if rules.cortege:
            self.themes = sorted(int(t) for t in rng.choice(len(THEMES), size=2, replace=False))
        pool = _deck_pool(self.lexicon, tuple(self.themes))
        per_seat = 2 if rules.draw_choice else rules.hands
        dealt = rules.num_players * per_seat
        extras = TABLE_SIZE - rules.skulls
        if len(pool) < dealt + extras:
            raise RuntimeError(
                f"the lexicon has {len(pool)} characters for themes {self.theme_names()}; "
                f"a round needs {dealt + extras}"
            )
        # The whole pool is shuffled (that fixes the random stream); only the top cards are used.
        top = rng.permutation(len(pool))[: dealt + extras].tolist()
        deck = top if not self.themes else [pool[i] for i in top]  # without themes the pool is 0, 1, 2...
        if rules.draw_choice:
            self.offers = [deck[2 * p : 2 * p + 2] for p in range(rules.num_players)]
        else:
            self.characters = deck[: rules.skulls]
        self.extras = deck[dealt : dealt + extras]
        self.table_order = rng.permutation(TABLE_SIZE).tolist()
        self.numbers = rng.permutation(rules.skulls).tolist()
        self.phase = Phase.DRAW if rules.draw_choice else Phase.WRITE
        self.rebuild()

    def deck_pool(self) -> list[int]:
        """The characters this round's deck is made of (two themes only under ``cortege``)."""
        return list(_deck_pool(self.lexicon, tuple(self.themes)))

    def theme_names(self) -> list[str]:
        return [THEMES[t] for t in self.themes]

    # ------------------------------------------------------------------ where things are
    def skull(self, owner: int, hand: int) -> int:
        return hand * self.rules.num_players + owner

    def holder_skull(self, seat: int, step: int, hand: int) -> int:
        """The skull ``seat`` holds at ``step``: the one of seat ``seat - step``."""
        return self.skull((seat - step) % self.rules.num_players, hand)

    @property
    def table(self) -> list[int]:
        """The 8 characters face up in the deduction, by slot (fixed at the deal, shown later)."""
        if self._table_cache is None:
            pool = self.characters + self.extras
            self._table_cache = [pool[i] for i in self.table_order]
        return self._table_cache

    def answer(self, skull: int) -> int:
        """The table slot of a skull's character."""
        return self.table.index(self.characters[skull])

    def closed(self, skull: int) -> bool:
        """Appeased (every white box checked) or closed by a Limbo Bone."""
        return self.limbo[skull] or self.whites[skull] >= self.rules.white_boxes

    def appeased_count(self) -> int:
        """Closed skulls: ``closed(j)`` counted over every skull, without a call per skull."""
        needed = self.rules.white_boxes
        return sum(limbo or whites >= needed for limbo, whites in zip(self.limbo, self.whites, strict=True))

    @property
    def succeeded(self) -> bool:
        """Every skull is closed."""
        return self.appeased_count() == self.rules.skulls

    @property
    def current_player(self) -> int:
        phase = self.phase
        if phase <= Phase.DEDUCE:  # draw, writing, deduction: seat by seat
            return self.seat
        if phase <= Phase.SPEND:  # yellow-box choice and bones: the decider
            return self.decider
        return -1

    def current_skull(self) -> int:
        """The skull being written on (writing) or matched (deduction)."""
        if self.phase == Phase.WRITE:
            return self.holder_skull(self.seat, self.step, self.hand)
        if self.phase == Phase.DEDUCE:
            return self.numbers[self.number]
        raise ValueError(f"no skull is in hand during phase {self.phase.name}")

    def prompt(self) -> tuple[str, int]:
        """What the writer reads now: ("character", id), ("word", id) or ("blank", -1)."""
        skull = self.current_skull()
        if self.step == 0:
            return "character", self.characters[skull]
        previous = self.words[skull][self.step - 1]
        return ("blank", BLANK) if previous == BLANK else ("word", previous)

    def prompt_key(self) -> int:
        """The prompt as one int: a word id (>= 0), blank (-1) or ``-2 - character id`` (<= -2)."""
        skull = self.holder_skull(self.seat, self.step, self.hand)
        if self.step == 0:
            return -2 - self.characters[skull]
        return self.words[skull][self.step - 1]  # BLANK is -1

    # ------------------------------------------------------------------ legality
    def allowed_words(self) -> np.ndarray:
        """bool (n_words,): the words the current writer may write."""
        kind, ident = self.prompt()
        key = -2 - ident if kind == "character" else ident  # as ``prompt_key``
        cached = self._allowed_cache.get(key)
        if cached is None:
            cached = self._compute_allowed(kind, ident)
            self._allowed_cache[key] = cached
        return cached

    def _compute_allowed(self, kind: str, ident: int) -> np.ndarray:
        lexicon = self.lexicon
        if not self.constraints:  # the association rule alone (read-only rows of the lexicon)
            if kind == "character":
                return lexicon.character_links[ident]
            return lexicon.word_links[ident] if kind == "word" else np.ones(len(lexicon.words), dtype=bool)
        if kind == "character":
            return lexicon.character_links[ident] & allowed_after(self.constraints, None, lexicon)
        if kind == "blank":
            return allowed_after(self.constraints, None, lexicon)
        return lexicon.word_links[ident] & allowed_after(self.constraints, ident, lexicon)

    def legal_mask(self) -> np.ndarray:
        """int8 (n_actions,). The writing, matching and yellow-choice masks are rows of tables shared
        between positions and read-only (``_free_write_masks``, ``_write_masks``, ``_one_group_masks``);
        draw and spend masks are built afresh."""
        phase = self.phase
        if phase == Phase.WRITE:  # the writing mask depends on the prompt alone
            key = self.prompt_key()
            if not self.constraints:  # the association rule alone: one row of a table made once
                return _free_write_masks(self.layout, self.lexicon)[key]
            masks = _write_masks(self.layout, self.constraints)
            mask = masks.get(key)
            if mask is None:
                mask = masks[key] = self._write_mask()
                mask.flags.writeable = False
            return mask
        if Phase.DEDUCE <= phase <= Phase.YELLOW:  # matching a skull, or the yellow-box choice
            return _one_group_masks(self.layout)[self.number if phase == Phase.DEDUCE else YELLOW_CHOICE]
        layout = self.layout
        mask = np.zeros(layout.size, dtype=np.int8)
        if phase == Phase.DRAW:
            for c in self.offers[self.seat]:
                mask[layout.keep + c] = 1
        elif phase == Phase.SPEND:
            for d, j in enumerate(self.numbers):
                if not self.closed(j):
                    if self.team.memory > 0:
                        mask[layout.bone + d] = 1
                    if self.rules.catrina and self.team.limbo > 0:
                        mask[layout.limbo + d] = 1
            mask[layout.done] = 1
        return mask

    def _write_mask(self) -> np.ndarray:
        layout = self.layout
        mask = np.zeros(layout.size, dtype=np.int8)
        allowed = self.allowed_words()
        if allowed.any():
            mask[layout.write : layout.blank] = allowed
        else:
            mask[layout.blank] = 1
        return mask

    def explain_illegal(self, action: int) -> str:
        """The rule that forbids ``action`` now."""
        layout = self.layout
        kind, a = layout.kind[action], layout.first[action]
        phase_text = {
            Phase.DRAW: "players are choosing which character to keep",
            Phase.WRITE: "players are writing words on the skulls",
            Phase.DEDUCE: "players are matching skulls to characters",
            Phase.YELLOW: "the decider chooses memory or flower for a checked yellow box",
            Phase.SPEND: "the decider spends bones or says done",
            Phase.DONE: "the round is over",
        }[self.phase]
        wanted = {
            Phase.DRAW: Kind.KEEP,
            Phase.WRITE: (Kind.WRITE, Kind.BLANK),
            Phase.DEDUCE: Kind.MATCH,
            Phase.YELLOW: (Kind.FLOWER, Kind.MEMORY),
            Phase.SPEND: (Kind.BONE, Kind.LIMBO, Kind.DONE),
        }.get(self.phase, ())
        wanted = wanted if isinstance(wanted, tuple) else (wanted,)
        if kind == Kind.LIMBO and not self.rules.catrina:
            return "Limbo Bones belong to the La Catrina campaign"
        if kind in (Kind.FLOWER, Kind.MEMORY) and not self.rules.catrina:
            return (
                "the memory-or-flower choice belongs to the La Catrina campaign: "
                "in the base game a checked yellow box wins a Memory Bone at once"
            )
        if kind not in wanted:
            return f"not now: {phase_text}"
        if kind == Kind.KEEP:
            names = " or ".join(self.lexicon.characters[c].name for c in self.offers[self.seat])
            return f"{self.lexicon.characters[a].name} was not dealt to you; keep {names}"
        if kind == Kind.WRITE:
            return self._explain_word(a)
        if kind == Kind.BLANK:
            example = self.lexicon.words[int(np.flatnonzero(self.allowed_words())[0])].text
            return f"a blank is allowed only when no word is legal, and {example!r} (for one) is legal"
        if kind == Kind.MATCH:
            if a >= self.rules.skulls:
                return f"there are only {self.rules.skulls} skulls"
            return f"skull {self.number + 1} is the one to match now, not skull {a + 1}"
        if a >= self.rules.skulls:
            return f"there are only {self.rules.skulls} skulls"
        if self.closed(self.numbers[a]):
            return f"skull {a + 1} is already closed"
        if kind == Kind.BONE:
            return "the team has no Memory Bone left"
        return "the team has no Limbo Bone left"

    def _explain_word(self, word: int) -> str:
        lexicon = self.lexicon
        text = lexicon.words[word].text
        kind, ident = self.prompt()
        if kind == "character":
            character = lexicon.characters[ident]
            if not (lexicon.character_tags[ident] & lexicon.word_tags[word]).any():
                return f"{text!r} is not associated with {character.name} (no shared tag)"
            if not lexicon.character_links[ident, word]:
                return f"{text!r} is part of the name {character.name!r}"
            previous = None
        elif kind == "word":
            previous_text = lexicon.words[ident].text
            if word == ident:
                return f"the new word must differ from the one it replaces ({previous_text!r})"
            if not lexicon.word_links[ident, word]:
                return f"{text!r} is not associated with {previous_text!r} (no shared tag)"
            previous = ident
        else:
            previous = None
        broken = check_word(self.constraints, word, previous, lexicon)
        if broken:
            return f"{text!r} breaks the constraint {broken!r}"
        return f"{text!r} is not allowed here"

    # ------------------------------------------------------------------ playing
    def apply(self, action: int) -> None:
        """Apply a legal action of the current player: the handler of its kind (``_HANDLERS``)."""
        _HANDLERS[self.layout.kind[action]](self, action)

    def _keep(self, action: int) -> None:
        self.characters[self.seat] = self.layout.first[action]
        self.rebuild()  # the table changes with the characters
        self.seat += 1
        if self.seat == self.rules.num_players:
            self.seat = 0
            self.phase = Phase.WRITE

    def _write(self, action: int) -> None:
        """``write W`` or ``blank`` (whose ``first`` is BLANK, see ``ActionLayout``): the tooth of this step
        on the skull in hand, then the turn passes: next hand, next seat, next step, the deduction after
        step 4."""
        self.words[self.holder_skull(self.seat, self.step, self.hand)][self.step] = self.layout.first[action]
        self.hand += 1
        if self.hand < self.rules.hands:
            return
        self.hand = 0
        self.seat += 1
        if self.seat < self.rules.num_players:
            return
        self.seat = 0
        self.step += 1
        if self.step == STEPS:
            self.phase = Phase.DEDUCE

    def _match(self, action: int) -> None:
        """``match D to C`` for the skull number in turn, then the next number, the next seat, the reveal."""
        self.guesses[self.numbers[self.number]][self.seat] = self.layout.second[action]
        self.number += 1
        if self.number < self.rules.skulls:
            return
        self.number = 0
        self.seat += 1
        if self.seat == self.rules.num_players:
            self.seat = 0
            self._reveal()

    def _flower(self, action: int) -> None:
        self._yellow_reward("flower")

    def _memory(self, action: int) -> None:
        self._yellow_reward("memory")

    def _yellow_reward(self, reward: str) -> None:
        skull = self.numbers[self.pending.pop(0)]
        if reward == "flower":
            self.team.flowers += 1
        else:
            self.team.memory += 1
        self.rewards[skull] = reward
        if not self.pending:
            self._start_spending()

    def _bone(self, action: int) -> None:
        skull = self.numbers[self.layout.first[action]]
        self.team.memory -= 1
        self.bones[skull] += 1
        self.whites[skull] += 1
        self._start_spending()

    def _limbo(self, action: int) -> None:
        self.team.limbo -= 1
        self.limbo[self.numbers[self.layout.first[action]]] = True
        self._start_spending()

    def _done(self, action: int) -> None:
        self.phase = Phase.DONE

    def _reveal(self) -> None:
        """Open the skulls: check boxes, then yellow-box rewards, then bone spending."""
        n = self.rules.num_players
        for j in range(self.rules.skulls):
            # Each correct match checks a box, the N - 1 white ones first; the yellow box needs all N.
            correct = self.correct_count(j)
            self.whites[j] = min(correct, self.rules.white_boxes)
            self.yellow[j] = correct == n
        if self.rules.catrina:
            self.pending = [d for d, j in enumerate(self.numbers) if self.yellow[j]]
            if self.pending:
                self.phase = Phase.YELLOW
                return
        else:
            for j in range(self.rules.skulls):
                if self.yellow[j]:
                    self.team.memory += 1
                    self.rewards[j] = "memory"
        self._start_spending()

    def can_spend(self) -> bool:
        """Is there a bone to spend and a skull to spend it on?"""
        has_bone = self.team.memory > 0 or (self.rules.catrina and self.team.limbo > 0)
        return has_bone and not self.succeeded

    def _start_spending(self) -> None:
        self.phase = Phase.SPEND if self.can_spend() else Phase.DONE

    def correct_count(self, skull: int) -> int:
        """Players who matched ``skull`` to its character's slot (the 8 characters on the table differ,
        so a guess is right exactly when it names the answer slot; -1, no guess, never does)."""
        return self.guesses[skull].count(self.answer(skull))

    # ------------------------------------------------------------------ reports
    def skull_reports(self) -> list[dict[str, Any]]:
        """Per skull number: whose, the character, the guesses, the boxes (for ``final_info``)."""
        lexicon = self.lexicon
        reports = []
        for d, j in enumerate(self.numbers):
            owner, hand = j % self.rules.num_players, j // self.rules.num_players
            words = self.words[j]
            reports.append(
                {
                    "number": d + 1,
                    "owner": owner,
                    "hand": hand,
                    "character": lexicon.characters[self.characters[j]].name,
                    "slot": self.answer(j) + 1,
                    "words": [_word_text(lexicon, w) for w in words],
                    "guesses": [g + 1 if g >= 0 else None for g in self.guesses[j]],
                    "correct": self.correct_count(j),
                    "white_boxes": self.whites[j],
                    "yellow_box": self.yellow[j],
                    "memory_bones": self.bones[j],
                    "limbo_bone": self.limbo[j],
                    "closed": self.closed(j),
                    "yellow_reward": self.rewards[j] or None,
                }
            )
        return reports

    def chain_lines(self) -> list[str]:
        """Every skull's chain of words, by number card: whose skull, its character, the words in the order
        written (shown at the end of the game)."""
        lines = []
        for report in self.skull_reports():
            hand = f" #{report['hand'] + 1}" if self.rules.hands > 1 else ""
            words = " > ".join(word or "..." for word in report["words"])
            lines.append(
                f"  skull {report['number']} (player_{report['owner']}'s{hand}): {report['character']} "
                f"(character {report['slot']}): {words}"
            )
        return lines

    def render_text(self) -> str:
        lexicon = self.lexicon
        lines = [f"phase {self.phase.name.lower()}, decider seat {self.decider}"]
        if self.constraints:
            lines.append("constraints: " + "; ".join(CONSTRAINTS[c].name for c in self.constraints))
        if self.themes:
            lines.append("cortege themes: " + ", ".join(self.theme_names()))
        if self.phase == Phase.WRITE:
            teeth = "1 tooth" if self.step == 1 else f"{self.step} teeth"
            lines.append(f"writing step {self.step + 1} of {STEPS}: {teeth} written on each skull")
        if self.phase >= Phase.DEDUCE:
            for c, character in enumerate(self.table):
                lines.append(f"  character {c + 1}: {lexicon.characters[character].name}")
            for d, j in enumerate(self.numbers):
                text = _word_text(lexicon, self.words[j][STEPS - 1])
                line = f"  skull {d + 1}: {text}"
                if self.phase >= Phase.YELLOW:
                    state = "closed" if self.closed(j) else "open"
                    line += (
                        f"  (answer {self.answer(j) + 1}, whites {self.whites[j]}/{self.rules.white_boxes}, "
                        f"yellow {'x' if self.yellow[j] else '-'}, {state})"
                    )
                lines.append(line[:100])
        return "\n".join(lines)

    # ------------------------------------------------------------------ state dicts
    @classmethod
    def from_saved(
        cls, read: FieldReader, *, rules: RoundRules, lexicon: Lexicon, layout: ActionLayout, team: Team
    ) -> Round:
        """The round saved in a state dict's ``round`` part (``RoundState.read`` checks every field)."""
        state = RoundState.read(read, rules, len(lexicon.characters), len(lexicon.words))
        return cls(rules=rules, lexicon=lexicon, layout=layout, team=team, state=state)


#: ``Round.apply``'s handler of each action kind (keyed by ``Kind``, looked up by the plain ints of
#: ``ActionLayout.kind``: an ``IntEnum`` member and its int are the same key).
_HANDLERS: dict[int, Callable[[Round, int], None]] = {
    Kind.KEEP: Round._keep,
    Kind.WRITE: Round._write,
    Kind.BLANK: Round._write,  # the tooth written is the action's ``first``: BLANK
    Kind.MATCH: Round._match,
    Kind.BONE: Round._bone,
    Kind.LIMBO: Round._limbo,
    Kind.FLOWER: Round._flower,
    Kind.MEMORY: Round._memory,
    Kind.DONE: Round._done,
}


# ---------------------------------------------------------------------- helpers
#: Writing masks by (layout, constraints in play), then by prompt key (``Round.prompt_key``).
#: Emptied when more than ``_WRITE_MASK_SETS`` constraint sets are kept (a set holds at most
#: one 2 KB mask per word and character). Every mask is read-only: it is shared between positions.
_WRITE_MASKS: dict[tuple[Any, ...], dict[int, np.ndarray]] = {}
_WRITE_MASK_SETS = 8
#: The row of ``_one_group_masks`` that allows the yellow-box choice (rows 0..7: matching skull number d).
YELLOW_CHOICE = MAX_SKULLS


@functools.cache
def _one_group_masks(layout: ActionLayout) -> np.ndarray:
    """Read-only int8 rows (MAX_SKULLS + 1 of n_actions): row d allows matching skull number d to any
    of the 8 table slots; row ``YELLOW_CHOICE`` allows ``flower`` and ``memory``. Shared by every round."""
    masks = np.zeros((MAX_SKULLS + 1, layout.size), dtype=np.int8)
    for number in range(MAX_SKULLS):
        start = layout.match_action(number, 0)
        masks[number, start : start + TABLE_SIZE] = 1
    masks[YELLOW_CHOICE, [layout.flower, layout.memory]] = 1
    masks.flags.writeable = False
    return masks


@functools.cache
def _free_write_masks(layout: ActionLayout, lexicon: Lexicon) -> np.ndarray:
    """Read-only int8 rows (words + characters + 1 of n_actions): the writing masks without
    constraints, by ``Round.prompt_key`` (words from the front, blank last, characters backwards before it)."""
    n_words, n_characters = len(lexicon.words), len(lexicon.characters)
    allowed = np.zeros((n_words + n_characters + 1, n_words), dtype=bool)
    allowed[:n_words] = lexicon.word_links
    allowed[n_words:-1] = lexicon.character_links[::-1]
    allowed[-1] = True  # after a blank, any word
    masks = np.zeros((len(allowed), layout.size), dtype=np.int8)
    masks[:, layout.write : layout.blank] = allowed
    masks[:, layout.blank] = ~allowed.any(axis=1)
    masks.flags.writeable = False
    return masks


def _write_masks(layout: ActionLayout, constraints: list[int]) -> dict[int, np.ndarray]:
    key = (layout, tuple(constraints))
    masks = _WRITE_MASKS.get(key)
    if masks is None:
        if len(_WRITE_MASKS) >= _WRITE_MASK_SETS:
            _WRITE_MASKS.clear()
        masks = _WRITE_MASKS[key] = {}
    return masks


@functools.cache
def _deck_pool(lexicon: Lexicon, themes: tuple[int, ...]) -> tuple[int, ...]:
    """The character ids a deck is made of: all of them, or those of the two cortege ``themes``."""
    if not themes:
        return tuple(range(len(lexicon.characters)))
    wanted = {THEMES[t] for t in themes}
    return tuple(i for i, c in enumerate(lexicon.characters) if c.theme in wanted)


def _word_text(lexicon: Lexicon, word: int) -> str | None:
    if word == NOT_WRITTEN:
        return None
    if word == BLANK:
        return "(blank)"
    return lexicon.words[word].text
