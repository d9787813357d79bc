"""The package's layers import only downwards.

The layers are those of ``[tool.importlinter]`` in pyproject.toml (``lint-imports`` checks them in
scripts/test.sh), top first: the applications and each game's public module, the environments
(``envs``), the game engines (none importing another), the policies, the files, and the engine contract
(``core``). Here they are checked again on the import graph of ``test_import_graph`` -- every import, at
the top, inside functions and under ``TYPE_CHECKING`` -- which also sees the training package (installed
from ``training/``, outside the package folder that ``lint-imports`` reads); and every module of the
package must sit in a layer, so that a new one is placed on purpose. No module reads its callers' frames.
"""

from __future__ import annotations

import re
import sys

import pytest
from test_import_graph import GAME_PACKAGES, MAPPED, PACKAGE, ROOT, import_graph

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    tomllib = None

#: One layer: its members (``envs``, ``tequila``...) and whether they must not import one another.
Layer = tuple[frozenset[str], bool]


def parse_layers(lines: list[str]) -> list[Layer]:
    """import-linter's layer lines, top first: ``a : b`` are members that may import one another,
    ``a | b`` members that may not."""
    layers = []
    for line in lines:
        independent = "|" in line
        members = frozenset(name.strip() for name in line.replace("|", ":").split(":"))
        layers.append((members, independent))
    return layers


def contract_layers() -> list[Layer]:
    if tomllib is None:
        pytest.skip("tomllib needs Python 3.11")
    table = tomllib.loads((ROOT.parent / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    (contract,) = [contract for contract in table["contracts"] if contract["type"] == "layers"]
    assert contract["containers"] == [PACKAGE]
    return parse_layers(contract["layers"])


#: The packages installed from other folders (training, configs): applications, in the top layer.
OUTSIDE_THE_FOLDER = frozenset(name.split(".")[1] for name in MAPPED)


def member_of(module: str) -> str | None:
    """The package's top-level module or subpackage holding ``module`` (None for the package itself)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[0] == PACKAGE else None


def upward_imports(graph: dict[str, set[str]], layers: list[Layer]) -> list[str]:
    """Each import of a layer above the importer's, or of a sibling in a layer of independent members."""
    rank = {member: index for index, (members, _) in enumerate(layers) for member in members}
    independent = {member for members, alone in layers if alone for member in members}
    wrong = []
    for module, targets in sorted(graph.items()):
        source = member_of(module)
        if source not in rank:
            continue
        for target in sorted(targets):
            other = member_of(target)
            if other not in rank or other == source:
                continue
            if rank[other] < rank[source] or (rank[other] == rank[source] and source in independent):
                wrong.append(f"{module} -> {target}")
    return wrong


def test_the_check_finds_an_upward_import_and_an_import_between_independent_siblings():
    layers = parse_layers(["apps : web", "envs", "tequila | tortilla", "core"])
    assert layers[2] == (frozenset({"tequila", "tortilla"}), True) and layers[0][1] is False
    graph = {
        "fiesta_envs.core.game": {"fiesta_envs.core.errors", "fiesta_envs.envs.aec"},
        "fiesta_envs.tequila.game": {"fiesta_envs.core.game", "fiesta_envs.tortilla.game"},
        "fiesta_envs.envs.aec": {"fiesta_envs.core.game", "fiesta_envs.tequila.game"},
        "fiesta_envs.apps.x": {"fiesta_envs.web.y", "fiesta_envs.envs.aec"},
        "fiesta_envs.web.y": {"fiesta_envs.apps.x"},
    }
    assert upward_imports(graph, layers) == [
        "fiesta_envs.core.game -> fiesta_envs.envs.aec",
        "fiesta_envs.tequila.game -> fiesta_envs.tortilla.game",
    ]


def test_every_module_of_the_package_sits_in_one_layer():
    layers = contract_layers()
    placed = [member for members, _ in layers for member in members]
    assert len(placed) == len(set(placed)), "a module is in two layers"
    found = {path.stem for path in ROOT.glob("*.py") if path.stem != "__init__"}
    found |= {path.parent.name for path in ROOT.glob("*/__init__.py")}
    assert found == set(placed), (
        f"not in a layer of [tool.importlinter]: {sorted(found - set(placed))}; "
        f"in a layer but not in the package: {sorted(set(placed) - found)}"
    )


def test_no_layer_imports_a_layer_above_it():
    layers = contract_layers()
    top, independent = layers[0]
    with_training = [(top | OUTSIDE_THE_FOLDER, independent), *layers[1:]]
    wrong = upward_imports(import_graph(), with_training)
    assert not wrong, "imports of a higher layer (see [tool.importlinter] in pyproject.toml):\n" + "\n".join(wrong)


def test_the_layers_below_the_applications_are_the_roles_in_order():
    """Reordering the layers would hide an upward import: the order is pinned here."""
    bottom_up = [sorted(members) for members, _ in reversed(contract_layers())]
    assert bottom_up[:5] == [["core"], ["files"], ["policies"], GAME_PACKAGES, ["envs"]]
    assert len(bottom_up) == 6


def test_no_module_reads_its_callers_frames():
    """What a module does depends on its arguments, never on who called it (``sys._getframe``,
    ``inspect.currentframe``, ``inspect.stack``)."""
    reading = re.compile(r"\b(?:sys\._getframe|inspect\.currentframe|inspect\.stack)\b|\bimport _getframe\b")
    using = [
        str(path.relative_to(ROOT.parent))
        for path in sorted([*ROOT.rglob("*.py"), *(ROOT.parent / "training").rglob("*.py")])
        if reading.search(path.read_text(encoding="utf-8"))
    ]
    assert not using, f"modules reading the call stack: {using}"
