"""Packaging: the wheel installs one top-level package, ``fiesta_envs`` (the repository's ``training/``
folder inside it as ``fiesta_envs.training``), the ``fiesta`` command points into it, and the code
imports the training layer by that one name only."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ("fiesta_envs", "training", "pyproject.toml", "README.md")


def test_training_folder_is_the_fiesta_envs_training_package():
    link = ROOT / "fiesta_envs" / "training"
    assert link.is_symlink() and link.resolve() == (ROOT / "training").resolve()


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
