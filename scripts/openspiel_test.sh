#!/usr/bin/env bash
# The OpenSpiel tests (marker openspiel, not in the default run): every game registered with pyspiel, played
# by OpenSpiel's bots (uniform random, IS-MCTS) and wrapped by Shimmy for PettingZoo's api_test. They run in a
# virtualenv of their own, $OPENSPIEL_VENV (default .venv-openspiel), made once and then reused: torch pinned
# to the 2.13.0 CPU build (TORCH_INDEX as in scripts/setup.sh) and held there by a constraint while the
# openspiel extra (open_spiel, shimmy) installs. About 3 minutes on 2 cores once the virtualenv exists.
# Arguments go to pytest instead of the default ones, e.g. bash scripts/openspiel_test.sh -x -q -k ismcts
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/torch_pin.sh
venv=${OPENSPIEL_VENV:-.venv-openspiel}
extra_venv "$venv" "openspiel,dev"
if [ "$#" -eq 0 ]; then
  set -- -q -m openspiel tests/test_openspiel.py
fi
"$venv/bin/python" -m pytest "$@"
