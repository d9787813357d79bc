"""Write the documentation's performance page from a result file of ``fiesta bench --train-config``.

    fiesta bench --game fiesta_mexicana --games 2 --repeats 1 --train-steps 8192 \\
        --train-config configs/fiesta_mexicana/ppo.yaml ... --json results/perf_training.json
    python scripts/performance_page.py results/perf_training.json docs/performance.md

``tests/test_performance_page.py`` checks that the page is what this script writes from the file.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

PARTS = (
    ("environment", "environment"),
    ("opponents", "opponents"),
    ("rollout_inference", "rollout inference"),
    ("update", "PPO update"),
)


def render(data: dict[str, Any], source: str) -> str:
    """The page's Markdown for the results ``data`` (read from ``source``)."""
    settings = data["settings"]
    rows = data["config_training"]
    steps = settings.get("train_steps", 8192)
    load = settings.get("load_average")
    machine = f"{settings.get('cpus', '?')} CPU cores"
    if load:
        machine += f", load average {load[0]:.1f} while measuring (other programs running: the shares say more"
        machine += " than the absolute rates)"
    lines = [
        "# Performance",
        "",
        "Training speed of every shipped config, and where its time goes: the config's own loop (its opponents,",
        "league, reward shaping, network and PPO settings) without the warm start and the evaluations, timed in",
        "CPU seconds of the process inside MaskablePPO's `learn()` (one torch thread, as the configs use).",
        "",
        "- **environment**: the environments' steps without the opponents' moves (rules, observations, action",
        "  features, masks, wrappers);",
        "- **opponents**: the opponents' moves (scripted players, frozen networks of the league);",
        "- **rollout inference**: the rest of collecting the rollout, mostly the policy's forward passes;",
        "- **PPO update**: the gradient steps.",
        "",
        f"Measured with fiesta_envs {data.get('fiesta_envs_version', '')} on {machine}; {steps:,} steps a config:",
        "",
        "| config | frames/s | " + " | ".join(title for _, title in PARTS) + " |",
        "| --- | ---: | " + " | ".join("---:" for _ in PARTS) + " |",
    ]
    for row in rows:
        shares = " | ".join(f"{row['shares'][key]:.0%}" for key, _ in PARTS)
        lines.append(f"| `{row['config']}` | {row['frames_per_second']:,.0f} | {shares} |")
    lines += [
        "",
        f"The file behind this table is `{source}`, written by:",
        "",
        "```bash",
        f"fiesta bench --game fiesta_mexicana --games 2 --repeats 1 --train-steps {steps} \\",
        *(f"  --train-config {row['config']} \\" for row in rows),
        f"  --json {source}",
        f"python scripts/performance_page.py {source} docs/performance.md",
        "```",
        "",
        "`python scripts/train_speed_ab.py --base <other checkout> --config <config>` compares two checkouts on",
        "one config, alternating them (`results/perf_fiesta_mexicana_ab.json` is such a comparison).",
        "",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2:
        print("usage: python scripts/performance_page.py RESULTS.json PAGE.md", file=sys.stderr)
        return 2
    source, page = args
    data = json.loads(Path(source).read_text(encoding="utf-8"))
    if not data.get("config_training"):
        print(f"{source} has no config_training results: run fiesta bench with --train-config", file=sys.stderr)
        return 2
    Path(page).write_text(render(data, source), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
