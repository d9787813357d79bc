"""The list of games and where their parts live, resolved lazily.

Adding a game is one ``GameSpec`` line here; everything else (Gymnasium and PettingZoo
registration, the command line, tournaments, benchmarks, fuzzing) reads this table.
Nothing is imported until a game is actually used, so ``import fiesta_envs`` stays light.
"""

from __future__ import annotations

import difflib
import functools
import importlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from fiesta_envs.core.errors import InvalidOptionError

if TYPE_CHECKING:
    import numpy as np

    from fiesta_envs.core.game import Game
    from fiesta_envs.envs.aec import Picture
    from fiesta_envs.policies.policy import Policy


@dataclass(frozen=True)
class GameSpec:
    name: str  # the engine's name, e.g. "fiesta_mexicana"
    gym_id: str  # Gymnasium / PettingZoo registry id
    aec_module: str  # public PettingZoo-style module with env() and raw_env
    engine: str  # "module:Class" of the rules engine
    baselines: str  # "module:DICT" of scripted policies by name
    renderer: str | None = None  # module drawing the game (fiesta_envs.render.<...>); None: text only
    parallel: bool = False  # the public module has parallel_env() too (simultaneous rules: envs.parallel)
    search: str | None = None  # "module:Class" of the game's search agent (``policies.search``), named ``search_name``
    search_name: str = "search"  # the cooperative games' search plays the whole team ahead: "team_search"

    def game_class(self) -> type[Game]:
        return _load(self.engine)

    def baseline_classes(self) -> dict[str, type[Policy]]:
        return _load(self.baselines)

    def agent_classes(self) -> dict[str, type[Policy]]:
        """Every agent a name gives without a path: ``random``, the scripted baselines and ``search`` (where
        the game has one; ``team_search`` in the cooperative games). Training draws its opponents from the
        baselines only: a search is too slow."""
        from fiesta_envs.policies.policy import RandomPolicy

        search = {self.search_name: _load(self.search)} if self.search else {}
        return {"random": RandomPolicy, **self.baseline_classes(), **search}

    def drawing_module(self) -> Any:
        """The module that draws this game (``renderer``): the one place a game's picture comes from."""
        if self.renderer is None:
            drawn = ", ".join(name for name, other in GAMES.items() if other.renderer)
            raise NotImplementedError(f"{self.name} has no picture rendering; games with one: {drawn}")
        return importlib.import_module(self.renderer)

    def picture(self) -> Picture | None:
        """How the environments draw this game (``render_mode="rgb_array"``): its drawing module's ``draw``,
        loaded when first used (Pillow may be missing); None for a game drawn as text only."""
        return None if self.renderer is None else functools.partial(_draw, self.name)

    def configurations(self) -> list[tuple[int, dict[str, Any]]]:
        """Every supported player count with default options, then every non-default choice of every
        option but ``reward`` once (at the default player count, or the first count that accepts it).
        Used by the API tests, the golden playthroughs and the benchmark; see ``core.configurations``."""
        from fiesta_envs.core.configurations import configurations

        return configurations(self.game_class(), every_count=False, skip=("reward",))


def _draw(name: str, game: Game) -> np.ndarray:
    """The picture of ``game`` (a game of the registry's ``name``)."""
    return game_spec(name).drawing_module().draw(game)


def _load(target: str) -> Any:
    module_name, _, attribute = target.partition(":")
    return getattr(importlib.import_module(module_name), attribute)


GAMES: dict[str, GameSpec] = {
    spec.name: spec
    for spec in (
        GameSpec(
            "fiesta_mexicana",
            "fiesta_envs/FiestaMexicana-v1",
            "fiesta_envs.fiesta_mexicana_v1",
            "fiesta_envs.fiesta_mexicana.game:FiestaMexicana",
            "fiesta_envs.fiesta_mexicana.baselines:BASELINES",
            "fiesta_envs.render.fiesta_mexicana",
            search="fiesta_envs.fiesta_mexicana.search:FiestaMexicanaSearch",
        ),
        GameSpec(
            "tortilla_de_patatas",
            "fiesta_envs/TortillaDePatatas-v1",
            "fiesta_envs.tortilla_de_patatas_v1",
            "fiesta_envs.tortilla.game:TortillaDePatatas",
            "fiesta_envs.tortilla.baselines:BASELINES",
            "fiesta_envs.render.tortilla",
            search="fiesta_envs.tortilla.search:TortillaSearch",
        ),
        GameSpec(
            "tequila",
            "fiesta_envs/Tequila-v2",
            "fiesta_envs.tequila_v2",
            "fiesta_envs.tequila.game:Tequila",
            "fiesta_envs.tequila.baselines:BASELINES",
            "fiesta_envs.render.tequila",
            parallel=True,
            search="fiesta_envs.tequila.search:TequilaSearch",
        ),
        GameSpec(
            "fiesta_de_los_muertos",
            "fiesta_envs/FiestaDeLosMuertos-v1",
            "fiesta_envs.fiesta_de_los_muertos_v1",
            "fiesta_envs.muertos.game:FiestaDeLosMuertos",
            "fiesta_envs.muertos.baselines:BASELINES",
            "fiesta_envs.render.muertos",
            search="fiesta_envs.muertos.search:MuertosTeamSearch",
            search_name="team_search",
        ),
        GameSpec(
            "la_catrina",
            "fiesta_envs/LaCatrina-v1",
            "fiesta_envs.la_catrina_v1",
            "fiesta_envs.muertos.catrina:LaCatrina",
            "fiesta_envs.muertos.baselines:BASELINES",
            "fiesta_envs.render.muertos",
            search="fiesta_envs.muertos.search:MuertosTeamSearch",
            search_name="team_search",
        ),
    )
}


def game_spec(name: str) -> GameSpec:
    """The spec of a game by engine name or Gymnasium id; a clear error for unknown names."""
    for spec in GAMES.values():
        if name in (spec.name, spec.gym_id, spec.aec_module.rsplit(".", 1)[-1]):
            return spec
    known = ", ".join(GAMES)
    spellings = {
        spelling: spec.name
        for spec in GAMES.values()
        for spelling in (spec.name, spec.gym_id, spec.aec_module.rsplit(".", 1)[-1])
    }
    close = difflib.get_close_matches(str(name).lower(), list(spellings), n=1, cutoff=0.5)
    hint = f" (did you mean {spellings[close[0]]!r}?)" if close else ""
    raise InvalidOptionError(f"unknown game {name!r}{hint}; known games: {known}")


def make_policy(
    game: str,
    policy: Any,
    seed: int | None = None,
    *,
    num_players: int | None = None,
    options: dict[str, Any] | None = None,
    trust_checkpoints: bool = False,
) -> Policy:
    """A policy for ``game`` from any agent spec (``fiesta_envs.agents.registry``): a name with options
    (``"random"``, ``"greedy:version=1"``, ``"search:budget=16"``), ``"ppo"`` (the trained agent shipped in the
    package, for games that ship one), a checkpoint or run directory, a stable-baselines3 zip (with
    ``trust_checkpoints=True``), ``"FILE.py:ATTR"`` or ``"module:ATTR"``, or a Python object: a Policy (used
    as given), a Policy class, a factory or a function ``(observation, action_mask) -> action``.

    ``num_players`` and ``options``, when given, are checked against the agent now; otherwise the agent is
    checked at its first game (the Gymnasium environment checks its opponents when it is made).
    """
    from fiesta_envs.agents.registry import make_agent

    return make_agent(
        game_spec(game),
        policy,
        num_players=num_players,
        options=options,
        seed=seed,
        trust_checkpoints=trust_checkpoints,
    )


def make_gym_env(game: str, **kwargs: Any) -> Any:
    """The single-seat Gymnasium env of ``game`` (the entry point behind ``gymnasium.make``)."""
    from fiesta_envs.envs.single_seat import SingleSeatEnv

    spec = game_spec(game)
    policy_factory = functools.partial(make_policy, spec.name)  # (policy, seed) -> Policy; picklable
    return SingleSeatEnv(spec.game_class(), policy_factory, picture=spec.picture(), **kwargs)


def make_aec_env(game: str, **kwargs: Any) -> Any:
    """The wrapped PettingZoo AEC env of ``game`` (the entry point behind ``pettingzoo.make``)."""
    return importlib.import_module(game_spec(game).aec_module).env(**kwargs)


def make_parallel_env(game: str, **kwargs: Any) -> Any:
    """The PettingZoo Parallel env of ``game`` (behind ``pettingzoo.make("parallel", id)``)."""
    spec = game_spec(game)
    if not spec.parallel:
        raise InvalidOptionError(f"{spec.name}: its rules play no decision simultaneously (no Parallel API)")
    return importlib.import_module(spec.aec_module).parallel_env(**kwargs)


def register_environments() -> None:
    """Register every game with Gymnasium (single seat) and PettingZoo (all seats: AEC, and Parallel for
    games with simultaneous rules)."""
    import gymnasium
    import pettingzoo

    for spec in GAMES.values():
        if spec.gym_id not in gymnasium.registry:
            gymnasium.register(
                id=spec.gym_id,
                entry_point="fiesta_envs.registry:make_gym_env",
                kwargs={"game": spec.name},
                disable_env_checker=True,
                order_enforce=False,  # the env enforces it, counting load_state_dict() as a reset
            )
        if spec.gym_id not in pettingzoo.aec_registry:
            pettingzoo.register("aec", spec.gym_id, make_aec_env, kwargs={"game": spec.name})
        if spec.parallel and spec.gym_id not in pettingzoo.parallel_registry:
            pettingzoo.register("parallel", spec.gym_id, make_parallel_env, kwargs={"game": spec.name})
