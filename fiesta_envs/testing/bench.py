"""``fiesta bench``: steps per second of every environment, next to PettingZoo's connect_four_v3.

For every game in its main configuration (default player count and options) it plays games
of uniformly random legal actions through

* ``aec``     the wrapped PettingZoo AEC environment (``<game>_v0.env()``), the loop of
              PettingZoo's documentation: ``agent_iter``, ``last``, ``step``;
* ``engine``  the rules engine directly: ``legal_mask``, ``observe`` (the player to act) and
              ``step`` -- what a custom rollout or search would pay;
* ``gym``     the single-seat Gymnasium env (``gymnasium.make``) with random opponents, counting
              the learner's steps (the opponents' moves happen inside them);

and in the same run, the same way, PettingZoo's ``connect_four_v3`` as the reference: wrapped
``env()`` (reference of ``aec`` and ``gym``) and ``raw_env()`` (reference of ``engine``).
Each measurement is repeated; the table shows min/median/max steps per second, games per
second (median), steps per game, the cost of ``reset`` and the peak memory (tracemalloc, in a
separate untimed run). Ratios use medians. Loops are timed in CPU seconds of the process
(``time.process_time``) and take turns run by run, so that a busy machine skews them alike.
Targets: with ``--train``, the environment under 20% of MaskablePPO's training time (what decides
whether a faster environment would speed up learning), and the AEC loop at least as fast as the wrapped
connect_four. The engine's and the Gymnasium loop's ratios are shown without a target: they move by
several per cent between runs and machines (Tequila's engine measured 2.49-3.14x the raw
connect_four on the same 2-core machine), so a fixed ratio would fail on one machine and not another.

    fiesta bench                          # every game, 20 games x 5 repeats
    fiesta bench --games 50 --repeats 7 --json bench.json --train
    fiesta bench --game fiesta_mexicana --profile   # where the time goes (cProfile)
    fiesta bench --game fiesta_mexicana --train-config configs/fiesta_mexicana/ppo.yaml --train-steps 16384

``--train-config`` times a training config's own loop (``bench_config_training``: its opponents, league,
shaping and network, no warm start or evaluations): frames per second and the shares of the environment,
the opponents' moves, the rollout's forward passes and PPO's update.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

import gymnasium
import numpy as np

from fiesta_envs.files.atomic import write_json_atomically
from fiesta_envs.policies.policy import legal_actions
from fiesta_envs.tools.result_tables import result_table

AEC_TARGET = 1.0
ENV_SHARE_TARGET = 0.20
REFERENCE = "connect_four_v3"
API_NAMES = ("aec", "engine", "gym")


# ---------------------------------------------------------------------------- results
@dataclass
class Measurement:
    """Repeated timings of one loop: each entry of the lists is one run of ``games`` games."""

    env: str
    api: str
    num_players: int
    games: int
    steps_per_second: list[float] = field(default_factory=list)
    games_per_second: list[float] = field(default_factory=list)
    steps_per_game: float = 0.0
    reset_seconds: float = 0.0  # median cost of one reset
    peak_memory_kib: float = 0.0
    ratio: float | None = None  # median steps/s over the reference's
    target: float | None = None

    @property
    def median_steps(self) -> float:
        return statistics.median(self.steps_per_second) if self.steps_per_second else 0.0

    @property
    def met(self) -> bool | None:
        if self.ratio is None or self.target is None:
            return None
        return self.ratio >= self.target

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        sps = self.steps_per_second
        data.update(
            steps_per_second={"min": min(sps), "median": self.median_steps, "max": max(sps), "runs": sps}
            if sps
            else {},
            games_per_second={
                "min": min(self.games_per_second),
                "median": statistics.median(self.games_per_second),
                "max": max(self.games_per_second),
            }
            if self.games_per_second
            else {},
            met=self.met,
        )
        return data


@dataclass
class TrainMeasurement:
    env: str
    n_envs: int
    timesteps: int
    frames_per_second: float
    env_seconds: float
    total_seconds: float
    target: float = ENV_SHARE_TARGET

    @property
    def env_share(self) -> float:
        return self.env_seconds / self.total_seconds if self.total_seconds else 0.0

    @property
    def met(self) -> bool:
        return self.env_share < self.target

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "env_share": self.env_share, "met": self.met}


# ---------------------------------------------------------------------------- loops
#: The clock of the rollout loops: the CPU time of this process, not the wall clock, so that other
#: programs on a busy machine do not count against a loop (they still slow it down through shared
#: caches, which is why the loops are also interleaved). Rollouts are single-threaded.
cpu_clock = time.process_time
#: The clock of one ``reset`` inside a timed loop: a few microseconds, read from the wall clock,
#: whose call costs 0.05 us against ~1 us or more for the process's CPU time (a system call here).
reset_clock = time.perf_counter

Loop = Callable[[int, np.random.Generator], tuple[int, float]]  # (seed, rng) -> (steps, reset seconds)


def _pick(mask: np.ndarray, rng: np.random.Generator) -> int:
    """A uniformly random legal action, for every loop alike. It draws one float (``rng.random()``,
    ~0.3 us) rather than calling ``rng.integers`` (~1.3 us for one number, more than a tenth of some
    engines' whole step): the harness should cost little next to what it measures."""
    legal = legal_actions(mask)
    return int(legal[int(rng.random() * len(legal))])


def aec_loop(env: Any) -> Loop:
    """One game through a PettingZoo AEC env, as its documentation plays it."""

    def play(seed: int, rng: np.random.Generator) -> tuple[int, float]:
        started = reset_clock()
        env.reset(seed=seed)
        reset_seconds = reset_clock() - started
        steps = 0
        for _ in env.agent_iter():
            observation, _, termination, truncation, _ = env.last()
            if termination or truncation:
                action = None
            else:
                action = _pick(observation["action_mask"], rng)
                steps += 1
            env.step(action)
        return steps, reset_seconds

    return play


def engine_loop(game: Any) -> Loop:
    """One game through a rules engine: mask, observation of the player to act, step."""

    def play(seed: int, rng: np.random.Generator) -> tuple[int, float]:
        started = reset_clock()
        game.reset(seed)
        reset_seconds = reset_clock() - started
        steps = 0
        while not game.is_over:
            game.observe(game.current_player)
            game.step(_pick(game.legal_mask(), rng))
            steps += 1
        return steps, reset_seconds

    return play


def gym_loop(env: Any) -> Loop:
    """One episode of a single-seat Gymnasium env with ``action_masks()``."""

    def play(seed: int, rng: np.random.Generator) -> tuple[int, float]:
        started = reset_clock()
        env.reset(seed=seed)
        reset_seconds = reset_clock() - started
        steps, done = 0, False
        masks = env.unwrapped.action_masks
        while not done:
            _, _, terminated, truncated, _ = env.step(_pick(masks(), rng))
            done = terminated or truncated
            steps += 1
        return steps, reset_seconds

    return play


@dataclass
class Contestant:
    """One loop to time, with the labels of its row."""

    env: str
    api: str
    num_players: int
    loop: Loop


def measure(
    contestants: list[Contestant], *, games: int, repeats: int, seed: int = 0, min_seconds: float = 0.0
) -> list[Measurement]:
    """Time ``repeats`` runs of every loop, interleaved, after one warm-up game each.

    The loops take turns (run 1 of each, then run 2 of each...) so that a change in the
    machine's load hits all of them alike and the ratios stay fair. A run plays ``games``
    games, and more until it has lasted ``min_seconds`` (short games such as connect_four's
    would otherwise be timed over a few milliseconds). Peak memory is measured afterwards, in
    separate untimed runs (tracemalloc slows everything down).
    """
    results = [Measurement(c.env, c.api, c.num_players, games) for c in contestants]
    totals: list[list[Any]] = [[0, 0, []] for _ in contestants]  # steps, games, reset times
    warm_up = seed + 1_000_000
    for contestant in contestants:
        contestant.loop(warm_up, np.random.default_rng(warm_up))  # imports, caches, action names
    for repeat in range(repeats):
        for contestant, result, total in zip(contestants, results, totals, strict=True):
            rng = np.random.default_rng([seed, repeat])
            steps = played = 0
            started = cpu_clock()
            while played < games or cpu_clock() - started < min_seconds:
                game_steps, reset_seconds = contestant.loop(seed + played, rng)
                steps += game_steps
                played += 1
                total[2].append(reset_seconds)
            elapsed = max(cpu_clock() - started, 1e-9)
            result.steps_per_second.append(steps / elapsed)
            result.games_per_second.append(played / elapsed)
            total[0] += steps
            total[1] += played
    for contestant, result, (steps, played, resets) in zip(contestants, results, totals, strict=True):
        result.steps_per_game = steps / played if played else 0.0
        result.reset_seconds = statistics.median(resets) if resets else 0.0
        result.peak_memory_kib = peak_memory_kib(contestant.loop, seed, min(games, 3))
    return results


def peak_memory_kib(loop: Loop, seed: int, games: int) -> float:
    """Peak Python heap use (tracemalloc) while playing ``games`` games, in KiB."""
    tracemalloc.start()
    try:
        rng = np.random.default_rng(seed)
        for i in range(games):
            loop(seed + i, rng)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak / 1024


# ---------------------------------------------------------------------------- the benchmark
def reference_contestants() -> list[Contestant]:
    """PettingZoo's connect_four_v3: wrapped ``env()`` and ``raw_env()``."""
    from pettingzoo.classic.connect_four import connect_four  # connect_four_v3, without the deprecated alias

    return [
        Contestant(REFERENCE, "aec", 2, aec_loop(connect_four.env())),
        Contestant(REFERENCE, "aec raw", 2, aec_loop(connect_four.raw_env())),
    ]


def game_contestants(name: str, num_players: int | None = None, apis: tuple[str, ...] = API_NAMES) -> list[Contestant]:
    """The loops of one game in its main configuration (default player count and options)."""
    from fiesta_envs.registry import game_spec, make_aec_env

    spec = game_spec(name)
    game_class = spec.game_class()
    n = num_players or game_class.default_players
    contestants = []
    for api in apis:
        if api == "aec":
            loop = aec_loop(make_aec_env(spec.name, num_players=n))
        elif api == "engine":
            loop = engine_loop(game_class(num_players=n))
        elif api == "gym":
            loop = gym_loop(gymnasium.make(spec.gym_id, num_players=n, opponents="random", seat=None))
        else:
            raise ValueError(f"unknown api {api!r}; known: {', '.join(API_NAMES)}")
        contestants.append(Contestant(spec.name, api, n, loop))
    return contestants


def bench(
    names: list[str], *, games: int, repeats: int, seed: int = 0, min_seconds: float = 0.0
) -> tuple[dict[str, Measurement], list[Measurement]]:
    """The reference and every game's loops, measured together; ratios filled in."""
    contestants = reference_contestants()
    for name in names:
        contestants += game_contestants(name)
    measured = measure(contestants, games=games, repeats=repeats, seed=seed, min_seconds=min_seconds)
    reference = {"wrapped": measured[0], "raw": measured[1]}
    results = measured[2:]
    add_ratios(results, reference)
    return reference, results


def add_ratios(results: list[Measurement], reference: dict[str, Measurement]) -> None:
    """Each game's median steps/s over the reference's (the AEC loop with its target; the others shown only)."""
    for result in results:
        if result.api in ("aec", "gym"):
            result.ratio = result.median_steps / reference["wrapped"].median_steps
            result.target = AEC_TARGET if result.api == "aec" else None
        elif result.api == "engine":
            result.ratio = result.median_steps / reference["raw"].median_steps


# ---------------------------------------------------------------------------- training
def bench_training(
    name: str, *, n_envs: int, timesteps: int, seed: int = 0, torch_threads: int = 1
) -> TrainMeasurement:
    """MaskablePPO training frames per second, and the share of that time spent in the env.

    ``n_envs`` single-seat envs (random opponents) in a ``DummyVecEnv``, so that the time inside
    the environments (``reset``, ``step`` with the opponents' moves, ``action_masks``) can be
    clocked in the same process. The default MLP policy, ``n_steps`` = half the budget per env,
    batches of 64, 4 epochs. One rollout-and-update is run first, untimed (imports, first
    allocations). ``torch_threads``: PyTorch's intra-op threads; 1 is fastest for these small
    networks on 2 cores (more threads fight the environment for the cores). Times are CPU
    seconds of the process, like the rollout loops (with one thread, the wall time of an idle
    machine).
    """
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    from fiesta_envs.registry import game_spec

    threads = torch.get_num_threads()
    torch.set_num_threads(torch_threads)
    try:
        spec = game_spec(name)
        clock = {"seconds": 0.0}

        def make() -> gymnasium.Env:
            return TimedEnv(gymnasium.make(spec.gym_id, opponents="random", seat=None), clock)

        vec_env = DummyVecEnv([make for _ in range(n_envs)])
        n_steps = max(64, timesteps // (2 * n_envs))
        model = MaskablePPO(
            "MlpPolicy", vec_env, n_steps=n_steps, batch_size=64, n_epochs=4, seed=seed, verbose=0, device="cpu"
        )
        model.learn(total_timesteps=n_steps * n_envs)  # warm-up, untimed
        clock["seconds"] = 0.0
        warm_frames = model.num_timesteps
        started = cpu_clock()
        model.learn(total_timesteps=timesteps, reset_num_timesteps=False)
        total = cpu_clock() - started
        frames = model.num_timesteps - warm_frames
        vec_env.close()
    finally:
        torch.set_num_threads(threads)
    return TrainMeasurement(spec.name, n_envs, frames, frames / total, clock["seconds"], total)


class TimedEnv(gymnasium.Wrapper):
    """Adds the time spent in ``reset``, ``step`` and ``action_masks`` to ``clock["seconds"]``."""

    def __init__(self, env: gymnasium.Env, clock: dict[str, float]) -> None:
        super().__init__(env)
        self.clock = clock

    def reset(self, **kwargs: Any) -> Any:
        started = cpu_clock()
        try:
            return self.env.reset(**kwargs)
        finally:
            self.clock["seconds"] += cpu_clock() - started

    def step(self, action: Any) -> Any:
        started = cpu_clock()
        try:
            return self.env.step(action)
        finally:
            self.clock["seconds"] += cpu_clock() - started

    def action_masks(self) -> np.ndarray:
        started = cpu_clock()
        try:
            unwrapped: Any = self.env.unwrapped  # a single-seat environment (it has action_masks)
            return unwrapped.action_masks()
        finally:
            self.clock["seconds"] += cpu_clock() - started


# ---------------------------------------------------------------------------- a training config
@dataclass
class ConfigTrainMeasurement:
    """A training config's own loop (``fiesta train``), timed: CPU seconds in ``learn`` and in each part of it."""

    config: str
    steps: int
    seconds: float  # CPU seconds of the process in MaskablePPO's learn()
    wall_seconds: float
    environment: float  # CPU seconds in the vector environment's steps, the opponents' moves included
    opponents: float  # of which the opponents' moves (scripted players and frozen networks)
    update: float  # PPO's update (gradient steps)

    @property
    def frames_per_second(self) -> float:
        return self.steps / self.seconds if self.seconds else 0.0

    @property
    def shares(self) -> dict[str, float]:
        """Share of the CPU time in learn(): the environment (without the opponents), the opponents, the
        rollout's forward passes and bookkeeping (the rest of collecting the rollout) and the update."""
        total = self.seconds or 1.0
        rollout = self.seconds - self.environment - self.update
        return {
            "environment": (self.environment - self.opponents) / total,
            "opponents": self.opponents / total,
            "rollout_inference": rollout / total,
            "update": self.update / total,
        }

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "frames_per_second": self.frames_per_second, "shares": self.shares}


#: What ``bench_config_training`` changes in a config: no warm start, evaluation, checkpoint or logging on the way.
CONFIG_TRAINING_OVERRIDES = (
    "pretrain=null",
    "eval.every=0",
    "final_eval.games=0",
    "checkpoint_every=1000000000",
    "tensorboard=false",
    "progress_bar=false",
)


def bench_config_training(config_path: str, steps: int = 16384) -> ConfigTrainMeasurement:
    """Frames per second of a training config and where its time goes.

    The run is the config's (environments, opponents and league, reward shaping, network, PPO settings)
    without its warm start and evaluations: PPO from a fresh network, the league holding that network, for
    ``steps`` steps (rounded up to whole rollouts) in a temporary run directory. Times are CPU seconds of this
    process inside ``learn`` (one torch thread as the shipped configs use: on an idle machine the wall time).
    """
    import tempfile
    from pathlib import Path

    import torch

    from fiesta_envs.envs.single_seat import SingleSeatEnv
    from fiesta_envs.training.config import load_config
    from fiesta_envs.training.train import Trainer

    config = load_config(config_path, [f"total_timesteps={steps}", *CONFIG_TRAINING_OVERRIDES])
    clock = {"learn": 0.0, "wall": 0.0, "environment": 0.0, "opponents": 0.0, "update": 0.0, "inside": 0.0}
    threads = torch.get_num_threads()
    with tempfile.TemporaryDirectory(prefix="bench-config-") as run_dir:
        trainer = Trainer(config, Path(run_dir), progress=False)
        torch.set_num_threads(config.torch_threads)
        torch.distributions.Distribution.set_default_validate_args(False)
        start = trainer._start()
        timed = {
            "learn": (type(trainer.model), "learn"),
            "environment": (type(trainer.vec_env), "step_wait"),
            "update": (type(trainer.model), "train"),
            "opponents": (SingleSeatEnv, "_play_opponents"),
        }
        originals = {part: getattr(owner, name) for part, (owner, name) in timed.items()}
        for part, (owner, name) in timed.items():  # on the classes: an attribute of the model would be saved
            setattr(owner, name, _clocked(originals[part], clock, part))
        bar = trainer._progress_bar(start)
        try:
            trainer._train(start, bar)
        finally:
            for part, (owner, name) in timed.items():
                setattr(owner, name, originals[part])
            bar.close()
            trainer.vec_env.close()
            torch.set_num_threads(threads)
        frames = int(trainer.model.num_timesteps)
    return ConfigTrainMeasurement(
        config=str(config_path),
        steps=frames,
        seconds=clock["learn"],
        wall_seconds=clock["wall"],
        environment=clock["environment"],
        opponents=clock["opponents"],
        update=clock["update"],
    )


def _clocked(method: Callable[..., Any], clock: dict[str, float], part: str) -> Callable[..., Any]:
    """``method`` adding its CPU seconds to ``clock[part]`` while inside learn() (and learn's wall time)."""

    def clocked(*args: Any, **kwargs: Any) -> Any:
        if part != "learn" and not clock["inside"]:
            return method(*args, **kwargs)
        started, wall = cpu_clock(), time.perf_counter()
        clock["inside"] += part == "learn"
        try:
            return method(*args, **kwargs)
        finally:
            clock["inside"] -= part == "learn"
            clock[part] += cpu_clock() - started
            if part == "learn":
                clock["wall"] += time.perf_counter() - wall

    return clocked


def config_training_table(results: list[ConfigTrainMeasurement]) -> Any:
    rows = [
        (
            m.config,
            f"{m.steps:,}",
            f"{m.frames_per_second:,.0f}",
            *(f"{share:.0%}" for share in m.shares.values()),
        )
        for m in results
    ]
    title = "Training configs (no warm start, no evaluations; CPU time of learn())"
    columns = ("config", "frames", "frames/s", "environment", "opponents", "rollout inference", "update")
    return result_table(title, columns, rows, left={"config"})


# ---------------------------------------------------------------------------- profile
def profile_game(name: str, games: int, seed: int = 0, top: int = 25) -> str:
    """cProfile of the AEC loop; the functions with the most own time, as text."""
    import cProfile
    import io
    import pstats

    from fiesta_envs.registry import game_spec, make_aec_env

    spec = game_spec(name)
    loop = aec_loop(make_aec_env(spec.name))
    profiler = cProfile.Profile()
    rng = np.random.default_rng(seed)
    profiler.enable()
    for i in range(games):
        loop(seed + i, rng)
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(top)
    return out.getvalue()


# ---------------------------------------------------------------------------- output
def results_table(reference: dict[str, Measurement], results: list[Measurement]) -> Any:
    title = "fiesta bench: random legal actions (steps = decisions; ratios of medians)"
    columns = ("env", "n", "api", "steps/s min", "median", "max", "games/s", "steps/game", "reset µs", "peak KiB")
    rows = [
        (
            m.env,
            str(m.num_players),
            m.api,
            f"{min(m.steps_per_second):,.0f}",
            f"{m.median_steps:,.0f}",
            f"{max(m.steps_per_second):,.0f}",
            f"{statistics.median(m.games_per_second):,.1f}",
            f"{m.steps_per_game:,.1f}",
            f"{m.reset_seconds * 1e6:,.0f}",
            f"{m.peak_memory_kib:,.0f}",
            "" if m.ratio is None else f"{m.ratio:.2f}x",
            "" if m.met is None else f"{'met' if m.met else 'MISSED'} (>={m.target:g}x)",
        )
        for m in [reference["wrapped"], reference["raw"], *results]
    ]
    return result_table(title, (*columns, "vs c4", "target"), rows, left={"env", "api"})


def training_table(results: list[TrainMeasurement]) -> Any:
    rows = [
        (
            m.env,
            str(m.n_envs),
            f"{m.timesteps:,}",
            f"{m.frames_per_second:,.0f}",
            f"{m.env_share:.1%}",
            f"{'met' if m.met else 'MISSED'} (< {m.target:.0%})",
        )
        for m in results
    ]
    title = "MaskablePPO training (DummyVecEnv, random opponents)"
    columns = ("env", "n_envs", "frames", "frames/s", "env share", "target")
    return result_table(title, columns, rows, left={"env"})


# ---------------------------------------------------------------------------- command line
def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", action="append", help="game name (repeat for several; default: every game)")
    parser.add_argument("--games", type=int, default=20, help="games per run (default 20)")
    parser.add_argument("--repeats", type=int, default=5, help="runs per measurement (default 5)")
    parser.add_argument(
        "--min-seconds", type=float, default=0.5, help="a run goes on until it lasted this long (default 0.5)"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", metavar="FILE", help="save the results as JSON (written atomically)")
    parser.add_argument("--train", action="store_true", help="also MaskablePPO frames/s with 1 and 2 envs")
    parser.add_argument("--train-steps", type=int, default=4096, help="timesteps per training measurement")
    parser.add_argument("--torch-threads", type=int, default=1, help="PyTorch threads while training (default 1)")
    parser.add_argument("--profile", action="store_true", help="print a cProfile of each game's AEC loop")
    parser.add_argument(
        "--train-config",
        action="append",
        default=[],
        metavar="FILE",
        help="also time this training config's own loop (repeatable): frames/s and where the time goes",
    )


def run(args: argparse.Namespace) -> int:
    from fiesta_envs.registry import GAMES, game_spec
    from fiesta_envs.tools.result_tables import console as wide_console

    console = wide_console()
    names = [game_spec(name).name for name in args.game] if args.game else list(GAMES)
    reference, results = bench(
        names, games=args.games, repeats=args.repeats, seed=args.seed, min_seconds=args.min_seconds
    )
    console.print(results_table(reference, results))
    training: list[TrainMeasurement] = []
    if args.train:
        for name in names:
            for n_envs in (1, 2):
                training.append(
                    bench_training(
                        name,
                        n_envs=n_envs,
                        timesteps=args.train_steps,
                        seed=args.seed,
                        torch_threads=args.torch_threads,
                    )
                )
        console.print(training_table(training))
    configs = [bench_config_training(path, args.train_steps) for path in args.train_config]
    if configs:
        console.print(config_training_table(configs))
    if args.profile:
        for name in names:
            console.print(f"[bold]{name}[/bold]: cProfile of the AEC loop ({args.games} games)")
            console.print(profile_game(name, args.games, args.seed), markup=False, highlight=False)
    met = [m.met for m in results if m.met is not None] + [t.met for t in training]
    summary = f"targets met: {sum(met)} of {len(met)}"
    if not training:
        summary += " (the environment's share of training time, the main target: run with --train)"
    console.print(summary)
    if args.json:
        write_json_atomically(
            args.json,
            {
                "settings": {
                    "games": args.games,
                    "repeats": args.repeats,
                    "min_seconds": args.min_seconds,
                    "seed": args.seed,
                    "train_steps": args.train_steps,
                    "cpus": os.cpu_count(),
                    "load_average": list(os.getloadavg()),
                    "finished": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
                },
                "reference": {key: m.to_dict() for key, m in reference.items()},
                "results": [m.to_dict() for m in results],
                "training": [t.to_dict() for t in training],
                **({"config_training": [m.to_dict() for m in configs]} if configs else {}),
                "targets": {"aec": AEC_TARGET, "env_share": ENV_SHARE_TARGET},
            },
        )
        console.print(f"saved {args.json}")
    return 0
