"""Trained agents that ship inside the package: agent names ``ppo`` and ``against_search``, numpy only (no torch).

Usage::

    gymnasium.make("fiesta_envs/FiestaMexicana-v1", opponents="ppo")
    fiesta evaluate --game fiesta_mexicana --players 2 --agents ppo,greedy
    fiesta play --game fiesta_mexicana --opponents ppo

Files
-----
Every agent is two files in the weights folder (``fiesta_envs/agents/weights/``; an agent of another name
than ``ppo`` in its subfolder of that name, e.g. ``weights/against_search/``)::

    <game>-<N>p[-<variant>].npz    the actor network (see ``fiesta_envs.policies.mlp``), allow_pickle=False
    <game>-<N>p[-<variant>].json   what it is, checked before it plays

``<variant>`` names the options that matter and differ from their defaults (e.g.
``tortilla_de_patatas-2p-gourmet``); it is only a readable name, the ``.json`` decides.
The JSON holds:

* ``format`` (1), ``agent`` (``"ppo"`` or ``"against_search"``), ``game``, ``num_players``, ``options`` (all the game's
  options the network was trained with, defaults filled in, e.g. ``{"menu": "day",
  "action_features": true, "reward": "rank"}``), ``variant``;
* ``version``: the engine class's ``version`` at training time; ``environment``: the environment it was
  trained on, with its version (e.g. ``"fiesta_envs/Tequila-v2"``: results measured with it name that
  environment); ``observation_layout``: the name of the observation layout it was trained on
  (``Game.observation_layout``, e.g. ``"tortilla_de_patatas/information_state/v0"``);
* ``observation_size`` (what the network takes), ``plain_observation_size`` (the observation
  without action features), ``action_features_size`` (0 unless trained with
  ``action_features=True``), ``num_actions``;
* ``shortlist`` (agents trained with ``shortlist: true``): the name of the game's shortlist
  (``fiesta_envs.policies.shortlist``); the network then reads the shortlist's vector (``observation_size``
  = ``plain_observation_size`` = its size) and chooses a candidate (``num_actions`` = the candidates);
  ``shortlist_version``: which version of the game's shortlist (absent in older files: version 1);
* ``also_plays`` (optional, shortlist agents only): the other player counts the agent plays, e.g. ``[5, 6, 7, 8]``
  for a 4-player network measured at those counts (a shortlist vector is the same at every count; a network
  reading the observation plays only the count it was trained at, and a JSON of one with ``also_plays`` is
  refused). Each count must be one of the game's ``player_counts``, other than ``num_players``, and listed once;
  ``also_plays_evaluation`` records the measurements behind it;
* ``network``: ``layers`` (sizes, inputs first), ``activations``, ``parameters``;
* ``training``: algorithm, a summary of the config, the full config, the checkpoint it came
  from, library versions; ``steps``, ``seed``;
* ``evaluation``: the results it was shipped with (e.g. ``fiesta evaluate``'s results.json), and
  ``command``: the command that reproduces it;
* ``npz``, ``npz_bytes``, ``sha256``: the weights file, its size and SHA-256.

Which file plays
----------------
``ShippedPolicy`` picks, at its first ``act`` for a game configuration, the file of that game
and player count whose options equal the game's on every option that matters; when no file was trained at
that count, the one whose ``also_plays`` holds it (a file trained at the count always wins). ``reward``
never matters; ``action_features`` neither: a network trained with action features gets them
computed from the engine (``game.action_features(player)`` appended to the plain observation)
when the environment was made without the option, and a network trained without them reads
only the plain part of an observation that has them. A shortlist agent builds its input from the
engine (``shortlist_of(game, version).build(game, player)``, the version its JSON names) and plays its chosen
candidate's action; it reads no observation, so it is refused only when the game has no such version or that
version has another name. The weights are loaded once per process.

It refuses (``ShippedAgentError``, an ``InvalidOptionError``) when no file fits the game,
player count and options (the message lists what is shipped), when the observation layout differs
from the file's (retrain; a file without ``observation_layout``: when the engine's ``version``
differs), when the observation sizes differ, or when the ``.npz``
does not match its SHA-256 (corrupt file). ``check_shipped`` does all of that up front, so
evaluations and environments refuse before a game is played.

Adding an agent
---------------
1. Train: ``fiesta train --config configs/<game>/<config>.yaml`` (an MLP policy).
2. Evaluate it: ``fiesta evaluate --game <game> --players N --agents ppo=RUN_DIR,greedy,random --out EVAL``.
3. Export: ``fiesta export RUN_DIR --name ppo --eval-json EVAL/results.json --command "fiesta train ..."``
   writes ``fiesta_envs/agents/weights/<game>-<N>p.npz`` and ``.json`` (``--out`` for another folder);
   ``--also-plays 5 6 7 8`` (a shortlist agent) the other player counts it was measured at
   (``scripts/evaluate_shortlist.py``), which it then plays too.
4. Run ``pytest tests/test_shipped_agents.py`` (every shipped file must load without torch,
   play legal games and beat ``random``), then commit both files. A change of the observation
   layout the agent was trained on (``Game.observation_layout``) makes it refuse until it is
   retrained and exported again.

The weights folder can be overridden (for tests, or to try agents before shipping them) by
the environment variable ``FIESTA_ENVS_WEIGHTS`` or the ``weights_dir`` argument of every
function here; worker processes inherit the variable.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from fiesta_envs.core.errors import InvalidOptionError
from fiesta_envs.core.options import validate_options
from fiesta_envs.core.wording import players
from fiesta_envs.files.saved_files import read_json_object, sha256_of
from fiesta_envs.policies.actor_policy import network_input
from fiesta_envs.policies.mlp import ActorSnapshot, masked_choice, masked_softmax
from fiesta_envs.policies.policy import Policy, forced_action, observed
from fiesta_envs.policies.shortlist import DEFAULT_VERSION, Shortlist, shortlist_of

if TYPE_CHECKING:
    from fiesta_envs.core.game import Game

#: The agent names that can be shipped (``make_policy(game, "ppo")``): ``ppo``, the network trained by a game's
#: ``ppo*.yaml`` config; ``against_search``, a ``ppo`` network fine-tuned with PPO to beat ``search``.
SHIPPED_NAMES: tuple[str, ...] = ("ppo", "against_search")
#: Environment variable naming another weights folder (tests, agents not shipped yet).
WEIGHTS_ENV = "FIESTA_ENVS_WEIGHTS"
#: The folder inside the package.
PACKAGE_WEIGHTS_DIR = Path(__file__).resolve().parent / "weights"
FORMAT_VERSION = 1
#: Options that never decide which file plays (see the module docstring).
IGNORED_OPTIONS = ("reward", "action_features")
_REQUIRED = (
    "format",
    "agent",
    "game",
    "num_players",
    "options",
    "version",
    "observation_size",
    "plain_observation_size",
    "num_actions",
    "npz",
    "sha256",
)


class ShippedAgentError(InvalidOptionError):
    """A shipped agent that cannot play this game: missing, outdated, of another size, or corrupt."""


# ---------------------------------------------------------------------------------- where
def weights_directory(weights_dir: str | os.PathLike[str] | None = None) -> Path:
    """The weights folder: ``weights_dir`` if given, else ``$FIESTA_ENVS_WEIGHTS``, else the package's."""
    if weights_dir is not None:
        return Path(weights_dir)
    override = os.environ.get(WEIGHTS_ENV)
    return Path(override) if override else PACKAGE_WEIGHTS_DIR


def agent_directory(name: str, weights_dir: str | os.PathLike[str] | None = None) -> Path:
    """Where the ``name`` agents' files are: the weights folder for ``ppo``, its subfolder ``<name>`` for others."""
    directory = weights_directory(weights_dir)
    return directory if name == "ppo" else directory / name


def _check_name(name: str) -> None:
    if name not in SHIPPED_NAMES:
        raise ShippedAgentError(f"unknown shipped agent {name!r}; shipped agent names: {', '.join(SHIPPED_NAMES)}")


def has_shipped(game: str, name: str = "ppo", weights_dir: str | os.PathLike[str] | None = None) -> bool:
    """Whether any ``name`` agent is shipped for ``game`` (any player count); reads file names only."""
    if name not in SHIPPED_NAMES:
        return False
    directory = agent_directory(name, weights_dir)
    if not directory.is_dir():
        return False
    return any(_FILE.match(path.name) and path.name.startswith(f"{game}-") for path in directory.glob("*.json"))


_FILE = re.compile(r"^[a-z0-9_]+-\d+p(-[a-z0-9_]+)?\.json$")


# ---------------------------------------------------------------------------------- the index
@dataclass(frozen=True)
class ShippedAgent:
    """One shipped agent: its ``.json`` (``info``) and where its ``.npz`` is."""

    json_path: Path
    info: Mapping[str, Any]

    @property
    def path(self) -> Path:
        return self.json_path.with_name(str(self.info["npz"]))

    @property
    def game(self) -> str:
        return str(self.info["game"])

    @property
    def num_players(self) -> int:
        return int(self.info["num_players"])

    @property
    def environment(self) -> str | None:
        """The environment id it was trained on (``environment`` in its JSON), e.g. ``fiesta_envs/Tequila-v2``."""
        value = self.info.get("environment")
        return None if value is None else str(value)

    @property
    def also_plays(self) -> tuple[int, ...]:
        """The other player counts it plays (``also_plays`` in its JSON; checked when read)."""
        return tuple(self.info.get("also_plays") or ())

    @property
    def options(self) -> dict[str, Any]:
        return dict(self.info["options"])

    def relevant_options(self, game_class: type[Game]) -> dict[str, Any]:
        """The trained options that matter, defaults of the current engine filled in."""
        options = {k: v for k, v in self.options.items() if k not in IGNORED_OPTIONS}
        for key, option in game_class.options.items():
            if key not in IGNORED_OPTIONS:
                options.setdefault(key, option.default)
        return options

    def describe(self, game_class: type[Game]) -> str:
        """``2 players``, ``2 players (menu='gourmet')`` (non-default options that matter), ``4 players (also 5-8)``
        (the other counts it plays), or both: ``4 players (also 5, 7; constraints=2)``."""
        extra = _non_default(game_class, self.relevant_options(game_class))
        parts = [f"also {count_ranges(self.also_plays)}"] if self.also_plays else []
        if extra:
            parts.append(", ".join(f"{k}={v!r}" for k, v in extra.items()))
        return players(self.num_players) + (f" ({'; '.join(parts)})" if parts else "")


def count_ranges(counts: tuple[int, ...] | list[int]) -> str:
    """``5-8`` for 5, 6, 7, 8; ``5, 7-8`` for 5, 7, 8 (runs of consecutive counts joined by a dash)."""
    runs: list[list[int]] = []
    for count in sorted(counts):
        if runs and count == runs[-1][-1] + 1:
            runs[-1].append(count)
        else:
            runs.append([count])
    return ", ".join(str(run[0]) if len(run) == 1 else f"{run[0]}-{run[-1]}" for run in runs)


def _non_default(game_class: type[Game], options: Mapping[str, Any]) -> dict[str, Any]:
    declared = game_class.options
    return {k: v for k, v in options.items() if k not in declared or declared[k].default != v}


_INDEX: dict[tuple[str, str], tuple[tuple, list[ShippedAgent]]] = {}


def shipped_agents(
    game: str, name: str = "ppo", weights_dir: str | os.PathLike[str] | None = None
) -> list[ShippedAgent]:
    """Every ``name`` agent shipped for ``game`` (its ``.json`` files read and checked; cached)."""
    _check_name(name)
    directory = agent_directory(name, weights_dir)
    if not directory.is_dir():
        return []
    paths = sorted(p for p in directory.glob(f"{game}-*.json") if _FILE.match(p.name))
    signature = tuple((p.name, p.stat().st_mtime_ns, p.stat().st_size) for p in paths)
    key = (str(directory.resolve()), game)
    cached = _INDEX.get(key)
    if cached is not None and cached[0] == signature:
        agents = cached[1]
    else:
        agents = [_read_info(path) for path in paths]
        _INDEX[key] = (signature, agents)
    return [agent for agent in agents if agent.info["agent"] == name and agent.game == game]


def _read_info(path: Path) -> ShippedAgent:
    info = read_json_object(
        path,
        required=_REQUIRED,
        corrupt=lambda problem: ShippedAgentError(f"corrupt shipped agent file {path} {problem}"),
    )
    if info["format"] != FORMAT_VERSION:
        raise ShippedAgentError(
            f"shipped agent file {path} has format {info['format']!r}; this fiesta_envs reads format {FORMAT_VERSION}"
        )
    if not isinstance(info["options"], dict) or not isinstance(info["num_players"], int):
        raise ShippedAgentError(f"corrupt shipped agent file {path}: 'options' must be an object, 'num_players' an int")
    if "also_plays" in info:  # the counts legal for the game are checked where the game is known (find_shipped)
        check_also_plays(
            f"shipped agent file {path}",
            info["game"],
            info["num_players"],
            info.get("shortlist") is not None,
            info["also_plays"],
        )
    return ShippedAgent(path, info)


def check_also_plays(
    where: str, game: str, num_players: int, shortlist: bool, value: Any, counts: Sequence[int] | None = None
) -> list[int]:
    """``value`` if it is a valid ``also_plays`` of an agent of ``game`` trained at ``num_players`` (``shortlist``:
    a shortlist agent): a list of other player counts of the game (``counts``: its legal ones, when known), each
    once; else ``ShippedAgentError`` naming the field (``where`` says whose) and what is allowed."""
    if not shortlist:
        raise ShippedAgentError(
            f"{where}: 'also_plays' is allowed only for shortlist agents (a JSON with 'shortlist'): a network reading "
            f"the observation plays only the player count it was trained at ({num_players})"
        )
    allowed = None if counts is None else [count for count in counts if count != num_players]
    if not (
        isinstance(value, list)
        and all(type(count) is int and count != num_players for count in value)
        and (allowed is None or all(count in allowed for count in value))
        and len(set(value)) == len(value)
    ):
        legal = "" if allowed is None else ", from " + ", ".join(map(str, allowed))
        raise ShippedAgentError(
            f"{where}: 'also_plays' must be a list of other player counts of {game}, each once{legal}; got {value!r}"
        )
    return sorted(value)


def find_shipped(
    game_class: type[Game],
    num_players: int,
    options: Mapping[str, Any] | None = None,
    *,
    name: str = "ppo",
    weights_dir: str | os.PathLike[str] | None = None,
) -> ShippedAgent:
    """The shipped agent for this game, player count and options, or ``ShippedAgentError`` saying what exists.

    An agent trained at ``num_players`` first; else one whose ``also_plays`` holds it.
    """
    wanted = validate_options(game_class.name, game_class.options, dict(options or {}))
    wanted = {k: v for k, v in wanted.items() if k not in IGNORED_OPTIONS}
    agents = shipped_agents(game_class.name, name, weights_dir)
    for agent in agents:
        if agent.also_plays:
            where, counts = f"shipped agent file {agent.json_path}", game_class.player_counts
            check_also_plays(where, agent.game, agent.num_players, True, list(agent.also_plays), counts)
    fitting = [a for a in agents if a.relevant_options(game_class) == wanted]
    found = [a for a in fitting if a.num_players == num_players] or [a for a in fitting if num_players in a.also_plays]
    if len(found) == 1:
        return found[0]
    if found:
        files = ", ".join(a.json_path.name for a in found)
        raise ShippedAgentError(
            f"{game_class.name}: several shipped {name!r} agents fit {players(num_players)}: {files}; "
            "remove all but one"
        )
    extra = _non_default(game_class, wanted)
    asked = players(num_players) + (" with " + ", ".join(f"{k}={v!r}" for k, v in extra.items()) if extra else "")
    if agents:
        shipped = ", ".join(sorted({a.describe(game_class) for a in agents}))
    else:
        shipped = f"none for this game (looked in {agent_directory(name, weights_dir)})"
    raise ShippedAgentError(f"{game_class.name}: no shipped {name!r} agent for {asked}; shipped: {shipped}")


# ---------------------------------------------------------------------------------- loading
_ACTORS: dict[tuple[str, str, int, int], ActorSnapshot] = {}


def load_actor(agent: ShippedAgent, game_class: type[Game]) -> ActorSnapshot:
    """The agent's network, after checking the engine version and the file's SHA-256 (cached per process).

    An agent whose JSON names the observation layout it was trained on (``observation_layout``) plays
    on any engine version with that layout (checked by ``_bind`` on a game); one without, only on
    the engine version it was trained on.
    """
    where = f"{game_class.name}: shipped {agent.info['agent']!r} agent {agent.json_path.name}"
    if "observation_layout" not in agent.info and agent.info["version"] != game_class.version:
        raise ShippedAgentError(
            f"{where} is out of date; retrain: trained on version {agent.info['version']}, "
            f"this is version {game_class.version} of the {game_class.name} engine"
        )
    path = agent.path
    try:
        stat = path.stat()
    except OSError as exc:
        raise ShippedAgentError(f"{where}: its weights file {path} is missing") from exc
    key = (str(path.resolve()), str(agent.info["sha256"]), stat.st_mtime_ns, stat.st_size)
    actor = _ACTORS.get(key)
    if actor is not None:
        return actor
    if sha256_of(path) != agent.info["sha256"]:
        raise ShippedAgentError(
            f"{where}: corrupt weights: {path.name} ({stat.st_size} bytes) does not match the sha256 in "
            f"{agent.json_path.name}; restore the file (git checkout) or export it again"
        )
    try:
        actor = ActorSnapshot.load(path)
    except (OSError, ValueError, KeyError) as exc:
        raise ShippedAgentError(f"{where}: cannot read {path.name} ({type(exc).__name__}: {exc})") from exc
    if actor.input_size != agent.info["observation_size"] or actor.output_size != agent.info["num_actions"]:
        raise ShippedAgentError(
            f"{where}: the network takes {actor.input_size} inputs and gives {actor.output_size} logits, "
            f"its json says {agent.info['observation_size']} and {agent.info['num_actions']}"
        )
    _ACTORS[key] = actor
    return actor


@dataclass(frozen=True)
class _Binding:
    """How one agent plays one game configuration: its network and how to build the network's input."""

    agent: ShippedAgent
    actor: ActorSnapshot
    mode: str  # "direct" (the observation), "plain" (its plain part), "features" (plain + computed features)
    # or "shortlist" (the game's shortlist vector; the network chooses a candidate)
    plain_size: int
    shortlist: Shortlist | None = None  # mode "shortlist": the version of the game's shortlist it was trained on

    def choose(self, observation: np.ndarray | None, game: Game, player: int, rng: Any) -> int:
        """The game action the network picks for ``player`` (argmax over the legal ones, or sampled by ``rng``)."""
        if self.shortlist is not None:
            candidates = self.shortlist.build(game, player)
            return candidates.action(masked_choice(self.actor.logits(candidates.vector), candidates.mask, rng))
        logits = self.actor.logits(self.network_input(observation, game, player))
        return masked_choice(logits, game.legal_mask(), rng)

    def network_input(self, observation: np.ndarray | None, game: Game, player: int) -> np.ndarray:
        if self.shortlist is not None:
            return self.shortlist.build(game, player).vector
        return network_input(self.mode, observation, game, player)


def _bind(agent: ShippedAgent, actor: ActorSnapshot, game: Game) -> _Binding:
    """Check the observation sizes of ``game`` against the agent's and choose the input mode."""
    info = agent.info
    where = f"{game.name}: shipped {info['agent']!r} agent {agent.json_path.name}"
    if info.get("shortlist") is not None:
        return _bind_shortlist(agent, actor, game, where)
    layout = info.get("observation_layout")
    if layout is not None and layout != game.observation_layout:
        raise ShippedAgentError(
            f"{where}: trained on the observation layout {layout!r}, this game has {game.observation_layout!r} "
            f"(version {game.version}); retrain"
        )
    env_size = int(game.observation_size)
    env_plain = env_size - int(game.action_features_size)
    net_size, net_plain = int(info["observation_size"]), int(info["plain_observation_size"])
    if env_plain != net_plain:
        raise ShippedAgentError(
            f"{where}: observation size differs: trained on {net_plain} plain observation entries, this game has "
            f"{env_plain} (version {game.version}); retrain, or bump the engine's version when its encoding changes"
        )
    if game.num_actions != info["num_actions"]:
        raise ShippedAgentError(
            f"{where}: trained for {info['num_actions']} actions, this game has {game.num_actions}; retrain"
        )
    if net_size == env_size:
        return _Binding(agent, actor, "direct", env_plain)
    if net_size == net_plain:
        return _Binding(agent, actor, "plain", env_plain)
    player = game.current_player if game.current_player >= 0 else 0
    try:
        features = len(game.action_features(player))
    except NotImplementedError as exc:
        raise ShippedAgentError(
            f"{where}: trained with action features ({net_size - net_plain} entries), which this {game.name} "
            f"engine cannot compute; retrain"
        ) from exc
    if net_plain + features != net_size:
        raise ShippedAgentError(
            f"{where}: observation size differs: the network takes {net_size} entries, this game gives "
            f"{net_plain} plain entries + {features} action features; retrain"
        )
    return _Binding(agent, actor, "features", env_plain)


def _bind_shortlist(agent: ShippedAgent, actor: ActorSnapshot, game: Game, where: str) -> _Binding:
    """A network trained on the game's shortlist: the version its JSON names (1 when it names none) must exist, be
    the same (its name) and fit the network."""
    version = agent.info.get("shortlist_version", DEFAULT_VERSION)
    try:
        shortlist = shortlist_of(game, version)
    except NotImplementedError as exc:
        raise ShippedAgentError(f"{where}: trained on a shortlist, which this {game.name} engine lacks") from exc
    except InvalidOptionError as exc:
        raise ShippedAgentError(f"{where}: trained on a shortlist this engine lacks: {exc}; retrain") from exc
    if shortlist.name != agent.info["shortlist"]:
        raise ShippedAgentError(
            f"{where}: trained on the shortlist {agent.info['shortlist']!r}, this game has {shortlist.name!r}; retrain"
        )
    if (actor.input_size, actor.output_size) != (shortlist.size, shortlist.choices):
        raise ShippedAgentError(
            f"{where}: the network takes {actor.input_size} inputs and gives {actor.output_size} logits; the "
            f"shortlist has {shortlist.size} entries and {shortlist.choices} candidates; retrain"
        )
    return _Binding(agent, actor, "shortlist", shortlist.size, shortlist)


def check_shipped(
    game_class: type[Game],
    num_players: int | None = None,
    options: Mapping[str, Any] | None = None,
    *,
    name: str = "ppo",
    weights_dir: str | os.PathLike[str] | None = None,
) -> ShippedAgent:
    """Refuse now (``ShippedAgentError``) what ``ShippedPolicy`` would refuse at its first move.

    Finds the file, checks version, SHA-256 and observation sizes on a probe game, and leaves
    the weights loaded in this process's cache. Returns the agent (``.info`` is its JSON).
    """
    probe = game_class(num_players=num_players, seed=0, **dict(options or {}))
    agent = find_shipped(game_class, probe.num_players, probe.config, name=name, weights_dir=weights_dir)
    _bind(agent, load_actor(agent, game_class), probe)
    return agent


# ---------------------------------------------------------------------------------- the policy
class ShippedPolicy(Policy):
    """A shipped agent as a ``Policy``: the most probable legal action (``sample=True``: sampled).

    ``game`` (the engine's name, ``Game.name``) is only used to check that it plays the game it was
    made for; the file is chosen from the ``game`` object passed to ``act`` (its class, player count
    and options).
    """

    def __init__(
        self,
        game: str | None = None,
        name: str = "ppo",
        sample: bool = False,
        seed: int | None = None,
        weights_dir: str | os.PathLike[str] | None = None,
    ) -> None:
        super().__init__(seed)
        _check_name(name)
        self.game_name = game
        self.name = name
        self.sample = sample
        self.weights_dir = None if weights_dir is None else str(weights_dir)
        self._bindings: dict[tuple, _Binding] = {}

    def _key(self, game: Game) -> tuple:
        return (type(game), game.num_players, tuple(sorted(game.config.items())))

    def check_game(self, game: Game) -> _Binding:
        """Choose and load the file for ``game``'s configuration, or refuse now (``ShippedAgentError``)."""
        key = self._key(game)
        binding = self._bindings.get(key)
        if binding is None:
            if self.game_name is not None and game.name != self.game_name:
                raise ShippedAgentError(f"a shipped agent made for {self.game_name} cannot play {game.name}")
            game_class = type(game)
            agent = find_shipped(
                game_class, game.num_players, game.config, name=self.name, weights_dir=self.weights_dir
            )
            binding = self._bindings[key] = _bind(agent, load_actor(agent, game_class), game)
        return binding

    def network_input(self, observation: np.ndarray | None, game: Game, player: int) -> np.ndarray:
        """What the network reads for ``player`` now (the observation, or its plain part + action features)."""
        return self.check_game(game).network_input(observation, game, player)

    def act(self, observation: np.ndarray | None, action_mask: np.ndarray, game: Game, player: int) -> int:
        binding = self._bindings.get(self._key(game)) or self.check_game(game)
        if not self.sample:  # the most probable legal action of one legal action is that action
            forced = forced_action(action_mask)
            if forced is not None:
                return forced
        if binding.mode == "shortlist":
            return binding.choose(observation, game, player, self.rng if self.sample else None)
        logits = binding.actor.logits(binding.network_input(observed(observation, self), game, player))
        return masked_choice(logits, action_mask, self.rng if self.sample else None)

    def action_probabilities(
        self, observation: np.ndarray | None, action_mask: np.ndarray, game: Game, player: int
    ) -> np.ndarray | None:
        """The network's softmax over the legal actions (``None`` for a shortlist agent, which chooses among
        candidates, not actions)."""
        binding = self._bindings.get(self._key(game)) or self.check_game(game)
        if binding.mode == "shortlist":
            return None
        network_input = binding.network_input(observed(observation, self), game, player)
        return masked_softmax(binding.actor.logits(network_input), action_mask)

    def __getstate__(self) -> dict[str, Any]:  # send no weights to worker processes: they load their own
        state = dict(self.__dict__)
        state["_bindings"] = {}
        return state

    def __repr__(self) -> str:
        return f"ShippedPolicy({self.name!r}, game={self.game_name!r}, sample={self.sample})"


# ---------------------------------------------------------------------------------- writing
def variant_name(game_class: type[Game], options: Mapping[str, Any] | None = None) -> str:
    """The file-name variant: the non-default values of the options that matter, joined by ``-``."""
    full = validate_options(game_class.name, game_class.options, dict(options or {}))
    parts = []
    for key, value in _non_default(game_class, {k: v for k, v in full.items() if k not in IGNORED_OPTIONS}).items():
        parts.append(str(value) if isinstance(value, str) else f"{key}_{value}")
    return "-".join(re.sub(r"[^a-z0-9_]+", "_", part.lower()) for part in parts)


def agent_stem(game_class: type[Game], num_players: int, options: Mapping[str, Any] | None = None) -> str:
    """``<game>-<N>p[-<variant>]``: the name of an agent's two files, without extension."""
    variant = variant_name(game_class, options)
    return f"{game_class.name}-{num_players}p" + (f"-{variant}" if variant else "")


def write_shipped_agent(
    actor: ActorSnapshot,
    game_class: type[Game],
    num_players: int,
    *,
    options: Mapping[str, Any] | None = None,
    out_dir: str | os.PathLike[str] | None = None,
    name: str = "ppo",
    extra: Mapping[str, Any] | None = None,
    force: bool = False,
    shortlist: bool = False,
    shortlist_version: int = DEFAULT_VERSION,
    also_plays: list[int] | tuple[int, ...] | None = None,
    environment: str | None = None,
) -> tuple[Path, Path]:
    """Write ``<stem>.npz`` and ``<stem>.json`` into the weights folder ``out_dir`` (default: the package's;
    agents other than ``ppo`` go to its subfolder named after them).

    ``environment``: the id of the environment it was trained on, with its version (``fiesta_envs/Tequila-v2``;
    ``fiesta export`` passes the registry's).
    ``shortlist``: the network was trained on the game's shortlist, version ``shortlist_version`` (reads its
    vector, picks a candidate). ``also_plays``: the other player counts a shortlist agent plays (written as the
    JSON's ``also_plays``; refused for an agent that reads the observation).

    Checks first that the network fits the game (sizes, action features). Both files are written
    to temporary files, then renamed into place, the weights first: a reader sees the old pair,
    the new pair, or a pair whose SHA-256 differs (refused as corrupt), never half a file.
    ``extra`` adds fields (training, steps, seed, evaluation, command). Returns (npz, json).
    """
    _check_name(name)
    probe = game_class(num_players=num_players, seed=0, **dict(options or {}))
    directory = agent_directory(name, out_dir if out_dir is not None else PACKAGE_WEIGHTS_DIR)
    stem = agent_stem(game_class, probe.num_players, probe.config)
    npz_path, json_path = directory / f"{stem}.npz", directory / f"{stem}.json"
    if not force and (npz_path.exists() or json_path.exists()):
        raise ShippedAgentError(f"{json_path} already exists; pass force=True (fiesta export --force) to replace it")
    if also_plays is not None:
        counts = list(also_plays) if isinstance(also_plays, tuple) else also_plays
        also_plays = check_also_plays(
            str(json_path), game_class.name, probe.num_players, shortlist, counts, game_class.player_counts
        )
    plain = probe.observation_size - probe.action_features_size
    shortlist_name = None
    features: int | None
    if shortlist:
        try:
            game_shortlist = shortlist_of(probe, shortlist_version)
        except NotImplementedError as exc:
            raise ShippedAgentError(f"{game_class.name} has no shortlist") from exc
        except InvalidOptionError as exc:
            raise ShippedAgentError(str(exc)) from exc
        if (actor.input_size, actor.output_size) != (game_shortlist.size, game_shortlist.choices):
            raise ShippedAgentError(
                f"{game_class.name}: the network takes {actor.input_size} inputs and gives {actor.output_size} "
                f"logits; its shortlist {game_shortlist.name!r} has {game_shortlist.size} entries and "
                f"{game_shortlist.choices} candidates"
            )
        shortlist_name, plain, features = game_shortlist.name, game_shortlist.size, 0
    elif actor.input_size == plain:
        features = 0
    elif actor.input_size == probe.observation_size:
        features = probe.action_features_size
    else:  # trained with action features, this probe made without: the engine computes them
        try:
            features = len(probe.action_features(max(probe.current_player, 0)))
        except NotImplementedError:
            features = None
    if features is None or actor.input_size != plain + features:
        raise ShippedAgentError(
            f"{game_class.name}: the network takes {actor.input_size} inputs; this game's observation has "
            f"{probe.observation_size} entries ({plain} plain)"
        )
    num_actions = actor.output_size if shortlist else probe.num_actions
    if actor.output_size != num_actions:
        raise ShippedAgentError(
            f"{game_class.name}: the network gives {actor.output_size} logits for {probe.num_actions} actions"
        )
    directory.mkdir(parents=True, exist_ok=True)
    temporary_npz = _temporary(directory, npz_path.name)
    temporary_json = _temporary(directory, json_path.name)
    try:
        with open(temporary_npz, "wb") as handle:
            actor.write(handle)
            handle.flush()
            os.fsync(handle.fileno())
        info: dict[str, Any] = {
            "format": FORMAT_VERSION,
            "agent": name,
            "game": game_class.name,
            "num_players": probe.num_players,
            "options": dict(probe.config),
            "variant": variant_name(game_class, probe.config),
            "version": game_class.version,
            **({"environment": environment} if environment is not None else {}),
            "observation_layout": probe.observation_layout,
            "observation_size": actor.input_size,
            "plain_observation_size": plain,
            "action_features_size": features,
            "num_actions": num_actions,
            **({"shortlist": shortlist_name, "shortlist_version": shortlist_version} if shortlist_name else {}),
            **({"also_plays": also_plays} if also_plays is not None else {}),
            "network": {
                "layers": actor.layer_sizes,
                "activations": actor.activations,
                "parameters": actor.parameter_count,
            },
        }
        info.update({k: v for k, v in (extra or {}).items() if k not in info})
        info["npz"] = npz_path.name
        info["npz_bytes"] = temporary_npz.stat().st_size
        info["sha256"] = sha256_of(temporary_npz)
        with open(temporary_json, "w", encoding="utf-8") as handle:
            handle.write(json.dumps(info, indent=2, default=_json_default) + "\n")
            handle.flush()
            os.fsync(handle.fileno())
        for temporary in (temporary_npz, temporary_json):
            os.chmod(temporary, 0o644)  # package data, readable by all (temporary files start private)
        os.replace(temporary_npz, npz_path)
        os.replace(temporary_json, json_path)
    finally:
        temporary_npz.unlink(missing_ok=True)
        temporary_json.unlink(missing_ok=True)
    return npz_path, json_path


def _temporary(directory: Path, name: str) -> Path:
    descriptor, path = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=directory)
    os.close(descriptor)
    return Path(path)


def _json_default(value: Any) -> Any:
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, Path):
        return str(value)
    raise TypeError(f"value {value!r} of type {type(value).__name__} is not JSON-safe")
