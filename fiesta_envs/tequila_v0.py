"""Tequila, the roll-and-write farm game, as a PettingZoo AEC environment (``tequila_v0``).

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
the score / 330 clipped to [0, 1]; ``infos`` report the rank: Clear < 120, Young < 180, Rested <
230, Aged < 330, else Golden tequilero). 5-8 players is the 5-or-more variant, switched on by the
player count: no re-roll, side A only, majorities contested only with the two neighbours (right
value only).

Turn structure (decisions, in order)
------------------------------------
Players act at the same time in the printed game; here each round goes seat by seat from the
starting player and each player takes their whole round at once:

1. ``reroll none|first|second|both`` (starting player, not with 5+ players);
2. each player: the dice resources (automatic), ``virtual fence|build``, then the main phase in
   any order: ``fence S``, ``build ...``, ``free road ...``, ``produce ...``, ``sell R C``,
   ``extra``, until ``end`` (which gives up unused fences, building actions and bought free
   actions; unused gears score); then their end of round: agave and water (automatic),
   ``cask yes|no`` and ``shop yes|no`` (asked only when they can pay and would gain something).

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
resource: a agave, w water, j worker, d donkey, b barrel)::

       0 1 2 3 4 5 6 7
    0  . a . ~ . . d .
    1  . . . ~ . j ~ ~
    2  j . ~ ~ . . ~ b
    3  ~ ~ . . ~ ~ ~ .
    4  . ~ d . ~ . . ~
    5  . b ~ ~ . . a .
    6  . . ~ . ~ ~ ~ .
    7  w . ~ . j . ~ .

Observations
------------
A float32 vector in [0, 1] of length 1195 + 62 * (players - 1) (1257 for 2 players). Every
sheet is public, so each seat sees the whole table, its own sheet first: own farm as 16 planes of
8x8 (terrain, resource icons, houses, fenced-off fields, buildings by kind, buildings linked to
their chain partner, filled sections), own fences (40), own tracks (68: resources held and
marked, coins, production, collections, market, bonuses gained, extra free actions bought so far,
unused gears so far, round budget: fences, building actions, gears, bought free actions, free
road, virtual die, jimador), the table (63: round, dice, the decision asked, pending payments and
gains, starting player, place in this round's order, "first to" bonuses taken ever and this
round, cask tile side) and each other player in seat order after the observer, 62 each (held
resources, production, collections, coins, market, bonuses, filled sections, buildings by kind,
fenced-off fields, jimador). The exact layout is in ``fiesta_envs/tequila/observation.py``.

Rewards
-------
Zero until the end. ``reward="rank"`` (default): ranking on (score, tie-break): 2 players win +1,
loss -1, shared win 0; 3+ players linear from +1 (first) to -1 (last), tied players averaging.
``reward="margin"``: lead over the best other player / 200, clipped to [-1, 1]. Solo: score /
330 clipped to [0, 1]. ``infos`` at the end carry ``final_info()``: ``scores``,
``score_breakdown`` (unused gears, coin track, production tracks, collections, sections first,
first-to bonuses, market spaces, tequila majorities, market majority), ``tie_break`` (resources
shown on fenced-off fields), ``winners``, ``achievements`` (the rulebook's list, per player),
``jimadores`` and, solo, ``solo_rank``.

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
- Sequential turns: "first to" bonuses are paid at once to the first player to qualify and to
  every player who qualifies later in the same round (the rulebook's "all players gain").
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

Scripted baselines
------------------
``random`` and ``planner`` (``fiesta_envs/tequila/baselines.py``): the planner builds the chain
agave field - kiln - distiller - cask - shop along a layout drawn for this sheet (filling whole
sections on the way), keeps resources for its next building, fences fields for the resources it
lacks, produces the tequila adding the most prestige per resource and sells with spare free
actions. Scores of ``planner`` against ``planner`` (2 players, seeds 0-99, 200 scores): mean 140,
standard deviation 11, min 105, max 163; solo (seeds 0-99): mean 131 (Young tequilero). Against
``random`` with seats alternating it won 200 games of 200 (its mean score there: 149).

Version history
---------------
- v0: first release.
"""

from fiesta_envs.core.aec import aec_env_classes
from fiesta_envs.tequila.game import Tequila

raw_env, env = aec_env_classes(Tequila, "tequila_v0")
