"""MkDocs hooks (``hooks:`` in mkdocs.yml): one page per game, made from its environment module's docstring.

The games are read from ``fiesta_envs.registry.GAMES``; each page is the docstring of the game's PettingZoo
module (``GameSpec.aec_module``, the ``_vN`` module: the documentation of the game's rules, actions and
observations), turned from its reStructuredText-like layout into Markdown by ``docstring_to_markdown``.
"""

from __future__ import annotations

import importlib
import re
from typing import Any

GAMES_SECTION = "Games"
UNDERLINE = re.compile(r"^(-{3,}|={3,})\s*$")
TABLE_BORDER = re.compile(r"^=+(\s+=+)+\s*$")


def docstring_to_markdown(docstring: str) -> str:
    """Markdown for a module docstring: the first paragraph is the title, underlined lines are headings,
    simple tables (``===  ===`` borders) and ``::`` literal blocks are kept as preformatted text."""
    paragraphs = docstring.strip().split("\n\n", 1)
    title = " ".join(line.strip() for line in paragraphs[0].splitlines())
    lines = paragraphs[1].splitlines() if len(paragraphs) > 1 else []
    out = [f"# {title}", ""]
    index = 0
    while index < len(lines):
        line = lines[index]
        following = lines[index + 1] if index + 1 < len(lines) else ""
        if TABLE_BORDER.match(line):
            end = _table_end(lines, index)
            out += ["", "```text", *lines[index : end + 1], "```", ""]
            index = end + 1
        elif line.strip() and UNDERLINE.match(following) and not TABLE_BORDER.match(following):
            out.append(f"## {line.strip()}")
            index += 2
        elif line.rstrip().endswith("::"):
            out += [line.rstrip()[:-1], "", "```text"]
            index += 1
            while index < len(lines) and not lines[index].strip():
                index += 1
            while index < len(lines) and (not lines[index].strip() or lines[index].startswith((" ", "\t"))):
                out.append(lines[index])
                index += 1
            while out[-1] == "":
                out.pop()
            out += ["```", ""]
        else:
            out.append(line)
            index += 1
    return "\n".join(out) + "\n"


def _table_end(lines: list[str], start: int) -> int:
    """Index of the last border of the simple table starting at ``start``: a border followed by a blank line."""
    end = start + 1
    while end < len(lines) - 1 and not (TABLE_BORDER.match(lines[end]) and not lines[end + 1].strip()):
        end += 1
    return end


def game_pages() -> list[tuple[str, str, str]]:
    """(page path, navigation title, Markdown) for every game of the registry, in its order."""
    from fiesta_envs.registry import GAMES

    pages = []
    for name, spec in GAMES.items():
        docstring = importlib.import_module(spec.aec_module).__doc__ or name
        nav_title = re.split(r", ", docstring.strip().splitlines()[0], maxsplit=1)[0]
        markdown = docstring_to_markdown(docstring)
        markdown += f"\n**Registered as** `{spec.gym_id}` (Gymnasium and PettingZoo), module `{spec.aec_module}`.\n"
        pages.append((f"games/{name}.md", nav_title, markdown))
    return pages


def on_config(config: Any) -> Any:
    """Put the game pages under the navigation's Games section (after its overview page)."""
    for item in config["nav"] or []:
        if isinstance(item, dict) and GAMES_SECTION in item:
            overview = item[GAMES_SECTION]
            item[GAMES_SECTION] = [overview, *({title: path} for path, title, _ in game_pages())]
    return config


def on_files(files: Any, config: Any) -> Any:
    from mkdocs.structure.files import File

    for path, _, markdown in game_pages():
        files.append(File.generated(config, path, content=markdown))
    return files
