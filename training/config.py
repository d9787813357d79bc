"""The training config: a YAML file checked field by field before anything runs.

A config names the game and everything the run needs (see ``configs/fiesta_mexicana/ppo.yaml``)::

    game: fiesta_mexicana
    num_players: 2
    options: {reward: margin}      # passed to the game
    seed: 0
    total_timesteps: 614400
    n_envs: 8
    vec_env: dummy                 # or subproc: one worker process per environment
    reward_shaping: 1.0            # see training/shaping.py
    ppo: {learning_rate: 3.0e-4, n_steps: 256, batch_size: 512, n_epochs: 10, net_arch: [256, 128]}
    opponents:
      baselines: {random: 0.4, greedy: 0.2}      # opponents (any agent spec) and their weights
      self_play: {weight: 0.4, snapshot_every: 20480, pool_size: 8}
    checkpoint_every: 102400
    pretrain: {teacher: greedy, games: 2000, epochs: 10}   # optional: see training/pretrain.py
    shortlist: false               # true: choose among the game's shortlist (fiesta_envs/policies/shortlist.py)
    shortlist_version: 1           # which version of it (with shortlist: true; the game's shortlist lists them)
    eval: {every: 102400, games: 40, baselines: [random, greedy]}
    final_eval: {games: 200, baselines: [random, greedy], workers: 2}
    backend: sb3                   # or rllib: RLlib's PPO on Ray (configs/fiesta_mexicana/ppo_rllib.yaml)
    rllib: {num_env_runners: 2, address: null}   # only read by backend: rllib

Every schedule (``snapshot_every``, ``checkpoint_every``, ``eval.every``, ``total_timesteps``) is
rounded up to a whole number of rollouts (``ppo.n_steps x n_envs``).

``load_config(path, overrides=["ppo.learning_rate=1e-4", "seed=3"])`` applies command-line
overrides (dotted keys, values parsed as YAML) and validates. Every mistake -- a misspelt
field, a wrong type, a value out of range, an unknown game, option or agent -- raises a
``ConfigError`` whose message names the file, the field and what is allowed.
"""

from __future__ import annotations

import copy
import difflib
import re
import typing
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from fiesta_envs.core.errors import FiestaError
from fiesta_envs.training.config_files import UnknownConfigError, find_config


class ConfigError(FiestaError, ValueError):
    """A config file that cannot be read or does not pass validation."""


class ConfigSection(BaseModel):
    """A part of a training config: unknown fields are refused; no silent type coercion ("3" is not 3, true is not
    1)."""

    model_config = ConfigDict(extra="forbid", strict=True, validate_default=True)


PositiveInt = Annotated[int, Field(gt=0)]
Probability = Annotated[float, Field(ge=0.0, le=1.0)]


class PPOConfig(ConfigSection):
    """Hyper-parameters of sb3-contrib's MaskablePPO (same names and meaning)."""

    learning_rate: Annotated[float, Field(gt=0.0, le=1.0)] = 3e-4
    n_steps: Annotated[int, Field(ge=2)] = 1024  # steps per environment per rollout
    batch_size: Annotated[int, Field(ge=2)] = 256
    n_epochs: PositiveInt = 4
    gamma: Annotated[float, Field(gt=0.0, le=1.0)] = 0.99
    gae_lambda: Probability = 0.95
    clip_range: Annotated[float, Field(gt=0.0, le=1.0)] = 0.2
    ent_coef: Annotated[float, Field(ge=0.0)] = 0.01
    vf_coef: Annotated[float, Field(ge=0.0)] = 0.5
    max_grad_norm: Annotated[float, Field(gt=0.0)] = 0.5
    target_kl: Annotated[float, Field(gt=0.0)] | None = None
    normalize_advantage: bool = True
    net_arch: Annotated[list[PositiveInt], Field(min_length=1, max_length=8)] = [128, 128]
    activation: Literal["tanh", "relu"] = "tanh"


class SelfPlayConfig(ConfigSection):
    """Frozen past selves: a snapshot of the learner joins the pool every ``snapshot_every`` steps."""

    weight: Annotated[float, Field(ge=0.0)] = 0.0  # share of opponent seats filled from the pool
    snapshot_every: PositiveInt = 20480
    pool_size: PositiveInt = 8  # the newest ``pool_size`` snapshots are the pool
    deterministic: bool = False  # frozen selves sample their moves (more varied opposition)


class OpponentsConfig(ConfigSection):
    """Who sits in the other seats, drawn per episode and per seat by weight."""

    baselines: dict[str, Annotated[float, Field(ge=0.0)]] = {"random": 1.0}
    self_play: SelfPlayConfig = SelfPlayConfig()


class EvalConfig(ConfigSection):
    """Evaluation during training against scripted baselines (logged to TensorBoard)."""

    every: Annotated[int, Field(ge=0)] = 0  # steps between evaluations; 0 = never
    games: PositiveInt = 50  # per baseline, seats rotated
    baselines: list[str] = []  # empty: every scripted baseline of the game and random
    at_start: bool = False  # also evaluate the network PPO starts from (step 0, after init and pretrain)


class FinalEvalConfig(ConfigSection):
    """The evaluation table printed at the end of the run."""

    games: Annotated[int, Field(ge=0)] = 200  # per baseline; 0 = skip
    baselines: list[str] = []  # empty: every scripted baseline of the game and random
    workers: PositiveInt = 1  # processes playing the games


class PretrainConfig(ConfigSection):
    """Behaviour cloning of a scripted player before PPO (see training/pretrain.py)."""

    teacher: str  # any agent spec (fiesta_envs/agents/registry.py): greedy, ppo, search:budget=4, a checkpoint...
    games: PositiveInt = 1000  # games in which the teacher plays the learner's seat
    # who moves in the learner's seat while the teacher labels every decision (None: the teacher itself); e.g.
    # the network being improved, so the labels cover the positions it reaches (expert iteration, DAgger)
    played_by: str | None = None
    opponents: dict[str, Annotated[float, Field(ge=0.0)]] = {}  # other seats by weight; empty: the teacher
    epochs: PositiveInt = 10
    batch_size: PositiveInt = 512
    learning_rate: Annotated[float, Field(gt=0.0, le=1.0)] = 1e-3
    value_coef: Annotated[float, Field(ge=0.0)] = 0.5
    validation: Annotated[float, Field(ge=0.0, lt=1.0)] = 0.1  # share of games held out
    workers: Annotated[int, Field(ge=1, le=64)] = 1
    # what is cloned: the teacher's action, or its probability of every action where it has them (a network)
    targets: Literal["actions", "probabilities"] = "actions"


#: What ``rllib.address`` accepts besides ``local`` and ``auto``: a Ray head (``host:port``) or a Ray Client URL.
RAY_ADDRESS_PATTERN = re.compile(r"^(ray://)?[A-Za-z0-9_.-]+:[0-9]{1,5}$")


class RllibConfig(ConfigSection):
    """The Ray RLlib backend (``backend: rllib``, ``training/rllib_train.py``): where and how wide to sample."""

    num_env_runners: Annotated[int, Field(ge=0, le=1024)] = 2  # sampling actors; 0: sample in the driver
    num_cpus_per_env_runner: Annotated[float, Field(gt=0.0, le=64.0)] = 1.0
    # None: the cluster named by the RAY_ADDRESS environment variable, else a new local Ray instance;
    # "local": always a new local instance; "auto": the running cluster on this machine; "host:port" or
    # "ray://host:port": that cluster
    address: str | None = None

    @field_validator("address")
    @classmethod
    def _ray_address(cls, value: str | None) -> str | None:
        if value is None or value in ("local", "auto") or RAY_ADDRESS_PATTERN.match(value):
            return value
        raise ValueError(
            f"not a Ray address: {value!r}; allowed: local, auto, HOST:PORT, ray://HOST:PORT, or leave it out "
            "(RAY_ADDRESS, else a local Ray instance)"
        )


class TrainConfig(ConfigSection):
    game: str
    num_players: int | None = None  # None: the game's default player count
    options: dict[str, Any] = {}  # passed to the game (e.g. reward: margin)
    seed: Annotated[int, Field(ge=0)] = 0
    total_timesteps: Annotated[int, Field(ge=0)]  # 0: no PPO, the run is its ``pretrain`` stage (and ``init``)
    n_envs: Annotated[int, Field(ge=1, le=256)] = 1
    # "subproc": one worker process per environment (when n_envs > 1); "dummy": all in this process
    vec_env: Literal["subproc", "dummy"] = "subproc"
    torch_threads: Annotated[int, Field(ge=1, le=256)] = 1
    device: Literal["cpu", "cuda", "auto"] = "cpu"
    ppo: PPOConfig = PPOConfig()
    # weight of potential-based shaping by the running score margin (0: the game's reward only);
    # it leaves the best policy unchanged and speeds up learning, see training/shaping.py
    reward_shaping: Annotated[float, Field(ge=0.0, le=10.0)] = 0.0
    opponents: OpponentsConfig = OpponentsConfig()
    # cooperative games: "shared" -- the learner plays every seat (every decision trains it); "frozen" -- it
    # plays one seat and its latest frozen snapshot plays the others
    team_play: Literal["shared", "frozen"] = "shared"
    # the learner chooses among the game's shortlist of candidates (fiesta_envs/policies/shortlist.py) and reads its
    # features instead of the observation; for games with a huge action space (Fiesta de los Muertos)
    shortlist: bool = False
    # the version of the game's shortlist (with ``shortlist: true``): 1, the shipped agents', or a later one
    shortlist_version: int = 1
    # a trained network the run's policy starts from (training/warm_start.py): ppo, a checkpoint, a .zip
    init: str | None = None
    pretrain: PretrainConfig | None = None  # behaviour cloning before PPO (None: start from scratch)
    checkpoint_every: PositiveInt = 50000
    eval: EvalConfig = EvalConfig()
    final_eval: FinalEvalConfig = FinalEvalConfig()
    run_dir: str | None = None  # default: runs/<game>/<config file name>-seed<seed>
    # "sb3": MaskablePPO in this machine's processes; "rllib": RLlib's PPO on a Ray cluster (the rllib extra)
    backend: Literal["sb3", "rllib"] = "sb3"
    rllib: RllibConfig = RllibConfig()
    progress_bar: bool = True
    tensorboard: bool = True

    @field_validator("game")
    @classmethod
    def _known_game(cls, value: str) -> str:
        from fiesta_envs.registry import GAMES

        for spec in GAMES.values():
            if value in (spec.name, spec.gym_id):
                return spec.name
        hint = difflib.get_close_matches(value, list(GAMES), n=1)
        did_you_mean = f"did you mean {hint[0]!r}? " if hint else ""
        raise ValueError(f"unknown game {value!r}; {did_you_mean}allowed: {', '.join(sorted(GAMES))}")

    @model_validator(mode="after")
    def _fits_the_game(self) -> TrainConfig:
        from fiesta_envs.agents.registry import resolve_agent
        from fiesta_envs.core.errors import InvalidOptionError
        from fiesta_envs.registry import game_spec

        spec = game_spec(self.game)
        game_class = spec.game_class()
        if self.num_players is None:
            self.num_players = game_class.default_players
        if self.num_players not in game_class.player_counts:
            counts = ", ".join(str(n) for n in game_class.player_counts)
            raise _FieldError("num_players", f"{self.game} is played by {counts} players, not {self.num_players}")
        try:
            game_class(num_players=self.num_players, **self.options)
        except InvalidOptionError as exc:
            raise _FieldError("options", str(exc)) from exc
        if self.shortlist:
            from fiesta_envs.policies.shortlist import shortlist_of

            try:
                shortlist_of(game_class, self.shortlist_version)
            except NotImplementedError as exc:
                raise _FieldError("shortlist", f"{self.game} has no shortlist; set `shortlist: false`") from exc
            except InvalidOptionError as exc:
                raise _FieldError("shortlist_version", str(exc)) from exc
            if self.pretrain is not None and self.pretrain.targets == "probabilities":
                raise _FieldError(
                    "pretrain.targets",
                    "`probabilities` needs `shortlist: false` (a shortlist network chooses among candidates, not "
                    "actions); use `targets: actions`",
                )
        elif self.shortlist_version != 1:  # (1, the default, is in every saved config)
            raise _FieldError("shortlist_version", "a shortlist version other than 1 needs `shortlist: true`")
        pretrain_names = (
            [
                ("pretrain.teacher", [self.pretrain.teacher]),
                ("pretrain.opponents", list(self.pretrain.opponents)),
                ("pretrain.played_by", [self.pretrain.played_by] if self.pretrain.played_by else []),
            ]
            if self.pretrain is not None
            else []
        )
        for field, names in (
            *pretrain_names,
            ("opponents.baselines", list(self.opponents.baselines)),
            ("eval.baselines", self.eval.baselines),
            ("final_eval.baselines", self.final_eval.baselines),
        ):
            for name in names:
                try:  # any agent spec, checked as evaluate does: ``greedy:version=1``, ``ppo``, a checkpoint...
                    resolve_agent(spec, self.num_players, name, self.options)
                except InvalidOptionError as exc:
                    raise _FieldError(field, str(exc)) from exc
        self_play = self.opponents.self_play
        if game_class.cooperative and "baselines" not in self.opponents.model_fields_set:
            self.opponents.baselines = {}  # the default (random opponents) means nothing in a cooperative game
        if game_class.cooperative:
            if any(weight > 0 for weight in self.opponents.baselines.values()):
                raise _FieldError(
                    "opponents.baselines",
                    f"{self.game} is cooperative: every seat is played by the learner (its team-mates are its own "
                    "latest snapshot), so scripted opponents cannot be mixed in; set `baselines: {}`",
                )
        elif self.num_players == 1:
            if sum(self.opponents.baselines.values()) + self_play.weight > 0:
                raise _FieldError(
                    "opponents",
                    f"a solo game of {self.game} has no opponents; set `baselines: {{}}` (and no self_play)",
                )
        elif sum(self.opponents.baselines.values()) + self_play.weight <= 0:
            raise _FieldError(
                "opponents", "the weights of opponents.baselines and opponents.self_play.weight must not all be 0"
            )
        if self.total_timesteps == 0 and self.pretrain is None:
            raise _FieldError(
                "total_timesteps",
                "0 steps of PPO leaves nothing to train without a `pretrain` stage; give a number of steps > 0",
            )
        if self.backend == "rllib":
            if self.init is not None:
                raise _FieldError("init", "the rllib backend has no warm start; remove `init` (or use backend: sb3)")
            if self.pretrain is not None:
                raise _FieldError(
                    "pretrain", "the rllib backend has no behaviour cloning; remove `pretrain` (or use backend: sb3)"
                )
            if self.reward_shaping > 0:
                raise _FieldError("reward_shaping", "the rllib backend trains on the game's reward; set it to 0")
        if self.init is not None:
            self._check_init()
        if self.ppo.batch_size > self.ppo.n_steps * self.n_envs:
            raise _FieldError(
                "ppo.batch_size",
                f"batch_size {self.ppo.batch_size} exceeds the rollout size n_steps x n_envs = "
                f"{self.ppo.n_steps} x {self.n_envs} = {self.ppo.n_steps * self.n_envs}",
            )
        return self

    def _check_init(self) -> None:
        from fiesta_envs.core.errors import InvalidOptionError
        from fiesta_envs.training.warm_start import WarmStartError, check_fits, initial_actor

        try:
            check_fits(initial_actor(self), self)
        except (WarmStartError, InvalidOptionError) as exc:
            raise _FieldError("init", str(exc)) from exc

    # -- derived ---------------------------------------------------------------------
    @property
    def pretrain_opponents(self) -> dict[str, float]:
        """Who sits in the other seats while the teacher's games are collected."""
        if self.pretrain is None:
            return {}
        return dict(self.pretrain.opponents) or {self.pretrain.teacher: 1.0}

    @property
    def rollout_size(self) -> int:
        """Steps gathered between two PPO updates; every schedule is rounded up to a multiple of it."""
        return self.ppo.n_steps * self.n_envs

    def eval_baselines(self, names: Sequence[str]) -> list[str]:
        from fiesta_envs.registry import game_spec

        return list(names) or ["random", *sorted(game_spec(self.game).baseline_classes())]

    def game_shortlist(self) -> Any:
        """The game's ``Shortlist`` (version ``shortlist_version``) when ``shortlist`` is set, else None."""
        if not self.shortlist:
            return None
        from fiesta_envs.policies.shortlist import shortlist_of
        from fiesta_envs.registry import game_spec

        return shortlist_of(game_spec(self.game).game_class(), self.shortlist_version)

    @property
    def shortlist_in_use(self) -> int | None:
        """The version of the shortlist the learner chooses among, None without ``shortlist: true``."""
        return self.shortlist_version if self.shortlist else None

    def cooperative(self) -> bool:
        from fiesta_envs.registry import game_spec

        return bool(game_spec(self.game).game_class().cooperative)


class _FieldError(Exception):
    """Raised inside the model validator to blame a particular field (not a ValueError, so pydantic
    lets it through instead of reporting it against the whole config)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


# ---------------------------------------------------------------------------------- loading
def _yaml_loader() -> type:
    """PyYAML's safe loader, but reading ``3e-4`` as a number (YAML 1.1 wants ``3.0e-4``)."""
    import yaml

    class Loader(yaml.SafeLoader):
        pass

    Loader.add_implicit_resolver(
        "tag:yaml.org,2002:float",
        re.compile(r"^[-+]?(?:[0-9][0-9_]*)(?:\.[0-9_]*)?[eE][-+]?[0-9]+$"),
        list("-+0123456789"),
    )
    return Loader


def parse_yaml(text: str) -> Any:
    import yaml

    return yaml.load(text, Loader=_yaml_loader())  # a SafeLoader subclass: no arbitrary objects


def read_yaml(path: Path | str) -> dict[str, Any]:
    """The mapping in a YAML file, or a ``ConfigError`` naming the file (and line) at fault."""
    import yaml

    path = Path(path)
    if not path.exists():
        raise ConfigError(f"config file not found: {path}")
    if not path.is_file():
        raise ConfigError(f"config path {path} is not a file")
    try:
        data = parse_yaml(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        where = ""
        mark = getattr(exc, "problem_mark", None)
        if mark is not None:
            where = f" at line {mark.line + 1}, column {mark.column + 1}"
        problem = getattr(exc, "problem", None) or str(exc)
        raise ConfigError(f"{path}: not valid YAML{where}: {problem}") from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read the config file: {exc}") from exc
    if data is None:
        raise ConfigError(f"{path}: the config file is empty; it needs at least `game` and `total_timesteps`")
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: a config must be a YAML mapping (field: value), not a {type(data).__name__}")
    return data


def apply_overrides(data: Mapping[str, Any], overrides: Sequence[str], source: str = "--set") -> dict[str, Any]:
    """A copy of ``data`` with ``key.sub=value`` overrides applied (values parsed as YAML)."""
    import yaml

    result = copy.deepcopy(dict(data))
    for item in overrides:
        key, sep, text = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise ConfigError(f"{source} {item!r}: expected KEY=VALUE, e.g. --set ppo.learning_rate=0.0001")
        try:
            value = parse_yaml(text) if text.strip() else None
        except yaml.YAMLError as exc:
            raise ConfigError(f"{source} {item!r}: the value is not valid YAML ({exc})") from exc
        parts = key.split(".")
        if any(not part for part in parts):
            raise ConfigError(f"{source} {item!r}: {key!r} is not a dotted field name such as ppo.n_steps")
        node = result
        for depth, part in enumerate(parts[:-1]):
            child = node.get(part)
            if child is None:
                child = node[part] = {}
            if not isinstance(child, dict):
                prefix = ".".join(parts[: depth + 1])
                raise ConfigError(f"{source} {item!r}: {prefix} is {_a(type(child).__name__)}, not a section")
            node = child
        node[parts[-1]] = value
    return result


def add_override_argument(parser: Any) -> None:
    """The ``--set KEY=VALUE`` option of the commands that read a config (``apply_overrides`` applies it)."""
    parser.add_argument(
        "--set",
        dest="overrides",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="override a config field, dotted keys, YAML values (repeatable): --set ppo.n_steps=256",
    )


def validate_config(data: Mapping[str, Any], source: str = "config") -> TrainConfig:
    """A ``TrainConfig`` from plain data, or a ``ConfigError`` naming ``source``, the field and the rule."""
    try:
        return TrainConfig.model_validate(dict(data))
    except ValidationError as exc:
        raise ConfigError(_describe(exc, source)) from None
    except _FieldError as exc:
        raise ConfigError(f"{source}: field {exc.field!r}: {exc.message}") from None


def load_config(path: Path | str, overrides: Sequence[str] = ()) -> TrainConfig:
    """Read, override and validate a config: a file, or the name of a packaged one (``smoke``,
    ``fiesta_mexicana/ppo``; see ``training/config_files.py``)."""
    try:
        path = find_config(path)
    except UnknownConfigError as error:
        raise ConfigError(str(error)) from None
    data = apply_overrides(read_yaml(path), overrides)
    source = str(path) + (f" (with --set {' '.join(overrides)})" if overrides else "")
    return validate_config(data, source)


def config_to_dict(config: TrainConfig) -> dict[str, Any]:
    """The config as plain data (what is saved beside checkpoints and read back on resume)."""
    return config.model_dump(mode="json")


def checkpoint_meta(config: TrainConfig) -> dict[str, Any]:
    """What every checkpoint's ``meta.json`` says of its run, whichever backend trained it. ``options`` holds every
    option of the game, defaults filled in (``action_features``, ``observation``...): the evaluation plays the
    checkpoint with them, whatever the defaults of a later version."""
    from fiesta_envs.registry import game_spec

    game_class = game_spec(config.game).game_class()
    return {
        "game": config.game,
        "num_players": config.num_players,
        "options": dict(game_class(num_players=config.num_players, seed=0, **config.options).config),
        "seed": config.seed,
        "config": config_to_dict(config),
    }


def save_config(config: TrainConfig, path: Path) -> None:
    import yaml

    path.write_text(yaml.safe_dump(config_to_dict(config), sort_keys=False), encoding="utf-8")


# ---------------------------------------------------------------------------------- messages
def _model_at(location: Sequence[Any]) -> type[BaseModel] | None:
    """The pydantic model that owns the field at ``location`` (for did-you-mean hints)."""
    model: type[BaseModel] = TrainConfig
    for part in location:
        field = model.model_fields.get(str(part))
        annotation = getattr(field, "annotation", None)
        candidates = [annotation, *typing.get_args(annotation)]  # a section or an optional section
        sections = [c for c in candidates if isinstance(c, type) and issubclass(c, BaseModel)]
        if not sections:
            return None
        model = sections[0]
    return model


def _describe_one(error: Mapping[str, Any]) -> str:
    location = [str(part) for part in error["loc"]]
    # pydantic appends the validator name for Annotated/union members; drop those markers
    location = [part for part in location if not part.startswith(("function-", "constrained-"))]
    kind = error["type"]
    if kind == "extra_forbidden":
        owner = _model_at(location[:-1])
        field = location[-1]
        allowed = sorted(owner.model_fields) if owner else []
        hint = difflib.get_close_matches(field, allowed, n=1)
        did_you_mean = f"did you mean {hint[0]!r}? " if hint else ""
        return f"unknown field {'.'.join(location)!r}; {did_you_mean}allowed fields here: {', '.join(allowed)}"
    if kind == "missing":
        return f"field {'.'.join(location)!r} is required"
    message = str(error["msg"])
    if kind == "value_error":
        message = message.removeprefix("Value error, ")
    given = error.get("input")
    return f"field {'.'.join(location)!r}: {message} (got {given!r}, {_a(type(given).__name__)})"


def _a(noun: str) -> str:
    return f"an {noun}" if noun[:1] in "aeiou" else f"a {noun}"


def _describe(exc: ValidationError, source: str) -> str:
    seen: list[str] = []
    for error in exc.errors():
        text = _describe_one(error)
        if text not in seen:
            seen.append(text)
    if len(seen) == 1:
        return f"{source}: {seen[0]}"
    return f"{source}: {len(seen)} problems:\n" + "\n".join(f"  - {line}" for line in seen)
