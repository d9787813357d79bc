"""Writing files so that nothing a user wrote is ever half-written: a temporary file beside the
target, flushed to disk, then renamed onto it (``os.replace`` is atomic on one file system).

Checkpoints keep their own, stricter scheme (``training/checkpoint.py``: the directory is synced
too and the previous checkpoint is kept until the new one is whole).
"""

from __future__ import annotations

import json
import os
import secrets
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any


@contextmanager
def atomic_target(path: str | os.PathLike[str]) -> Iterator[Path]:
    """A temporary path to write to; renamed onto ``path`` if the block ends normally, else removed.

    The file gets the permissions a plain ``open(path, "w")`` would give it: those of the file it
    replaces, or the default for new files (0644 under the usual umask; not ``mkstemp``'s 0600).
    """
    target = Path(path)
    temporary = new_file_beside(target)
    try:
        yield temporary
        os.replace(temporary, target)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def new_file_beside(target: str | os.PathLike[str]) -> Path:
    """A new empty hidden file next to ``target`` (its folder made if needed), to be renamed onto it.

    It has the permissions of the file it will replace, or the umask's for a new file (as ``open``
    would give; ``tempfile.mkstemp`` would make it private, 0600).
    """
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    while True:
        candidate = target.with_name(f".{target.name}.{secrets.token_hex(6)}.tmp")
        try:
            descriptor = os.open(candidate, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o666)
        except FileExistsError:
            continue
        os.close(descriptor)
        if target.exists():
            os.chmod(candidate, stat.S_IMODE(target.stat().st_mode))
        return candidate


def write_atomically(path: str | os.PathLike[str], data: str | bytes) -> None:
    """Write text (UTF-8) or bytes to ``path``: a reader sees the old file or the new one, never half."""
    payload = data.encode("utf-8") if isinstance(data, str) else data
    with atomic_target(path) as temporary, open(temporary, "wb") as handle:
        handle.write(payload)
        handle.flush()
        os.fsync(handle.fileno())


def write_json_atomically(path: str | os.PathLike[str], data: Any) -> None:
    """``data`` as indented JSON, written atomically; nothing is written if it cannot be encoded."""
    write_atomically(path, json.dumps(data, indent=2) + "\n")
