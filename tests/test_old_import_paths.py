"""The modules that left ``fiesta_envs.core`` keep their old import paths until 0.4.0: each old path gives
the module at its new path (the same object) and warns with the path to use."""

from __future__ import annotations

import importlib
import pickle
import re
import sys
import warnings
from pathlib import Path

import pytest

import fiesta_envs.core
from fiesta_envs.envs.aec import GameEnvMixin
from fiesta_envs.old_import_paths import MOVED_MODULES, REMOVED_IN
from fiesta_envs.policies.policy import Policy, RandomPolicy

REPOSITORY = Path(__file__).resolve().parents[1]


@pytest.fixture
def forget_old_paths(monkeypatch):
    """Each old path imported afresh in the test (a module already imported does not warn again)."""
    for old in MOVED_MODULES:
        monkeypatch.delitem(sys.modules, old, raising=False)
        name = old.rpartition(".")[2]
        if name in vars(fiesta_envs.core):  # not hasattr: that would import it
            monkeypatch.delattr(fiesta_envs.core, name)


@pytest.mark.parametrize("old", sorted(MOVED_MODULES))
def test_an_old_path_gives_the_module_at_its_new_path_and_warns(old, forget_old_paths):
    new = importlib.import_module(MOVED_MODULES[old])
    expected = rf"{re.escape(old)} has moved to {re.escape(MOVED_MODULES[old])}: .*until {re.escape(REMOVED_IN)}"
    with pytest.warns(DeprecationWarning, match=expected):
        module = importlib.import_module(old)
    assert module is new
    assert sys.modules[old] is new and getattr(fiesta_envs.core, old.rpartition(".")[2]) is new


def test_names_imported_from_an_old_path_are_the_same_objects(forget_old_paths):
    with pytest.warns(DeprecationWarning):
        from fiesta_envs.core.policy import Policy as OldPolicy
        from fiesta_envs.core.policy import RandomPolicy as OldRandomPolicy
    assert OldPolicy is Policy and isinstance(OldRandomPolicy(), Policy)


def test_monkeypatching_the_old_path_patches_the_module_at_the_new_one(forget_old_paths, monkeypatch):
    with pytest.warns(DeprecationWarning):
        import fiesta_envs.core.policy as old_module
    monkeypatch.setattr(old_module, "RandomPolicy", Policy)
    assert importlib.import_module("fiesta_envs.policies.policy").RandomPolicy is Policy


def test_the_warning_points_at_the_importing_line(forget_old_paths):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        import fiesta_envs.core.mlp  # noqa: F401
    (warning,) = [w for w in caught if issubclass(w.category, DeprecationWarning)]
    assert Path(warning.filename) == Path(__file__)


def test_a_pickle_saved_under_an_old_path_loads(forget_old_paths):
    saved = b"cfiesta_envs.core.policy\nRandomPolicy\n."  # a reference to the class as an older release wrote it
    with pytest.warns(DeprecationWarning, match="fiesta_envs.core.policy has moved"):
        assert pickle.loads(saved) is RandomPolicy


def test_the_old_paths_are_no_files_and_the_new_paths_exist():
    for old, new in MOVED_MODULES.items():
        assert not (REPOSITORY / (old.replace(".", "/") + ".py")).exists(), old
        assert (REPOSITORY / (new.replace(".", "/") + ".py")).is_file(), new
    assert importlib.import_module("fiesta_envs.core.game").__name__ == "fiesta_envs.core.game"  # not aliased


def test_an_unknown_module_of_core_is_still_not_found():
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("fiesta_envs.core.no_such_module")


def test_the_old_name_of_game_env_mixin_warns():
    import fiesta_envs.envs.aec as aec

    with pytest.warns(DeprecationWarning, match=rf"PlaysAGame is renamed GameEnvMixin .*until {re.escape(REMOVED_IN)}"):
        assert aec.PlaysAGame is GameEnvMixin  # type: ignore[attr-defined]
    with pytest.raises(AttributeError):
        aec.NoSuchName  # type: ignore[attr-defined]  # noqa: B018


#: Where an import path may be written: the package, training, tests, scripts, docs, configs, README.
WRITTEN = ("fiesta_envs", "training", "tests", "scripts", "docs", "configs", "README.md", "mkdocs.yml")
#: The files that name the old paths on purpose.
NAMING_THEM = {Path("fiesta_envs/old_import_paths.py"), Path("tests/test_old_import_paths.py")}


def test_nothing_in_the_repository_uses_an_old_path():
    moved = "|".join(re.escape(old.rpartition(".")[2]) for old in MOVED_MODULES)
    old_path = re.compile(rf"fiesta_envs[./]core[./](?:{moved})\b")
    files = []
    for place in WRITTEN:
        path = REPOSITORY / place
        files += [path] if path.is_file() else sorted(path.rglob("*"))
    using = [
        str(path.relative_to(REPOSITORY))
        for path in files
        if path.is_file()
        and path.suffix in {".py", ".md", ".yml", ".yaml", ".toml", ".sh", ".txt", ".html", ".js"}
        and path.relative_to(REPOSITORY) not in NAMING_THEM
        and old_path.search(path.read_text(encoding="utf-8", errors="replace"))
    ]
    assert not using, f"old import paths (use the new ones, fiesta_envs/old_import_paths.py): {using}"


def test_a_moved_module_read_as_an_attribute_of_core_warns_and_is_the_new_module(forget_old_paths):
    with pytest.warns(DeprecationWarning, match="fiesta_envs.core.policy has moved to fiesta_envs.policies.policy"):
        assert fiesta_envs.core.policy is importlib.import_module("fiesta_envs.policies.policy")  # type: ignore[attr-defined]
    with pytest.raises(AttributeError, match="has no attribute 'no_such_module'"):
        fiesta_envs.core.no_such_module  # type: ignore[attr-defined]  # noqa: B018
