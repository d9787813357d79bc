#!/usr/bin/env bash
# The integration tests (marker integration, not in the default run): every game through the RL libraries
# researchers use -- TorchRL's PettingZooWrapper (action masks, check_env_specs), Tianshou's PettingZooEnv and
# Collector, RLlib's PettingZooEnv, stable-baselines3's SubprocVecEnv, gymnasium.make_vec (sync and async).
# They run in a virtualenv of their own, $INTEGRATION_VENV (default .venv-integration), made once and then
# reused: torch pinned to the 2.13.0 CPU build (TORCH_INDEX as in scripts/setup.sh) and held there by a
# constraint while the integration extra (torchrl, tianshou, ray[rllib]: ray pins gymnasium 1.2.2) installs.
# Arguments go to pytest instead of the default ones, e.g. bash scripts/integration_test.sh -x -q -k torchrl
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/torch_pin.sh
venv=${INTEGRATION_VENV:-.venv-integration}
extra_venv "$venv" "train,integration,dev"
if [ "$#" -eq 0 ]; then
  set -- -q -m integration tests/integration
fi
"$venv/bin/python" -m pytest "$@"
