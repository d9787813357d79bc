"""Fiesta Mexicana, as a PettingZoo AEC environment (``fiesta_mexicana_v1``).

The game in brief
-----------------
Each player runs a 4x4 table. Dishes come out of the kitchen one at a time and are auctioned: the
player who won the previous dish turns the next one over and must open; then, clockwise, each player
bids higher or passes. A bid can only be a number legible on one's own table on an uncovered space,
and the winner must put the dish on the space of that number, turned as they like. A dish scores
+1 per skull, +3 for each sauce bowl it completes with two halves of one colour, -1 for two halves
of different colours and -1 for a half bowl against a card edge without one (a score never goes
below 0). Every player who did not win may turn their table a quarter turn left or right, which
changes which numbers they can bid. Reserving ends an auction at once at one's bid, at the price of
an objective card. The game ends as soon as a table is full; then the three kept objective cards
score: children (+1 per dish of a kind), teens (+5 for the most dishes of a kind, ties all score),
seniors (a 2x2 square, a line of 4 or of 3 identical dishes) and masked guests (6 or 4 complete
bowls, or 3 complete bowls of one colour). The highest score wins; ties share the win.

Players and agents
------------------
2, 3 or 4 players (``num_players``, default 2); agents ``player_0``.. in seat order, clockwise.
Seat 0 opens the first auction; afterwards the winner of a dish opens the next auction.

Actions: ``Discrete(90)``, with a mask
-------------------------------------
=========  ==========================  ======================================================
index      name                        meaning
=========  ==========================  ======================================================
0..7       ``orient P R``              setup: start card P (0 goes on the space reading 6,
                                       1 on 11) turned R quarter turns clockwise
8..17      ``keep A B C``              setup: keep objective slots A < B < C of the 5 dealt
                                       (three different colours)
18..33     ``bid N``                   bid N (1..16): legible on an uncovered space, above the
                                       high bid
34         ``pass``                    pass (not final; illegal for the opening bid)
35..82     ``reserve N drop K``        bid N and discard objective slot K: win the dish at once
83..86     ``place R``                 winner: place the dish turned R quarter turns clockwise
                                       on the space reading the winning bid
87..89     ``rotate left|right|none``  non-winners in turn from the winner's left
=========  ==========================  ======================================================

Numbers, spaces and turns are always in the acting player's *current view*: the space reading N is
the N-th in reading order (1 top-left, 16 bottom-right). A left turn makes the space reading 1
read 13; a right turn makes it read 4; a half turn, 16. Shuffles, dealing and the redraw of an
objective hand without three colours are chance steps inside the engine.

Observation: ``Box(0, 1, (441 n + 191,), float32)``
---------------------------------------------------
Seats are relative: in a per-seat block, entry k is seat ``(me + k) % n`` (me first, then clockwise).
The blocks, in order (names as in ``observation_views``, below; n = number of players):

1. ``tables`` [n x 420]: each table in its owner's current view. For each view position v = 0..15 (the
   space reading v + 1), 26 entries: dish one-hot (tostada, elotes, burritos, chilis, salad, tacos) [6],
   skulls / 3 [1], the sauce half on the north, east, south and west edge as seen, one-hot over green,
   brown, white, red [4 x 4] (all 0: no half), covered [1], the legible number (v + 1) / 16 [1], variant
   penalty of the space / 5 [1]. Then the orientation (quarter turns left), one-hot [4].
2. ``offer`` [24]: the dish on offer: present, dish one-hot, skulls / 3, its halves N, E, S, W as
   printed (``place R`` turns it R times clockwise).
3. ``start_cards`` [2 x 24]: my start cards not yet on my table (for the spaces reading 6 and 11), each
   as in ``offer``; all 0 once placed and in the variant.
4. ``high_bid`` [1]: the high bid / 16.
5. ``high_bidder`` [n]: one-hot.
6. ``passed`` [n]: passed since the last bid.
7. ``to_act`` [n]: the seat to act, one-hot.
8. ``phase`` [6]: one-hot: orient, keep, auction, place, rotate, over.
9. ``turn_chosen`` [3]: my table turn chosen after this placement and not applied yet (left, right, none).
10. ``bids`` [n x 16]: who bid what in this auction: entry 16 k + N - 1 is 1 if seat k bid N (a reserve
    is a bid too). Blocks 4 to 6 and 10 still show the auction just won while the dish is placed and
    tables are turned.
11. ``points`` [n]: points so far / 100, clipped to 1.
12. ``objective_slots`` [5 x 18]: my objectives, one-hot over the 18 kinds (children per dish 0..5, teens
    per dish 6..11, seniors square / line of 4 / line of 3 12..14, masked guests 6 bowls / 4 bowls / 3
    bowls of one colour 15..17): the 5 cards dealt while keeping, then slots 0..2 (a discarded slot is 0).
13. ``objectives_held`` [n]: objective cards in front of each seat / 5 (5 while a dealt hand is kept).
14. ``shown_objectives`` [18]: the objective hands shown and replaced at setup (public): per kind, the
    times it was shown / 4, clipped to 1.
15. ``deck`` [1]: dishes left in the deck / 66.

With ``action_features=True``, ``action_features`` [92] follows (below).

Other players' objectives (and which one a reserve gave up) are hidden; they are revealed at the end by
``final_info()``.

Simultaneous steps. The printed game orients start cards and turns tables at the same time; here the
players decide in seat order, and the observation shows each step as printed: (1) while start cards
are oriented, each seat sees only its own table, its own two start cards and its own points (the
other tables and points appear once everybody has oriented); (2) the table turns chosen after a
placement are applied together once the last player has chosen: until then every table keeps its
orientation in everyone's observation (and in the engine), and each seat sees its own choice only in
``turn_chosen``. Keeping objectives is simultaneous too; what anybody keeps is hidden anyway.

Reading an observation
----------------------
``env.unwrapped.observation_views(observation)`` (``game.observation_views`` on an engine) splits an
observation (the vector, or the dict ``observe`` returns) into the blocks above, each a copy in its
documented shape: a per-seat block has a row per seat, me first. With 2 players::

    >>> from fiesta_envs import fiesta_mexicana_v1
    >>> env = fiesta_mexicana_v1.env(num_players=2)
    >>> env.reset(seed=0)
    >>> views = env.unwrapped.observation_views(env.observe("player_0"))
    >>> for name, block in views.items():
    ...     print(f"{name:16} {block.shape}")
    tables           (2, 420)
    offer            (24,)
    start_cards      (2, 24)
    high_bid         (1,)
    high_bidder      (2,)
    passed           (2,)
    to_act           (2,)
    phase            (6,)
    turn_chosen      (3,)
    bids             (2, 16)
    points           (2,)
    objective_slots  (5, 18)
    objectives_held  (2,)
    shown_objectives (18,)
    deck             (1,)
    >>> views["tables"][0, -4:]  # my table's orientation, one-hot
    array([1., 0., 0., 0.], dtype=float32)

Action features (option ``action_features=True``)
-------------------------------------------------
92 more entries after the plain observation (which stays exactly as above), every one in [0, 1]:
what each action would bring the observer now, computed from public tables and its own objectives.
Per ``bid N``: the best points the dish on offer brings on the space reading N (over its four turns,
after the score floor), the same plus the change in the estimated worth of its objectives, whether
that space is free, and the share of the other players who could still outbid N; per ``place R``
(while placing): the points and value of that turn; per objective slot: its estimated worth (what
``reserve N drop K`` gives up) and whether it is held; per other player: the best points the dish
would bring them and their highest free number; per ``rotate`` choice: the three highest free
numbers after the turn; free spaces per table. Exact layout and scales:
``fiesta_envs/fiesta_mexicana/features.py``; the estimates are those of the ``greedy`` player
(``fiesta_mexicana/valuation.py``). The trained ``ppo`` agents read them; without the option an
agent has to learn the placement arithmetic from the tables itself.

Rewards
-------
Zero until the end. Option ``reward="rank"`` (default): 2 players win +1 / loss -1 / tie 0; 3-4
players linear in rank from +1 to -1, ties averaged. ``reward="margin"``: lead over the best other
player / 50, clipped to [-1, 1]. Final score = dish points + objective points (- uncovered penalties
in the variant), never below 0. At the end every agent's ``infos`` hold ``scores`` (float64, one per
seat) and ``winners`` (int8, 1 for every seat sharing the win), the same fixed-shape arrays in every game;
the breakdown is ``env.unwrapped.final_info()``: ``final_scores``, ``placement_points``,
``objective_points``, ``penalties``, the revealed ``objectives`` (labels) and ``objective_slot_points``.

Options
-------
- ``reward``: ``"rank"`` | ``"margin"``.
- ``action_features``: ``False`` (default) | ``True``: append the 92 action features above.
- ``variant``: ``"standard"`` (start cards on the piñata spaces) | ``"confirmed_waiters"`` (back of
  the tables: no start cards, all 66 dishes in the deck, score 0 at the start; the spaces reading
  6, 11 and 16 at the start cost 5, 5 and 3 points if still uncovered at the end).

Rulings (where the printed rules are silent; see ``fiesta_mexicana/components.py`` for the cards)
-------------------------------------------------------------------------------------------------
- The printed card faces are not published: the 66 dish cards are our committed table (six dishes
  x 11; skulls 1:2:3 as 36:24:6; 0-3 half bowls, mean 1.64, 27 halves per sauce colour; one start
  card of each dish per piñata colour). Start cards go on the spaces reading 6 (pink piñata) and
  11 (yellow) in the starting orientation; each player orients them (space 6 first), and starts
  with one point per skull on them.
- Objective hands: 5 dealt, 3 kept of three different colours. A hand without three colours is shown
  and replaced (seat order); shown cards are discarded and shuffled back only when fewer than 5 are
  left. If the cards not in other players' hands cannot give three colours any more (possible with
  4 players), the whole deal is done again.
- Auction: passes are not final; the auction ends when the turn comes back to the high bidder.
  Bids cost nothing. A reserve is a legal bid plus the discard of an objective slot (the opener may
  reserve with the opening bid); only the number of objectives held is public.
- Placement points judge each edge of the new card that touches a dish once: +3 same colours,
  -1 different colours, -1 exactly one half; halves facing the border or an empty space count 0.
- After a placement, the other players decide on turning their table clockwise from the winner's
  left, and the tables turn together when the last has decided; not after the placement that fills
  a table (the game ends at once, after that dish has scored). The deck cannot run out first (at
  most 53 dishes come from it in the standard game, 61 in the variant); if it did, the game would end.
- Objectives: each card scores once; "identical" means the same dish; start cards count like any
  dish; a square is 2x2; lines are horizontal, vertical or diagonal runs of consecutive spaces;
  teens need at least one dish and score for every player tied for the most (all tables
  compared); a complete bowl is two touching halves of one colour; every bowl count means "at
  least".
- Variant: the marked spaces are printed on the table, so they turn with it: after a left turn
  the spaces that read 6, 11 and 16 at the start read 10, 7 and 4.
- Final score floored at 0 after the variant penalties.

Version history
---------------
- v1 (fiesta_envs 0.2.0): the observation shows all that is public and nothing more (layout above): who bid what in the
  auction (``bids``), both own start cards while orienting (``start_cards``; ``offer`` holds only the
  dish on offer), the objective hands shown at setup (``shown_objectives``); setup orientation and
  table turns are simultaneous as printed (the turns chosen after a placement apply together, noted in
  the state dict's ``turns_chosen``; the state dict also holds ``bids``). Action features unchanged.
- v0 (fiesta_envs 0.1.0): the first version; ``fiesta_mexicana_v0`` and ``FiestaMexicana-v0`` fail with a
  message naming v1.
"""

from fiesta_envs.envs.aec import aec_env_classes
from fiesta_envs.fiesta_mexicana.game import FiestaMexicana
from fiesta_envs.registry import game_spec

raw_env, env = aec_env_classes(
    FiestaMexicana, "fiesta_mexicana_v1", module=__name__, picture=game_spec("fiesta_mexicana").picture()
)
