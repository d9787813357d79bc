"""Packaging: the wheel installs one top-level package, ``fiesta_envs`` (the repository's ``training/`` and
``configs/`` folders inside it as ``fiesta_envs.training`` and ``fiesta_envs.configs``, by pyproject.toml's
package-dir, no link), the ``fiesta`` command points into it, and the code imports the training layer by that
one name only."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    tomllib = None

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ("fiesta_envs", "training", "configs", "pyproject.toml", "README.md")


#: Packages installed from other folders of the repository (pyproject.toml's package-dir).
MAPPED = {"fiesta_envs.training": "training", "fiesta_envs.configs": "configs"}


def _setuptools_table() -> dict:
    if tomllib is None:
        pytest.skip("tomllib needs Python 3.11")
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]


def test_training_and_configs_install_inside_the_package_without_a_link():
    assert not (ROOT / "fiesta_envs" / "training").exists(), "fiesta_envs/training: pyproject.toml maps it, no link"
    assert _setuptools_table()["package-dir"] == MAPPED


def test_the_package_list_names_every_package_folder():
    folders = {
        ".".join([package, *init.parent.relative_to(ROOT / folder).parts])
        for package, folder in {"fiesta_envs": "fiesta_envs", **MAPPED}.items()
        for init in (ROOT / folder).rglob("__init__.py")
    }
    listed = set(_setuptools_table()["packages"])
    missing, extra = sorted(folders - listed), sorted(listed - folders)
    assert not missing, f"add these packages to [tool.setuptools] packages in pyproject.toml: {missing}"
    assert not extra, f"pyproject.toml lists packages that have no folder with __init__.py: {extra}"


def test_the_installed_training_package_is_the_repositorys_folder():
    import fiesta_envs.configs
    import fiesta_envs.training

    assert Path(fiesta_envs.training.__file__).resolve() == (ROOT / "training" / "__init__.py").resolve()
    assert Path(fiesta_envs.configs.__file__).resolve() == (ROOT / "configs" / "__init__.py").resolve()


def test_wheel_has_no_top_level_training(tmp_path):
    source = tmp_path / "source"
    source.mkdir()
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info", "build")
    for name in SOURCES:
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, source / name, symlinks=True, ignore=ignore)
        else:
            shutil.copy2(path, source / name)
    command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(tmp_path)]
    result = subprocess.run([*command, str(source)], capture_output=True, text=True)
    if result.returncode != 0 and "No module named" in result.stderr:
        pytest.skip(f"cannot build a wheel here: {result.stderr.strip()[-200:]}")
    assert result.returncode == 0, result.stderr
    (wheel,) = tmp_path.glob("fiesta_envs-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    top_level = {name.split("/")[0] for name in names if not name.split("/")[0].endswith(".dist-info")}
    assert top_level == {"fiesta_envs"}
    for module in ("training/train.py", "training/config.py", "evaluation/tournament.py", "tools/play.py"):
        assert f"fiesta_envs/{module}" in names
    assert "fiesta_envs/testing/invariants/tequila.py" in names
    weights = ROOT / "fiesta_envs" / "agents" / "weights"
    shipped = [p.relative_to(ROOT).as_posix() for p in weights.rglob("*") if p.suffix in (".npz", ".json")]
    assert "fiesta_envs/agents/weights/against_search/fiesta_mexicana-2p.npz" in shipped
    assert sorted(set(shipped) - set(names)) == []  # every shipped agent, those in subfolders too
    configs = sorted(path.relative_to(ROOT).as_posix() for path in (ROOT / "configs").rglob("*.yaml"))
    assert configs and all(f"fiesta_envs/{config}" in names for config in configs)  # every config ships
    assert "fiesta_envs/py.typed" in names  # PEP 561: type checkers read the package's annotations
    entry_points = next(name for name in names if name.endswith("entry_points.txt"))
    assert "fiesta = fiesta_envs.cli:main" in zipfile.ZipFile(wheel).read(entry_points).decode()


def _imported_modules(path: Path) -> set[str]:
    modules = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            modules.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            modules.add(node.module)
    return modules


def test_nothing_imports_a_top_level_training_module():
    """``training`` is importable from a checkout's root too; one name keeps one module object per file."""
    files = [*ROOT.glob("fiesta_envs/**/*.py"), *ROOT.glob("training/**/*.py"), *ROOT.glob("tests/*.py")]
    offenders = sorted(
        f"{path.relative_to(ROOT)}: {module}"
        for path in files
        for module in _imported_modules(path)
        if module == "training" or module.startswith("training.")
    )
    assert offenders == []


def test_the_package_version_is_the_projects():
    import fiesta_envs

    if tomllib is None:
        pytest.skip("tomllib needs Python 3.11")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert fiesta_envs.__version__ == project["version"]
