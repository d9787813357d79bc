"""The import paths of modules that moved out of ``fiesta_envs.core``, kept working until 0.4.0.

``fiesta_envs.core`` holds the engine contract only; the environments, policies and file helpers that
lived beside it have their own packages (``MOVED_MODULES`` lists each old path and its new one).
``import fiesta_envs.core.aec``, ``from fiesta_envs.core.policy import Policy`` and unpickling an object
saved under an old path still work: they give the module at its new path -- the same module object, so
``isinstance`` checks and monkeypatching see one module -- and warn (``DeprecationWarning``) with the path
to import instead.

``import fiesta_envs`` installs the finder (``install``), so every old path works as soon as the package
is imported; the finder is asked last, after the real modules are looked for. Reading a moved module as an
attribute of ``fiesta_envs.core`` (``fiesta_envs.core.policy`` after ``import fiesta_envs``) imports it by
its old path too.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import warnings
from collections.abc import Sequence
from types import ModuleType

#: The package the modules moved out of.
CORE = "fiesta_envs.core"
#: The release that removes the old paths.
REMOVED_IN = "0.4.0"

#: Each moved module: its old path and its new one.
MOVED_MODULES: dict[str, str] = {
    "fiesta_envs.core.aec": "fiesta_envs.envs.aec",
    "fiesta_envs.core.aec_state": "fiesta_envs.envs.aec_state",
    "fiesta_envs.core.infos": "fiesta_envs.envs.infos",
    "fiesta_envs.core.parallel": "fiesta_envs.envs.parallel",
    "fiesta_envs.core.retired": "fiesta_envs.envs.retired",
    "fiesta_envs.core.single_seat": "fiesta_envs.envs.single_seat",
    "fiesta_envs.core.team_env": "fiesta_envs.envs.team_env",
    "fiesta_envs.core.actor_policy": "fiesta_envs.policies.actor_policy",
    "fiesta_envs.core.mlp": "fiesta_envs.policies.mlp",
    "fiesta_envs.core.policy": "fiesta_envs.policies.policy",
    "fiesta_envs.core.search": "fiesta_envs.policies.search",
    "fiesta_envs.core.shortlist": "fiesta_envs.policies.shortlist",
    "fiesta_envs.core.atomic": "fiesta_envs.files.atomic",
    "fiesta_envs.core.pickling": "fiesta_envs.files.pickling",
    "fiesta_envs.core.saved_files": "fiesta_envs.files.saved_files",
    "fiesta_envs.core.ray_tasks": "fiesta_envs.evaluation.ray_tasks",
}


def deprecation_message(old: str) -> str:
    """What importing the old path ``old`` warns."""
    return f"{old} has moved to {MOVED_MODULES[old]}: import it from there (the old path works until {REMOVED_IN})"


class _MovedModuleLoader(importlib.abc.Loader):
    """Puts the module at its new path in ``sys.modules`` under the old one, with the warning."""

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> None:
        return None  # a placeholder module, replaced in sys.modules by exec_module

    def exec_module(self, module: ModuleType) -> None:
        old = module.__name__
        # stacklevel 2: the import machinery's own frames are skipped, so the warning names the importing line
        warnings.warn(deprecation_message(old), DeprecationWarning, stacklevel=2)
        sys.modules[old] = importlib.import_module(MOVED_MODULES[old])


class OldImportPathFinder(importlib.abc.MetaPathFinder):
    """Finds the old paths of ``MOVED_MODULES`` (and nothing else)."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in MOVED_MODULES:
            return None
        return importlib.machinery.ModuleSpec(fullname, _MovedModuleLoader())


def moved_module_attribute(name: str) -> ModuleType:
    """``fiesta_envs.core``'s module ``__getattr__``: a moved module read as an attribute, imported by its old
    path (so it warns); any other missing name is an ``AttributeError`` as usual."""
    old = f"{CORE}.{name}"
    if old not in MOVED_MODULES:
        raise AttributeError(f"module {CORE!r} has no attribute {name!r}")
    return importlib.import_module(old)


def install() -> None:
    """Append the finder to ``sys.meta_path`` (once), and let ``fiesta_envs.core`` give moved modules as
    attributes."""
    if not any(isinstance(finder, OldImportPathFinder) for finder in sys.meta_path):
        sys.meta_path.append(OldImportPathFinder())
    vars(importlib.import_module(CORE))["__getattr__"] = moved_module_attribute
