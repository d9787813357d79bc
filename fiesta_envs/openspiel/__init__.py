"""Our games as OpenSpiel games (extra ``openspiel``): importing this package registers them with ``pyspiel``.

    import pyspiel
    import fiesta_envs.openspiel  # registers python_fiesta_mexicana, python_tortilla_de_patatas, ...

    game = pyspiel.load_game("python_fiesta_mexicana(players=3)")
    state = game.new_initial_state()
    state.observation_tensor(state.current_player())  # our observation, bit for bit

Names: ``python_fiesta_mexicana``, ``python_tortilla_de_patatas``, ``python_tequila``,
``python_fiesta_de_los_muertos``, ``python_la_catrina``. Parameters: ``players``, each of the game's options
(as in ``fiesta_envs.make``), and ``rng_seed`` (the seed of the sequence of deals; -1: unseeded).
``AgentBot(game, player, spec)`` plays any of our agents (``greedy``, ``search``, ``ppo``...) as a
``pyspiel.Bot``; ``ismcts_bot(game, simulations)`` is OpenSpiel's IS-MCTS ready for ``evaluate_bots``.
See ``game`` for what the game types declare and ``state`` for chance, clones and
``resample_from_infostate`` (our determinisation, for OpenSpiel's IS-MCTS).
"""

from __future__ import annotations

try:
    import pyspiel  # noqa: F401  (the openspiel extra: checked first, to name it when missing)
except ImportError as error:
    raise ModuleNotFoundError(
        "fiesta_envs.openspiel needs OpenSpiel, which is not installed: "
        f"pip install 'fiesta_envs[openspiel]' ({error})",
        name="pyspiel",
    ) from error

from fiesta_envs.openspiel.bots import AgentBot, RestartableISMCTSBot, ismcts_bot
from fiesta_envs.openspiel.game import FiestaGame, load_game, register_games, short_name
from fiesta_envs.openspiel.state import FiestaState

#: The OpenSpiel short names of our games, registered on import.
GAME_NAMES: list[str] = register_games()

__all__ = [
    "GAME_NAMES",
    "AgentBot",
    "FiestaGame",
    "FiestaState",
    "RestartableISMCTSBot",
    "ismcts_bot",
    "load_game",
    "register_games",
    "short_name",
]
