"""Agents for evaluation: a baseline name, a checkpoint, or a ready ``Policy``.

An agent spec on the command line is one of

* a baseline name: ``random`` or one of the game's scripted players (``greedy``...), or ``search``
  (the game's Monte-Carlo search agent, ``fiesta_envs.core.search``); options follow the name as
  ``NAME:KEY=VALUE[:KEY=VALUE...]`` (``search:budget=16``), and the whole spec is the agent's label;
* ``ppo``: the trained agent shipped inside the package (``fiesta_envs.agents``), for games
  that ship one; no torch needed. Its weights are checked here (player count, options, engine
  version, observation size, SHA-256), so a missing or outdated agent is refused up front;
* a checkpoint: its directory (``runs/fm/checkpoints/step_000020480``), its ``model.zip``, or a
  run directory (its latest checkpoint);
* ``LABEL=PATH`` to give a checkpoint a short name in tables (``ppo=runs/fm``).

A checkpoint plays from its pickle-free ``policy.npz``; one without it (an older or foreign
stable-baselines3 zip, which unpickles code when loaded) is refused unless ``trust_checkpoints=True``
(``--trust-checkpoint``), see ``fiesta_envs.evaluation.checkpoints``.

``resolve_agent`` checks a spec once, in the main process, and returns an ``AgentSource`` that
any worker process can turn into fresh ``Policy`` objects (one per seat, so that copies of an
agent at one table never share memory). A checkpoint trained for another game or player
count is refused here, before any game is played.
"""

from __future__ import annotations

import argparse
import copy
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fiesta_envs.core.errors import InvalidOptionError
from fiesta_envs.core.options import validate_options
from fiesta_envs.core.policy import Policy, make_named_policy, parse_agent_spec
from fiesta_envs.core.wording import players
from fiesta_envs.registry import GameSpec


class AgentError(InvalidOptionError):
    """An agent spec that names no baseline and no usable checkpoint."""


@dataclass(frozen=True)
class AgentSource:
    """Where an agent comes from: ``kind`` is "baseline", "shipped", "checkpoint" or "policy"."""

    label: str
    kind: str
    target: Any  # baseline name, shipped agent name, checkpoint path (str) or a Policy object
    trusted: bool = False  # a checkpoint that may be unpickled (it has no policy.npz)
    options: Mapping[str, Any] = field(default_factory=dict)  # a baseline's agent options (``search:budget=16``)

    def make(self, spec: GameSpec, num_players: int, seed: int | None = None) -> Policy:
        """A fresh policy for one seat."""
        if self.kind == "baseline":
            policy_class = baseline_classes(spec)[self.target]
            return make_named_policy(spec.name, self.target, policy_class, dict(self.options), seed)
        if self.kind == "shipped":
            from fiesta_envs.agents.shipped import ShippedPolicy

            return ShippedPolicy(spec.name, self.target, seed=seed)
        if self.kind == "checkpoint":
            from fiesta_envs.evaluation.checkpoints import CheckpointPolicy

            return CheckpointPolicy(
                self.target,
                game=spec.name,
                num_players=num_players,
                deterministic=True,
                seed=seed,
                trust_pickle=self.trusted,
            )
        policy = copy.deepcopy(self.target)
        return policy


def baseline_classes(spec: GameSpec) -> dict[str, type[Policy]]:
    """``random``, the game's scripted players and its ``search`` agent, by name."""
    return spec.agent_classes()


def shipped_names(spec: GameSpec) -> list[str]:
    """The shipped agents (``ppo``) this game has files for, at any player count."""
    from fiesta_envs.agents.shipped import SHIPPED_NAMES, has_shipped

    return [name for name in SHIPPED_NAMES if has_shipped(spec.name, name)]


def agent_names(spec: GameSpec) -> list[str]:
    """Every agent that can be named without a path: baselines and shipped agents."""
    return sorted([*baseline_classes(spec), *shipped_names(spec)])


def _unknown_agent_message(spec: GameSpec, text: str) -> str:
    names = ", ".join(agent_names(spec))
    return (
        f"{spec.name}: unknown agent {text!r}: not a baseline and no such checkpoint file or run directory. "
        f"Baselines: {names}; or give a checkpoint path (LABEL=PATH to name it)"
    )


def _shipped_source(spec: GameSpec, num_players: int, name: str, options: Mapping[str, Any]) -> AgentSource:
    """The shipped agent ``name``, checked for this player count and these options (``AgentError``)."""
    from fiesta_envs.agents.shipped import check_shipped

    try:
        check_shipped(spec.game_class(), num_players, options, name=name)
    except InvalidOptionError as error:
        raise AgentError(str(error)) from error
    return AgentSource(name, "shipped", name)


def resolve_agent(
    spec: GameSpec,
    num_players: int,
    agent: str | Path | Policy,
    options: Mapping[str, Any] | None = None,
    *,
    trust_checkpoints: bool = False,
) -> AgentSource:
    """Check an agent spec and say where the agent comes from; ``AgentError`` when it cannot be used.

    ``trust_checkpoints=True`` allows checkpoints that can only be loaded by unpickling their model.
    """
    if isinstance(agent, Policy) or (hasattr(agent, "act") and not isinstance(agent, (str, Path))):
        label = str(getattr(agent, "name", None) or type(agent).__name__)
        return AgentSource(label, "policy", agent)
    if not isinstance(agent, (str, Path)):
        raise AgentError(f"{spec.name}: an agent must be a baseline name, a checkpoint path or a Policy; got {agent!r}")
    text = str(agent).strip()
    if not text:
        raise AgentError(f"{spec.name}: empty agent name; baselines: {', '.join(agent_names(spec))}")
    name, agent_options = parse_agent_spec(text)
    if name in baseline_classes(spec):
        source = AgentSource(text, "baseline", name, options=agent_options)
        source.make(spec, num_players)  # refuses unknown or bad options now, before any game
        return source
    from fiesta_envs.agents.shipped import SHIPPED_NAMES

    if text in SHIPPED_NAMES and (text in shipped_names(spec) or not Path(text).exists()):
        return _shipped_source(spec, num_players, text, options or {})
    label, path_text = text, text
    head, sep, tail = text.partition("=")
    if sep and head and "/" not in head and not Path(text).exists():
        label, path_text = head, tail
    path = Path(path_text).expanduser()
    if not path.exists():
        raise AgentError(_unknown_agent_message(spec, text))
    checkpoint = _checkpoint_file(spec, path)
    _check_checkpoint(spec, num_players, checkpoint, options=options or {}, trusted=trust_checkpoints)
    return AgentSource(label, "checkpoint", str(checkpoint), trusted=trust_checkpoints)


def _checkpoint_file(spec: GameSpec, path: Path) -> Path:
    """The checkpoint directory a path names (a run directory means its latest checkpoint)."""
    from fiesta_envs.evaluation.checkpoints import CheckpointError, resolve_checkpoint

    try:
        return resolve_checkpoint(path)
    except CheckpointError as error:
        raise AgentError(f"{spec.name}: cannot use {str(path)!r} as an agent: {error}") from error


def _check_checkpoint(
    spec: GameSpec, num_players: int, path: Path, *, options: Mapping[str, Any], trusted: bool
) -> None:
    """Refuse a checkpoint made for another game or player count, or one that needs unpickling
    without ``trusted``; warn about other options."""
    from fiesta_envs.evaluation.checkpoints import CheckpointError, has_policy_file, read_meta, untrusted_message

    try:
        meta = read_meta(path)
    except CheckpointError as error:
        raise AgentError(f"{spec.name}: cannot use checkpoint {path}: {error}") from error
    if not trusted and not has_policy_file(meta):
        raise AgentError(f"{spec.name}: {untrusted_message(path)}")
    trained_game = meta.get("game")
    if trained_game != spec.name:
        raise AgentError(
            f"checkpoint {path} was trained for game {trained_game!r}, not {spec.name!r}; "
            f"evaluate it with --game {trained_game}"
        )
    trained_players = meta.get("num_players")
    if trained_players != num_players:
        raise AgentError(
            f"checkpoint {path} was trained for {players(trained_players)}, not {num_players}; "
            f"its observations and actions only fit {trained_players}-player games "
            f"(use --players {trained_players})"
        )
    game_class = spec.game_class()
    try:
        trained = validate_options(spec.name, game_class.options, dict(meta.get("options") or {}))
        wanted = validate_options(spec.name, game_class.options, dict(options))
    except InvalidOptionError:
        return
    differ = sorted(k for k in wanted if k != "reward" and trained.get(k) != wanted.get(k))
    if differ:
        warnings.warn(
            f"checkpoint {path} was trained with options "
            f"{ {k: trained.get(k) for k in differ} }, evaluated with { {k: wanted.get(k) for k in differ} }",
            stacklevel=3,
        )


def resolve_agents(
    spec: GameSpec,
    num_players: int,
    agents: list[str | Path | Policy],
    options: Mapping[str, Any] | None = None,
    *,
    trust_checkpoints: bool = False,
) -> list[AgentSource]:
    """Resolve every agent; labels must be unique (``LABEL=PATH`` renames a checkpoint)."""
    sources = [resolve_agent(spec, num_players, a, options, trust_checkpoints=trust_checkpoints) for a in agents]
    labels = [s.label for s in sources]
    duplicates = sorted({label for label in labels if labels.count(label) > 1})
    if duplicates:
        raise AgentError(
            f"{spec.name}: agent {duplicates[0]!r} is given twice; every agent needs its own label "
            f"(name checkpoints with LABEL=PATH)"
        )
    return sources


def seat_agents(
    spec: GameSpec,
    num_players: int,
    seats: Sequence[int],
    names: Sequence[str],
    *,
    options: Mapping[str, Any],
    seed: int | None,
    trust_checkpoints: bool = False,
) -> dict[int, tuple[str, Policy]]:
    """A labelled policy for every seat in ``seats`` (``fiesta play``'s opponents, a web table's agents): one
    agent name per seat or one for all of them (none: ``random``), each seeded from ``seed`` and its seat and
    ready for a new game."""
    wanted = [name.strip() for name in names if name.strip()] or ["random"]
    if len(wanted) == 1:
        wanted = wanted * len(seats)
    if len(wanted) != len(seats):
        raise InvalidOptionError(
            f"{spec.name}: {len(wanted)} agents named for {len(seats)} seats; name one per seat or one for all"
        )
    agents = {}
    for seat, name in zip(seats, wanted, strict=True):
        source = resolve_agent(spec, num_players, name, options, trust_checkpoints=trust_checkpoints)
        policy_seed = None if seed is None else seed * 1000 + seat
        policy = source.make(spec, num_players, seed=policy_seed)
        policy.start_episode(policy_seed)
        agents[seat] = (source.label, policy)
    return agents


def add_trust_argument(parser: argparse.ArgumentParser) -> None:
    """``--trust-checkpoint``: allow checkpoints that can only be loaded by unpickling (see the module docstring)."""
    parser.add_argument(
        "--trust-checkpoint",
        action="store_true",
        help="allow checkpoints without a pickle-free policy.npz (older runs, bare stable-baselines3 zips): "
        "loading them unpickles Python objects, so only for files you trust",
    )
