"""No import circles in fiesta_envs, and the layers import only downwards.

Every module of the package is parsed (``ast``); every import counts -- at the top, inside functions
and under ``TYPE_CHECKING`` -- because a lazy import hides a circle without removing it. An import
``from package import name`` counts as an import of ``package.name`` when that is a module, else of
``package``; importing a module also imports its parent packages' ``__init__``, which is not counted
(that is how Python runs, but it would make every subpackage a circle with its parent).

``KNOWN_CYCLES`` is a ratchet: the circles found must be exactly those listed, so a new circle fails
and so does a fixed one until it is removed from the list. **The list must end empty.**
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

from fiesta_envs.registry import GAMES

PACKAGE = "fiesta_envs"
ROOT = Path(__file__).resolve().parent.parent / PACKAGE

#: The import circles of today, each as the sorted list of its modules. Remove an entry when the
#: circle is gone; never add one. This list must end empty.
KNOWN_CYCLES: list[list[str]] = []


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


#: Packages installed from other folders of the repository (pyproject.toml's package-dir).
MAPPED = {"fiesta_envs.training": ROOT.parent / "training", "fiesta_envs.configs": ROOT.parent / "configs"}


def all_modules() -> dict[str, Path]:
    modules = {module_name(path): path for path in sorted(ROOT.rglob("*.py"))}
    for package, folder in MAPPED.items():
        for path in sorted(folder.rglob("*.py")):
            parts = list(path.relative_to(folder).with_suffix("").parts)
            modules[".".join([package, *parts[: -1 if parts[-1] == "__init__" else None]])] = path
    return modules


def test_the_training_layer_is_part_of_the_graph():
    assert {"fiesta_envs.training", "fiesta_envs.training.train", "fiesta_envs.training.run_eval"} <= set(all_modules())


def imported_modules(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The package's modules that ``name`` imports anywhere in its source."""
    is_package = path.name == "__init__.py"
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = name.split(".") if is_package else name.split(".")[:-1]
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base for alias in node.names]
        else:
            continue
        for target in targets:
            while target and target not in modules:  # `import fiesta_envs.x.y` where y is a function...
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


@functools.cache
def import_graph() -> dict[str, set[str]]:
    modules = all_modules()
    return {name: imported_modules(name, path, modules) for name, path in modules.items()}


def strongly_connected_components(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's algorithm (iterative); components of one module without a self-import are left out."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    components = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    components.append(sorted(component))
    return sorted(components)


def _layer(module: str) -> str:
    """``core``, ``training`` or the game package a module belongs to (``fiesta_mexicana``...)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


#: The game packages (``fiesta_mexicana``, ``muertos``...): where the registry's engines live.
GAME_PACKAGES = sorted({_layer(spec.engine.partition(":")[0]) for spec in GAMES.values()})


def test_the_checker_finds_circles_and_resolves_relative_imports(tmp_path):
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}}
    assert strongly_connected_components(graph) == [["a", "b", "c"]]
    modules = {"fiesta_envs.g": ROOT, "fiesta_envs.g.x": ROOT, "fiesta_envs.g.y": ROOT, "fiesta_envs.core": ROOT}
    source = tmp_path / "x.py"
    source.write_text(
        "from typing import TYPE_CHECKING\nfrom . import y\nif TYPE_CHECKING:\n    from ..core import thing\n"
        "def later():\n    import fiesta_envs.g.y.function\n"
    )
    assert imported_modules("fiesta_envs.g.x", source, modules) == {"fiesta_envs.g.y", "fiesta_envs.core"}


def test_the_import_circles_are_exactly_the_known_ones():
    found = strongly_connected_components(import_graph())
    new = [cycle for cycle in found if cycle not in KNOWN_CYCLES]
    fixed = [cycle for cycle in KNOWN_CYCLES if cycle not in found]
    assert not new, "new import circles (break them; do not add them to KNOWN_CYCLES):\n" + "\n".join(map(str, new))
    assert not fixed, "circles that are gone: remove them from KNOWN_CYCLES in this file:\n" + "\n".join(
        map(str, fixed)
    )


def test_core_imports_no_game_and_nothing_above_it():
    allowed = {"core", "errors"}
    wrong = {
        module: sorted(target for target in targets if _layer(target) not in allowed)
        for module, targets in import_graph().items()
        if _layer(module) == "core"
    }
    wrong = {module: targets for module, targets in wrong.items() if targets}
    assert not wrong, f"fiesta_envs.core must import only fiesta_envs.core: {wrong}"


@pytest.mark.parametrize("game", GAME_PACKAGES)
def test_a_game_imports_no_other_game_and_no_training(game):
    others = set(GAME_PACKAGES) - {game}
    wrong = {
        module: sorted(target for target in targets if _layer(target) in others or _layer(target) == "training")
        for module, targets in import_graph().items()
        if _layer(module) == game
    }
    wrong = {module: targets for module, targets in wrong.items() if targets}
    assert not wrong, f"fiesta_envs.{game} imports another game or training: {wrong}"
    assert not any(
        target.split(".")[0] == "training" for path in (ROOT / game).rglob("*.py") for target in _top_imports(path)
    ), f"fiesta_envs.{game} imports the training package"


def _top_imports(path: Path) -> set[str]:
    """Absolute imports outside the package (``training``, ``torch``...)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            names.add(node.module)
    return {name for name in names if not name.startswith(PACKAGE)}
