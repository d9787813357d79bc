"""The engine contract: what every game's rules engine provides.

A game engine is pure rules: no Gymnasium, no PettingZoo, no torch. It subclasses ``Game``
and fills in the abstract methods. Everything generic (option checking, refusing illegal
actions with a clear message, action names, state dicts with the random generator, scenario
play by action names, rewards from scores) is written here once.

Life of a game::

    game = FiestaMexicana(num_players=3, seed=7)
    while not game.is_over:
        player = game.current_player
        mask = game.legal_mask()          # int8, one entry per action
        obs = game.observe(player)        # float32 vector, this player's view only
        game.step(some_legal_action)      # raises IllegalActionError otherwise
    game.returns()                        # reward per player, see ``reward`` option

Determinism: the game owns one ``numpy.random.Generator`` (``self.rng``), seeded by the
constructor's ``seed`` or by ``reset(seed)`` and saved in ``state_dict()``; chance events draw from it
and nothing else. ``reset()`` without a seed continues the same generator (as Gymnasium and
PettingZoo do), so a game seeded once deals a reproducible sequence of games.
"""

from __future__ import annotations

import abc
import difflib
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from fiesta_envs.core.errors import IllegalActionError, InvalidOptionError, InvalidStateError
from fiesta_envs.core.options import Option, validate_options, validate_player_count
from fiesta_envs.core.rewards import margin_returns, ranking_returns
from fiesta_envs.core.rng import generator_from_state, generator_state
from fiesta_envs.core.state_fields import first_unknown_key
from fiesta_envs.core.wording import players

if TYPE_CHECKING:
    from fiesta_envs.core.observer import Observer

#: The keys of an engine's state dict (``Game.state_dict``); ``version`` may be missing from older saves.
STATE_DICT_KEYS = ("game", "version", "num_players", "options", "rng", "state")

#: The reward option every competitive game accepts.
REWARD_OPTION = Option(
    "rank",
    choices=("rank", "margin"),
    doc="final reward: 'rank' (win +1, loss -1, linear in rank for 3+) or 'margin' (normalised score margin)",
)


#: The option of games that can append action-aligned features to their observation (see
#: ``Game.action_features``). Off by default: the plain observation is the documented layout.
ACTION_FEATURES_OPTION = Option(
    False,
    choices=(False, True),
    doc="append action-aligned features to the observation: for each action, numbers that say what it "
    "would bring now (points of a placement, a serve...); see the game's page",
)


class Game(abc.ABC):
    """Base class of every rules engine.

    Class attributes a game sets:
      name: the game's id (``"fiesta_mexicana"``), used in messages and state dicts.
      player_counts: the supported numbers of players.
      default_players: the number used when none is given.
      options: ``{name: Option}``; ``validate_options`` checks what users pass.
      cooperative: True when every player always gets the same reward.
      score_scale: a typical winning score; the ``margin`` reward divides by it.
      version: bumped whenever the rules or the encodings change behaviour.
      shortlist_target: ``"module:OBJECT"`` of the game's ``fiesta_envs.policies.shortlist.Shortlist``, or of a
        ``{version: Shortlist}`` mapping, for games whose agents train on one (None: it has none); loaded by
        ``policies.shortlist.shortlist_of(game, version)``.
    """

    name: ClassVar[str] = "game"
    player_counts: ClassVar[tuple[int, ...]] = (2,)
    default_players: ClassVar[int] = 2
    options: ClassVar[dict[str, Option]] = {"reward": REWARD_OPTION}
    cooperative: ClassVar[bool] = False
    score_scale: ClassVar[float] = 100.0
    version: ClassVar[int] = 0
    shortlist_target: ClassVar[str | None] = None
    #: Each engine's observer (``core.observer``): its observations and their named views.
    observer: Observer[Any]

    def __init__(self, num_players: int | None = None, seed: int | None = None, **options: Any) -> None:
        if num_players is None:
            num_players = self.default_players
        self.num_players: int = validate_player_count(self.name, self.player_counts, num_players)
        self.config: dict[str, Any] = validate_options(self.name, self.options, options)
        self.check_options()
        self.rng: np.random.Generator = np.random.default_rng(seed)
        self._mask_cache: np.ndarray | None = None
        #: Actions applied to this engine object since it was made, cloned, reset or loaded: a position's identity for
        #: caches of agents that decide and then describe the same decision (not part of the state).
        self.actions_applied = 0
        self._action_names: list[str] | None = None
        self._action_index: dict[str, int] | None = None
        self.reset(seed)

    # ------------------------------------------------------------------ to implement
    def check_options(self) -> None:
        """Refuse option combinations that make no sense together (``InvalidOptionError``)."""

    @property
    @abc.abstractmethod
    def num_actions(self) -> int:
        """Size of the flat ``Discrete`` action space (fixed for a player count and options)."""

    @property
    @abc.abstractmethod
    def observation_size(self) -> int:
        """Length of the vector ``observe`` returns."""

    @property
    def observation_layout(self) -> str:
        """The name of the observation layout of this configuration (``"<game>/v<version>"`` unless a game
        says more): a shipped agent plays only on the layout it was trained on."""
        return f"{self.name}/v{self.version}"

    @property
    def observation_is_information_state(self) -> bool:
        """True when ``observe`` is the seat's information state: everything it has seen and done so far, as a
        player with perfect memory knows it (two positions the seat cannot tell apart by its whole history give
        the same vector). False (the default) when the observation shows the table as it is now only."""
        return False

    def observation_bounds(self) -> tuple[float, float]:
        """Lowest and highest value any observation entry can take."""
        return 0.0, 1.0

    def observation_views(self, observation: Any) -> dict[str, np.ndarray]:
        """``{block name: array in its documented shape}`` for an observation of this game (the vector, or
        an environment's observation dict): copies, in the order of the game page's observation table."""
        return self.observer.observation_views(observation)

    @abc.abstractmethod
    def _new_game(self) -> None:
        """Set up a new game, drawing any randomness from ``self.rng``."""

    @property
    @abc.abstractmethod
    def current_player(self) -> int:
        """The seat that must act now, or -1 once the game is over."""

    @property
    @abc.abstractmethod
    def is_over(self) -> bool:
        """True once the game has ended."""

    def legal_mask(self) -> np.ndarray:
        """int8 array of length ``num_actions``: 1 where the action is legal for the current player.

        Computed by ``_compute_mask`` once per position and cached until the next ``step``,
        ``reset`` or ``load_state_dict``. Callers must not modify it (games may hand out read-only,
        shared rows of precomputed tables); copy it to keep or change it.
        """
        mask = self._mask_cache
        if mask is None:
            mask = self._mask_cache = self._compute_mask()
        return mask

    def _compute_mask(self) -> np.ndarray:
        """A new int8 legal-action mask for the current position (all zeros once the game is over)."""
        raise NotImplementedError(f"{type(self).__name__} must implement _compute_mask() (or legal_mask())")

    @abc.abstractmethod
    def _apply(self, action: int) -> None:
        """Apply a legal action of the current player (already checked against the mask)."""

    @abc.abstractmethod
    def scores(self) -> np.ndarray:
        """Each player's score now (final scores once the game is over), as floats."""

    @abc.abstractmethod
    def observe(self, player: int) -> np.ndarray:
        """A fresh float32 vector of length ``observation_size``: what ``player`` knows."""

    @abc.abstractmethod
    def _build_action_names(self) -> list[str]:
        """The name of every action, index by index (``"bid 9"``, ``"pass"``...)."""

    @abc.abstractmethod
    def _state_to_dict(self) -> dict[str, Any]:
        """The game's position as JSON-safe data (without rng, options or player count)."""

    @abc.abstractmethod
    def _state_from_dict(self, data: Mapping[str, Any]) -> None:
        """Restore what ``_state_to_dict`` wrote. May raise KeyError/TypeError/ValueError."""

    @abc.abstractmethod
    def render_text(self) -> str:
        """A text picture of the whole table (public information, at most 100 columns wide)."""

    @property
    def action_features_size(self) -> int:
        """Length of ``action_features`` (0 for games without the ``action_features`` option)."""
        return 0

    def action_features(self, player: int) -> np.ndarray:
        """Action-aligned numbers for ``player`` now, in [0, 1]: what each action would bring.

        Only what ``player`` may know goes in. With the option ``action_features=True``,
        ``observe`` appends exactly this vector to the plain observation, so the plain part is
        always ``observe(player)[: observation_size - action_features_size]``.
        """
        raise NotImplementedError(f"{self.name} has no action features")

    def explain_illegal(self, action: int) -> str:
        """Why ``action`` is not legal now; games override this with the rule that forbids it."""
        return "the rules do not allow it now"

    @classmethod
    def result_grade(cls, num_players: int, result: float) -> str | None:
        """The title the rulebook gives a final team (or solo) result, if it gives one (Tequila's solo ranks)."""
        return None

    def final_info(self) -> dict[str, Any]:
        """Extra facts for ``infos`` at the end (revealed objectives, achievements, ranks)."""
        return {}

    # ------------------------------------------------------------------ generic
    def reset(self, seed: int | None = None) -> None:
        """Start a new game; the same seed always gives the same game.

        Without a seed the game's generator goes on where it stopped: the next game of a
        reproducible sequence (and no cost of seeding a new generator).
        """
        if seed is not None:
            self.rng = np.random.default_rng(seed)
        self._mask_cache = None
        self.actions_applied = 0
        self._new_game()
        self._mask_cache = None

    def legal_actions(self) -> list[int]:
        return np.flatnonzero(self.legal_mask()).tolist()

    def step(self, action: Any) -> None:
        """Play ``action`` for the current player or raise ``IllegalActionError`` saying why."""
        mask = self.legal_mask()  # (cached; all zeros once the game is over)
        if type(action) is int and 0 <= action < len(mask) and mask[action]:
            index = action  # the common case, checked inline: a plain int the mask allows
        else:
            index = self.check_action(action)  # anything else: converted, or refused with the reason
        self._mask_cache = None
        self.actions_applied += 1
        self._apply(index)
        self._mask_cache = None

    def check_action(self, action: Any) -> int:
        """Return ``action`` as an int if it is legal now, else raise ``IllegalActionError``."""
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise IllegalActionError(
                f"{self.name}: an action must be an integer index in [0, {self.num_actions}), "
                f"got {action!r} of type {type(action).__name__}"
            )
        index = int(action)
        if not 0 <= index < self.num_actions:
            raise IllegalActionError(
                f"{self.name}: action {index} is out of range; actions are 0..{self.num_actions - 1}"
            )
        if self.is_over:
            raise IllegalActionError(
                f"{self.name}: the game is over; no action is legal (got {self.action_to_string(index)!r})"
            )
        if not self.legal_mask()[index]:
            raise IllegalActionError(
                f"{self.name}: player {self.current_player} may not play "
                f"{self.action_to_string(index)!r} (action {index}): {self.explain_illegal(index)}"
            )
        return index

    def play(self, *names: str) -> None:
        """Play actions by name, in order: ``game.play("bid 9", "pass", "place 2")``."""
        for name in names:
            self.step(self.string_to_action(name))

    def teams(self) -> list[int]:
        """The team of every seat (0, 1, ...); by default every player is a team of its own.

        Team-mates share a score; the ranking reward ranks teams, and every member gets its team's.
        """
        return list(range(self.num_players))

    def ranking_keys(self) -> np.ndarray:
        """What the final ranking compares, per seat: the scores, plus any tie-break a game adds
        (override it, e.g. ``score * 1000 + tie_break``)."""
        return self.scores()

    def returns(self) -> np.ndarray:
        """Final reward per player (zeros until the game is over), from the ``reward`` option.

        Teams are ranked as one (each member receives its team's reward); ``rank`` ranks on
        ``ranking_keys()`` and ``margin`` measures the score lead over the best other team.
        """
        return self.returns_of(self.config.get("reward", "rank"))

    def returns_of(self, reward: str) -> np.ndarray:
        """``returns()`` as the ``reward`` option ``reward`` ("rank" or "margin") would give them, whatever
        this game's option is (a search weighs both)."""
        if not self.is_over:
            return np.zeros(self.num_players)
        team_of = np.asarray(self.teams())
        _, first_seat, team_index = np.unique(team_of, return_index=True, return_inverse=True)
        if reward == "margin":
            per_team = margin_returns(self.scores()[first_seat], self.score_scale)
        else:
            per_team = ranking_returns(self.ranking_keys()[first_seat])
        return per_team[team_index]

    def winners(self) -> list[int]:
        """Seats sharing the best ranking key (the highest score, after any tie-break)."""
        keys = self.ranking_keys()
        return np.flatnonzero(keys == keys.max()).tolist()

    # ------------------------------------------------------------------ action names
    def action_names(self) -> list[str]:
        if self._action_names is None:
            names = self._build_action_names()
            if len(names) != self.num_actions:
                raise AssertionError(f"{self.name}: {len(names)} action names for {self.num_actions} actions")
            self._action_names = names
            self._action_index = {name: i for i, name in enumerate(names)}
        return self._action_names

    def action_to_string(self, action: int) -> str:
        names = self.action_names()
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise IllegalActionError(f"{self.name}: not an action index: {action!r}")
        if not 0 <= int(action) < len(names):
            raise IllegalActionError(f"{self.name}: action {action} is out of range 0..{len(names) - 1}")
        return names[int(action)]

    def string_to_action(self, text: str) -> int:
        self.action_names()
        assert self._action_index is not None
        key = " ".join(str(text).split())
        if key in self._action_index:
            return self._action_index[key]
        close = difflib.get_close_matches(key, list(self._action_index), n=3)
        hint = f"; did you mean {', '.join(repr(c) for c in close)}?" if close else ""
        raise IllegalActionError(f"{self.name}: no action is named {text!r}{hint}")

    def legal_action_names(self) -> list[str]:
        names = self.action_names()
        return [names[i] for i in self.legal_actions()]

    # ------------------------------------------------------------------ state dicts
    def state_dict(self) -> dict[str, Any]:
        """The whole game as JSON-safe data; ``load_state_dict`` continues it identically."""
        return {
            "game": self.name,
            "version": self.version,
            "num_players": self.num_players,
            "options": dict(self.config),
            "rng": generator_state(self.rng),
            "state": self._state_to_dict(),
        }

    def load_state_dict(self, data: Mapping[str, Any], *, check_keys: bool = True) -> None:
        """Restore a game saved by ``state_dict`` (same game, player count and options). A key that
        ``state_dict`` does not write, at any depth, is refused (``InvalidStateError`` naming it);
        ``check_keys=False`` skips that check for state dicts this package has just written (``clone``)."""
        if not isinstance(data, Mapping):
            raise InvalidStateError(f"{self.name}: a state dict must be a mapping, got {type(data).__name__}")
        for key in ("game", "num_players", "options", "rng", "state"):
            if key not in data:
                raise InvalidStateError(f"{self.name}: malformed state dict: missing key {key!r}")
        if check_keys:
            unknown = [key for key in data if key not in STATE_DICT_KEYS]
            if unknown:
                raise InvalidStateError(
                    f"{self.name}: unknown key {unknown[0]!r} in the state dict; "
                    f"its keys are {', '.join(STATE_DICT_KEYS)}"
                )
        if data["game"] != self.name:
            raise InvalidStateError(f"state dict is for game {data['game']!r}, not {self.name!r}")
        if data["num_players"] != self.num_players:
            raise InvalidStateError(
                f"{self.name}: state dict is for {players(data['num_players'])}, this game has {self.num_players}"
            )
        if not isinstance(data["options"], Mapping):
            raise InvalidStateError(
                f"{self.name}: state field 'options': expected a mapping, got {type(data['options']).__name__}"
            )
        unknown_options = [name for name in data["options"] if name not in self.config]
        if unknown_options:
            raise InvalidStateError(
                f"{self.name}: unknown key {'options.' + str(unknown_options[0])!r} in the state dict; "
                f"the game's options are {', '.join(self.config) or 'none'}"
            )
        if dict(data["options"]) != self.config:
            raise InvalidStateError(
                f"{self.name}: state dict options {dict(data['options'])} differ from this game's {self.config}"
            )
        try:
            rng = generator_from_state(data["rng"])
            self._state_from_dict(data["state"])
        except InvalidStateError:
            raise
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            raise InvalidStateError(f"{self.name}: malformed state dict: {type(exc).__name__}: {exc}") from exc
        self.rng = rng
        self._mask_cache = None
        self.actions_applied = 0
        if check_keys:
            written = {"rng": generator_state(self.rng), "state": self._state_to_dict()}
            unknown_key = first_unknown_key({"rng": data["rng"], "state": data["state"]}, written)
            if unknown_key is not None:
                raise InvalidStateError(
                    f"{self.name}: unknown key {unknown_key!r} in the state dict (state_dict() writes no such key)"
                )

    @classmethod
    def from_state_dict(cls, data: Mapping[str, Any], *, check_keys: bool = True) -> Game:
        """A new game continuing the one saved in ``data`` (``check_keys``: as for ``load_state_dict``)."""
        if not isinstance(data, Mapping) or "num_players" not in data or "options" not in data:
            raise InvalidStateError(f"{cls.name}: malformed state dict: needs 'num_players' and 'options'")
        if not isinstance(data["options"], Mapping):
            raise InvalidStateError(
                f"{cls.name}: state field 'options': expected a mapping, got {data['options']!r:.40}"
            )
        try:
            game = cls(num_players=data["num_players"], **dict(data["options"]))
        except InvalidOptionError as error:
            raise InvalidStateError(f"{cls.name}: state fields 'num_players'/'options': {error}") from error
        game.load_state_dict(data, check_keys=check_keys)
        return game

    def clone(self) -> Game:
        """An independent copy (for search or look-ahead; never used on the step path)."""
        return type(self).from_state_dict(self.state_dict(), check_keys=False)

    def determinize(self, seat: int, rng: np.random.Generator) -> Game:
        """A copy for search as ``seat`` may believe the game to be: everything hidden from ``seat`` (other
        hands, the deck order, choices not yet revealed) drawn afresh from ``rng`` consistently with what the
        seat knows, and chance (future dice and draws) seeded from ``rng``. Unlike ``clone()``, the copy
        cannot show the seat the true hidden state or the future. See ``core.determinization``; games
        with hidden information override this."""
        raise NotImplementedError(f"{self.name}: no determinisation for search yet (Game.determinize)")

    def __repr__(self) -> str:
        status = "over" if self.is_over else f"player {self.current_player} to act"
        return f"<{type(self).__name__} {players(self.num_players)}, {status}>"
