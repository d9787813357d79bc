"""Independent pieces of work spread over Ray tasks: the ``--backend ray`` of ``fiesta evaluate`` and ``fiesta fuzz``.

A long evaluation or fuzz run is many independent games. With ``--backend ray`` they are cut into pieces
(the same pieces, with the same seeds, as a local run), each piece is a Ray task, and the results come back
in the order of the pieces, so the outcome is the one of a local run of the same seed.

Where the tasks run: on the Ray cluster named by ``RAY_ADDRESS`` (``auto``, ``HOST:PORT``, ``ray://HOST:PORT``)
when it is set, else on a local Ray instance started for the run (with ``local_cpus`` CPUs, default every
core) and shut down after it. A Ray instance already started in this process (``ray.init``) is used as it is.
Every node must be able to import ``fiesta_envs`` (the same virtualenv on every node).

Ray comes with the ``rllib`` extra (``pip install 'fiesta_envs[rllib]'``); without it, asking for the backend
raises ``ModuleNotFoundError`` naming that extra, which the ``fiesta`` command prints as its error.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from types import ModuleType
from typing import Any, TypeVar

#: The places the games of ``fiesta evaluate`` and ``fiesta fuzz`` can run.
BACKENDS = ("local", "ray")

Result = TypeVar("Result")


def check_backend(backend: str) -> str:
    """``backend`` if it is one of ``BACKENDS``; otherwise a ``ValueError`` naming them."""
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {', '.join(BACKENDS)}, got {backend!r}")
    return backend


def import_ray() -> ModuleType:
    """The ``ray`` module, or a ``ModuleNotFoundError`` that names the extra installing it."""
    try:
        import ray
    except ImportError as error:
        raise ModuleNotFoundError(
            f"the ray backend needs Ray, which is not installed: pip install 'fiesta_envs[rllib]' ({error})",
            name="ray",
        ) from error
    return ray


@contextmanager
def ray_instance(local_cpus: int | None = None) -> Iterator[ModuleType]:
    """Ray, connected: to the running instance, else to ``RAY_ADDRESS``, else to a new local instance.

    An instance this starts (or connects to) is shut down on leaving; one already running is left running.
    """
    ray = import_ray()
    if ray.is_initialized():
        yield ray
        return
    address = os.environ.get("RAY_ADDRESS") or None
    settings: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
    if address is None and local_cpus:
        settings["num_cpus"] = int(local_cpus)
    ray.init(address=address, **settings)
    try:
        yield ray
    finally:
        ray.shutdown()


def ray_map(
    function: Callable[..., Result],
    calls: Sequence[tuple[Any, ...]],
    *,
    shared: tuple[Any, ...] = (),
    local_cpus: int | None = None,
) -> Iterator[Result]:
    """``function(*shared, *call)`` for every call as one Ray task (one CPU each); results in the order of ``calls``.

    ``shared`` is put in Ray's object store once for all tasks. ``function`` must be importable by the workers
    (a module-level function of an installed package). Tasks not yet finished when the iteration stops early
    (an error, a ``break``) are cancelled.
    """
    with ray_instance(local_cpus) as ray:
        remote = ray.remote(num_cpus=1, max_retries=0)(function)
        shared_refs = [ray.put(value) for value in shared]
        pending = [remote.remote(*shared_refs, *call) for call in calls]
        try:
            for index, ref in enumerate(pending):
                result = ray.get(ref)
                pending[index] = None
                yield result
        finally:
            for ref in pending:
                if ref is not None:
                    ray.cancel(ref)
