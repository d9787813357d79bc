"""Reading back the files the package writes beside weights (a checkpoint's ``meta.json``, a shipped agent's
``.json``): one JSON-object reader and one SHA-256, with the caller's error naming the file.

Writing them is ``files.atomic``'s job.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any


def sha256_of(path: Path) -> str:
    """The SHA-256 of a file (hex), read in 1 MiB blocks."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def read_json_object(path: Path, *, required: Sequence[str], corrupt: Callable[[str], Exception]) -> dict[str, Any]:
    """The JSON object in ``path``, holding every key of ``required``. Otherwise raises ``corrupt(problem)``,
    ``problem`` being "is not valid JSON (...)", "must hold a JSON object" or "lacks KEY, KEY"."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise corrupt(f"is not valid JSON ({exc})") from exc
    if not isinstance(data, dict):
        raise corrupt("must hold a JSON object")
    missing = [key for key in required if key not in data]
    if missing:
        raise corrupt(f"lacks {', '.join(missing)}")
    return data
