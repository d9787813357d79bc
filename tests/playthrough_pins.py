"""Version pins of the golden playthroughs: a playthrough may change only with its environment's version.

``tests/playthroughs/versions.json`` holds, per playthrough file, the environment it was recorded on (e.g.
``fiesta_envs/Tequila-v2``) and the SHA-256 of the file. A playthrough that changes while the game keeps its
version means the environment's behaviour changed under the same name: ``tests/test_playthrough_versions.py``
fails and says so. After a bump of the version, ``python scripts/make_playthroughs.py`` re-pins the files.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from playthrough_support import DIRECTORY, configurations, file_name

from fiesta_envs.registry import GAMES

PINS = DIRECTORY / "versions.json"
REGENERATE = "python scripts/make_playthroughs.py"
#: re-pins a changed playthrough at the same version (a change that is not one of behaviour, e.g. a name)
SAME_VERSION = f"{REGENERATE} --same-version"


def text_digest(text: str) -> str:
    """SHA-256 of a playthrough's text, line endings normalised (a Windows checkout gives the same digest)."""
    return hashlib.sha256(text.replace("\r\n", "\n").encode("utf-8")).hexdigest()


def environment_of(game: str) -> str:
    """The environment id the game's playthroughs are recorded on, e.g. ``fiesta_envs/Tequila-v2``."""
    return GAMES[game].gym_id


def version_of(environment: str) -> str:
    """``v2`` of ``fiesta_envs/Tequila-v2``."""
    return environment.rsplit("-", 1)[-1]


def read_pins(path: Path = PINS) -> dict[str, dict[str, str]]:
    if not path.exists():
        return {}
    return json.loads(path.read_text(encoding="utf-8"))


def write_pins(pins: Mapping[str, Mapping[str, str]], path: Path = PINS) -> None:
    path.write_text(json.dumps(dict(sorted(pins.items())), indent=2) + "\n", encoding="utf-8")


def pin_problem(name: str, game: str, text: str, pin: Mapping[str, Any] | None, environment: str) -> str | None:
    """What is wrong with playthrough ``name`` of ``game`` (its ``text`` now, its ``pin``, the game's current
    ``environment`` id), or None when the pin holds."""
    if pin is None:
        return f"playthrough {name} is not pinned in {PINS.name}: pin it with {REGENERATE}"
    if pin.get("environment") != environment:
        return (
            f"playthrough {name} is pinned on {pin.get('environment')} but {game} is now {environment}: "
            f"re-pin with {REGENERATE}"
        )
    if pin.get("sha256") != text_digest(text):
        return (
            f"playthrough {name} changed but {game} is still {version_of(environment)}: bump the version "
            f"(and re-pin with {REGENERATE}); a change that is not one of behaviour (an action's name) "
            f"is re-pinned with {SAME_VERSION}"
        )
    return None


def playthrough_files() -> list[tuple[str, str]]:
    """(file name, game) of every configuration's playthrough."""
    return [(file_name(game, n, options), game) for game, n, options in configurations()]


def repin(same_version: bool = False, path: Path = PINS) -> list[str]:
    """Pin every playthrough file on the current environment versions; returns the problems left.

    A file that changed while its game kept its version is pinned only with ``same_version``."""
    pins = read_pins(path)
    problems = []
    new_pins = {}
    for name, game in playthrough_files():
        text = (DIRECTORY / name).read_text(encoding="utf-8")
        environment = environment_of(game)
        problem = pin_problem(name, game, text, pins.get(name), environment)
        unchanged_version = name in pins and pins[name].get("environment") == environment
        if problem is not None and unchanged_version and not same_version:
            problems.append(problem)
            new_pins[name] = pins[name]
        else:
            new_pins[name] = {"environment": environment, "sha256": text_digest(text)}
    write_pins(new_pins, path)
    return problems
