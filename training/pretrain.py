"""Warm start: behaviour cloning of a scripted player before PPO (the config's ``pretrain`` section).

    pretrain:
      teacher: greedy        # the baseline whose decisions are cloned
      games: 2000            # games in which the teacher plays the learner's seat
      opponents: {}          # who sits in the other seats, by weight; empty: the teacher itself
      epochs: 10
      batch_size: 512
      learning_rate: 1.0e-3
      value_coef: 0.5        # weight of the value head's regression onto the teacher's returns
      validation: 0.1        # share of the games held out to measure accuracy
      targets: actions       # or probabilities: the teacher's move distribution where it has one (a network
                             # such as ppo), so the clone learns how sure it is, not only its choice
      workers: 1             # processes collecting games
      played_by: null        # another agent moving in the learner's seat while the teacher labels (e.g. ppo)

What happens, before the first PPO step of a new run (``Trainer._start``):

1. **Collect** (``collect_decisions``): ``games`` episodes of the run's own single-seat environment
   (same options, same reward and shaping, seats drawn at random), with the teacher choosing the
   learner's actions from the engine (``played_by``: that agent moves, the teacher only labels). Each learner
   decision is kept: observation, mask, the teacher's action, and the discounted return (``ppo.gamma``) of the
   rewards PPO would see from there. Games are played in parts of ``CHUNK``; each finished part is kept in
   ``pretrain/parts/`` so a run killed while collecting collects only the rest when started again. The data set
   is written to ``pretrain/dataset.npz`` (atomically) and reused if the run restarts.
2. **Clone** (``clone``): the policy network is trained by cross-entropy on the masked logits (the
   teacher's action as the label) and its value head by mean squared error onto the returns, with
   Adam; ``epochs`` passes, minibatches of ``batch_size``. Games are split into training and
   validation sets (never decisions of one game on both sides). TensorBoard ``pretrain/``: loss,
   accuracy on both sets, value loss, per epoch; ``pretrain/metrics.json`` keeps the final numbers
   (with the accuracy per decision kind, from the first word of each action's name).
3. The cloned network becomes checkpoint ``step_000000000`` and the league's first member, so a run
   killed later resumes from it (``fiesta train --resume``) without cloning again.

Everything is seeded from the run's seed: the same config gives the same cloned weights.
"""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from fiesta_envs.evaluation.progress import ProgressNotes
from fiesta_envs.files.atomic import atomic_target, write_json_atomically

PRETRAIN_DIR = "pretrain"
DATASET = "dataset.npz"
METRICS = "metrics.json"


@dataclass
class Decisions:
    """The teacher's decisions: one row per learner step."""

    observations: np.ndarray  # float32 (N, observation size)
    masks: np.ndarray  # bool (N, actions)
    actions: np.ndarray  # int64 (N,)
    returns: np.ndarray  # float32 (N,): discounted return from that step on
    games: np.ndarray  # int64 (N,): which collected game the row comes from
    # float32 (N, actions): the teacher's probability of each action (``targets: probabilities``); None: its action
    targets: np.ndarray | None = None

    def __len__(self) -> int:
        return len(self.actions)

    def subset(self, rows: np.ndarray) -> Decisions:
        targets = None if self.targets is None else self.targets[rows]
        return Decisions(
            self.observations[rows], self.masks[rows], self.actions[rows], self.returns[rows], self.games[rows], targets
        )

    @staticmethod
    def concatenate(parts: list[Decisions]) -> Decisions:
        offset, games = 0, []
        for part in parts:
            games.append(part.games + offset)
            offset += int(part.games.max()) + 1 if len(part) else 0
        return Decisions(
            np.concatenate([p.observations for p in parts]),
            np.concatenate([p.masks for p in parts]),
            np.concatenate([p.actions for p in parts]),
            np.concatenate([p.returns for p in parts]),
            np.concatenate(games),
            None if parts[0].targets is None else np.concatenate([p.targets for p in parts]),
        )

    def save(self, path: Path, meta: Mapping[str, Any]) -> None:
        with atomic_target(path) as temporary, open(temporary, "wb") as handle:
            np.savez_compressed(
                handle,
                observations=self.observations,
                masks=self.masks,
                actions=self.actions,
                returns=self.returns,
                games=self.games,
                **({} if self.targets is None else {"targets": self.targets}),
                meta=np.array(json.dumps(dict(meta), sort_keys=True)),
            )

    @staticmethod
    def load(path: Path, meta: Mapping[str, Any]) -> Decisions | None:
        """The saved data set if it was collected with the same ``meta``; None otherwise (or if unreadable)."""
        try:
            with np.load(path, allow_pickle=False) as data:
                if str(data["meta"]) != json.dumps(dict(meta), sort_keys=True):
                    return None
                targets = data["targets"] if "targets" in data.files else None
                return Decisions(
                    data["observations"], data["masks"], data["actions"], data["returns"], data["games"], targets
                )
        except (OSError, KeyError, ValueError):
            return None


# ---------------------------------------------------------------------------------- collection
def _collect_games(
    env_factory: Any,
    game: str,
    teacher: str,
    episode_seeds: list[int],
    gamma: float,
    soft: bool = False,
    played_by: str | None = None,
) -> Decisions:
    """Play one episode per seed in the learner's seat of ``env_factory()``, ``teacher`` labelling every decision
    and moving (``played_by``: that agent moves instead); ``soft``: keep the teacher's probability of every action
    too (its action, one-hot, where it names only its choice)."""
    from fiesta_envs.registry import make_policy

    env = env_factory()
    base = env.unwrapped
    policy = make_policy(game, teacher)
    mover = make_policy(game, played_by) if played_by is not None else policy
    shortlisted = _is_shortlisted(env)
    if soft and shortlisted:
        raise ValueError("pretrain.targets: probabilities needs an environment without a shortlist")
    observations, masks, actions, returns, game_ids, targets = [], [], [], [], [], []
    for index, episode_seed in enumerate(episode_seeds):
        observation, _ = env.reset(seed=episode_seed)
        policy.start_episode(episode_seed + 1)
        if mover is not policy:
            mover.start_episode(episode_seed + 2)
        rewards = []
        done = False
        while not done:
            mask = env.get_wrapper_attr("action_masks")()
            legal = base.game.legal_mask()
            if shortlisted:  # the learner sees the shortlist; the teacher plays from the engine
                seen = base.game.observe(base.seat) if policy.needs_observation else None
                action = _candidate_of(env, policy.act(seen, legal, base.game, base.seat))
            else:
                action = policy.act(observation, legal, base.game, base.seat)
                if soft:
                    probabilities = policy.action_probabilities(observation, legal, base.game, base.seat)
                    if probabilities is None:
                        probabilities = np.zeros(len(legal), dtype=np.float32)
                        probabilities[action] = 1.0
                    targets.append(probabilities)
            observations.append(observation)
            masks.append(mask)
            actions.append(action)
            if mover is not policy:  # the teacher's action is the label; the mover's is played
                seen = (
                    observation
                    if not shortlisted
                    else base.game.observe(base.seat)
                    if mover.needs_observation
                    else None
                )
                moved = mover.act(seen, legal, base.game, base.seat)
                action = _candidate_of(env, moved) if shortlisted else moved
            observation, reward, terminated, truncated, _ = env.step(action)
            rewards.append(float(reward))
            done = terminated or truncated
        total, episode_returns = 0.0, []
        for reward in reversed(rewards):
            total = reward + gamma * total
            episode_returns.append(total)
        returns.extend(reversed(episode_returns))
        game_ids.extend([index] * len(rewards))
    env.close()
    return Decisions(
        np.asarray(observations, dtype=np.float32),
        np.asarray(masks, dtype=bool),
        np.asarray(actions, dtype=np.int64),
        np.asarray(returns, dtype=np.float32),
        np.asarray(game_ids, dtype=np.int64),
        np.asarray(targets, dtype=np.float32) if soft else None,
    )


def _is_shortlisted(env: Any) -> bool:
    try:
        env.get_wrapper_attr("choice_of")
    except AttributeError:
        return False
    return True


def _candidate_of(env: Any, action: int) -> int:
    """The shortlist's candidate holding the teacher's ``action``; candidate 0 when the shortlist lacks it
    (a shortlist's candidate 0 is its own version of the baseline's choice, e.g. another of equally tied words)."""
    try:
        return int(env.get_wrapper_attr("choice_of")(action))
    except ValueError:
        return 0


def episode_seeds(seed: int, games: int) -> list[int]:
    """One seed per collected game: each game depends on its seed only, so the data set is the same
    however many worker processes play it."""
    rng = np.random.default_rng(int(np.random.SeedSequence(seed).generate_state(1)[0]))
    return [int(rng.integers(2**62)) for _ in range(games)]


#: games per collection job: the unit of progress notes and of the partial data sets kept for a restart
CHUNK = 25
PARTS_DIR = "parts"
NOTE_EVERY_SECONDS = 30.0


def collect_decisions(
    config: Any,
    env_factory: Any,
    seed: int,
    *,
    parts_dir: Path | None = None,
    meta: Mapping[str, Any] | None = None,
    note: Any = None,
) -> Decisions:
    """The teacher's decisions over ``config.pretrain.games`` games, in jobs of ``CHUNK`` games (on ``workers``
    processes). With ``parts_dir``, each finished job is saved there (with ``meta``) and reused by a restart; with
    ``note``, progress is reported. The data set depends only on the seed, not on workers or restarts."""
    settings = config.pretrain
    seeds = episode_seeds(seed, settings.games)
    soft = settings.targets == "probabilities"
    jobs = [
        (
            env_factory,
            config.game,
            settings.teacher,
            seeds[start : start + CHUNK],
            config.ppo.gamma,
            soft,
            settings.played_by,
        )
        for start in range(0, len(seeds), CHUNK)
    ]
    part_meta = {**dict(meta or {}), "chunk": CHUNK}
    parts: list[Decisions | None] = [
        Decisions.load(_part_path(parts_dir, index), {**part_meta, "part": index}) if parts_dir is not None else None
        for index in range(len(jobs))
    ]
    todo = [index for index, part in enumerate(parts) if part is None]
    if note is not None and len(todo) < len(jobs):
        note(f"pretrain: reusing {len(jobs) - len(todo)} of {len(jobs)} collected parts from {parts_dir}")
    collected = sum(len(jobs[i][3]) for i in range(len(jobs)) if i not in todo)
    progress = ProgressNotes(
        settings.games,
        None if note is None else (lambda line: note(f"pretrain: {line}")),
        what="games collected",
        done=collected,
        every_seconds=NOTE_EVERY_SECONDS,
    )
    for index, part in zip(todo, _run_jobs([jobs[i] for i in todo], settings.workers), strict=True):
        parts[index] = part
        if parts_dir is not None:
            part.save(_part_path(parts_dir, index), {**part_meta, "part": index})
        progress.advance(len(jobs[index][3]))
    return Decisions.concatenate([part for part in parts if part is not None])


def _part_path(parts_dir: Path | None, index: int) -> Path:
    assert parts_dir is not None
    return parts_dir / f"part_{index:05d}.npz"


def _collect_job(job: tuple) -> Decisions:
    return _collect_games(*job)


def _run_jobs(jobs: list[tuple], workers: int) -> Iterator[Decisions]:
    """Each job's decisions, in order, as they finish."""
    workers = min(workers, len(jobs))
    if workers <= 1:
        yield from map(_collect_job, jobs)
        return
    import multiprocessing

    with multiprocessing.get_context("forkserver").Pool(workers) as pool:
        yield from pool.imap(_collect_job, jobs)


# ---------------------------------------------------------------------------------- cloning
def split_by_game(data: Decisions, validation: float, seed: int) -> tuple[Decisions, Decisions | None]:
    """Training and validation rows; whole games go to one side."""
    games = np.unique(data.games)
    held = round(validation * len(games))
    if held == 0 or held == len(games):
        return data, None
    chosen = np.random.default_rng(seed).choice(games, size=held, replace=False)
    is_validation = np.isin(data.games, chosen)
    return data.subset(np.flatnonzero(~is_validation)), data.subset(np.flatnonzero(is_validation))


def _predictions(policy: Any, data: Decisions, batch: int = 4096) -> tuple[np.ndarray, float]:
    """The network's argmax legal actions and its value loss on ``data``."""
    import torch

    chosen, squared = [], 0.0
    with torch.no_grad():
        for start in range(0, len(data), batch):
            rows = slice(start, start + batch)
            obs = torch.as_tensor(data.observations[rows])
            distribution = policy.get_distribution(obs, action_masks=data.masks[rows])
            logits = distribution.distribution.logits
            chosen.append(logits.argmax(dim=1).numpy())
            values = policy.predict_values(obs).squeeze(1).numpy()
            squared += float(((values - data.returns[rows]) ** 2).sum())
    return np.concatenate(chosen), squared / max(len(data), 1)


def accuracy_by_kind(predicted: np.ndarray, data: Decisions, action_names: list[str]) -> dict[str, float]:
    """Share of the teacher's actions matched, per decision kind (first word of the action's name)."""
    kinds = np.array([name.split()[0] for name in action_names])[data.actions]
    return {
        kind: float((predicted[kinds == kind] == data.actions[kinds == kind]).mean()) for kind in sorted(set(kinds))
    }


def clone(model: Any, data: Decisions, settings: Any, *, seed: int, action_names: list[str]) -> dict[str, Any]:
    """Behaviour cloning of ``data`` into ``model``'s policy and value networks (see the module docstring)."""
    import torch

    policy = model.policy
    policy.set_training_mode(True)
    train, validation = split_by_game(data, settings.validation, seed)
    optimizer = torch.optim.Adam(policy.parameters(), lr=settings.learning_rate)
    generator = np.random.default_rng(seed)
    logger = model.logger
    history = []
    for epoch in range(settings.epochs):
        order = generator.permutation(len(train))
        total_loss = total_value = 0.0
        for start in range(0, len(order), settings.batch_size):
            rows = order[start : start + settings.batch_size]
            obs = torch.as_tensor(train.observations[rows])
            actions = torch.as_tensor(train.actions[rows])
            if train.targets is None:  # cross-entropy on the teacher's action
                values, log_prob, _ = policy.evaluate_actions(obs, actions, action_masks=train.masks[rows])
                policy_loss = -log_prob.mean()
            else:  # cross-entropy on the teacher's probabilities (distillation); illegal actions have 0 of both
                distribution = policy.get_distribution(obs, action_masks=train.masks[rows])
                log_probs = distribution.distribution.logits  # normalised: log-probabilities
                policy_loss = -(torch.as_tensor(train.targets[rows]) * log_probs).sum(dim=1).mean()
                values = policy.predict_values(obs)
            value_loss = torch.nn.functional.mse_loss(values.squeeze(1), torch.as_tensor(train.returns[rows]))
            loss = policy_loss + settings.value_coef * value_loss
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), model.max_grad_norm)
            optimizer.step()
            total_loss += loss.item() * len(rows)
            total_value += value_loss.item() * len(rows)
        policy.set_training_mode(False)
        predicted, _ = _predictions(policy, train)
        row = {
            "epoch": epoch + 1,
            "loss": total_loss / len(train),
            "value_loss": total_value / len(train),
            "train_accuracy": float((predicted == train.actions).mean()),
        }
        if validation is not None:
            predicted_val, value_loss_val = _predictions(policy, validation)
            row["validation_accuracy"] = float((predicted_val == validation.actions).mean())
            row["validation_value_loss"] = value_loss_val
        policy.set_training_mode(True)
        for key, value in row.items():
            if key != "epoch":
                logger.record(f"pretrain/{key}", value)
        logger.dump(epoch + 1 - settings.epochs)  # steps <= 0: the epochs before PPO's first step
        history.append(row)
    policy.set_training_mode(False)
    held_out = validation if validation is not None else train
    predicted, _ = _predictions(policy, held_out)
    return {
        "decisions": len(data),
        "train_decisions": len(train),
        "validation_decisions": len(validation) if validation is not None else 0,
        "history": history,
        "accuracy_by_kind": accuracy_by_kind(predicted, held_out, action_names),
    }


def pretrain(model: Any, config: Any, run_dir: Path, *, env_factory: Any, seed: int, note: Any) -> dict[str, Any]:
    """Collect (or reuse) the teacher's decisions and clone them into ``model``; returns the metrics."""
    from fiesta_envs.registry import game_spec

    settings = config.pretrain
    directory = Path(run_dir) / PRETRAIN_DIR
    dataset_meta = {
        "game": config.game,
        "num_players": config.num_players,
        "options": dict(config.options),
        "teacher": settings.teacher,
        **({"played_by": settings.played_by} if settings.played_by is not None else {}),
        **({"targets": settings.targets} if settings.targets != "actions" else {}),  # (older data sets: actions)
        "opponents": dict(settings.opponents),
        "games": settings.games,
        "gamma": config.ppo.gamma,
        "reward_shaping": config.reward_shaping,
        "seed": seed,
        **({"shortlist": True} if config.shortlist else {}),  # (absent otherwise: older data sets stay valid)
        # (version 1's data sets predate the field)
        **({"shortlist_version": config.shortlist_version} if config.shortlist_in_use not in (None, 1) else {}),
    }
    started = time.perf_counter()
    data = Decisions.load(directory / DATASET, dataset_meta)
    if data is None:
        mover = (
            f"{settings.played_by!r} moving, {settings.teacher!r} labelling"
            if settings.played_by
            else (repr(settings.teacher))
        )
        note(f"pretrain: collecting {settings.games:,} games of {mover} in the learner's seat")
        data = collect_decisions(
            config, env_factory, seed, parts_dir=directory / PARTS_DIR, meta=dataset_meta, note=note
        )
        data.save(directory / DATASET, dataset_meta)
        shutil.rmtree(directory / PARTS_DIR, ignore_errors=True)  # the whole data set replaces its parts
    else:
        note(f"pretrain: reusing {len(data):,} decisions from {directory / DATASET}")
    collected = time.perf_counter() - started
    game = game_spec(config.game).game_class()(num_players=config.num_players, **config.options)
    shortlist = config.game_shortlist()
    names = shortlist.action_names() if shortlist is not None else game.action_names()
    metrics = clone(model, data, settings, seed=seed, action_names=names)
    metrics["collect_seconds"] = round(collected, 1)
    metrics["clone_seconds"] = round(time.perf_counter() - started - collected, 1)
    write_json_atomically(directory / METRICS, metrics)
    last = metrics["history"][-1]
    accuracy = last.get("validation_accuracy", last["train_accuracy"])
    kinds = ", ".join(f"{kind} {share:.0%}" for kind, share in metrics["accuracy_by_kind"].items())
    note(
        f"pretrain: cloned {len(data):,} decisions in {metrics['clone_seconds']:.0f}s "
        f"(collected in {collected:.0f}s): accuracy {accuracy:.1%} ({kinds})"
    )
    return metrics
