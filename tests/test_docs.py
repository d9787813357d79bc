"""The documentation site: a page per game of the registry made from its module's docstring, and the whole
site building with warnings as errors (marker ``docs``: ``bash scripts/docs.sh``, needs the docs extra)."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

from fiesta_envs.registry import GAMES

ROOT = Path(__file__).resolve().parents[1]


def load_hooks():
    spec = importlib.util.spec_from_file_location("docs_hooks", ROOT / "scripts" / "docs_hooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_game_of_the_registry_has_a_page_from_its_module_docstring():
    pages = load_hooks().game_pages()
    assert [path for path, _, _ in pages] == [f"games/{name}.md" for name in GAMES]
    for (_, title, markdown), spec in zip(pages, GAMES.values(), strict=True):
        first_line = importlib.import_module(spec.aec_module).__doc__.strip().splitlines()[0]
        assert first_line.startswith(title)
        assert markdown.startswith("# " + title)
        assert f"`{spec.aec_module}`" in markdown and f"`{spec.gym_id}`" in markdown


@pytest.mark.parametrize("spec", GAMES.values(), ids=lambda spec: spec.name)
def test_every_game_page_has_its_version_history_the_end_infos_and_what_is_simultaneous(spec):
    page = importlib.import_module(spec.aec_module).__doc__
    version = spec.aec_module.rsplit("_v", 1)[1]
    history = page[page.index("Version history\n") :]
    page = " ".join(page.split())  # words wrap anywhere
    assert f"- v{version}" in history or f"- version {version}" in history
    # the infos as envs/infos.py makes them, the breakdown from final_info()
    assert "``scores`` (float64" in page and "``winners`` (int8" in page and "final_info()" in page
    assert "simultaneous" in page.lower()  # how the printed game's simultaneous steps are kept (or that none is)


def test_docstring_layout_becomes_markdown():
    docstring = """Toy game, as an environment.

Players
-------
2 or 3.

Actions
-------
====  ======
0-1   ``a``
====  ======

A board::

    . a
    b .

After.
"""
    markdown = load_hooks().docstring_to_markdown(docstring)
    assert markdown.startswith("# Toy game, as an environment.\n")
    assert "## Players\n2 or 3." in markdown
    assert "\n```text\n====  ======\n0-1   ``a``\n====  ======\n```\n" in markdown
    assert "A board:\n\n```text\n    . a\n    b .\n```\n\nAfter." in markdown


@pytest.mark.docs
def test_the_site_builds_with_warnings_as_errors(tmp_path):
    for module in ("mkdocs", "material", "mkdocstrings", "mkdocstrings_handlers.python"):
        pytest.importorskip(module, reason="the docs extra: pip install -e '.[docs]'")
    site = tmp_path / "site"
    environment = {**os.environ, "PYTHON": sys.executable}
    result = subprocess.run(
        ["bash", "scripts/docs.sh", "--site-dir", str(site)], cwd=ROOT, capture_output=True, text=True, env=environment
    )
    assert result.returncode == 0, result.stderr[-3000:]
    for name in GAMES:
        assert (site / "games" / name / "index.html").is_file()
    for page in (
        "api/core",
        "api/envs",
        "api/policies",
        "training",
        "evaluation",
        "own-agent",
        "tools",
        "scale-out",
        "environments",
        "development",
        "results",
        "results/learning",
        "results/ladder",
        "results/fuzz",
        "results/performance",
    ):
        assert (site / page / "index.html").is_file()
