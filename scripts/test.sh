#!/usr/bin/env bash
# Set up (if needed), check the code and its formatting with ruff, mypy and lint-imports (the layers), build the
# documentation site with every warning an error (scripts/docs.sh into a temporary directory, ~10 s), and run the
# default test suite:
# every rule, API conformance, fuzzing (a few hundred games per environment), training smoke test. Long tests are
# skipped here:
#   .venv/bin/python -m pytest -m slow    # training to a win rate, baseline matches
#   .venv/bin/python -m pytest -m fuzz    # long fuzzing
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/python -m ruff check fiesta_envs training tests
.venv/bin/python -m ruff format --check --quiet fiesta_envs training tests scripts
.venv/bin/python -m mypy   # the type check of the package ([tool.mypy] in pyproject.toml)
.venv/bin/lint-imports --no-cache --no-logo   # each layer imports only the ones below ([tool.importlinter])
.venv/bin/python scripts/make_results_pages.py --check   # the results pages and README table match results/*.json
site=$(mktemp -d)
bash scripts/docs.sh --site-dir "$site"
rm -rf "$site"
echo "documentation site built (mkdocs --strict)"
.venv/bin/python -m pytest -n 2 --timeout 600 "$@"
