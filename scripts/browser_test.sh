#!/usr/bin/env bash
# The web app in a real browser: headless Chromium from Debian's packages plays a whole game of
# every game by clicking (on the board picture and on Fiesta Mexicana's turn pictures where it can)
# and saves screenshots into docs/images/web/ (tests/test_web_browser.py).
# Installs chromium and chromium-driver with apt-get if they are missing (no browser download
# by pip or Selenium: Selenium is given /usr/bin/chromedriver). Extra arguments go to pytest;
# VENV_PYTHON=/path/to/python uses that environment instead of .venv.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y chromium chromium-driver
fi
python=${VENV_PYTHON:-.venv/bin/python}  # VENV_PYTHON: another environment's python
if [ ! -x "$python" ]; then
  bash scripts/setup.sh
fi
if ! "$python" -c "import flask, selenium" 2>/dev/null; then
  "$python" -m pip install --quiet -e ".[web,browser-test]"
fi
export SE_OFFLINE=true  # Selenium never looks for drivers on the network
"$python" -m pytest -m browser -p no:xdist -q tests/test_web_browser.py "$@"
