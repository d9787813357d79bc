"""A search agent for any game that can be determinised: flat Monte-Carlo over determinisations.

At each decision with more than one legal action the agent

1. lists its **candidates** (all legal actions, or a game's shortlist: ``candidates``), the game's
   heuristic choice first;
2. draws ``budget`` **determinisations** of the game from its seat's point of view
   (``Game.determinize``: the hidden cards dealt afresh, chance re-seeded: it never sees the true
   hidden state or the true future draws);
3. in every determinisation plays every candidate and then **rolls the game out** to its end with the
   game's cheap heuristic in every seat (the same copy and the same rollout seed for every candidate:
   common random numbers, so the candidates are compared on the same futures);
4. plays the candidate with the best mean **value** (the seat's rank reward: win +1, loss -1, tie 0,
   linear in rank with more players; plus ``margin_weight`` times its normalised score margin, which
   separates candidates that all win or all lose), but leaves the heuristic's choice only for a
   candidate that beats it clearly: by more than ``min_advantage`` standard errors of their paired
   differences, 1 by default (the best of many noisy means is biased upwards: without this rule a small
   budget trades good heuristic moves for lucky ones).

This is perfect-information Monte-Carlo (PIMC) sampling with heuristic rollouts: each rollout plays a
world in which the hidden cards are known to everyone, a known bias of the method (it cannot value
keeping information hidden); the rollouts by the heuristic make it an improvement of that heuristic,
one decision deep. The cost of a decision is about ``budget x candidates`` rollouts.

A game's agent subclasses ``MonteCarloSearch``, names its ``rollout_policy`` and may narrow
``candidates`` or decide that a decision is left to the heuristic (``searched``). Options (``budget``,
``margin_weight``, ``min_advantage``, ``proposer``, ``temperature``) are agent options: ``search:budget=16`` on the
command line. A larger ``min_advantage`` keeps the proposer's choice unless the rollouts are surer: a stricter
teacher where the search labels a network's training data, where every override it makes by chance is learnt.

**A proposer** (``search:proposer=ppo``, any agent spec: a shipped agent, a checkpoint...) replaces the
heuristic in step 1: its choice is the first candidate and the one to beat clearly; the rollouts stay the
heuristic's (a network is too slow to play them). A search that starts from a trained network is stronger
than both when the network is better than the heuristic.

**What the search knows of each candidate** is also a distribution (``action_probabilities``): the softmax of
the candidates' mean values at ``temperature`` (0 for every other action). A network trained on these targets
(``pretrain: {teacher: "search:proposer=ppo", targets: probabilities}``) learns the search's judgement, not
only its choices: one round of expert iteration. A decision that is not searched gives the proposer's own
probabilities where it has them, else its choice.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from fiesta_envs.core.errors import InvalidOptionError
from fiesta_envs.core.options import Option
from fiesta_envs.policies.policy import Policy, legal_actions

if TYPE_CHECKING:
    from fiesta_envs.core.game import Game


def _positive_int(value: Any) -> str | None:
    return None if isinstance(value, int) and not isinstance(value, bool) and value >= 1 else "must be an integer >= 1"


def _an_agent(value: Any) -> str | None:
    if value is None or isinstance(value, Policy):
        return None
    return "must be an agent spec (search:proposer=ppo), made into an agent by the agent registry"


def _positive(value: Any) -> str | None:
    ok = isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0
    return None if ok else "must be a number > 0"


def _non_negative(value: Any) -> str | None:
    ok = isinstance(value, (int, float)) and not isinstance(value, bool) and value >= 0
    return None if ok else "must be a number >= 0"


class MonteCarloSearch(Policy):
    """Flat Monte-Carlo search over determinisations with heuristic rollouts (see the module docstring)."""

    needs_observation = False  # reads the engine (through determinisations only)
    #: The game's cheap heuristic: it plays every seat in the rollouts and proposes the first candidate.
    rollout_policy: ClassVar[type[Policy]]
    #: Determinisations per decision when no ``budget`` is given (games set what fits their speed).
    default_budget: ClassVar[int] = 8
    #: Weight of the normalised score margin next to the rank reward in a rollout's value.
    default_margin_weight: ClassVar[float] = 0.25
    #: How many standard errors (of the paired differences) a candidate must beat the heuristic's choice by.
    MIN_ADVANTAGE_Z: ClassVar[float] = 1.0
    #: Softmax temperature of ``action_probabilities`` over the candidates' mean values.
    default_temperature: ClassVar[float] = 0.1
    #: Agent options whose value names another agent (the agent registry makes it into a policy).
    agent_valued_options: ClassVar[tuple[str, ...]] = ("proposer",)

    @classmethod
    def agent_options(cls) -> dict[str, Option]:
        """The options an agent spec may set (``search:budget=16``)."""
        return {
            "budget": Option(cls.default_budget, check=_positive_int, doc="determinisations per decision"),
            "margin_weight": Option(
                cls.default_margin_weight, check=_non_negative, doc="weight of the score margin in a rollout's value"
            ),
            "min_advantage": Option(
                cls.MIN_ADVANTAGE_Z,
                check=_non_negative,
                doc="standard errors by which a candidate must beat the proposer's choice to replace it",
            ),
            "proposer": Option(
                None, check=_an_agent, doc="agent proposing the first candidate (default: the heuristic)"
            ),
            "temperature": Option(
                cls.default_temperature, check=_positive, doc="softmax temperature of action_probabilities"
            ),
        }

    def __init__(
        self,
        seed: int | None = None,
        budget: int | None = None,
        margin_weight: float | None = None,
        proposer: Policy | None = None,
        temperature: float | None = None,
        min_advantage: float | None = None,
    ) -> None:
        super().__init__(seed)
        self.min_advantage = self.MIN_ADVANTAGE_Z if min_advantage is None else float(min_advantage)
        self.budget = self.default_budget if budget is None else int(budget)
        self.margin_weight = self.default_margin_weight if margin_weight is None else float(margin_weight)
        self.temperature = self.default_temperature if temperature is None else float(temperature)
        self.heuristic = self.rollout_policy(seed=seed)
        problem = _an_agent(proposer)
        if problem is not None:
            raise InvalidOptionError(f"{type(self).__name__}: option proposer={proposer!r}: {problem}")
        self.proposer = proposer
        # the last decision: (game, its actions_applied, player, action, probabilities), for action_probabilities
        # (None until asked for: a decision left to the proposer describes itself only when asked)
        self._last: tuple[Game, int, int, int, np.ndarray | None] | None = None

    def start_episode(self, seed: int | None) -> None:
        """A new game: the search's generator and its heuristic's per-game draws (``planner``'s tie-breaks) both
        come from ``seed``, so the same seeds play the same game in any process."""
        super().start_episode(seed)
        self.heuristic.start_episode(seed)
        if self.proposer is not None:
            self.proposer.start_episode(seed)
        self._last = None

    # ------------------------------------------------------------------ what a game may change
    def searched(self, game: Game, player: int, legal: np.ndarray) -> bool:
        """Whether this decision is searched (else the heuristic decides); by default every one with a choice."""
        return len(legal) > 1

    def horizon(self, game: Game) -> Any:
        """Noted before a decision is searched, handed to ``rollout_done`` (by default nothing)."""
        return None

    def rollout_done(self, game: Game, horizon: Any) -> bool:
        """Whether a rollout stops here; by default at the end of the game. A game that stops earlier scores
        unfinished games in ``value``."""
        return game.is_over

    def value(self, game: Game, player: int) -> float:
        """What the end of a rollout is worth to ``player``: its rank reward plus ``margin_weight`` times its
        normalised score margin (``Game.returns_of``)."""
        return float(game.returns_of("rank")[player] + self.margin_weight * game.returns_of("margin")[player])

    def determinize(self, game: Game, player: int) -> Game:
        """One determinisation of ``game`` from ``player``'s seat (games may pass more, e.g. a replay policy)."""
        return game.determinize(player, self.rng)

    def candidates(self, game: Game, player: int, legal: np.ndarray, proposal: int) -> list[int]:
        """The actions compared, ``proposal`` (the heuristic's choice) first; by default every legal action."""
        return [proposal, *(int(a) for a in legal if a != proposal)]

    # ------------------------------------------------------------------ deciding
    def act(self, observation: np.ndarray | None, action_mask: np.ndarray, game: Game, player: int) -> int:
        return self._decision(action_mask, game, player)

    def action_probabilities(
        self, observation: np.ndarray | None, action_mask: np.ndarray, game: Game, player: int
    ) -> np.ndarray:
        """The search's distribution over the actions here (see the module docstring); the decision ``act`` just
        made in this position is not searched again."""
        action = self._decision(action_mask, game, player)
        assert self._last is not None  # set by _decision for this position
        probabilities = self._last[4]
        if probabilities is None:  # not searched: the proposer's own distribution, computed now that it is asked
            probabilities = self._proposer_probabilities(action_mask, game, player, action)
            self._last = (*self._last[:4], probabilities)
        return probabilities

    def _decision(self, action_mask: np.ndarray, game: Game, player: int) -> int:
        """The action of this position, searched once per position (the distribution is kept beside it)."""
        last = self._last
        if last is not None and last[0] is game and last[1] == game.actions_applied and last[2] == player:
            return last[3]
        action, probabilities = self._search(action_mask, game, player)
        self._last = (game, game.actions_applied, player, action, probabilities)
        return action

    def _search(self, action_mask: np.ndarray, game: Game, player: int) -> tuple[int, np.ndarray | None]:
        """The action and its distribution; None for a decision left to the proposer, whose own distribution
        (a network's second pass) is computed only if ``action_probabilities`` asks for it."""
        legal = legal_actions(action_mask)
        if len(legal) == 1:
            return int(legal[0]), self._one_hot(len(action_mask), int(legal[0]))
        proposal = self._proposal(game, player)
        if not self.searched(game, player, legal):
            return proposal, None
        candidates = self.candidates(game, player, legal, proposal)
        if len(candidates) == 1:
            return candidates[0], self._one_hot(len(action_mask), candidates[0])
        values = self.values(game, player, candidates)
        probabilities = np.zeros(len(action_mask), dtype=np.float32)
        means = values.mean(axis=0) / self.temperature
        weights = np.exp(means - means.max())
        probabilities[candidates] = weights / weights.sum()
        return candidates[self.choose(values)], probabilities

    @staticmethod
    def _one_hot(size: int, action: int) -> np.ndarray:
        probabilities = np.zeros(size, dtype=np.float32)
        probabilities[action] = 1.0
        return probabilities

    def values(self, game: Game, player: int, candidates: list[int]) -> np.ndarray:
        """The rollout values, one row per determinisation (``budget``), one column per candidate."""
        values = np.zeros((self.budget, len(candidates)))
        horizon = self.horizon(game)
        for k in range(self.budget):
            world = self.determinize(game, player)
            rollout_seed = int(self.rng.integers(1 << 63))
            for i, action in enumerate(candidates):
                copy = world.clone()
                copy.step(action)
                values[k, i] = self._rollout(copy, player, rollout_seed, horizon)
        return values

    def choose(self, values: np.ndarray) -> int:
        """The column of the best mean if it beats column 0 (the heuristic's choice) clearly, else 0."""
        best = int(np.argmax(values.mean(axis=0)))
        if best == 0:
            return 0
        differences = values[:, best] - values[:, 0]
        spread = differences.std(ddof=1) / np.sqrt(len(differences)) if len(differences) > 1 else 0.0
        return best if differences.mean() > self.min_advantage * spread else 0

    def _proposal(self, game: Game, player: int) -> int:
        """The first candidate: the proposer's choice, else the heuristic's (each reads only what its seat may
        know)."""
        if self.proposer is None:
            return self._heuristic_action(game, player)
        self.proposer.rng = self.rng
        observation = game.observe(player) if self.proposer.needs_observation else None
        return int(self.proposer.act(observation, game.legal_mask(), game, player))

    def _proposer_probabilities(self, action_mask: np.ndarray, game: Game, player: int, action: int) -> np.ndarray:
        """The proposer's distribution where it has one (a network), else its choice, one-hot."""
        probabilities = None
        if self.proposer is not None:
            observation = game.observe(player) if self.proposer.needs_observation else None
            probabilities = self.proposer.action_probabilities(observation, game.legal_mask(), game, player)
        if probabilities is None:
            return self._one_hot(len(action_mask), action)
        return np.asarray(probabilities, dtype=np.float32)

    def _heuristic_action(self, game: Game, player: int) -> int:
        """The heuristic's choice here (it reads only what its seat may know)."""
        self.heuristic.rng = self.rng
        return int(self.heuristic.act(None, game.legal_mask(), game, player))

    def _rollout(self, game: Game, player: int, seed: int, horizon: Any) -> float:
        """Play ``game`` with the heuristic in every seat until ``rollout_done``; its ``value`` for ``player``."""
        policy = self.heuristic
        saved_rng = policy.rng
        policy.rng = np.random.default_rng(seed)
        try:
            while not self.rollout_done(game, horizon):
                seat = game.current_player
                game.step(policy.act(None, game.legal_mask(), game, seat))
        finally:
            policy.rng = saved_rng
        return self.value(game, player)
