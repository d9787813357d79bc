"""A core install (``pip install fiesta_envs``, no extras) behaves: every ``fiesta`` subcommand that needs an
extra names it (``pip install 'fiesta_envs[train]'``) instead of showing a traceback. The missing libraries
are simulated in a subprocess by blocking their modules (``sys.modules[name] = None``)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from fiesta_envs.cli import COMMANDS, EXTRA_OF_MODULE, NEEDS

ROOT = Path(__file__).resolve().parents[1]
# Every module an extra installs: what a core install lacks.
EXTRA_MODULES = sorted(EXTRA_OF_MODULE)
# Module -> the distribution of pyproject.toml that installs it, where the names differ.
DISTRIBUTION_OF_MODULE = {
    "PIL": "pillow",
    "yaml": "pyyaml",
    "stable_baselines3": "stable-baselines3",
    "sb3_contrib": "sb3-contrib",
    "pygame": "pygame-ce",
    "werkzeug": "flask",  # Flask's own dependency
}


def run_fiesta(argv: list[str], blocked: list[str]) -> subprocess.CompletedProcess:
    code = (
        "import sys\n"
        f"for name in {blocked!r}:\n"
        "    sys.modules[name] = None\n"
        "from fiesta_envs.cli import main\n"
        f"sys.exit(main({argv!r}))\n"
    )
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=300)


@pytest.mark.parametrize(
    ("argv", "module"),
    [
        (["fuzz", "--games", "1"], "rich"),
        (["evaluate", "--game", "tequila", "--agents", "random,planner", "--games", "2"], "tqdm"),
        (["train", "--help"], "pydantic"),
        (["tune", "--help"], "pydantic"),
        (["bench", "--game", "tequila"], "rich"),
        (["serve"], "flask"),
    ],
)
def test_a_core_install_names_the_extra(argv, module):
    result = run_fiesta(argv, EXTRA_MODULES)
    assert "Traceback" not in result.stderr
    assert result.returncode == 2
    expected = f"fiesta {argv[0]}: needs {module!r}, which is not installed: pip install 'fiesta_envs[train]'"
    if module == "flask":
        expected = expected.replace("[train]", "[web]")
    assert result.stderr.strip() == expected


def test_bench_with_the_train_extra_names_the_bench_extra():
    result = run_fiesta(["bench", "--game", "tequila"], ["pygame"])
    assert result.returncode == 2
    assert result.stderr.strip().endswith("pip install 'fiesta_envs[bench]'")


def test_help_needs_no_extra():
    for command in ("fuzz", "evaluate", "bench", "play", "replay", "serve", "export"):
        result = run_fiesta([command, "--help"], EXTRA_MODULES)
        assert result.returncode == 0, (command, result.stderr)
        assert f"usage: fiesta {command}" in result.stdout


def test_a_missing_module_of_no_extra_is_not_hidden():
    """Only the extras' modules get the message: anything else missing is a bug to see in full."""
    from fiesta_envs.cli import missing_extra_message

    assert missing_extra_message("fuzz", "numpy") is None
    assert missing_extra_message("fuzz", "rich.console") == (
        "fiesta fuzz: needs 'rich', which is not installed: pip install 'fiesta_envs[train]'"
    )


def _requirement_names(requirements: list[str]) -> set[str]:
    return {re.split(r"[\[<>=!~;\s]", requirement, maxsplit=1)[0].lower() for requirement in requirements}


def test_the_named_extras_install_those_modules():
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    for module, extra in EXTRA_OF_MODULE.items():
        assert extra in extras, f"{module}: no extra {extra!r} in pyproject.toml"
        distribution = DISTRIBUTION_OF_MODULE.get(module, module).lower()
        assert distribution in _requirement_names(extras[extra]), f"extra {extra!r} does not install {module!r}"
    assert set(NEEDS) <= set(COMMANDS)
    assert {module for modules in NEEDS.values() for module in modules} <= set(EXTRA_OF_MODULE)
