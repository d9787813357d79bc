"""A numpy actor network (``fiesta_envs.policies.mlp``) playing a game as a ``Policy``.

The network's input size says what it reads, so a network plays in any environment of its game,
whatever that environment's ``action_features`` option:

* ``direct``: the observation as the environment gives it;
* ``plain``: the observation without its action features (the network was trained without them);
* ``features``: the plain observation + ``game.action_features(player)`` computed by the engine (the
  network was trained with ``action_features=True``, the environment was made without).

A network that fits none of them is refused at ``check_game`` (called before any game is played) with the
sizes in words. Checkpoints of our trainer and stable-baselines3 models play through this class.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from fiesta_envs.core.errors import InvalidOptionError
from fiesta_envs.core.wording import players
from fiesta_envs.policies.mlp import ActorSnapshot, masked_choice
from fiesta_envs.policies.policy import Policy, forced_action, observed

if TYPE_CHECKING:
    from fiesta_envs.core.game import Game


class NetworkMismatchError(InvalidOptionError):
    """A network whose input or output size fits no environment of the game it is asked to play."""


def plain_size(game: Game) -> int:
    """The length of ``game``'s observation without its action features."""
    return int(game.observation_size) - int(game.action_features_size)


def input_mode(actor: ActorSnapshot, game: Game, where: str, num_players: int | None = None) -> str:
    """How ``actor`` reads ``game`` (``direct``, ``plain`` or ``features``), or ``NetworkMismatchError``."""
    if num_players is not None and game.num_players != num_players:
        raise NetworkMismatchError(
            f"{where} was trained for {players(num_players)}, this game has {game.num_players}; its observations "
            f"and actions only fit {num_players}-player games"
        )
    if actor.output_size != game.num_actions:
        raise NetworkMismatchError(
            f"{where} chooses among {actor.output_size} actions, {game.name} with {players(game.num_players)} has "
            f"{game.num_actions}: it was trained on another game, player count or options"
        )
    size, plain = actor.input_size, plain_size(game)
    if size == game.observation_size:
        return "direct"
    if size == plain:
        return "plain"
    player = max(game.current_player, 0)
    try:
        features = len(game.action_features(player))
    except NotImplementedError:
        features = None
    if features is not None and size == plain + features:
        return "features"
    with_features = "" if features is None else f", or {plain + features} with action features"
    raise NetworkMismatchError(
        f"{where} reads observations of {size} numbers; {game.name} with {players(game.num_players)} and these "
        f"options gives {plain}{with_features}: it was trained on another game, player count or options"
    )


def network_input(mode: str, observation: np.ndarray | None, game: Game, player: int) -> np.ndarray:
    """What a network of input ``mode`` reads for ``player`` now."""
    if observation is None:
        observation = game.observe(player)
    observation = np.asarray(observation, dtype=np.float32)
    if mode == "direct":
        return observation
    plain = observation[: plain_size(game)]
    if mode == "plain":
        return plain
    return np.concatenate([plain, np.asarray(game.action_features(player), dtype=np.float32)])


class ActorPolicy(Policy):
    """An actor network as a policy: the most probable legal action (``deterministic=False``: sampled with
    ``self.rng``). ``where`` names it in messages; ``num_players``, when known, is the count it was trained for."""

    def __init__(
        self,
        actor: ActorSnapshot,
        *,
        where: str,
        num_players: int | None = None,
        deterministic: bool = True,
        seed: int | None = None,
    ) -> None:
        super().__init__(seed)
        self.actor = actor
        self.where = where
        self.num_players = num_players
        self.deterministic = deterministic
        self._modes: dict[tuple, str] = {}

    def check_game(self, game: Game) -> str:
        """The input mode for ``game``'s configuration, or ``NetworkMismatchError`` now."""
        key = (type(game), game.num_players, tuple(sorted(game.config.items())))
        mode = self._modes.get(key)
        if mode is None:
            mode = self._modes[key] = input_mode(self.actor, game, self.where, self.num_players)
        return mode

    def act(self, observation: np.ndarray | None, action_mask: np.ndarray, game: Game, player: int) -> int:
        mode = self.check_game(game)
        if self.deterministic:  # the most probable legal action of one legal action is that action
            forced = forced_action(action_mask)
            if forced is not None:
                return forced
        logits = self.actor.logits(network_input(mode, observed(observation, self), game, player))
        return masked_choice(logits, np.asarray(action_mask).astype(bool), None if self.deterministic else self.rng)
