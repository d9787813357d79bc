"""Tortilla de Patatas: The Game, as a PettingZoo AEC environment (``tortilla_de_patatas_v0``).

The game in brief
-----------------
Chefs cook potato omelettes in three pans by playing ingredient cards (potato, egg, onion and
wildcards standing for one of two or three ingredients) face down onto piles. When a chef thinks
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

Observations (option ``observation``)
-------------------------------------
A float32 vector in [0, 1], pans listed from the observer's side (own team first):

- ``"information_state"`` (default, 306 entries): everything a player with perfect memory knows:
  phase, menu, seat to act, own hand, fridge door, fridge size, diner cards left, open steal
  choices; per pan its height, top three cards and count per card type; per served omelette
  the team, declared size, diner card and count per card type; cards known to be in other
  hands (taken from the door); cards not yet seen per type.
- ``"observation"`` (110 entries): only what is on the table now: the same header, per pan its
  height and its top card (the only card of a pile anyone can see), per served omelette the
  team, declared size and diner card; no covered cards, no served contents, no known cards:
  memory is the agent's problem (recurrent or frame-stacked policies).

The exact layout is in ``fiesta_envs/tortilla/observation.py``. No vector ever contains another
player's hand or the fridge order.

Rewards
-------
Zero until the end. Then, option ``reward="rank"`` (default): the winning team's players +1,
the losing team's -1, 0 each on a tie; ``"margin"``: the team's lead over the other team / 10,
clipped to [-1, 1]. ``infos`` at the end carry the per-player ``scores`` (each player its team's
score) and ``final_info()``: ``team_scores``, ``unserved_pans`` and every served omelette with
its cards, size, diners, verdict and points.

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
- v0: first release.
"""

from fiesta_envs.core.aec import aec_env_classes
from fiesta_envs.tortilla.game import TortillaDePatatas

raw_env, env = aec_env_classes(TortillaDePatatas, "tortilla_de_patatas_v0")
