"""Bots for ``evaluate_bots``: ``AgentBot(game, player, spec)`` plays any of our agent specs, ``ismcts_bot``
OpenSpiel's IS-MCTS on our determinisation.

The spec is what ``fiesta evaluate`` takes (``greedy``, ``search:budget=16``, ``ppo``, a checkpoint path, or a
``Policy``), resolved by ``fiesta_envs.evaluation.agents.resolve_agent`` for the game's player count and
options. The bot asks its policy exactly as our environments do: the seat's observation, the legal-action
mask and the engine of the state (our search agents determinise it themselves; no agent reads what its
seat cannot know).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from fiesta_envs.core.rng import derive_seed
from fiesta_envs.evaluation.agents import resolve_agent
from fiesta_envs.openspiel.game import FiestaGame
from fiesta_envs.openspiel.state import FiestaState
from fiesta_envs.policies.policy import Policy


class AgentBot(pyspiel.Bot):
    """A ``pyspiel.Bot`` playing seat ``player`` of ``game`` (a game loaded from ``fiesta_envs.openspiel``)
    with the agent ``spec``.

    ``seed`` makes the agent's own randomness reproducible: game k after the bot was made is played with the
    seed ``derive_seed(seed, player, k)`` (None: fresh entropy).
    """

    def __init__(self, game: FiestaGame, player: int, spec: str | Path | Policy, *, seed: int | None = None) -> None:
        pyspiel.Bot.__init__(self)
        if not isinstance(game, FiestaGame):
            raise TypeError(f"AgentBot plays the games of fiesta_envs.openspiel (python_<game>); got {game}")
        num_players = game.configuration.num_players
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < num_players:
            raise ValueError(f"{game}: player must be a seat in 0..{num_players - 1}, got {player!r}")
        source = resolve_agent(game.game_spec, num_players, spec, game.configuration.options)
        self.label = source.label
        self.player = player
        self._seed = seed
        self._games = 0
        seat_seed = None if seed is None else derive_seed(seed, player)
        self._policy = source.make(game.game_spec, num_players, seed=seat_seed)

    def restart_at(self, state: FiestaState) -> None:
        """A new game (or a game joined midway): the agent forgets the last one and reseeds."""
        seed = None if self._seed is None else derive_seed(self._seed, self.player, self._games)
        self._games += 1
        self._policy.start_episode(seed)

    def restart(self) -> None:
        self.restart_at(None)  # type: ignore[arg-type]  # the state is not read

    def inform_action(self, state: FiestaState, player_id: int, action: int) -> None:
        """Other seats' moves: the agent reads the position itself at its next decision."""

    def step(self, state: FiestaState) -> int:
        engine = state.engine
        if engine.is_over or engine.current_player != self.player:
            raise ValueError(
                f"{self.label} plays seat {self.player}, but it is not that seat's turn "
                f"({'the game is over' if engine.is_over else f'player {engine.current_player} to act'})"
            )
        observation = engine.observe(self.player) if self._policy.needs_observation else None
        return int(self._policy.act(observation, engine.legal_mask().copy(), engine, self.player))

    def __repr__(self) -> str:
        return f"AgentBot({self.label!r}, player={self.player})"


class RestartableISMCTSBot(ismcts.ISMCTSBot):
    """OpenSpiel's Python IS-MCTS bot, with the ``restart_at`` that ``evaluate_bots`` calls before a game (the
    bot searches afresh at every decision, so there is nothing to restart but its tree)."""

    def restart_at(self, state: pyspiel.State) -> None:
        self.reset()

    def restart(self) -> None:
        self.reset()


class EngineRolloutEvaluator(mcts.Evaluator):
    """OpenSpiel's ``RandomRolloutEvaluator`` played inside the engine: the value of a state is the mean return
    of ``rollouts`` uniformly random playouts from it, and every legal action has the same prior. The same
    playouts as OpenSpiel's evaluator, without a call through ``pyspiel`` per move (about three times faster)."""

    def __init__(self, rollouts: int = 1, seed: int | None = None) -> None:
        if isinstance(rollouts, bool) or not isinstance(rollouts, int) or rollouts < 1:
            raise ValueError(f"EngineRolloutEvaluator: rollouts must be a positive integer, got {rollouts!r}")
        self.rollouts = rollouts
        self.rng = np.random.default_rng(seed)

    def evaluate(self, state: FiestaState) -> np.ndarray:
        total = np.zeros(state.engine.num_players)
        for _ in range(self.rollouts):
            game = state.engine.clone()
            while not game.is_over:
                legal = np.flatnonzero(game.legal_mask())
                game.step(int(legal[self.rng.integers(len(legal))]))
            total += game.returns()
        return total / self.rollouts

    def prior(self, state: FiestaState) -> list[tuple[int, float]]:
        legal = state.engine.legal_actions()
        return [(action, 1.0 / len(legal)) for action in legal]


def ismcts_bot(
    game: FiestaGame,
    max_simulations: int,
    *,
    uct_c: float = 2.0,
    rollouts: int = 1,
    seed: int | None = None,
) -> RestartableISMCTSBot:
    """OpenSpiel's IS-MCTS (``open_spiel.python.algorithms.ismcts``) for one of our games: ``max_simulations``
    simulations per decision, each from a fresh ``resample_from_infostate`` (our determinisation), leaves
    valued by ``rollouts`` uniformly random playouts (``EngineRolloutEvaluator``). Its tree's nodes are keyed
    by the information state where the configuration has one, else by the observation."""
    if isinstance(max_simulations, bool) or not isinstance(max_simulations, int) or max_simulations < 1:
        raise ValueError(f"ismcts_bot: max_simulations must be a positive integer, got {max_simulations!r}")
    seeds = np.random.SeedSequence(seed).spawn(3)
    bot = RestartableISMCTSBot(
        game,
        EngineRolloutEvaluator(rollouts, seed=int(seeds[0].generate_state(1)[0])),
        uct_c=uct_c,
        max_simulations=max_simulations,
        random_state=np.random.RandomState(seeds[1].generate_state(1)[0]),
        use_observation_string=not game.has_information_state,
    )
    worlds = np.random.default_rng(seeds[2])  # the seeds of the resampled worlds: reproducible with ``seed``
    bot.set_resampler(lambda state, player: state.resample_from_infostate(player, worlds.random))
    return bot
