"""Retired environment versions: the old public module stays importable and says what replaced it.

PettingZoo's convention for a version bump: ``env()`` of the old module raises a ``DeprecatedEnv`` (an
``ImportError``) naming the new module. A game's old ``<game>_vN.py`` becomes two lines::

    from fiesta_envs.envs.retired import retired_env_functions

    env, raw_env, parallel_env = retired_env_functions("tequila_v1", "tequila_v2", "fiesta_envs/Tequila-v2")

Gymnasium and PettingZoo's registries need nothing: asking them for an older ``-vN`` id than the one
registered already fails with a message naming the registered version.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NoReturn

from pettingzoo.utils.deprecated_module import DeprecatedEnv


def retired_env_functions(old: str, new: str, new_id: str, why: str = "") -> tuple[Callable[..., NoReturn], ...]:
    """``env``, ``raw_env`` and ``parallel_env`` for the retired module ``old``: each raises ``DeprecatedEnv``."""
    reason = f" ({why})" if why else ""

    def retired(*args: Any, **kwargs: Any) -> NoReturn:
        raise DeprecatedEnv(
            f"fiesta_envs.{old} is retired{reason}: use fiesta_envs.{new} or the id {new_id!r} "
            "(see the version history in its documentation page)"
        )

    return retired, retired, retired
