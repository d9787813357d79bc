"""Tequila, the roll-and-write farm game, as PettingZoo AEC and Parallel environments (``tequila_v2``).

The game in brief
-----------------
Each player improves a farm drawn on their own sheet over 8 rounds. Every round the starting
player rolls two dice (and may re-roll one, both or none, once); every player gains the resource
of each die value (cask tile) and uses the dice for actions: a die showing 1-3 goes to fencing,
4-6 to building, and each player adds a virtual die to either action. Fencing draws 4, 6 or 8
fence segments (1, 2 or 3 dice) around the 2x2 fields; fencing off a zone gains, once per field,
the resources the fields show, and a fenced-off zone may hold one house at most. Building draws a
paid building (road, agave field, kiln, distiller, cask, shop; shapes rotate and flip; only roads
go on water); buildings on resource spaces gain them, first connections pay bonuses (kiln to an
agave field, distiller to a kiln, shop to a cask) and filling a section (an arid area cut by
water) gains a coin, plus prestige for the first to fill it. Free actions (gears: 1, 1, 1, 2, 2,
2, 3, 3 per round; more for 4 resources each) produce tequila (white, cream, pink, red; each needs
a building connected along the chain agave field - kiln - distiller - cask - shop) or mark market
spaces. At the end of their round, agave fields and kilns produce, casks turn an agave into
barrels and shops sell a resource for coins. After round 8: majorities of each tequila and of
the market, track prestige, sections, first-to bonuses, market spaces and unused gears.
Most prestige wins; ties go to the most resources shown on fenced-off fields.

Players and variants
--------------------
1-8 players (``player_0`` ... in seat order; seat 0 is the first starting player, the coaster
passes left each round). 1 player is the solo mode (always the starting player; every "first to"
bonus is gained; a tequila majority needs 6 of that type, the market one 12 spaces; the reward is
the score / 330 clipped to [0, 1]; ``final_info()`` reports the rank: Clear < 120, Young < 180, Rested
< 230, Aged < 330, else Golden tequilero). 5-8 players is the 5-or-more variant, switched on by the
player count: no re-roll, side A only, majorities contested only with the two neighbours (right
value only).

Turn structure (decisions, in order)
------------------------------------
Players act at the same time in the printed game ("Simultaneously, all players use the dice"). Here
each round goes seat by seat from the starting player and each player takes their whole round at
once, but nothing a player does in a round is seen by the others before the round ends: each seat's
observation shows the other sheets as they stood at the start of the round (see Observations), and
the "first to" bonuses are settled per round (every player who qualifies in the round of the first
gains it), so the order of the seats changes nothing:

1. ``reroll none|first|second|both`` (starting player, not with 5+ players);
2. each player: the dice resources (automatic), ``virtual fence|build``, then the main phase in
   any order: ``fence S``, ``build ...``, ``free road ...``, ``produce ...``, ``sell R C``,
   ``extra``, until ``end`` (which gives up unused fences, building actions and bought free
   actions; unused gears score); then their end of round: agave and water (automatic),
   ``cask yes|no`` and ``shop yes|no`` (asked only when they can pay and would gain something).

Parallel API: ``parallel_env(num_players=...)`` or ``pettingzoo.make("parallel",
"fiesta_envs/Tequila-v2")`` plays the rounds at the same time: the starting player's re-roll is a
step of its own; then in each step every player with a decision left in the round makes its next
one, each on its own copy of the game (seeing the others as they stood when the round began); a
player done with its round waits with an all-zero action mask (``infos[agent]["acting"]`` False, its
action ignored) until the others are done. The game is the one the AEC environment plays when it gets
the same decisions seat by seat (tested), and each player sees the same at each of its decisions.

Payments and gains "of your choice" are sub-steps asked at once, one resource at a time:
``pay RES`` (roads: 2; ``extra``: 4; ``shop yes``: 1) and ``gain RES`` (market spaces, gems on the
coin track); a gain of choice is only asked while some track has room.

Actions: ``Discrete(342)``, with a mask
---------------------------------------
=========  =================================================================================
0-3        ``reroll none|first|second|both``
4-5        ``virtual fence|build``
6-45       ``fence S``: segment S; horizontal ``r*4 + c`` (top edge of field row r 0-4, column c),
           then vertical ``20 + r*5 + c`` (left edge of field column c 0-4, field row r)
46-233     ``build KIND at R C as O``: every placement that fits the sheet; KIND road, agave (the
           agave field), kiln, distiller, cask, shop; R C the top-left of the shape's bounding box;
           O the shape's orientation (kiln/cask: 0 across, 1 down; distiller: 0 ``L``, 1 ``Γ``,
           2 ``ꓶ``, 3 ``⅃``; shop (T): 0 stem down, 1 stem left, 2 stem up, 3 stem right)
234-297    ``free road at R C`` (cask tile B, virtual die on building: one free road this round)
298-301    ``produce white|cream|pink|red``
302-325    ``sell R C``: market row R (0-2), column C (0-7)
326        ``extra``: pay 4 resources of choice for one more free action this round
327-331    ``pay agave|water|worker|donkey|barrel``
332-336    ``gain agave|water|worker|donkey|barrel``
337-338    ``cask yes|no``
339-340    ``shop yes|no``
341        ``end``
=========  =================================================================================

The farm (identical for every player; ``~`` water, ``.`` arid, a letter an arid space showing a
resource: a agave, w water, j worker, y donkey, b barrel, as ``fiesta play`` draws them, where ``d``
is a distiller)::

       0 1 2 3 4 5 6 7
    0  . a . ~ . . y .
    1  . . . ~ . j ~ ~
    2  j . ~ ~ . . ~ b
    3  ~ ~ . . ~ ~ ~ .
    4  . ~ y . ~ . . ~
    5  . b ~ ~ . . a .
    6  . . ~ . ~ ~ ~ .
    7  w . ~ . j . ~ .

Observations
------------
A float32 vector in [0, 1] of length 56 + 677 * players (733 solo, 1410 for 2 players, 5472 for
8). Every sheet is public, so a seat sees the whole table: the table blocks, then one group of
blocks per sheet, its own first (``sheet 0 ...``), then the others in seat order after it (``sheet
1 ...`` is the next seat). Rounds are simultaneous: the others' sheets are shown as they stood at the
start of the round (after the last round: as they end), the seat's own sheet as it is now. Counts
are divided by their scale (``min(count, cap) / cap``). The blocks, in order
(``observer.layout.describe()``; ``observation_views``, below, splits a vector by name):

==========================  ====  ===================================================================
block                       size  entries
==========================  ====  ===================================================================
round                       8     the round, one-hot (all zeros once the game is over)
dice                        12    each die's value, one-hot (2 x 6)
decision                    7     what the seat is asked, one-hot: reroll, virtual, main, cask,
                                  shop, pay, gain
pending                     5     payments of choice left (/4), their purpose one-hot (road, extra,
                                  shop), gains of choice left (/4)
seat                        2     I am the starting player; my place in this round's order (/players)
bonuses taken               14    "first to" bonuses gained by anyone before this round (7 sections,
                                  4 tequilas, market columns 3, 5, 7)
cask tile B                 1     the cask tile's side B is used
my round                    7     my fences left (/10), building actions left (/5), gears left (/3),
                                  bought free actions left (/4), free road, virtual die on fencing,
                                  virtual die on building
sheet K farm                576   9 planes of 8x8 (row-major): fenced-off fields, then the buildings
                                  by kind (road, agave field, kiln, distiller, cask, shop), buildings
                                  connected to their chain partner, filled sections
sheet K fences              40    fenced segments (numbered as the ``fence S`` actions)
sheet K tracks              56    held resources (5, /24), marked squares (5, /24), coins (/15),
                                  production per tequila (4, /8), collections (/6), market spaces
                                  (24, row-major), "first to" bonuses gained (14), extra free actions
                                  bought (/12), unused gears (/15)
sheet K jimador             5     side A, purple, red, orange, green
==========================  ====  ===================================================================

The printed farm (water, resource icons, houses) is the same on every sheet and is not repeated:
it is drawn above. The layout lives in ``fiesta_envs/tequila/observation_layout.py``, the observer in
``fiesta_envs/tequila/observation.py``.

Reading an observation
----------------------
``env.unwrapped.observation_views(observation)`` (``game.observation_views`` on an engine) splits an
observation (the vector, or the dict ``observe`` returns) into the blocks above, each a copy in its
documented shape: ``dice`` is 2 x 6 (a one-hot per die), each ``farm`` 9 planes of 8 x 8. With 2
players::

    >>> from fiesta_envs import tequila_v2
    >>> env = tequila_v2.env(num_players=2)
    >>> env.reset(seed=0)
    >>> views = env.unwrapped.observation_views(env.observe("player_0"))
    >>> for name, block in views.items():
    ...     print(f"{name:15} {block.shape}")
    round           (8,)
    dice            (2, 6)
    decision        (7,)
    pending         (5,)
    seat            (2,)
    bonuses taken   (14,)
    cask tile B     (1,)
    my round        (7,)
    sheet 0 farm    (9, 8, 8)
    sheet 0 fences  (40,)
    sheet 0 tracks  (56,)
    sheet 0 jimador (5,)
    sheet 1 farm    (9, 8, 8)
    sheet 1 fences  (40,)
    sheet 1 tracks  (56,)
    sheet 1 jimador (5,)
    >>> views["dice"].argmax(axis=1) + 1  # the dice rolled
    array([6, 4])

Rewards
-------
Zero until the end. ``reward="rank"`` (default): ranking on (score, tie-break): 2 players win +1,
loss -1, shared win 0; 3+ players linear from +1 (first) to -1 (last), tied players averaging.
``reward="margin"``: lead over the best other player / 200, clipped to [-1, 1]. Solo: score /
330 clipped to [0, 1]. At the end every agent's ``infos`` hold ``scores`` (float64, one per seat)
and ``winners`` (int8, 1 for every seat sharing the win), in the AEC and the Parallel environment alike;
the breakdown is ``env.unwrapped.final_info()``: ``scores``, ``score_breakdown`` (unused gears, coin
track, production tracks, collections, sections first, first-to bonuses, market spaces, tequila
majorities, market majority), ``tie_break`` (resources shown on fenced-off fields), ``winners`` (seat
numbers), ``achievements`` (the rulebook's list, per player), ``jimadores`` and, solo, ``solo_rank``.

Options
-------
- ``reward``: ``"rank"`` (default) or ``"margin"``.
- ``cask_tile``: ``"A"`` (default) or ``"B"`` (dice resources 1 water, 2 donkey, 3 agave, 4 barrel,
  5 worker, 6 agave; the virtual die adds 1 fence on fencing, or a free road on building).
- ``jimadores``: ``"A"`` (default: side A for all), ``"B"`` (asymmetric side B, one per player) or
  ``"dealt"`` (side B, dealt at random from the game's seed). Side B: purple draws 5/7/9 fences;
  red produces 1 agave per agave field and 1 water per kiln and gets one more building action
  every round; orange gains 1 more on every first-connection bonus; green pays 1 less at the
  market (amounts and requirements, not below 0) and gains 2 resources on requirement spaces.
- ``jimador_order``: with ``jimadores="B"``, who plays which jimador, one per seat, e.g.
  ``"green,purple"`` (default purple, red, orange, green in seat order).
- 5 or more players refuse ``jimadores`` other than ``"A"`` and ``cask_tile="B"``.

Rulings we added or chose (the rulings file fixes the sheet, tracks and tables)
-------------------------------------------------------------------------------
- Seats act one after another within a simultaneous round: "first to" bonuses are paid at once to
  the first player to qualify and to every player who qualifies later in the same round (the
  rulebook's "all players gain"); the others see a player's round only once it has ended.
- The dice resources are gained at the start of each player's own turn, so any choice they bring
  (a gem) is asked of that player.
- A market column bonus (columns 3, 5, 7) is gained on a player's first mark in that column.
- The red jimador's "the virtual die counts as a building die in addition to its own use" is read
  as one more building action every round, wherever the virtual die goes.
- The cask tile B free road may be drawn on any free space (water too); it gains the resource
  its space shows, pays connection bonuses and fills sections like any road.
- 5 or more players: we refuse ``cask_tile="B"`` as well as side B jimadores (the rulings allow
  side A only); the first acting seat still rotates each round (it changes nothing).
- Solo: "every first-to bonus is gained" also covers bonuses the solo player reaches in any round.
- Scores before the end include the majorities as they stand (for reward shaping and display).
- ``shop yes`` is still asked when the coin track is full: the coins are lost but count for "El
  Aventurero" (every coin earned). ``cask yes`` is not asked when the barrel track is full.
- A second mark in a bonus column (3, 5, 7) gains nothing, even in the round of the first.
- Several buildings may share one partner: each kiln on one agave field, each distiller on one
  kiln, each shop on one cask gains its own first-connection bonus (the rulebook's "you can
  connect more than one"); only the cask production needs a different distiller per cask.
- Prestige values (calibrated). The rulebook pictures the sheet without printing its
  prestige, so the values are ours; they are 1.5 times the values first ruled, rounded half up:
  sections first filled 18, 18, 6, 9, 15, 18, 9; coin track squares 2, 4, ... 14: 3, 8, 14, 21,
  30, 41, 53; production tracks white 3, 6, 9, 14, 18, 24, 30, 38, cream 5, 9, 14, 18, 24, 30, 38,
  45, pink 6, 12, 18, 24, 32, 39, 48, 57, red 8, 15, 23, 30, 39, 48, 59, 69; first to the 5th
  tequila 6, 9, 12, 15; collections 8, 15, 27, 42; first to market columns 5 and 7: 12 and 24.
  Why: with the first values no agent reached the solo rank Aged (230). One factor keeps the
  first values' balance between sources; 1.5 puts the strongest agent's typical solo game at the
  Aged threshold and leaves Golden (330) to play much more productive than it. The solo games
  behind this (score distributions, ranks and points by source, for ``planner`` and the shipped
  ``ppo``, both cask tiles) are on the results page "Tequila: prestige values", generated from
  ``results/tequila_calibration.json`` by ``scripts/tequila_calibration.py``.
  The rulebook's own numbers are unchanged: the majorities (16/8, 20/10, 24/12, 30/15, market
  20/14), 1 point per market space and per unused gear, the solo ranks and the 275-point
  achievement; so are all coins (sections, bonuses, collections).

Scripted baselines
------------------
``random`` and ``planner`` (``fiesta_envs/tequila/baselines.py``): the planner builds the chain
agave field - kiln - distiller - cask - shop along a layout drawn for this sheet (filling whole
sections on the way), keeps resources for its next building, fences fields for the resources it
lacks, produces the tequila adding the most prestige per barrel (majorities included) and sells
with spare free actions. It decides the re-roll and the virtual die by what the dice are worth
(building actions it can pay for, fences that still fence something off, resources), spends what
is left in the last round on the market, and breaks ties at random (seeded), so two planners do not
play the same game. ``planner:version=1`` is the planner as first shipped (deterministic, blind to
the others, re-rolls only a 6, reaches its first shop with three roads over water). Version 2 against
version 1, and solo: the documentation's Results, "Search and baselines" (``results/baselines.json``).

Version history
---------------
- v2 (fiesta_envs 0.2.0): our prestige values are 1.5 times the first ones (see the rulings: sections, coin track,
  production tracks, first-to bonuses, collections, market columns 5 and 7); the same play scores more, and the margin
  reward moves with the scores. The rulebook's numbers, the actions and the observation layout are unchanged.
  ``tequila_v1`` and ``Tequila-v1`` fail with a message naming v2.
- v1 (between 0.1.0 and 0.2.0, in no release; v2 keeps its observation): the
  rounds are simultaneous as printed (the others' sheets as they stood at the start of the
  round; bonuses first taken in this round are not shown) and every public part of every sheet is
  shown (farm, fences, all tracks, unused gears) in one layout per sheet; the state dict saves the
  sheets shown (``shown_sheets``); the Parallel API (``parallel_env``). ``tequila_v0`` and
  ``Tequila-v0`` fail with a message naming the current version.
- v0 (fiesta_envs 0.1.0): the first version (others shown as summaries; a later seat saw what earlier seats did
  this round).
"""

from fiesta_envs.envs.aec import aec_env_classes
from fiesta_envs.envs.parallel import parallel_env_classes
from fiesta_envs.registry import game_spec
from fiesta_envs.tequila.game import Tequila

raw_env, env = aec_env_classes(Tequila, "tequila_v2", module=__name__, picture=game_spec("tequila").picture())
parallel_raw_env, parallel_env = parallel_env_classes(
    Tequila, "tequila_v2", module=__name__, picture=game_spec("tequila").picture()
)
