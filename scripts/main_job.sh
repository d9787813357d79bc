#!/usr/bin/env bash
# Set up (if needed) and run the main job: MaskablePPO on Fiesta Mexicana (2 players) with its
# short config (quick.yaml: distil the shipped agent, then PPO against greedy) — under 10 minutes on 2 CPU cores —
# ending in the evaluation table against the scripted baselines. Extra arguments go to `fiesta train`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
run_dir="runs/fiesta_mexicana/main-$(date +%Y%m%d-%H%M%S)"
.venv/bin/fiesta train --config configs/fiesta_mexicana/quick.yaml --run-dir "$run_dir" "$@"
