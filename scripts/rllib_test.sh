#!/usr/bin/env bash
# The RLlib backend's tests (marker rllib, not in the default run) in a virtualenv of their own: ray[rllib]
# pins gymnasium 1.2.2, so it is kept out of .venv. Made once in $RLLIB_VENV (default .venv-rllib) with the
# pinned torch CPU build (TORCH_INDEX as in scripts/setup.sh), then reused. Arguments go to pytest instead of
# the default ones, e.g. bash scripts/rllib_test.sh -x -q -k module
# The tests start a local Ray instance with two env runners (about 5 minutes on 2 cores), resume a short run
# (about 3 minutes), and run fiesta evaluate and fiesta fuzz with --backend ray against the local backend (2 minutes).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/torch_pin.sh
venv=${RLLIB_VENV:-.venv-rllib}
extra_venv "$venv" "train,rllib,dev"
if [ "$#" -eq 0 ]; then
  set -- -q -m rllib tests/test_training_rllib.py tests/test_training_rllib_resume.py tests/test_ray_backend.py
fi
"$venv/bin/python" -m pytest "$@"
