"""``fiesta fuzz``: play random legal games and check every invariant after every step.

A rules bug silently poisons every experiment built on it, so this plays thousands of random
legal games of every game, every player count and every variant, and checks after each step:

* ``mask``          the legal mask is int8, of the declared size, 0/1, and non-empty exactly
                    while the game goes on; the current player is a seat while it goes on;
* ``observation``   observations have the declared size and dtype, are finite and inside
                    ``observation_bounds()`` (the current player's every step, everyone's on
                    sampled steps and at the end);
* ``scores``        ``scores()`` is finite, one value per player; ``returns()`` is zero until the end
                    (on sampled steps);
* ``json``          ``state_dict()`` is plain JSON data and survives ``json.dumps``/``loads``;
* ``roundtrip``     ``from_state_dict(state_dict())`` gives the same state dict, mask and observation;
* ``legal``         sampled masked actions apply on a copy without error (and the copy's next
                    mask is valid), leaving the original game untouched;
* ``illegal``       sampled unmasked actions raise ``IllegalActionError`` naming the action, and
                    leave the game unchanged;
* ``continuation``  a game saved mid-way as JSON and loaded into a new engine continues with the
                    same players, masks, observations and scores under the same actions;
* ``determinism``   the same seed and actions in a fresh engine give the same trajectory (which
                    also catches state leaking from one ``reset`` to the next, since the main
                    loop reuses one engine);
* ``end``           once over: current player -1, no legal action, stepping raises
                    ``IllegalActionError``, returns are in [-1, 1], ordered as the ranking keys
                    (shared in cooperative games and by team-mates; with the ranking reward
                    summing to zero over the teams, the highest going to exactly the ``winners()``);
* ``invariants``    the game's own checks in ``fiesta_envs/testing/invariants/<game>.py`` (conservation of
                    cards, no negative resources, tracks only move forward, the final score
                    recomputed from the final state).

Any other exception from the engine is a ``crash``; a baseline playing a seat (``--policy``)
that picks an illegal action is a ``policy`` failure. Configurations: every player count with
the default options, then with each option that has ``choices`` set to each other choice
(``--depth 2`` adds pairs of variants; combinations a game refuses are left out).

Run it::

    fiesta fuzz                          # every game, a quick pass (20 games per configuration)
    fiesta fuzz --games 10000 --jobs 2   # the long run: 10,000 games per game and configuration
    fiesta fuzz --game fiesta_mexicana --players 3 --option variant=confirmed_waiters --games 500
    fiesta fuzz --game la_catrina --policy associative --policy random   # baselines reach later rounds
    RAY_ADDRESS=HEAD:6379 fiesta fuzz --games 100000 --jobs 64 --backend ray   # on a Ray cluster

``--jobs N`` cuts each configuration's games into pieces (their seeds depend on the cut, so a report is
reproducible for a given ``--jobs``) played in ``N`` local processes, or with ``--backend ray`` as Ray tasks
(a local Ray instance with ``N`` CPUs, or the cluster named by ``RAY_ADDRESS``; needs the ``rllib`` extra):
the same pieces, so the same report as the local run with the same ``--jobs`` (only the CPU seconds differ).

It prints how many games, steps and checks ran per game and exits with status 1 if any check
failed, printing a reproducer (seed and action sequence) for every failure.

As a library: ``fuzz_game("fiesta_mexicana", 3, {}, games=100, seed=0)`` returns a ``FuzzReport``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import sys
import time
import traceback
from collections import Counter
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from fiesta_envs.core.configurations import accepts, configurations
from fiesta_envs.core.errors import IllegalActionError, InvalidOptionError
from fiesta_envs.core.game import Game
from fiesta_envs.core.options import add_option_argument, parse_options
from fiesta_envs.evaluation.ray_tasks import BACKENDS, check_backend, ray_instance, ray_map
from fiesta_envs.policies.policy import Policy, legal_actions
from fiesta_envs.testing.invariants import (
    GameInvariants,
    invariants_for,
    json_problem,
    mask_problems,
    observation_problems,
    returns_problems,
    scores_problems,
)

CHECK_KINDS: tuple[str, ...] = (
    "mask",
    "observation",
    "scores",
    "json",
    "roundtrip",
    "legal",
    "illegal",
    "continuation",
    "determinism",
    "end",
    "invariants",
)
#: Failure kinds besides the checks: an exception in the engine, a baseline choosing badly.
FAILURE_KINDS: tuple[str, ...] = ("crash", "policy")
#: A game longer than this is reported as one that never ends.
MAX_STEPS = 20_000
#: Scores enter the trajectory fingerprint every this many steps (and at the end).
SCORES_EVERY = 10
#: Failures kept with their reproducer per configuration (all are counted).
MAX_FAILURES_KEPT = 10


# ---------------------------------------------------------------------------- results
@dataclass
class FuzzFailure:
    """One failed check, with what is needed to replay it."""

    game: str
    num_players: int
    options: dict[str, Any]
    seed: int
    actions: list[int]  # the actions played from ``reset(seed)`` up to the failing moment
    check: str
    message: str

    def reproducer(self, game_class: type[Game] | None = None) -> str:
        """Python lines that replay the game up to the failure."""
        class_name = game_class.__name__ if game_class else "GameClass"
        options = "".join(f", {k}={v!r}" for k, v in self.options.items())
        return (
            f"game = {class_name}(num_players={self.num_players}, seed={self.seed}{options})\n"
            f"for action in {self.actions}:\n"
            f"    game.step(action)"
        )

    def describe(self) -> str:
        return (
            f"[{self.check}] {self.game} players={self.num_players} options={self.options} seed={self.seed} "
            f"after {len(self.actions)} actions: {self.message}"
        )


@dataclass
class FuzzReport:
    """Counts of games, steps and checks, and the failures, for one game (any configurations)."""

    game: str
    configurations: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    games: int = 0
    steps: int = 0
    checks: Counter = field(default_factory=Counter)
    failures: Counter = field(default_factory=Counter)
    examples: list[FuzzFailure] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def total_checks(self) -> int:
        return sum(self.checks.values())

    @property
    def total_failures(self) -> int:
        return sum(self.failures.values())

    @property
    def ok(self) -> bool:
        return self.total_failures == 0

    def merge(self, other: FuzzReport) -> FuzzReport:
        for config in other.configurations:
            if config not in self.configurations:
                self.configurations.append(config)
        self.games += other.games
        self.steps += other.steps
        self.checks.update(other.checks)
        self.failures.update(other.failures)
        self.examples.extend(other.examples)
        self.seconds += other.seconds
        return self

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "configurations": [{"num_players": n, "options": o} for n, o in self.configurations],
            "games": self.games,
            "steps": self.steps,
            "checks": dict(sorted(self.checks.items())),
            "total_checks": self.total_checks,
            "failures": dict(sorted(self.failures.items())),
            "examples": [vars(f) for f in self.examples],
            "seconds": round(self.seconds, 3),
        }


# ---------------------------------------------------------------------------- configurations
def resolve_game(game: str | type[Game]) -> type[Game]:
    if isinstance(game, type):
        return game
    from fiesta_envs.registry import game_spec

    return game_spec(game).game_class()


# ---------------------------------------------------------------------------- one game
class _Failed(Exception):
    def __init__(self, check: str, message: str) -> None:
        super().__init__(message)
        self.check = check


Fingerprint = tuple[int, int, int, int]


class _Fuzzer:
    """Plays the random games of one configuration and runs the checks."""

    def __init__(
        self,
        game_class: type[Game],
        num_players: int,
        options: dict[str, Any],
        *,
        checks: Iterable[str],
        sample_rate: float,
        samples: int,
        determinism_rate: float,
        report: FuzzReport,
        max_steps: int = MAX_STEPS,
        policies: Sequence[str] = (),
    ) -> None:
        unknown = set(checks) - set(CHECK_KINDS)
        if unknown:
            raise ValueError(f"unknown checks {sorted(unknown)}; known: {', '.join(CHECK_KINDS)}")
        self.game_class = game_class
        self.num_players = num_players
        self.options = dict(options)
        self.enabled = frozenset(checks)
        self.sample_rate = sample_rate
        self.samples = samples
        self.determinism_rate = determinism_rate
        self.max_steps = max_steps
        # one instance per seat and name: baselines may keep memory for the seat they play
        self.policies = [[_make_policy(game_class, name) for name in policies] for _ in range(num_players)]
        self.report = report
        self.game = game_class(num_players=num_players, **options)
        self.low, self.high = (np.asarray(b, dtype=np.float32) for b in self.game.observation_bounds())
        self.reward = self.game.config.get("reward", "rank")
        self.invariants: GameInvariants = (
            invariants_for(game_class.name) if "invariants" in self.enabled else GameInvariants(game_class.name)
        )

    # -- helpers ----------------------------------------------------------------------
    def check_observations(self, game: Any) -> None:
        """Every seat's observation has the declared size and stays inside the declared bounds."""
        problems: list[str] = []
        for seat in range(self.num_players):
            obs = game.observe(seat)
            problems += observation_problems(obs, size=game.observation_size, low=self.low, high=self.high, who=seat)
        self.check("observation", problems)

    def check(self, kind: str, problems: Sequence[str]) -> None:
        self.report.checks[kind] += 1
        if problems:
            raise _Failed(kind, "; ".join(problems))

    def on(self, kind: str) -> bool:
        return kind in self.enabled

    def fingerprint(self, game: Game, step: int, obs: np.ndarray | None = None) -> Fingerprint:
        """What an agent would see at ``step``: player, mask, observation (and scores now and then).

        Scores are included every ``SCORES_EVERY`` steps and at the end only: some games compute
        them from the whole position, which would dominate the fuzzing time. ``obs`` is the
        current player's observation when the caller has it already.
        """
        player = game.current_player
        if obs is None:
            obs = game.observe(player) if 0 <= player < self.num_players else np.zeros(0, np.float32)
        scores = game.scores() if game.is_over or step % SCORES_EVERY == 0 else np.zeros(0)
        return (
            player,
            hash(np.asarray(game.legal_mask()).tobytes()),
            hash(np.asarray(obs).tobytes()),
            hash(np.asarray(scores, dtype=np.float64).tobytes()),
        )

    def seat_policies(self, rng: np.random.Generator) -> list[Policy | None]:
        """A policy for each seat for one game (None: uniformly random legal actions)."""
        seats: list[Policy | None] = []
        for choices in self.policies:
            if not choices:
                seats.append(None)
                continue
            policy = choices[int(rng.integers(len(choices)))]
            if policy is not None:
                policy.start_episode(int(rng.integers(2**63)))
            seats.append(policy)
        return seats

    def choose(
        self, game: Game, obs: np.ndarray, mask: np.ndarray, *, rng: np.random.Generator, seats: list[Policy | None]
    ) -> int:
        player = game.current_player
        policy = seats[player]
        if policy is None:
            legal = legal_actions(mask)
            return int(legal[rng.integers(len(legal))])
        try:
            action = policy.act(obs, mask.copy(), game, player)
        except Exception as error:
            raise _Failed("policy", f"{type(policy).__name__}.act raised {type(error).__name__}: {error}") from error
        if not isinstance(action, (int, np.integer)) or not 0 <= int(action) < len(mask) or not mask[int(action)]:
            raise _Failed("policy", f"{type(policy).__name__} chose {action!r}, which is not a legal action")
        return int(action)

    def load(self, data: dict[str, Any], check: str) -> Game:
        """A new engine from a state dict (through JSON); any error is a failure of ``check``."""
        try:
            return self.game_class.from_state_dict(json.loads(json.dumps(data)))
        except Exception as error:
            raise _Failed(check, f"from_state_dict(state_dict()) failed: {type(error).__name__}: {error}") from error

    # -- the game loop ------------------------------------------------------------------
    def play(self, seed: int, rng: np.random.Generator) -> None:
        """One random legal game from ``seed``; raises ``_Failed`` on the first broken check."""
        game = self.game
        game.reset(seed)
        actions: list[int] = []
        trace: list[Fingerprint] = []
        snapshot: tuple[int, str] | None = None
        self.actions = actions
        seats = self.seat_policies(rng)
        while not game.is_over:
            if len(actions) >= self.max_steps:
                raise _Failed("end", f"the game did not end within {self.max_steps} steps")
            mask = game.legal_mask()
            obs = self.check_step(game, mask)
            trace.append(self.fingerprint(game, len(actions), obs))
            sampled = rng.random() < self.sample_rate
            before = self.check_sampled(game, mask, rng) if sampled else None
            if self.on("continuation") and rng.random() * (len(actions) + 1) < 1.0:
                snapshot = (len(actions), json.dumps(game.state_dict()))  # reservoir: uniform over steps
            action = self.choose(game, obs, mask, rng=rng, seats=seats)
            game.step(action)
            actions.append(action)
            self.report.steps += 1
            if before is not None and self.invariants.check_transition is not None:
                self.check("invariants", self.invariants.check_transition(before, game.state_dict()))
        trace.append(self.fingerprint(game, len(actions)))
        self.check_end(game)
        if snapshot is not None:
            self.check_continuation(snapshot, actions, trace)
        if self.on("determinism") and rng.random() < self.determinism_rate:
            self.check_determinism(seed, actions, trace, game.state_dict())

    def check_step(self, game: Game, mask: np.ndarray) -> np.ndarray:
        """The checks of every step; returns the current player's observation."""
        problems = mask_problems(mask, game.num_actions, game.is_over)
        player = game.current_player
        if not 0 <= player < self.num_players:
            problems.append(f"current_player is {player} while the game goes on")
        self.check("mask", problems)
        obs = game.observe(player)
        if self.on("observation"):
            observation = observation_problems(
                obs, size=game.observation_size, low=self.low, high=self.high, who=player
            )
            self.check("observation", observation)
        return obs

    def check_sampled(self, game: Game, mask: np.ndarray, rng: np.random.Generator) -> dict[str, Any]:
        """The expensive checks, on a sample of steps; returns the state dict before the step."""
        data = game.state_dict()
        player = game.current_player
        if self.on("scores"):
            problems = scores_problems(game.scores(), self.num_players)
            returns = game.returns()
            if np.any(returns != 0):
                problems.append(f"returns() is {returns.tolist()} before the end")
            self.check("scores", problems)
        if self.on("observation"):
            self.check_observations(game)
        if self.on("json"):
            problem = json_problem(data)
            self.check("json", [problem] if problem else [])
            self.check("json", [] if json.loads(json.dumps(data)) == data else ["state dict changes through JSON"])
        copy = None
        if self.on("roundtrip") or self.on("legal"):
            copy = self.load(data, "roundtrip")
        if self.on("roundtrip") and copy is not None:
            problems = []
            copy_data = copy.state_dict()
            if copy_data != data:
                problems.append(f"from_state_dict(d).state_dict() differs from d: {_first_difference(data, copy_data)}")
            if not np.array_equal(copy.legal_mask(), mask):
                problems.append("a loaded copy has a different legal mask")
            if copy.current_player != player:
                problems.append(f"a loaded copy has current player {copy.current_player}, not {player}")
            elif not np.array_equal(copy.observe(player), game.observe(player)):
                problems.append("a loaded copy gives a different observation")
            self.check("roundtrip", problems)
        if self.on("legal") and copy is not None:
            legal = legal_actions(mask)
            for i, action in enumerate(rng.choice(legal, size=min(self.samples, len(legal)), replace=False)):
                if i:  # (the first action steps the copy just loaded)
                    copy.load_state_dict(data)
                try:
                    copy.step(int(action))
                except Exception as error:
                    raise _Failed(
                        "legal",
                        f"masked action {int(action)} ({_name(game, action)}) failed: {type(error).__name__}: {error}",
                    ) from error
                self.check("legal", mask_problems(copy.legal_mask(), copy.num_actions, copy.is_over))
            self.check("legal", [] if game.state_dict() == data else ["stepping a copy changed the original game"])
        if self.on("illegal"):
            illegal = np.flatnonzero(mask == 0)
            for action in rng.choice(illegal, size=min(self.samples, len(illegal)), replace=False):
                self.check("illegal", _refusal_problems(game, int(action)))
            if len(illegal):
                self.check("illegal", [] if game.state_dict() == data else ["a refused action changed the game"])
        if self.invariants.check_state is not None:
            self.check("invariants", self.invariants.check_state(data))
        return data

    def check_end(self, game: Game) -> None:
        problems = mask_problems(game.legal_mask(), game.num_actions, True)
        if game.current_player != -1:
            problems.append(f"current_player is {game.current_player} after the end, expected -1")
        refused = _refusal_problems(game, 0)
        problems += [f"after the end: {p}" for p in refused]
        scores = game.scores()
        problems += scores_problems(scores, self.num_players)
        if not problems:
            keys = game.ranking_keys() if hasattr(game, "ranking_keys") else None
            teams = game.teams() if hasattr(game, "teams") else None
            problems += returns_problems(
                game.returns(),
                scores,
                cooperative=game.cooperative,
                reward=self.reward,
                winners=game.winners(),
                keys=keys,
                teams=teams,
            )
        self.check("end", problems)
        if self.on("observation"):
            self.check_observations(game)
        if self.on("invariants"):
            data = game.state_dict()
            if self.invariants.check_state is not None:
                self.check("invariants", self.invariants.check_state(data))
            if self.invariants.check_final is not None:
                self.check("invariants", self.invariants.check_final(data, scores.tolist()))

    def check_continuation(self, snapshot: tuple[int, str], actions: list[int], trace: list[Fingerprint]) -> None:
        start, text = snapshot
        game = self.load(json.loads(text), "continuation")
        problems = _replay_problems(self, game, actions=actions, trace=trace, start=start)
        if not problems and game.state_dict() != self.game.state_dict():
            problems.append("the final states differ")
        self.check("continuation", [f"continuing from a state saved at step {start}: {p}" for p in problems])

    def check_determinism(self, seed: int, actions: list[int], trace: list[Fingerprint], final: dict[str, Any]) -> None:
        game = self.game_class(num_players=self.num_players, seed=seed, **self.options)
        problems = _replay_problems(self, game, actions=actions, trace=trace, start=0)
        if not problems and game.state_dict() != final:
            problems.append(f"the final states differ: {_first_difference(final, game.state_dict())}")
        self.check("determinism", [f"replaying seed {seed} in a fresh engine: {p}" for p in problems])


def _make_policy(game_class: type[Game], name: str) -> Policy | None:
    """A baseline by name (None for "random": the fuzzer's own uniform choice)."""
    if name == "random":
        return None
    from fiesta_envs.registry import make_policy

    return make_policy(game_class.name, name)


def _replay_problems(
    fuzzer: _Fuzzer, game: Game, *, actions: list[int], trace: list[Fingerprint], start: int
) -> list[str]:
    for step in range(start, len(actions)):
        if fuzzer.fingerprint(game, step) != trace[step]:
            return [f"step {step} differs (player, mask, observation or scores)"]
        try:
            game.step(actions[step])
        except IllegalActionError as error:
            return [f"action {actions[step]} at step {step} is refused: {error}"]
    if fuzzer.fingerprint(game, len(actions)) != trace[len(actions)]:
        return ["the end differs (player, mask, observation or scores)"]
    return []


def _refusal_problems(game: Game, action: int) -> list[str]:
    name = _name(game, action)
    try:
        game.step(action)
    except IllegalActionError as error:
        if name not in str(error):
            return [f"refusing action {action} ({name}) the message does not name it: {error}"]
        return []
    except Exception as error:
        return [f"action {action} ({name}) raised {type(error).__name__} instead of IllegalActionError: {error}"]
    return [f"unmasked action {action} ({name}) was accepted"]


def _name(game: Game, action: Any) -> str:
    try:
        return game.action_to_string(int(action))
    except Exception as error:
        return f"<no name: {error}>"


def _first_difference(a: Any, b: Any, path: str = "") -> str:
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b), key=str):
            if key not in a or key not in b:
                return f"key {path}.{key} only in one of them"
            if a[key] != b[key]:
                return _first_difference(a[key], b[key], f"{path}.{key}")
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return f"{path or 'the lists'} have lengths {len(a)} and {len(b)}"
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return _first_difference(x, y, f"{path}[{i}]")
    return f"{path or 'value'}: {a!r:.80} != {b!r:.80}"


# ---------------------------------------------------------------------------- the harness
def fuzz_game(
    game: str | type[Game],
    num_players: int,
    options: dict[str, Any] | None = None,
    *,
    games: int = 100,
    seed: int = 0,
    checks: Iterable[str] = CHECK_KINDS,
    sample_rate: float = 0.1,
    samples: int = 3,
    determinism_rate: float = 0.2,
    max_steps: int = MAX_STEPS,
    policies: Sequence[str] = (),
) -> FuzzReport:
    """Play ``games`` random legal games of one configuration and check every invariant.

    ``seed`` fixes the games' seeds and the random actions, so a report is reproducible.
    ``sample_rate`` is the share of steps that get the expensive checks (state dict round trip,
    trying ``samples`` legal actions on a copy and ``samples`` illegal ones on the game);
    ``determinism_rate`` the share of games replayed in a fresh engine; a game longer than
    ``max_steps`` is a failure (it never ends). ``policies`` names the players: each seat of
    each game gets one of them at random ("random", or a baseline of the game such as
    "greedy", whose better play reaches positions random play rarely does); by default every
    seat plays uniformly random legal actions. A failure ends its game
    (the next game starts) and is recorded with a reproducer.
    """
    game_class = resolve_game(game)
    options = dict(options or {})
    report = FuzzReport(game_class.name, [(num_players, options)])
    started = time.perf_counter()
    fuzzer = _Fuzzer(
        game_class,
        num_players,
        options,
        checks=checks,
        sample_rate=sample_rate,
        samples=samples,
        determinism_rate=determinism_rate,
        report=report,
        max_steps=max_steps,
        policies=policies,
    )
    seeds = np.random.SeedSequence([seed, num_players, _stable_hash(options)]).generate_state(games * 2, np.uint64)
    for i in range(games):
        game_seed = int(seeds[2 * i] % (2**63))
        rng = np.random.default_rng(int(seeds[2 * i + 1]))
        fuzzer.actions = []
        try:
            fuzzer.play(game_seed, rng)
            failed = None
        except _Failed as failure:
            failed = failure.check, str(failure)
        except Exception as error:
            failed = "crash", f"{type(error).__name__}: {error}\n{traceback.format_exc(limit=-3)}"
        if failed is not None:
            check, message = failed
            _record(
                report,
                game_class,
                num_players,
                options,
                seed=game_seed,
                actions=fuzzer.actions,
                check=check,
                message=message,
            )
        report.games += 1
    report.seconds = time.perf_counter() - started
    return report


def _record(
    report: FuzzReport,
    game_class: type[Game],
    num_players: int,
    options: dict[str, Any],
    *,
    seed: int,
    actions: list[int],
    check: str,
    message: str,
) -> None:
    report.failures[check] += 1
    if len(report.examples) < MAX_FAILURES_KEPT:
        report.examples.append(FuzzFailure(game_class.name, num_players, options, seed, list(actions), check, message))


def _stable_hash(options: dict[str, Any]) -> int:
    text = json.dumps(options, sort_keys=True, default=repr)
    return int.from_bytes(text.encode()[:32].ljust(32, b"\0"), "little") % (2**63)


def fuzz_all(
    game: str | type[Game],
    games: int,
    *,
    seed: int = 0,
    max_configs: int | None = None,
    players: Iterable[int] | None = None,
    options: dict[str, Any] | None = None,
    jobs: int = 1,
    depth: int | None = 1,
    backend: str = "local",
    **settings: Any,
) -> FuzzReport:
    """Fuzz ``games`` games in every configuration of one game (``core.configurations``, at every player count).

    With ``options``, only those options (at every player count the game accepts them for).
    With ``jobs`` > 1 the games are split over worker processes (the split changes the seeds,
    so a report is reproducible for a given ``jobs``). ``backend="ray"`` plays the same pieces as
    Ray tasks (``fiesta_envs.evaluation.ray_tasks``; ``jobs`` CPUs for a local Ray instance): the same report.
    """
    check_backend(backend)
    game_class = resolve_game(game)
    if options is not None:
        counts = players or game_class.player_counts
        configs = [(n, dict(options)) for n in counts if accepts(game_class, n, options)]
    else:
        configs = configurations(game_class, players=players, depth=depth, max_configs=max_configs)
    tasks = []
    for n, config_options in configs:
        chunks = max(1, min(jobs * 2, games // 50)) if jobs > 1 else 1
        per_chunk = math.ceil(games / chunks)
        for chunk in range(chunks):
            count = min(per_chunk, games - chunk * per_chunk)
            if count > 0:
                tasks.append((game_class, n, config_options, count, seed + 1_000_003 * chunk, settings))
    report = FuzzReport(game_class.name)
    if backend == "ray":
        for part in ray_map(_run_task, [(task,) for task in tasks], local_cpus=jobs):
            report.merge(part)
    elif jobs > 1:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for part in pool.map(_run_task, tasks):
                report.merge(part)
    else:
        for task in tasks:
            report.merge(_run_task(task))
    report.configurations = [(n, o) for n, o in configs]
    return report


def _run_task(task: tuple) -> FuzzReport:
    game_class, n, options, count, seed, settings = task
    return fuzz_game(game_class, n, options, games=count, seed=seed, **settings)


# ---------------------------------------------------------------------------- command line
def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", action="append", help="game name (repeat for several; default: every game)")
    parser.add_argument("--games", type=int, default=20, help="games per game and configuration (default 20)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the games and the random actions")
    parser.add_argument("--players", type=int, action="append", help="only these player counts (repeatable)")
    add_option_argument(parser, "fix an option (repeatable; JSON values)")
    parser.add_argument("--max-configs", type=int, default=None, help="at most this many configurations per game")
    parser.add_argument(
        "--depth",
        type=int,
        default=1,
        help="combine up to this many non-default options per configuration (default 1; 0: defaults only)",
    )
    parser.add_argument(
        "--jobs",
        type=int,
        default=1,
        help="worker processes, or the CPUs of a local Ray instance; also cuts the games into pieces (default 1)",
    )
    parser.add_argument(
        "--backend",
        choices=BACKENDS,
        default="local",
        help="where the pieces run: local processes, or Ray tasks (local Ray, or the cluster in RAY_ADDRESS; "
        "rllib extra); the same report",
    )
    parser.add_argument("--sample-rate", type=float, default=0.1, help="share of steps with the expensive checks")
    parser.add_argument("--determinism-rate", type=float, default=0.2, help="share of games replayed afresh")
    parser.add_argument(
        "--policy",
        action="append",
        metavar="NAME",
        help="players: 'random' (default) or a baseline; repeat to mix them (each seat draws one per game)",
    )
    parser.add_argument("--json", metavar="FILE", help="also save the reports as JSON")


def run(args: argparse.Namespace) -> int:
    from fiesta_envs.registry import GAMES, game_spec

    try:
        names = [game_spec(name).name for name in args.game] if args.game else list(GAMES)
        options = parse_options(args.option) or None  # None: every configuration
    except InvalidOptionError as error:
        print(f"fiesta fuzz: error: {error}", file=sys.stderr)
        return 2
    settings = {
        "sample_rate": args.sample_rate,
        "determinism_rate": args.determinism_rate,
        "policies": tuple(args.policy or ()),
    }
    # one Ray instance for every game's run (ray_map uses a running one)
    with ray_instance(args.jobs) if args.backend == "ray" else contextlib.nullcontext():
        reports = _fuzz_games(names, args, options, settings)
    print_reports(reports)
    if args.json:
        from fiesta_envs.files.atomic import write_json_atomically

        write_json_atomically(args.json, {"fuzz": [r.to_dict() for r in reports]})
    return 0 if all(r.ok for r in reports) else 1


def _fuzz_games(
    names: Sequence[str], args: argparse.Namespace, options: dict[str, Any] | None, settings: dict[str, Any]
) -> list[FuzzReport]:
    """``fuzz_all`` for each game, with a line per game as soon as it is done."""
    reports = []
    for name in names:
        report = fuzz_all(
            name,
            args.games,
            seed=args.seed,
            max_configs=args.max_configs,
            players=args.players,
            options=options,
            jobs=args.jobs,
            depth=args.depth,
            backend=args.backend,
            **settings,
        )
        reports.append(report)
        status = "ok" if report.ok else f"{report.total_failures} FAILURES"
        print(
            f"{name}: {len(report.configurations)} configurations, {report.games} games, {report.steps} steps, "
            f"{report.total_checks} checks, {report.seconds:.1f} s cpu: {status}",
            flush=True,
        )
    return reports


def print_reports(reports: list[FuzzReport]) -> None:
    from rich.markup import escape

    from fiesta_envs.tools.result_tables import console, result_table

    rows: list[tuple[str, ...]] = [
        (
            report.game,
            str(len(report.configurations)),
            f"{report.games:,}",
            f"{report.steps:,}",
            f"{report.total_checks:,}",
            str(report.total_failures),
        )
        for report in reports
    ]
    title = "fiesta fuzz: random legal games, every check after every step"
    out = console()
    out.print(result_table(title, ("game", "configs", "games", "steps", "checks", "failures"), rows, left={"game"}))
    kinds = sorted({kind for r in reports for kind in r.checks})
    rows = [(report.game, *(f"{report.checks[k]:,}" for k in kinds)) for report in reports]
    out.print(result_table("checks by kind", ("game", *kinds), rows, left={"game"}))
    for report in reports:
        for failure in report.examples:
            out.print(f"[red]FAIL[/red] {escape(failure.describe())}", markup=True, highlight=False)
            out.print(failure.reproducer(resolve_game(report.game)), markup=False, highlight=False)
