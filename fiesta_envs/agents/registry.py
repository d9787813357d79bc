"""The agent registry: the one place that turns an agent spec into a ``Policy``.

Everything that takes agents goes through here: ``fiesta evaluate``, ``fiesta play``, ``fiesta serve``,
``run_tournament``, the Gymnasium environment's ``opponents=`` (``fiesta_envs.registry.make_policy``) and
training's opponents and ``pretrain.teacher``.

Agent specs
-----------
A spec is a Python object or a text ``[LABEL=]SPEC``; ``LABEL`` (a plain word: letters, digits, ``_``, ``-``,
``.``) names the agent in tables. ``SPEC`` is one of:

* ``NAME[:KEY=VALUE[:KEY=VALUE...]]``: ``random``, one of the game's scripted players (``greedy``), its
  Monte-Carlo ``search``, or ``ppo`` (the trained agent shipped in the package, ``fiesta_envs.agents``), with
  agent options: ``greedy:version=1``, ``search:budget=16``. Values are read as JSON (``16``, ``true``).
* ``PATH.py:ATTR`` or ``package.module:ATTR``: an object in a Python file or an importable module (the current
  directory is searched too). ``ATTR`` is a ``Policy`` subclass (made with ``seed=``), a ``Policy``
  instance (copied for every seat), a factory (a function taking no required argument, ``seed=`` if it
  has that parameter) returning a policy, or a plain function ``(observation, action_mask) -> action``.
* ``PATH.zip``: a stable-baselines3 ``PPO`` or sb3-contrib ``MaskablePPO`` model trained on this game's
  Gymnasium environment. Loading it unpickles Python objects, so it is refused unless trusted
  (``--trust-checkpoint``; Python ``trust_checkpoints=True``); its observation and action spaces are checked
  against the game's, and its network plays with numpy (``fiesta_envs.policies.actor_policy``).
* ``PATH``: a checkpoint of our trainer: its directory (``runs/fm/checkpoints/step_000020480``), its
  ``model.zip`` or ``meta.json``, or a run directory (its latest checkpoint). It plays with the options its
  ``meta.json`` records (a network trained with ``action_features=true`` gets them computed by the engine), so
  no ``--option`` is needed.

**How the forms are told apart.** A ``:`` followed by ``KEY=VALUE`` is an option; a ``:`` followed by a
Python identifier (no ``=``) names an attribute: ``search:budget=16`` is the search agent with an option,
``my_agent.py:policy`` and ``my_pkg.agents:Careful`` are imports. A name before ``:`` that is one of the game's
agents (``greedy:foo``) is always read as an agent with options, and refused as such. A text ending in
``.zip`` whose folder holds no ``meta.json`` is a stable-baselines3 model; any other existing path is a
checkpoint of our trainer.

In Python, any object of those kinds -- a ``Policy`` subclass or instance, a factory or a plain function -- is
accepted wherever a spec is: ``run_tournament("tortilla_de_patatas", 2, [my_function, "careful"])``.

``resolve_agent`` checks a spec once, in the main process, and returns an ``AgentSource`` that any worker
process turns into fresh ``Policy`` objects (one per seat, so copies of an agent at one table never share
memory). An agent that cannot play the game, its player count or its options is refused there, before any
game is played, with an ``AgentError`` that names what is wrong and what is allowed.

This module knows the game only through the ``GameSpec`` it is given (``fiesta_envs.registry``), so the
game registry can route its own ``make_policy`` through here.
"""

from __future__ import annotations

import argparse
import copy
import difflib
import hashlib
import importlib
import importlib.util
import inspect
import keyword
import os
import re
import sys
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from fiesta_envs.core.errors import InvalidOptionError
from fiesta_envs.core.options import validate_options
from fiesta_envs.core.wording import players
from fiesta_envs.policies.policy import CallablePolicy, Policy, make_named_policy, parse_agent_spec

if TYPE_CHECKING:
    from fiesta_envs.core.game import Game
    from fiesta_envs.policies.mlp import ActorSnapshot


class GameSpecLike(Protocol):
    """What the registry needs of a game (``fiesta_envs.registry.GameSpec``)."""

    @property
    def name(self) -> str: ...

    def game_class(self) -> type[Game]: ...

    def agent_classes(self) -> dict[str, type[Policy]]: ...


class AgentError(InvalidOptionError):
    """An agent spec that names no agent this game can use."""


#: ``LABEL=`` in front of a spec: a plain word (no ``/``, ``:`` or ``=``).
_LABEL = re.compile(r"^[A-Za-z0-9_.\-]+$")
#: ``SOURCE:ATTR``: a ``.py`` file or a dotted module path, then one Python identifier.
_IMPORT = re.compile(r"^(?P<source>[^:]+):(?P<attr>[A-Za-z_][A-Za-z0-9_]*)$")
_MODULE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")


@dataclass(frozen=True)
class AgentSource:
    """Where an agent comes from; ``make`` builds a fresh policy for one seat.

    ``kind``: ``baseline`` (``target`` its name, ``options`` its agent options), ``shipped`` (``target`` its
    name), ``checkpoint`` (``target`` the checkpoint directory), ``sb3`` (``target`` the ``.zip``; ``actor`` its
    network, read once), ``import`` (``target`` ``"PATH.py:ATTR"`` or ``"module:ATTR"``) or ``policy`` (``target``
    a Python object: a Policy, a Policy class, a factory or a function).
    """

    label: str
    kind: str
    target: Any
    trusted: bool = False  # a checkpoint that may be unpickled (it has no policy.npz)
    options: Mapping[str, Any] = field(default_factory=dict)  # a baseline's agent options (``search:budget=16``)
    actor: ActorSnapshot | None = field(default=None, compare=False, repr=False)  # kind "sb3": its network

    def make(self, spec: GameSpecLike, num_players: int | None, seed: int | None = None) -> Policy:
        """A fresh policy for one seat."""
        if self.kind == "baseline":
            policy_class = spec.agent_classes()[self.target]
            options = with_agents_made(spec, num_players, policy_class, self.options, seed)
            return make_named_policy(spec.name, self.target, policy_class, options, seed)
        if self.kind == "shipped":
            from fiesta_envs.agents.shipped import ShippedPolicy

            return ShippedPolicy(spec.name, self.target, seed=seed)
        if self.kind == "checkpoint":
            from fiesta_envs.evaluation.checkpoints import CheckpointPolicy

            return CheckpointPolicy(
                self.target, game=spec.name, num_players=num_players, seed=seed, trust_pickle=self.trusted
            )
        if self.kind == "sb3":
            from fiesta_envs.policies.actor_policy import ActorPolicy

            assert self.actor is not None
            return ActorPolicy(self.actor, where=f"stable-baselines3 model {self.target}", seed=seed)
        if self.kind == "import":
            return policy_from_object(spec, import_attribute(self.target), seed, where=self.target)
        return policy_from_object(spec, self.target, seed, where=self.label)


def with_agents_made(
    spec: GameSpecLike,
    num_players: int | None,
    policy_class: type[Policy],
    options: Mapping[str, Any],
    seed: int | None,
) -> dict[str, Any]:
    """``options`` with each agent-valued option (``search:proposer=ppo``: the class's ``agent_valued_options``)
    made into a policy of its own; a spec it cannot be is refused naming the option."""
    made = dict(options)
    for key in getattr(policy_class, "agent_valued_options", ()):
        value = made.get(key)
        if isinstance(value, (str, Path)):
            try:
                made[key] = resolve_agent(spec, num_players, str(value)).make(spec, num_players, seed)
            except AgentError as error:
                raise AgentError(f"{spec.name}: option {key}={value}: {error}") from error
    return made


# ---------------------------------------------------------------------- names
def baseline_classes(spec: GameSpecLike) -> dict[str, type[Policy]]:
    """``random``, the game's scripted players and its ``search`` agent, by name."""
    return spec.agent_classes()


def shipped_names(spec: GameSpecLike) -> list[str]:
    """The shipped agents (``ppo``) this game has files for, at any player count."""
    from fiesta_envs.agents.shipped import SHIPPED_NAMES, has_shipped

    return [name for name in SHIPPED_NAMES if has_shipped(spec.name, name)]


def agent_names(spec: GameSpecLike) -> list[str]:
    """Every agent that can be named without a path: baselines and shipped agents."""
    return sorted([*baseline_classes(spec), *shipped_names(spec)])


def _unknown_agent_message(spec: GameSpecLike, text: str) -> str:
    names = agent_names(spec)
    try:
        name = parse_agent_spec(text)[0]
    except InvalidOptionError:
        name = text
    hint = difflib.get_close_matches(name, names, n=1)
    did_you_mean = f"did you mean {hint[0]!r}? " if hint else ""
    return (
        f"{spec.name}: unknown agent {text!r}; {did_you_mean}allowed: {', '.join(names)}, a checkpoint or run "
        "directory, a stable-baselines3 MODEL.zip, FILE.py:ATTR or module:ATTR (LABEL=SPEC names one)"
    )


def split_label(text: str) -> tuple[str | None, str]:
    """``LABEL=SPEC`` -> (LABEL, SPEC); a spec without a label -> (None, SPEC). ``search:budget=16`` has no
    label (its ``=`` follows a ``:``), nor has an existing path holding ``=``."""
    head, sep, tail = text.partition("=")
    if sep and head and tail and _LABEL.match(head) and not Path(text).exists():
        return head, tail.strip()
    return None, text


def import_target(spec: GameSpecLike, text: str) -> tuple[str, str] | None:
    """(SOURCE, ATTR) when ``text`` names an attribute of a ``.py`` file or a module, else None."""
    match = _IMPORT.match(text)
    if match is None:
        return None
    source, attr = match.group("source").strip(), match.group("attr")
    if source.endswith(".py"):
        return source, attr
    if _MODULE.match(source) and source not in agent_names(spec) and not keyword.iskeyword(attr):
        return source, attr
    return None


# ---------------------------------------------------------------------- resolving
def resolve_agent(
    spec: GameSpecLike,
    num_players: int | None,
    agent: Any,
    options: Mapping[str, Any] | None = None,
    *,
    trust_checkpoints: bool = False,
) -> AgentSource:
    """Check an agent spec (see the module docstring) against the game, its player count (None: any) and
    options, and say where the agent comes from; ``AgentError`` when it cannot be used.

    ``trust_checkpoints=True`` allows files that can only be loaded by unpickling (stable-baselines3 zips,
    checkpoints without ``policy.npz``).
    """
    if not isinstance(agent, (str, Path)):
        object_label = _object_label(agent)
        policy_from_object(spec, agent, None, where=object_label)  # refuses now what cannot become a policy
        return AgentSource(object_label, "policy", agent)
    text = str(agent).strip()
    if not text:
        raise AgentError(f"{spec.name}: empty agent name; agents: {', '.join(agent_names(spec))}")
    label, body = split_label(text)
    if label is not None and not body:
        raise AgentError(f"{spec.name}: agent {text!r} names nothing after '='")
    name, agent_options = _parse(spec, body)
    if name in baseline_classes(spec):
        source = AgentSource(label or body, "baseline", name, options=agent_options)
        source.make(spec, num_players)  # refuses unknown or bad options now, before any game
        return source
    from fiesta_envs.agents.shipped import SHIPPED_NAMES

    if name in SHIPPED_NAMES and (name in shipped_names(spec) or not Path(body).exists()):
        if num_players is None and name not in shipped_names(spec):
            raise AgentError(
                f"{spec.name}: no shipped {name!r} agent for this game yet; allowed: {', '.join(agent_names(spec))}"
            )
        return _shipped_source(spec, num_players, label or body, name, agent_options, options or {})
    target = import_target(spec, body)
    if target is not None:
        where = f"{target[0]}:{target[1]}"
        policy_from_object(spec, import_attribute(where), None, where=where)
        return AgentSource(label or target[1], "import", where)
    path = Path(body).expanduser()
    if not path.exists():
        raise AgentError(_unknown_agent_message(spec, text))
    if path.is_file() and path.suffix == ".py":
        raise AgentError(
            f"{spec.name}: {text!r} names a Python file; name the agent in it too: {body}:ATTR (a Policy class or "
            "instance, a factory, or a function (observation, action_mask) -> action)"
        )
    if is_sb3_zip(path):
        return _sb3_source(spec, num_players, label or path.stem, path, options or {}, trusted=trust_checkpoints)
    checkpoint = _checkpoint_file(spec, path)
    _check_checkpoint(spec, num_players, checkpoint, options=options or {}, trusted=trust_checkpoints)
    return AgentSource(label or body, "checkpoint", str(checkpoint), trusted=trust_checkpoints)


def is_sb3_zip(path: Path) -> bool:
    """A ``.zip`` that is not the ``model.zip`` of one of our checkpoints (its folder holds no ``meta.json``)."""
    return path.is_file() and path.suffix == ".zip" and not (path.parent / "meta.json").is_file()


def _parse(spec: GameSpecLike, text: str) -> tuple[str, dict[str, Any]]:
    """The agent name and options of ``NAME[:KEY=VALUE...]``; a path or an import is returned whole."""
    if import_target(spec, text) is not None or Path(text).exists():
        return text, {}
    try:
        return parse_agent_spec(text)
    except InvalidOptionError as error:
        raise AgentError(f"{spec.name}: {error}") from error


def _shipped_source(
    spec: GameSpecLike,
    num_players: int | None,
    label: str,
    name: str,
    agent_options: Mapping[str, Any],
    options: Mapping[str, Any],
) -> AgentSource:
    """The shipped agent ``name``, checked for this player count and these options (``AgentError``)."""
    from fiesta_envs.agents.shipped import check_shipped

    if agent_options:
        raise AgentError(f"{spec.name}: agent {name!r} takes no options, got {sorted(agent_options)}")
    if num_players is None:  # checked at its first game, when the player count is known
        return AgentSource(label, "shipped", name)
    try:
        check_shipped(spec.game_class(), num_players, options, name=name)
    except InvalidOptionError as error:
        raise AgentError(str(error)) from error
    return AgentSource(label, "shipped", name)


def _checkpoint_file(spec: GameSpecLike, path: Path) -> Path:
    """The checkpoint directory a path names (a run directory means its latest checkpoint)."""
    from fiesta_envs.evaluation.checkpoints import CheckpointError, resolve_checkpoint

    try:
        return resolve_checkpoint(path)
    except CheckpointError as error:
        raise AgentError(f"{spec.name}: cannot use {str(path)!r} as an agent: {error}") from error


def _check_checkpoint(
    spec: GameSpecLike, num_players: int | None, path: Path, *, options: Mapping[str, Any], trusted: bool
) -> None:
    """Refuse a checkpoint made for another game or player count, or one that needs unpickling without
    ``trusted``, or whose network fits no observation of this game; warn about other rule options."""
    from fiesta_envs.evaluation.checkpoints import (
        CheckpointError,
        CheckpointPolicy,
        has_policy_file,
        read_meta,
        untrusted_message,
    )
    from fiesta_envs.policies.actor_policy import NetworkMismatchError

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
    if num_players is not None and trained_players != num_players:
        trained_for = players(trained_players) if isinstance(trained_players, int) else "an unknown player count"
        raise AgentError(
            f"checkpoint {path} was trained for {trained_for}, not {num_players}; "
            f"its observations and actions only fit {trained_players}-player games "
            f"(use --players {trained_players})"
        )
    game_class = spec.game_class()
    try:
        probe = game_class(num_players=trained_players, seed=0, **dict(options))
        CheckpointPolicy(path, game=spec.name, trust_pickle=trusted).check_game(probe)
    except (NetworkMismatchError, CheckpointError) as error:
        raise AgentError(f"{spec.name}: {error}") from error
    except InvalidOptionError:
        pass  # options of another player count: the game itself refuses them
    try:
        trained = validate_options(spec.name, game_class.options, dict(meta.get("options") or {}))
        wanted = validate_options(spec.name, game_class.options, dict(options))
    except InvalidOptionError:
        return
    differ = sorted(k for k in wanted if k not in PLAY_ANYWHERE_OPTIONS and trained.get(k) != wanted.get(k))
    if differ:
        warnings.warn(
            f"checkpoint {path} was trained with options "
            f"{ {k: trained.get(k) for k in differ} }, evaluated with { {k: wanted.get(k) for k in differ} }",
            stacklevel=3,
        )


#: Options a checkpoint plays under any value of: the reward is the learner's, and features are computed when missing.
PLAY_ANYWHERE_OPTIONS = ("reward", "action_features")


def recorded_options(spec: GameSpecLike, agents: Sequence[Any]) -> dict[str, Any]:
    """The game options the checkpoints among ``agents`` were trained with (every option but
    ``PLAY_ANYWHERE_OPTIONS``, as their ``meta.json`` records them), when they all agree; ``{}`` when no agent is a
    checkpoint or they disagree. Evaluations without options of their own play these."""
    from fiesta_envs.evaluation.checkpoints import CheckpointError, read_meta

    found: list[dict[str, Any]] = []
    for agent in agents:
        if not isinstance(agent, (str, Path)):
            continue
        body = split_label(str(agent).strip())[1]
        path = Path(body).expanduser()
        if not path.exists() or import_target(spec, body) is not None or is_sb3_zip(path):
            continue
        try:
            meta = read_meta(path, verify=False)
            trained = validate_options(spec.name, spec.game_class().options, dict(meta.get("options") or {}))
        except (CheckpointError, InvalidOptionError):
            continue
        if meta.get("game") == spec.name:
            found.append({k: v for k, v in trained.items() if k not in PLAY_ANYWHERE_OPTIONS})
    if not found or any(options != found[0] for options in found):
        return {}
    return found[0]


# ---------------------------------------------------------------------- stable-baselines3 models
def untrusted_model_message(path: Path) -> str:
    return (
        f"{path} is a stable-baselines3 model: loading it unpickles Python objects, which can run any code its "
        "author put in it. Load it only if you trust where it came from: pass --trust-checkpoint "
        "(Python: trust_checkpoints=True; as a Gymnasium opponent: "
        "fiesta_envs.registry.make_policy(GAME, PATH, trust_checkpoints=True))"
    )


def _sb3_source(
    spec: GameSpecLike,
    num_players: int | None,
    label: str,
    path: Path,
    options: Mapping[str, Any],
    *,
    trusted: bool,
) -> AgentSource:
    """A user's stable-baselines3 model, loaded once (trusted only) and checked against the game."""
    from fiesta_envs.policies.actor_policy import ActorPolicy, NetworkMismatchError

    if not trusted:
        raise AgentError(f"{spec.name}: {untrusted_model_message(path)}")
    actor = load_sb3_actor(spec, path)
    probe = spec.game_class()(num_players=num_players, seed=0, **dict(options))
    try:
        ActorPolicy(actor, where=f"the stable-baselines3 model {path}").check_game(probe)
    except NetworkMismatchError as error:
        raise AgentError(
            f"{spec.name}: {error}; train it on this game's Gymnasium environment with the same player count and "
            "options"
        ) from error
    return AgentSource(label, "sb3", str(path), trusted=True, actor=actor)


def load_sb3_actor(spec: GameSpecLike, path: Path) -> ActorSnapshot:
    """The actor network of a ``PPO`` or ``MaskablePPO`` zip as numpy arrays. Unpickles: call only for trusted
    files."""
    from fiesta_envs.policies.mlp import ActorSnapshot

    try:
        from sb3_contrib import MaskablePPO
        from stable_baselines3 import PPO
    except ImportError as error:
        raise AgentError(
            f"{spec.name}: reading the stable-baselines3 model {path} needs the train extra "
            "(pip install 'fiesta_envs[train]')"
        ) from error
    inference_only = {"learning_rate": 0.0, "lr_schedule": lambda _: 0.0, "clip_range": lambda _: 0.0}
    model, problems = None, []
    for algorithm in (MaskablePPO, PPO):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                model = algorithm.load(path, device="cpu", custom_objects=inference_only)
            break
        except Exception as error:
            problems.append(f"{algorithm.__name__}: {type(error).__name__}: {error}")
    if model is None:
        raise AgentError(
            f"{spec.name}: {path} is not a stable-baselines3 PPO or sb3-contrib MaskablePPO model "
            f"({'; '.join(problems)})"
        )
    from gymnasium import spaces

    if not isinstance(model.action_space, spaces.Discrete):
        raise AgentError(f"{spec.name}: {path} acts in {model.action_space}, not in a Discrete space of actions")
    if not isinstance(model.observation_space, spaces.Box) or len(model.observation_space.shape) != 1:
        raise AgentError(
            f"{spec.name}: {path} reads observations of {model.observation_space}; this game's are flat vectors "
            "(a Box of one dimension)"
        )
    try:
        actor = ActorSnapshot.from_model(model)
    except (ValueError, AttributeError) as error:
        raise AgentError(f"{spec.name}: {path}: its network cannot be played: {error}") from error
    return actor


# ---------------------------------------------------------------------- Python objects
def import_attribute(target: str) -> Any:
    """The object ``PATH.py:ATTR`` or ``module:ATTR`` names (``AgentError`` naming what is missing)."""
    source, _, attr = target.rpartition(":")
    module = _load_file(Path(source).expanduser()) if source.endswith(".py") else _load_module(source)
    try:
        return getattr(module, attr)
    except AttributeError:
        public = sorted(name for name in vars(module) if not name.startswith("_"))
        raise AgentError(f"{source} has no {attr!r}; it defines: {', '.join(public) or 'nothing public'}") from None


def _load_file(path: Path) -> Any:
    if not path.is_file():
        raise AgentError(f"agent file {path} does not exist")
    resolved = path.resolve()
    digest = hashlib.sha1(str(resolved).encode()).hexdigest()[:8]
    name = f"fiesta_agent_{re.sub(r'[^A-Za-z0-9_]', '_', resolved.stem)}_{digest}"
    if name in sys.modules:
        return sys.modules[name]
    module_spec = importlib.util.spec_from_file_location(name, resolved)
    if module_spec is None or module_spec.loader is None:
        raise AgentError(f"agent file {path} cannot be imported as Python")
    module = importlib.util.module_from_spec(module_spec)
    sys.modules[name] = module  # before running it: pickling and dataclasses look the module up
    try:
        module_spec.loader.exec_module(module)
    except Exception as error:
        del sys.modules[name]
        raise AgentError(f"agent file {path} failed to import: {type(error).__name__}: {error}") from error
    return module


def _load_module(name: str) -> Any:
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name is None or not name.startswith(error.name) or os.getcwd() in sys.path:
            raise AgentError(f"cannot import module {name!r}: {error}") from error
    sys.path.insert(0, os.getcwd())  # the user's own package in the current directory
    try:
        return importlib.import_module(name)
    except ImportError as error:
        raise AgentError(f"cannot import module {name!r} (looked in the current directory too): {error}") from error
    finally:
        sys.path.remove(os.getcwd())


def _object_label(agent: Any) -> str:
    name = getattr(agent, "name", None)
    if isinstance(name, str) and name:
        return name
    if inspect.isclass(agent) or inspect.isfunction(agent) or inspect.ismethod(agent):
        return agent.__name__
    return type(agent).__name__


def _accepts_seed(function: Any) -> bool:
    try:
        parameters = inspect.signature(function).parameters
    except (TypeError, ValueError):
        return False
    return "seed" in parameters or any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values())


def _required_positional(function: Any) -> int | None:
    """How many positional arguments ``function`` needs (None: its signature cannot be read)."""
    try:
        parameters = inspect.signature(function).parameters.values()
    except (TypeError, ValueError):
        return None
    positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return sum(1 for p in parameters if p.kind in positional and p.default is inspect.Parameter.empty)


def policy_from_object(spec: GameSpecLike, agent: Any, seed: int | None, *, where: str) -> Policy:
    """A fresh policy from a Python object (see the module docstring), or ``AgentError`` saying what is allowed."""
    if isinstance(agent, Policy) or (hasattr(agent, "act") and not inspect.isclass(agent)):
        return copy.deepcopy(agent)
    if inspect.isclass(agent):
        if not issubclass(agent, Policy) and not hasattr(agent, "act"):
            raise AgentError(f"{spec.name}: {where}: the class {agent.__name__} is not a Policy (it has no act method)")
        policy_class: Any = agent
        return policy_class(seed=seed) if _accepts_seed(agent) else policy_class()
    if callable(agent):
        required = _required_positional(agent)
        if required == 0:  # a factory
            made = agent(seed=seed) if _accepts_seed(agent) else agent()
            if isinstance(made, Policy) or hasattr(made, "act"):
                return made
            if callable(made) and _required_positional(made) in (2, None):
                return CallablePolicy(made, seed=seed)
            raise AgentError(
                f"{spec.name}: {where}: the factory returned {made!r}; it must return a Policy or a function "
                "(observation, action_mask) -> action"
            )
        if required in (2, None):
            return CallablePolicy(agent, seed=seed)
        raise AgentError(
            f"{spec.name}: {where}: a function agent takes (observation, action_mask) and returns an action, or "
            f"takes no argument and returns a policy; this one needs {required} arguments"
        )
    raise AgentError(
        f"{spec.name}: {where}: an agent must be a name, a path, a Policy (class or instance), a factory or a "
        f"function (observation, action_mask) -> action; got {agent!r}"
    )


# ---------------------------------------------------------------------- several agents
def make_agent(
    spec: GameSpecLike,
    agent: Any,
    *,
    num_players: int | None = None,
    options: Mapping[str, Any] | None = None,
    seed: int | None = None,
    trust_checkpoints: bool = False,
) -> Policy:
    """One policy from any agent spec (checked as ``resolve_agent`` does)."""
    if isinstance(agent, Policy) or (hasattr(agent, "act") and not isinstance(agent, (str, Path, type))):
        return agent  # a ready policy is used as given (the caller may keep a handle on it)
    source = resolve_agent(spec, num_players, agent, options, trust_checkpoints=trust_checkpoints)
    return source.make(spec, num_players, seed=seed)


def resolve_agents(
    spec: GameSpecLike,
    num_players: int,
    agents: Sequence[Any],
    options: Mapping[str, Any] | None = None,
    *,
    trust_checkpoints: bool = False,
) -> list[AgentSource]:
    """Resolve every agent; labels must be unique (``LABEL=SPEC`` renames one)."""
    sources = [resolve_agent(spec, num_players, a, options, trust_checkpoints=trust_checkpoints) for a in agents]
    labels = [s.label for s in sources]
    duplicates = sorted({label for label in labels if labels.count(label) > 1})
    if duplicates:
        raise AgentError(
            f"{spec.name}: agent {duplicates[0]!r} is given twice; every agent needs its own label "
            f"(name them with LABEL=SPEC)"
        )
    return sources


def seat_agents(
    spec: GameSpecLike,
    num_players: int,
    seats: Sequence[int],
    names: Sequence[str],
    *,
    options: Mapping[str, Any],
    seed: int | None,
    trust_checkpoints: bool = False,
) -> dict[int, tuple[str, Policy]]:
    """A labelled policy for every seat in ``seats`` (``fiesta play``'s opponents, a web table's agents): one
    agent spec per seat or one for all of them (none: ``random``), each seeded from ``seed`` and its seat and
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
    """``--trust-checkpoint``: allow files that can only be loaded by unpickling (see the module docstring)."""
    parser.add_argument(
        "--trust-checkpoint",
        action="store_true",
        help="allow agent files that are loaded by unpickling (stable-baselines3 zips, checkpoints without a "
        "pickle-free policy.npz): only for files you trust",
    )
