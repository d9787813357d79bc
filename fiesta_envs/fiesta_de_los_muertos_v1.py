"""Fiesta de los Muertos, as a cooperative PettingZoo AEC environment (``fiesta_de_los_muertos_v1``).

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

The layout is the same in ``la_catrina_v1`` (a policy can play both) and is fixed by the lexicon:
``fiesta_envs.muertos.engine.LAYOUT`` gives the offsets; with lexicon version 2 (C = 217,
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

Observation: ``Box(0, 1, (5180,), float32)``
------------------------------------------
What this seat knows, nothing more (``fiesta_envs/muertos/observation.py`` writes it). Words and characters
are written into *slots* that say both what they mean and which one they are:

- a word slot is ``[present, blank, tags (T), identity code (B)]`` (133 entries);
- a character slot is ``[present, tags (T), identity code (B)]`` (132 entries);

with T = 111 tags (association = a shared tag, so it is visible to a learner) and B = 20 bits of a fixed
identity code (``fiesta_envs/muertos/identity.py``). Tags alone do not tell words apart: 563 of the 1,384
words share their exact tags with another ("clock" and "minute"), and Attila the Hun and Genghis Khan have
the same tags, yet their legal next words differ. Each word and character has its own 20-bit code with
exactly 10 ones, any two codes differing in at least 4 bits: 20 entries per slot instead of a one-hot of
1,601, the same norm for every code, room for 4,000 names, drawn at random once and shipped as data
(``data/identity_codes.json``, the same on every machine). Every entry lies in [0, 1]. The blocks, in order
(``game.observer.layout``; ``observation_views``, below, splits a vector by block):

==============  =====  ======================================================================================
block           size   what it holds
==============  =====  ======================================================================================
players         5      one-hot of the player count (4..8)
phase           6      one-hot: draw, write, deduce, yellow choice, spend, over
round           4      one-hot of the campaign round 1..4 (the base game is round 1)
constraints     15     multi-hot of the constraint cards in play
themes          6      multi-hot of the cortège themes (all zero without ``cortege``)
team            4      Memory Bones / the most the team can hold, Limbo Bones / 4, flowers / 13, I am the
                       decider
my_characters   264    per hand (2): a character slot, my character (empty until kept in the draw)
offers          264    the two characters dealt to me under ``draw_choice``: two character slots
memory          2128   per hand (2), per writing step k (4): the word handed to me at step k, then the word I
                       wrote at step k: two word slots. At step k I hold the skull of seat ``me - k``.
task            6      writing, on my turn: one-hot of the hand (2), one-hot of the step (4)
prompt          134    writing, on my turn: what I read now, ``[character, word, blank, tags, code]``
table           1072   deduction: the 8 characters by slot, each a character slot + [mine in hand 0, mine in
                       hand 1]
final_words     1080   deduction: the last word of each skull by number, a word slot + [the same word as the
                       one I wrote last in hand 0, in hand 1] (by word: two skulls ending on it are both
                       flagged)
to_match        8      deduction, on my turn: one-hot of the skull number I am matching now
my_guesses      64     per skull number: one-hot of the table slot I matched it to
reveal          120    per skull number, after the reveal: one-hot of its answer slot (8), correct guesses /
                       N, white boxes / (N - 1), yellow box, Memory Bones spent / (N - 1), Limbo Bone,
                       closed, its yellow box still waits for a reward
==============  =====  ======================================================================================

Hidden: the other players' characters and draw choices, the words written in between on the skulls (a player
sees only the words handed to it and those it wrote), the others' guesses before the reveal.

**Simultaneous steps, as printed.** The draw choice, each of the four writing steps and the matching are done
by all players at the same time in the printed game; the environments ask the seats one after another, and
the observation keeps the printed information. The word a seat reads at step k (written at step k - 1)
appears for every seat when step k begins, and no block shows anything another seat wrote, kept or matched
during the current step: the words of a step are handed over only when the next step begins, the kept
characters and the guesses stay private until the table and the reveal. (``tests/information_of_muertos.py``
checks it: a word written earlier in the same step, another seat's choice in the draw, its guesses, leave a
seat's observation unchanged.)

Reading an observation
----------------------
``env.unwrapped.observation_views(observation)`` (``game.observation_views`` on an engine) splits an
observation (the vector, or the dict ``observe`` returns) into the blocks above, each a copy in its
documented shape: ``memory`` is hand x step x (handed to me, written by me) x word slot, ``table``
8 character slots with their two flags. With 4 players::

    >>> from fiesta_envs import fiesta_de_los_muertos_v1
    >>> env = fiesta_de_los_muertos_v1.env(num_players=4)
    >>> env.reset(seed=0)
    >>> views = env.unwrapped.observation_views(env.observe("player_0"))
    >>> for name, block in views.items():
    ...     print(f"{name:13} {block.shape}")
    players       (5,)
    phase         (6,)
    round         (4,)
    constraints   (15,)
    themes        (6,)
    team          (4,)
    my_characters (2, 132)
    offers        (2, 132)
    memory        (2, 4, 2, 133)
    task          (6,)
    prompt        (134,)
    table         (8, 134)
    final_words   (8, 135)
    to_match      (8,)
    my_guesses    (8, 8)
    reveal        (8, 15)
    >>> int(views["players"].argmax()) + 4  # the player count
    4

Rewards
-------
Cooperative: zero until the end, then every agent gets appeased skulls / skulls. ``scores()``
gives every seat the number of appeased skulls: at the end every agent's ``infos`` hold ``scores``
(float64, one per seat) and ``winners`` (int8, every seat: the team wins or loses together); the
breakdown is ``env.unwrapped.final_info()``: ``appeased``, ``skulls``, ``result_band`` and
``result_text`` (perfect 100%, great >= 75%, fair >= 50%, restless below), ``memory_bones`` left, the
constraint cards and one report per skull (owner, character, answer slot, the four words, every
player's guess, correct guesses, white boxes, yellow box, bones spent, closed).

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
``fiesta_envs.muertos.baselines``: ``associative`` and the generic ``random``. ``associative`` version 2 (the
default) writes the word of the best value (shared tags with what it reads, less 0.3 per other meaning),
avoiding the words it already wrote or read, and deduces from every word its seat wrote and read; version 1
(``associative:version=1``) writes the word sharing the most tags, ties going to the word with more meanings,
and deduces from the final words, its own first word and the final word it wrote. Skulls appeased by both
versions and by ``random`` at every player count: the documentation's Results, "Cooperative baselines"
(``results/team_baselines.json``).

Trained agent
-------------
``ppo`` (4 players, shipped): one policy on every seat, choosing among the 10 candidates of version 2 of the
shortlist (``fiesta_envs/muertos/shortlist.py``: the best legal actions by the scoring of ``associative`` version 2,
each described by what the seat knows; candidate 0 is that team's choice). It is level with ``associative``
(version 2, the default): both teams appease almost every skull, so most deals are tied; it is well ahead of
``associative:version=1``. The measured results, with their commands, are in the documentation's Results pages
(shipped agents). Trained by ``fiesta train --config configs/fiesta_de_los_muertos/ppo.yaml``; the 4-player
network also plays at 5-8 players (``also_plays`` in its JSON).

Team search
-----------
``team_search`` (``fiesta_envs.muertos.search``): at each decision the seat compares the shortlist's first
candidates by rollouts of the whole team (``associative`` in every seat) to the end of the round, in copies of
the round drawn from what the seat may know (``MuertosGame.determinize``). Measured against the ``associative``
team on the same deals in the documentation's Results pages (search and baselines).

Version history
---------------
- v1 (fiesta_envs 0.2.0; ``fiesta_de_los_muertos_v1``, ``fiesta_envs/FiestaDeLosMuertos-v1``): words and characters get
  an identity code in every slot of the observation (4,440 -> 5,180 entries); the writing task is split into
  the ``task`` and ``prompt`` blocks; the observation is built from scratch at every call from the named
  blocks above (``MuertosObserver``, no kept views); rules,
  actions and rewards unchanged. ``fiesta_de_los_muertos_v0``
  and ``FiestaDeLosMuertos-v0`` fail with a message naming v1.
- v0 (fiesta_envs 0.1.0): the first version, lexicon version 2 (217 characters, 1384 words, 111 tags;
  1685 actions). Lexicon version 2 has real second senses and tags shared across themes, so that chains
  drift (a lexicon with few polysemous words leaves a team nothing to get wrong).
"""

from fiesta_envs.envs.aec import aec_env_classes
from fiesta_envs.muertos.game import FiestaDeLosMuertos
from fiesta_envs.registry import game_spec

raw_env, env = aec_env_classes(
    FiestaDeLosMuertos,
    "fiesta_de_los_muertos_v1",
    module=__name__,
    picture=game_spec("fiesta_de_los_muertos").picture(),
)
