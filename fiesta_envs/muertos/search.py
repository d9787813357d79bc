"""The ``team_search`` agent of Fiesta de los Muertos and La Catrina: the whole team played ahead.

See ``fiesta_envs.policies.search`` for the method. At each decision with a choice the seat compares the first
candidates of the shortlist (``muertos.shortlist``, version 2: ``associative``'s choice first, then the words,
slots, bones... it ranks next; ``width`` of them) by determinised rollouts: ``budget`` copies of the round as
the seat may believe it to be (``MuertosGame.determinize``: the others' characters, the number cards, the
words it has not seen and the guesses not yet revealed drawn afresh), each candidate played in each copy, then
the whole team plays on with ``associative`` in every seat (or the ``rollout`` agent) to the end of the round.

A decision stops after ``SETTLED`` copies when every candidate got the same value in each of them (nothing to
choose between). The value of a rollout is the team's result at the end of that round: skulls appeased in Fiesta de los
Muertos; in La Catrina the flowers, plus, when the campaign goes on, what the rounds left are worth
(``CONTINUATION``: the flowers the ``associative`` team adds on average from the next round on). The seat
keeps ``associative``'s choice unless another candidate beats it by more than one standard error of their
paired differences (``MonteCarloSearch.choose``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, cast

import numpy as np

from fiesta_envs.core.errors import InvalidOptionError
from fiesta_envs.core.options import Option
from fiesta_envs.muertos.baselines import AssociativeTeam
from fiesta_envs.muertos.components import MAX_FLOWERS
from fiesta_envs.muertos.engine import MuertosGame
from fiesta_envs.muertos.shortlist import SHORTLIST_V2
from fiesta_envs.policies.policy import Policy
from fiesta_envs.policies.search import MonteCarloSearch, _an_agent, _positive_int
from fiesta_envs.policies.shortlist import NO_CANDIDATE

if TYPE_CHECKING:
    from fiesta_envs.core.game import Game

#: La Catrina: the flowers the ``associative`` team colours on average from the next round to the end of the
#: campaign once round r (0-based: 0, 1, 2) is won, by player count (400 campaigns per player count, seeds
#: 100000-100399; the campaign ends at 13 flowers, so the larger tables add less later; 8 players: no campaign
#: went on after round 3, its last entry repeats the one before).
CONTINUATION = {
    4: (6.5, 3.7, 1.5),
    5: (6.4, 2.7, 1.2),
    6: (6.7, 2.2, 2.2),
    7: (6.4, 1.8, 1.5),
    8: (5.6, 2.0, 2.0),
}


def _engine(game: Game) -> MuertosGame:
    return cast(MuertosGame, game)


class MuertosTeamSearch(MonteCarloSearch):
    """Determinised rollouts of the whole team over the shortlist's first candidates (module docstring)."""

    rollout_policy = AssociativeTeam
    default_budget = 8
    #: Shortlist candidates compared at a decision when no ``width`` is given.
    default_width = 4
    agent_valued_options = ("proposer", "rollout")
    #: Copies after which a decision whose candidates all got the same value in every copy stops searching.
    SETTLED: ClassVar[int] = 3

    @classmethod
    def agent_options(cls) -> dict[str, Option]:
        options = super().agent_options()
        del options["margin_weight"]  # a cooperative result has no margin
        options["width"] = Option(cls.default_width, check=_positive_int, doc="shortlist candidates compared")
        options["rollout"] = Option(
            None, check=_an_agent, doc="agent playing every seat in the rollouts (default: associative)"
        )
        return options

    def __init__(
        self,
        seed: int | None = None,
        budget: int | None = None,
        proposer: Policy | None = None,
        temperature: float | None = None,
        width: int | None = None,
        rollout: Policy | None = None,
        min_advantage: float | None = None,
    ) -> None:
        super().__init__(seed, budget=budget, proposer=proposer, temperature=temperature, min_advantage=min_advantage)
        self.width = self.default_width if width is None else int(width)
        problem = _an_agent(rollout)
        if problem is not None:
            raise InvalidOptionError(f"{type(self).__name__}: option rollout={rollout!r}: {problem}")
        #: The agent in every seat of the rollouts (``associative``, the proposer's heuristic, by default).
        self.rollout_agent = self.heuristic if rollout is None else rollout

    def start_episode(self, seed: int | None) -> None:
        super().start_episode(seed)
        if self.rollout_agent is not self.heuristic:
            self.rollout_agent.start_episode(seed)

    # ------------------------------------------------------------------ what the search compares
    def candidates(self, game: Game, player: int, legal: np.ndarray, proposal: int) -> list[int]:
        listed = SHORTLIST_V2.build(game, player).actions
        others = [int(a) for a in listed if a != NO_CANDIDATE and a != proposal]
        return [proposal, *others][: self.width]

    def values(self, game: Game, player: int, candidates: list[int]) -> np.ndarray:
        """The rollout values as ``MonteCarloSearch.values`` draws them, stopping after ``SETTLED`` copies in
        which every candidate got the same value (most decisions of a team that appeases nearly every skull:
        nothing to choose between, and ``associative``'s choice is kept)."""
        values = np.zeros((self.budget, len(candidates)))
        horizon = self.horizon(game)
        for k in range(self.budget):
            world = self.determinize(game, player)
            rollout_seed = int(self.rng.integers(1 << 63))
            for i, action in enumerate(candidates):
                copy = world.clone()
                copy.step(action)
                values[k, i] = self._rollout(copy, player, rollout_seed, horizon)
            if k + 1 == self.SETTLED and np.ptp(values[: k + 1]) == 0:
                return values[: k + 1]
        return values

    def determinize(self, game: Game, player: int) -> Game:
        """A copy as the seat may believe the round to be, the others' guesses so far made again by
        ``associative``."""
        return _engine(game).determinize(player, self.rng, replay=self.heuristic)

    def horizon(self, game: Game) -> Any:
        return _engine(game).state.round_index

    def rollout_done(self, game: Game, horizon: Any) -> bool:
        engine = _engine(game)
        return engine.is_over or engine.state.round_index != horizon

    def value(self, game: Game, player: int) -> float:
        engine = _engine(game)
        value = float(engine.team_value())
        if engine.catrina and not engine.is_over:  # the round was won and the campaign goes on
            value = min(value + CONTINUATION[engine.num_players][engine.state.round_index - 1], MAX_FLOWERS)
        return value

    def _rollout(self, game: Game, player: int, seed: int, horizon: Any) -> float:
        """Play ``game`` with ``rollout_agent`` in every seat to the end of the round; its ``value``."""
        policy = self.rollout_agent
        reads = policy.needs_observation and not isinstance(policy, AssociativeTeam)  # it reads the engine only
        saved_rng = policy.rng
        policy.rng = np.random.default_rng(seed)
        try:
            while not self.rollout_done(game, horizon):
                seat = game.current_player
                observation = game.observe(seat) if reads else None
                game.step(policy.act(observation, game.legal_mask(), game, seat))
        finally:
            policy.rng = saved_rng
        return self.value(game, player)
