"""Fiesta de los Muertos: La Catrina, the cooperative campaign, as a PettingZoo AEC environment
(``la_catrina_v1``).

The game in brief
-----------------
Up to four rounds of Fiesta de los Muertos (see ``fiesta_de_los_muertos_v1`` for a round: draw,
four writing steps, deduction, appeasement) to colour the 13 flowers of La Catrina's hat. Round r
is played with r - 1 constraint cards (new cards each round). Phase 4 changes:

- a checked yellow box gives the team the choice of a Memory Bone (yellow) or a flower;
- red Limbo Bones (0/1/2/3/4 for 4/5/6/7/8 players, never won back) close an unappeased skull
  whatever boxes are missing, but never check its yellow box;
- a round succeeds when every skull is closed (appeased by its white boxes, Memory Bones or a
  Limbo Bone). Success in round 2/3/4 colours 1/2/3 more flowers. Bones left carry over.

The campaign stops after a failed round, after round 4, or as soon as the 13th flower is
coloured (even in the middle of a round). Score: the flowers, 0-13.

Players
-------
4 to 8 (default 4), agents ``player_0 .. player_{N-1}``. The team's decisions (memory or flower,
spending bones) are taken by the round's decider: seat (round - 1) mod N.

Actions: ``Discrete(C + W + 84)`` with a mask, as in ``fiesta_de_los_muertos_v1``
-----------------------------------------------------------------------------
``keep CHARACTER``, ``write WORD``, ``blank``, ``match S to C``, ``bone S``, plus:

==============  ==================================================================
``flower``      take a flower for the checked yellow box now in question
``memory``      take a Memory Bone for it instead
``limbo S``     spend a Limbo Bone to close skull number S (not yet closed)
``done``        stop spending bones: the round ends
==============  ==================================================================

Phase 4 order: reveal; for each skull in number order whose yellow box is checked, ``flower`` or
``memory``; then the decider spends bones (``bone S``, ``limbo S``) and says ``done``. The choice
and the spending are skipped when there is nothing to decide.

Observation
-----------
The same vector as ``fiesta_de_los_muertos_v1`` (5,180 entries, the blocks listed there, identity codes
included); the campaign blocks are live here: ``round`` (1..4), ``team`` (Memory Bones / the most the team
can hold, Limbo Bones / 4, flowers / 13, whether this seat is the decider), ``constraints`` (the cards in play),
and the last entry of each ``reveal`` row (a yellow box waiting for the choice of memory or flower). A player
sees only its own character and the words it received or wrote; earlier rounds are not in the vector. The
writing steps are simultaneous as printed (see the base game's page).

Reading an observation
----------------------
``env.unwrapped.observation_views(observation)`` (``game.observation_views`` on an engine) splits an
observation (the vector, or the dict ``observe`` returns) into the blocks of the base game's page,
each a copy in its documented shape. With 4 players::

    >>> from fiesta_envs import la_catrina_v1
    >>> env = la_catrina_v1.env(num_players=4)
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
    >>> views["round"]  # the campaign round, one-hot
    array([1., 0., 0., 0.], dtype=float32)

Rewards
-------
Cooperative: zero until the end, then every agent gets flowers / 13. ``scores()`` gives every
seat the number of flowers: at the end every agent's ``infos`` hold ``scores`` (float64, one per seat)
and ``winners`` (int8, every seat); the breakdown is ``env.unwrapped.final_info()``: ``flowers``,
``mood_band`` and ``mood_text`` (0-3 put out, 4-6 slight smile, 7-9 proud, 10-12 radiant,
13 won over), ``end_reason`` ("failed round", "after round 4", "13 flowers"), one record per
round played (constraint cards, appeased skulls, success, yellow and bonus flowers), bones left
and the last round's skull reports.

Options
-------
``draw_choice``, ``double_challenge`` (4 players only) and ``cortege`` as in the base game (the
rulebook allows Les Cortèges with La Catrina; we draw two themes every round). The constraint
cards are fixed by the campaign (0, 1, 2, 3).

Rulings we added
----------------
- "Draws k new cards": each round's cards are drawn from the cards not used in earlier rounds.
- A bonus never colours more than the 13th flower (a round's ``bonus_flowers`` counts the
  flowers actually coloured); the 13th flower ends the game at once, even in a round with open
  skulls (it is not a failed round), and any yellow boxes still waiting for a choice are lost.
- Memory Bones check white boxes as in the base game and may be spent in the round they are won.

Baselines
---------
The ``associative`` team (see ``fiesta_de_los_muertos_v1``; in the campaign version 2 also takes a Memory
Bone that saves a round only when that is worth the flowers it costs) and the generic ``random``. Flowers at the
end of the campaign for both versions and ``random`` at every player count: the documentation's Results,
"Cooperative baselines" (``results/team_baselines.json``).

Trained agent
-------------
``ppo`` (4 players, shipped): a shortlist policy (version 2 of the shortlist of ``fiesta_de_los_muertos_v1``,
ranked by ``associative`` version 2) trained on the campaign, rewarded by flowers / 13. It colours about half
a flower a campaign more than the ``associative`` team (version 2, the default) on the same deals, and far more
than ``associative`` version 1. The measured results, with their commands, are in the documentation's Results
pages (shipped agents). Trained by ``fiesta train --config configs/la_catrina/ppo.yaml``; the 4-player network
also plays at 5 players (``also_plays`` in its JSON).

Team search
-----------
``team_search`` (``fiesta_envs.muertos.search``): at each decision the seat compares the shortlist's first
candidates by rollouts of the whole team (``associative`` in every seat) to the end of the round, in copies of
the round drawn from what the seat may know (``MuertosGame.determinize``). Measured against the ``associative``
team on the same deals in the documentation's Results pages (search and baselines).

Version history
---------------
- v1 (fiesta_envs 0.2.0; ``la_catrina_v1``, ``fiesta_envs/LaCatrina-v1``): the observation of
  ``fiesta_de_los_muertos_v1`` (identity codes for words and characters, 5,180 entries); rules unchanged.
  ``la_catrina_v0`` and ``LaCatrina-v0`` fail with a message naming v1.
- v0 (fiesta_envs 0.1.0): the first version, lexicon version 2 (see ``fiesta_de_los_muertos_v1``; 1685 actions).
"""

from fiesta_envs.envs.aec import aec_env_classes
from fiesta_envs.muertos.catrina import LaCatrina
from fiesta_envs.registry import game_spec

raw_env, env = aec_env_classes(LaCatrina, "la_catrina_v1", module=__name__, picture=game_spec("la_catrina").picture())
