"""The Muertos modules import in one direction: no circles (counting imports inside functions and under
``TYPE_CHECKING``), data modules import nothing above them, and the renderer reads data, not the engine."""

from __future__ import annotations

import ast
from pathlib import Path

import fiesta_envs

PACKAGE = Path(fiesta_envs.__file__).parent
MODULES = {
    f"fiesta_envs.muertos.{path.stem}": path for path in (PACKAGE / "muertos").glob("*.py") if path.stem != "__init__"
}
MODULES["fiesta_envs.render.muertos"] = PACKAGE / "render" / "muertos.py"
#: Data modules and what each may import of the game (nothing above it).
DATA = {
    "fiesta_envs.muertos.components": set(),
    "fiesta_envs.muertos.bands": set(),
    "fiesta_envs.muertos.lexicon": set(),
    "fiesta_envs.muertos.identity": {"fiesta_envs.muertos.lexicon"},
    "fiesta_envs.muertos.constraints": {"fiesta_envs.muertos.lexicon"},
}
ENGINE = {f"fiesta_envs.muertos.{name}" for name in ("round", "engine", "game", "catrina", "observation", "baselines")}


def imports_of(path: Path) -> set[str]:
    """Every ``fiesta_envs`` module ``path`` imports, wherever the import statement stands."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found |= {f"{node.module}.{alias.name}" for alias in node.names}  # ``from package import module``
    return {name for name in found if name in MODULES or name.startswith("fiesta_envs.")}


GRAPH = {module: imports_of(path) & set(MODULES) for module, path in MODULES.items()}


def test_no_import_circles():
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> None:
        if module in path:
            raise AssertionError("import circle: " + " -> ".join([*path[path.index(module) :], module]))
        if module in done:
            return
        for imported in sorted(GRAPH[module]):
            visit(imported, [*path, module])
        done.add(module)

    for module in sorted(GRAPH):
        visit(module, [])


def test_data_modules_import_nothing_above_them():
    for module, allowed in DATA.items():
        assert GRAPH[module] <= allowed, f"{module} imports {sorted(GRAPH[module] - allowed)}"


def test_the_renderer_reads_data_not_the_engine():
    assert not GRAPH["fiesta_envs.render.muertos"] & ENGINE, sorted(GRAPH["fiesta_envs.render.muertos"] & ENGINE)
