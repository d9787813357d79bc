"""The command line of the web app: ``fiesta serve [--port 8000] [--records FILE ...]``
(or ``python -m fiesta_envs.web ...``).

The server listens on 127.0.0.1 only (this machine); open the address it prints in a browser.
"""

from __future__ import annotations

import argparse
import sys

from fiesta_envs.core.errors import FiestaError

HOST = "127.0.0.1"
DEFAULT_PORT = 8000


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port on {HOST} (default {DEFAULT_PORT})")
    parser.add_argument(
        "--records",
        action="append",
        default=[],
        metavar="FILE",
        help="a .jsonl file of game records (fiesta evaluate --records) to list on the start page; repeatable",
    )


def run(args: argparse.Namespace) -> int:
    try:
        from werkzeug.serving import run_simple

        from fiesta_envs.web.app import create_app
    except ImportError as error:
        print(f"fiesta serve: error: {error}; install the web extra: pip install 'fiesta_envs[web]'", file=sys.stderr)
        return 2
    if not 0 < args.port < 65536:
        print(f"fiesta serve: error: --port {args.port} is not a port number (1..65535)", file=sys.stderr)
        return 2
    try:
        app = create_app(args.records)
    except FiestaError as error:
        print(f"fiesta serve: error: {error}", file=sys.stderr)
        return 2
    print(f"fiesta_envs web app on http://{HOST}:{args.port}/ (Ctrl+C stops it)", flush=True)
    run_simple(HOST, args.port, app, threaded=True, use_reloader=False, use_debugger=False)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="fiesta serve", description=__doc__.splitlines()[0])
    add_arguments(parser)
    return run(parser.parse_args(argv))
