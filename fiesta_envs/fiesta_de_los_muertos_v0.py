"""Fiesta de los Muertos, as a cooperative PettingZoo AEC environment (``fiesta_de_los_muertos_v0``).

The game in brief
-----------------
A cooperative word game for 4-8 players (Antonin Boccara, 2019), one round. Each player draws a
famous dead person (real or fictional) in secret and writes on their skull one word associated
with that character, then passes the skull to the left. Whoever receives a skull reads the word,
erases it, writes a word associated with it and passes it on: four words in all, the last one
stays. The players' characters plus random extras make 8 cards laid face up; the skulls are
shuffled under number cards and every player privately matches every skull to a character. Each
correct match checks a box: a skull is appeased when its N - 1 white boxes are checked; its
extra yellow box needs every player right and wins the team a Memory Bone, which checks one
missing white box of any skull. The team's result is the number of appeased skulls.

Words and characters come from the package's lexicon (``fiesta_envs/muertos/data``): every
character has a cortège theme and 3-6 tags, every word 1-4 tags and a part of speech, and
"associated" means *sharing at least one tag*. Constraint cards (``fiesta_envs.muertos.constraints``)
restrict the words of a round ("Nouns only.", "No word with the letter E.", ...).

The lexicon (version 2): 217 characters, 1384 words, 111 tags. Its tags follow real senses, so
a chain of four associations drifts as it does at the table: many words are polysemous bridges
between clusters ("bat": night, animal, sport; "crown": royalty, gold and a tooth; "bow": weapon,
music, ship, stage), the tags game, sport, body, color, light and water tie everyday words
across themes, near-synonyms rarely share three tags, and characters share tags across themes
(Sherlock Holmes and Alice both play a game; Prince, Johnny Cash and Bluebeard have a colour).
The association graph has one component and a density of 0.057 (each word is associated with
79 others on average); every character has at least 54 legal first words.

Players
-------
4 to 8 (default 4), agents ``player_0 .. player_{N-1}`` in seat order; "left" is the next seat.

Actions: ``Discrete(C + W + 84)`` with a mask (C characters, W words of the lexicon)
----------------------------------------------------------------------------------------
==========================  ===================================================================
``keep CHARACTER``          (C actions) draw choice: keep one of the two characters dealt
``write WORD``              (W actions) write this word on the skull in hand
``blank``                   leave the tooth blank: legal only when no word is
``match S to C``            (64 actions) skull number S (1-8) is the character in slot C (1-8);
                            only the skull to match now is legal
``bone S``                  (8) spend a Memory Bone on skull S: check one missing white box
``limbo S``                 (8) La Catrina only (never legal here)
``flower``, ``memory``      La Catrina only (never legal here)
``done``                    stop spending bones: the round ends
==========================  ===================================================================

The layout is the same in ``la_catrina_v0`` (a policy can play both) and is fixed by the lexicon:
``fiesta_envs.muertos.common.LAYOUT`` gives the offsets; with lexicon version 2 (C = 217,
W = 1384) the space has ``LAYOUT.size`` = 1685 actions. Turn order: the draw choice seat by
seat; four writing steps, each seat by seat (at step k seat i holds the skull of seat i - k;
with ``double_challenge`` a seat writes its two skulls one after the other); the deduction seat
by seat, skulls in number order; then the decider (seat 0) spends bones. Steps with nothing to
decide are skipped.

Legal words
-----------
- First word: shares a tag with the character and is not a whole word of its name.
- Next words: share a tag with the word they replace and differ from it (the writer sees only
  that word).
- Every word: meets every constraint card in play (a card about the previous word does not
  apply to a first word, nor after a blank).
- ``blank`` only when no word is legal; after a blank any word meeting the cards is legal.

Observation: ``Box(0, 1, (D,), float32)``
----------------------------------------
Words and characters as multi-hot tag vectors; the exact layout (about 40 tag-sized slots) is in
``fiesta_envs/muertos/observation.py``. A player sees only: its own character; the two
characters dealt to it (draw choice); each word handed to it and each word it wrote, by hand and
step (the step names the skull by its owner's offset); what it is answering now; the constraint
cards and cortège themes; in the deduction the 8 characters (with a flag on its own) and the
final word of every skull by number (with a flag when it is the word it wrote last); its own
guesses; after the reveal each skull's answer, correct guesses and boxes; the team's bones; the
phase. Never another player's words in between, nor their guesses before the reveal.

Rewards
-------
Cooperative: zero until the end, then every agent gets appeased skulls / skulls. ``scores()``
gives every seat the number of appeased skulls. ``infos`` at the end carry ``final_info()``:
``appeased``, ``skulls``, ``result_band`` and ``result_text`` (perfect 100%, great >= 75%, fair
>= 50%, restless below), ``memory_bones`` left, the constraint cards and one report per skull
(owner, character, answer slot, the four words, every player's guess, correct guesses, white
boxes, yellow box, bones spent, closed).

Options
-------
- ``draw_choice`` (bool, default False): each player is dealt two characters and keeps one; the
  other goes back and never reaches the table.
- ``double_challenge`` (bool, default False): 4 players only, not with ``draw_choice``; each
  player draws two characters and fills two skulls: 8 skulls, 3 white boxes each and the yellow.
- ``cortege`` (bool, default False): two of the six themes are drawn; the characters and extras
  of the round come from those themes only.
- ``constraints`` (0-3, default 0): constraint cards drawn for the round (never an incompatible
  pair such as nouns only + verbs only).

Rulings we added (the base rules are known from reviews; see the La Catrina page too)
-------------------------------------------------------------------------------------
- Memory Bones at the start: 0/1/2/3/4 for 4/5/6/7/8 players; every yellow box wins one, which
  may be spent at once. With the double challenge the boxes follow the guessers (3 whites).
- The writer of a step sees the word handed to it once that step begins (all players write a
  step at the same time in the printed game).
- The 8 table slots and the skull numbers are fresh random orders every round; two skulls may be
  given the same character.
- The team's decisions (bones) are taken by the decider, seat 0 in the base game. A checked
  yellow box gives its Memory Bone at once (``memory`` and ``flower`` are La Catrina's choice).
- "Not part of its name" means not one of the whole words of the name, case aside ("wolf" is
  refused for The Big Bad Wolf, "monster" for Frankenstein's Monster); a longer word that
  contains a name word ("werewolf") is a different word and may be a clue if it shares a tag.
- Before the deduction nobody sees the table, the extras or the number cards; the legal mask of
  a writer depends only on what it reads now (and the cards in play), never on erased words.
- With the double challenge the result and the reward count out of the 8 skulls.
- Result bands (the printed table is unknown to us): share of skulls appeased, see above.

Baselines
---------
``fiesta_envs.muertos.baselines``: ``associative`` (writes the word sharing the most tags with
what it reads, ties going to the word with more meanings; deduces by the best matching) and
core's ``random``. Share of skulls appeased, 200 games per player count, no options
(``fiesta evaluate --game fiesta_de_los_muertos --players N --agents associative,random
--games 200``):

=======  ================================  ======
players  associative: skulls appeased      random
=======  ================================  ======
4        67.8% (2.71 of 4, CI 2.54-2.88)   1.0%
5        68.9% (3.45 of 5, CI 3.26-3.63)   0.2%
6        66.6% (4.00 of 6, CI 3.79-4.20)   0%
7        68.3% (4.78 of 7, CI 4.56-5.00)   0%
8        66.3% (5.31 of 8, CI 5.07-5.54)   0%
=======  ================================  ======

Version history
---------------
- version 0: first release, lexicon version 2 (217 characters, 1384 words, 111 tags; 1685
  actions). During development a first lexicon (version 1) had few polysemous words: the
  associative team appeased 96-98% of the skulls with it, which left no headroom for learning;
  version 2 adds real second senses and tags shared across themes, so that chains drift.
"""

from fiesta_envs.core.aec import aec_env_classes
from fiesta_envs.muertos.game import FiestaDeLosMuertos

raw_env, env = aec_env_classes(FiestaDeLosMuertos, "fiesta_de_los_muertos_v0")
