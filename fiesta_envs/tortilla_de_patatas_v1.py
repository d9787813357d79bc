"""Tortilla de Patatas: The Game, as a PettingZoo AEC environment (``tortilla_de_patatas_v1``).

The game in brief
-----------------
Chefs cook potato omelettes in three pans by playing ingredient cards (potato, egg, onion and
wildcards standing for one of two or three ingredients) face up onto piles: each card covers the
one below it, so only the top card of a pile can be seen (steals compare top cards). When a chef thinks
a pan holds a recipe, a team serves it with a declared size and a diner card: M needs 3 or 4
potatoes, exactly 2 eggs and 1 onion; XL 5 or 6 potatoes, 3 eggs and 2 onions. At the end every
served omelette scores +diners if perfect and -diners if badly made (doubled for XL). The game
ends when the fridge (the draw pile) runs out or the last diner card is taken. The team with
the most points wins.

Menus (option ``menu``)
-----------------------
- ``"kids"``: 3 cards each; the chefs' pans 0 and 1 start with a card from the fridge; no stealing.
- ``"day"`` (default): chefs are dealt 5 cards and start pans 0 and 1 with two of them (``start
  TYPE``); a face-up fridge door card may be drawn instead of the top of the fridge; placing a
  plain ingredient equal to the plain top card of another pan steals that card onto it (the other
  team's pans first, then one's own; one steal per turn; wildcards neither steal nor are stolen);
  each pan still holding cards at the end costs its team 1 point.
- ``"gourmet"``: as ``"day"``, but the diner card may not exceed the number of the team's pans
  holding cards (1 pan: 1 diner; 2 pans: 1 or 2; 3 pans: any).

Players
-------
2 (two chefs) or 4 (two teams: ``player_0`` chef A, ``player_1`` chef B, ``player_2`` kitchen
assistant A, ``player_3`` kitchen assistant B; team = seat % 2; turns alternate between the
teams). A team shares its chef's pans and its score; team-mates have no channel to talk.

Actions: ``Discrete(54)``, with a mask
--------------------------------------
=========  ======================================================================
0-20       ``play TYPE on P``: a card of TYPE from hand onto the team's pan P (0-2)
21-38      ``serve P M|XL with D``: serve pan P, declaring its size, with diner card D
39, 40     ``draw deck``, ``draw door``: refill the hand to 3; ends the turn
41-46      ``steal from mine P`` / ``steal from theirs P``: choose among equal steal candidates
47-53      ``start TYPE``: setup, a card from hand into the chef's next starting pan
=========  ======================================================================

TYPE is one of ``potato, egg, onion, potato+egg, potato+onion, egg+onion, potato+egg+onion``
(actions name card types, not hand slots). A turn: one ``play``, then the steal if any, then
``draw``; one ``serve`` is allowed before the play or before the draw. Automatic steps (no
decision asked): the deal, a steal with a single candidate, and in the Kids' menu the draw when
no serve is legal.

Nothing is simultaneous in the printed game: turns alternate between the teams, and the setup's
starting cards are placed one chef after the other, in full view (our ruling, below), so every seat
is shown each step as it happens (in ``observation`` mode, through the events since its last decision).

Observations (option ``observation``)
-------------------------------------
A float32 vector in [0, 1], pans listed from the observer's side (own team first), other seats
relative to the observer. Both modes start with the same header (38 entries): ``phase`` [4],
``menu`` [3], ``four_players`` [1], ``chef`` [1], ``to_act`` [4], ``served_this_turn`` [1], ``hand``
[7], ``door`` [7], ``fridge`` [1], ``diners_left`` [3], ``steal_choices`` [6].

- ``"information_state"`` (default, 306 entries): everything a player with perfect memory knows.
  After the header: ``pans`` [6 x 29] (per pan its height, top three cards and count per card
  type), ``served`` [6 x 11] (per served omelette the team, declared size, diner card and count
  per card type), ``known_in_hands`` [3 x 7] (cards known to be in other hands: taken from the
  door), ``unseen`` [7] (cards not yet seen per type).
- ``"observation"`` (110 + 108 n entries: 326 with 2 players, 542 with 4): what is on the table
  now and what happened on it since the observer's last decision; memory is the agent's job
  (recurrent or frame-stacked policies). After the header: ``pans`` [6 x 8] (per pan its height
  and its top card, the only card of a pile anyone can see), ``served`` [6 x 4] (per served
  omelette the team, declared size and diner card), ``events`` [4 n x 27]: every table event
  since the observer's last decision, its own included, oldest first (a card played, a steal, a
  serve, a card taken from the fridge door: kind, seat, pan, card, the pan stolen from; at most
  4 n happen between two decisions). A card an opponent plays and serves (or covers) before the
  observer's next decision is seen there. No covered cards, no served contents, no known cards.

The exact layout is in ``fiesta_envs/tortilla/observation.py`` (``observation_views``, below,
names the blocks). No vector ever contains another player's hand or the fridge order.

Action features (option ``action_features``)
--------------------------------------------
``action_features=True`` (default ``False``) appends 447 entries to the observation (306 + 447 =
753 with ``information_state``, 326 + 447 = 773 with ``observation`` and 2 players); the first part is the
plain observation, bit for bit. They say, action by action, what an action would bring: recipe
feasibility with wildcards, the points of a serve, the steals a play triggers or exposes.
``game.action_features(player)`` computes the same 447 numbers with the option on or off (a
policy trained with them can get them from the engine), and ``game.action_features_size`` is 447
either way. The code is ``fiesta_envs/tortilla/features.py``. The option changes no rule: state
dicts list it only when it is on (one saved with it off is the same as before the option existed).

Only what ``player`` may know goes in: its own hand and the table, and with
``observation="information_state"`` what a perfect memory knows (every card in every pan, the
cards seen taken from the door, the cards not seen yet). With ``observation="observation"`` only
what the table shows now: a covered card is *unknown*, and every pan quantity is the optimistic
bound over what the unknown cards could be (a pan is "possible" unless no reading of its unknown
cards works; "missing" is the fewest cards any reading needs; "surely perfect" is never set).

*Value* below is the evaluation the ``careful`` baseline plays by (its version 1; version 2 decays a
Kids' menu pan past an M more slowly, see ``tortilla/baselines.py``): a pan is worth
``2 x multiplier x 0.7 ** missing`` for its best recipe still finishable in the plays left
(``missing`` = fewest cards to add; plays left = fridge // 2), -1 when it cannot be finished
(-0.5 in the Kids' menu); a pan of one's own with a plain top card loses half of what that card
is worth to it (it may be stolen); a position is worth the own pans minus the other team's.
Mappings: a change of the position value ``(x + 10) / 20``; a pan's value ``(v + 1) / 5``; a
signed pan worth ``(x + 5) / 10``; points ``(p + 6) / 12``; cards missing ``m / 11`` (1 when
impossible); everything clipped to [0, 1].

=========  =========================================================================
indices    block
=========  =========================================================================
0-89       per pan, 6 x 15: the own team's pans 0-2, then the other team's 0-2
90-143     per ``serve P SIZE with D`` (actions 21-38), 18 x 3: action 21 + k at 90 + 3k
144-416    per ``play TYPE on P`` (actions 0-20), 21 x 13: action a at 144 + 13a
417-428    per ``steal from ...`` (actions 41-46), 6 x 2: action 41 + k at 417 + 2k
429-442    per ``start TYPE`` (actions 47-53), 7 x 2: action 47 + k at 429 + 2k
443-446    the refill (``draw deck`` / ``draw door``), 4
=========  =========================================================================

The pan and serve blocks are always filled in. The play, steal, start and draw blocks only while
``player`` is the one to take that decision (play: for the card types in its hand); otherwise 0.

Per pan (15): 0 M possible (1/0); 1 cards missing for M (``m / 11``, 1 if impossible); 2 XL
possible; 3 cards missing for XL; 4 surely a perfect M now; 5 surely a perfect XL now; 6 value
``(v + 1) / 5``; 7 top stealable: for an own pan, the chance that the next opponent to act holds
a plain card equal to its top card (1 if seen taking one from the door; else drawn from the
unseen cards; 0 for a wildcard top or without stealing), for the other team's pan, 1 if
``player`` holds a card that would steal its top; 8 what the pan loses if its top card is stolen
``(x + 5) / 10`` (0.5: it cannot be); 9-11 one more potato / egg / onion brings M closer;
12-14 the same for XL. Empty pan: all 0 except 8 (0.5).

Per serve (3): 0 the points it would score ``(p + 6) / 12``: +D (x2 for XL) if surely perfect at
the declared size, -D (x2) if surely badly made, 0 if not known (``observation`` mode); 1 surely
perfect; 2 may be perfect (the same with memory). Empty pan: 0.5, 0, 0.

Per play (13): 0 value: change of the position value after the play and the steal it forces
(the best one when there is a choice); 1 rank among the plays open now: 1 for the best (ties
too), the others ``(x - worst) / (best - worst) / 2``; 2-5 the pan after the play: M possible,
M missing, XL possible, XL missing; 6 its value ``(v + 1) / 5``; 7 the play steals; 8 it steals
from the other team; 9 what the robbed pan loses ``(x + 5) / 10`` (0 without a steal); 10 the
pan's new top can be stolen next turn: the chance the next opponent holds a plain card like it
(as entry 7 of a pan); 11 the exposure of the pan after the play (the value lost to that risk)
/ 2; 12 Gourmet: the play fills an empty pan without stealing from a pan known to be perfect,
and one more pan holding cards would allow a bigger diner card for that pan's serve.

Per steal choice (2) and per start card (2): 0 value (change of the position value), 1 rank (as
for plays). Refill (4): 0 value gain of the door card for the best own pan / 5; 1 the expected
gain of a card from the deck (over the unseen cards) / 5; 2 ``0.5 + (door - deck) / 2``; 3 the
door card gains more than a deck card on average (what ``careful`` takes the door for). Filled
in only while the door holds a card.

Reading an observation
----------------------
``env.unwrapped.observation_views(observation)`` (``game.observation_views`` on an engine) splits an
observation (the vector, or the dict ``observe`` returns) into the blocks above, each a copy in its
documented shape: ``pans`` is 6 x 29 in the default ``information_state`` mode (6 x 8 with
``observation="observation"``, where ``served`` is 6 x 4 and ``events`` 4 n x 27). With 2 players::

    >>> from fiesta_envs import tortilla_de_patatas_v1
    >>> env = tortilla_de_patatas_v1.env(num_players=2)
    >>> env.reset(seed=0)
    >>> views = env.unwrapped.observation_views(env.observe("player_0"))
    >>> for name, block in views.items():
    ...     print(f"{name:16} {block.shape}")
    phase            (4,)
    menu             (3,)
    four_players     (1,)
    chef             (1,)
    to_act           (4,)
    served_this_turn (1,)
    hand             (7,)
    door             (7,)
    fridge           (1,)
    diners_left      (3,)
    steal_choices    (6,)
    pans             (6, 29)
    served           (6, 11)
    known_in_hands   (3, 7)
    unseen           (7,)
    >>> views["hand"] * 5  # my hand: cards of each type
    array([1., 2., 0., 0., 1., 1., 0.], dtype=float32)

Rewards
-------
Zero until the end. Then, option ``reward="rank"`` (default): the winning team's players +1,
the losing team's -1, 0 each on a tie; ``"margin"``: the team's lead over the other team / 10,
clipped to [-1, 1]. At the end every agent's ``infos`` hold ``scores`` (float64, one per seat: each
player its team's score) and ``winners`` (int8, 1 for every seat of the winning team; both teams on a
tie); the breakdown is ``env.unwrapped.final_info()``: ``team_scores``, ``unserved_pans`` and every
served omelette with its cards, size, diners, verdict and points.

Rulings we added (where the rulebook is silent)
-----------------------------------------------
- The card distribution (26 potato, 15 egg, 11 onion, 3 potato+egg, 2 potato+onion,
  2 egg+onion, 3 potato+egg+onion) and the decision order above.
- Serving declares the size (M or XL) publicly; any non-empty pan may be served as either.
- A wildcard counts as exactly one of its ingredients, chosen in its owner's favour at scoring.
- The game ends at once when a refill leaves the fridge (deck, and door in Day's/Gourmet) empty,
  or when the last diner card is taken (the rest of that turn is skipped).
- A steal takes the top card only; the card under it becomes the new top and a steal may empty
  a pan. A card stolen onto a pile does not steal again (one steal per turn). A card placed
  into an empty pan steals like any other; the starting cards of the setup never steal.
- Gourmet: the pans counted are the team's pans holding cards at the moment of serving, the
  served pan included; with no permitted diner card left, that serve is not possible.
- When the draw pile is empty but the fridge door still holds a card, only ``draw door`` remains
  and the game goes on until that card is taken.
- Scores before the end count served omelettes only; the unserved-pan penalty applies at the end.
- ``player_0`` (chef A) starts. In the Day's/Gourmet setup the chefs place their starting cards
  in seat order, chef A first, in full view (so chef B sees chef A's before choosing).
- A card taken from the fridge door is known by everyone to be in that hand until its holder
  plays a card of that type (``information_state`` shows these cards; ``observation`` does not).

Version history
---------------
- v1 (fiesta_envs 0.2.0): ``observation`` mode shows the table events since the observer's last decision (block
  ``events``): cards played and served or covered between two of its decisions were never visible
  before. The state dict holds those events (``events``, ``events_seen_from``). The default
  ``information_state`` mode is unchanged, bit for bit: agents trained on it for v0 still play.
- v0 (fiesta_envs 0.1.0): the first version; ``tortilla_de_patatas_v0`` and ``TortillaDePatatas-v0`` fail
  with a message naming v1.
"""

from fiesta_envs.envs.aec import aec_env_classes
from fiesta_envs.registry import game_spec
from fiesta_envs.tortilla.game import TortillaDePatatas

raw_env, env = aec_env_classes(
    TortillaDePatatas, "tortilla_de_patatas_v1", module=__name__, picture=game_spec("tortilla_de_patatas").picture()
)
