"""``meja serve``: run the table server until SIGTERM or SIGINT.

    meja serve [--redis URL] [--host H] [--port P] [--public-origin URL] [--settings]

Flags override the environment (``MEJA_REDIS_URL``, ``MEJA_HOST``, ``MEJA_PORT``,
``MEJA_PUBLIC_ORIGIN``); every other setting is read from ``MEJA_*`` variables
(:mod:`meja.server.settings`; ``--settings`` prints them all and exits).
Exit status: 0 after a clean shutdown, 1 when it cannot serve (the port is taken,
Redis cannot be reached), 2 for bad settings.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sys
from collections.abc import Coroutine
from typing import Any

from .settings import Settings, SettingsError, settings_table

__all__ = ["add_arguments", "run", "run_loop", "serve"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--redis", metavar="URL", help="Redis URL shared by every process (default: in-memory store)")
    parser.add_argument("--host", metavar="H", help="interface to listen on (default 127.0.0.1)")
    parser.add_argument("--port", metavar="P", type=int, help="TCP port (default 8000)")
    parser.add_argument("--public-origin", metavar="URL", help="origin of invite links, e.g. https://cards.example.org")
    parser.add_argument("--settings", action="store_true", help="print every setting as a table and exit")


async def serve(settings: Settings) -> None:
    """Serve until SIGTERM or SIGINT, then shut down gracefully."""
    from .app import MejaServer

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    try:
        async with MejaServer(settings):
            await stop.wait()
            logging.getLogger("meja.server").info("signal received: shutting down")
    finally:
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.remove_signal_handler(sig)


def run_loop(main: Coroutine[Any, Any, None]) -> None:
    """Run ``main`` on uvloop where it is installed (a faster loop: fewer CPU cycles per
    message), else on asyncio's own loop. The benchmark's echo server makes the same choice
    (:mod:`meja.bench.echo`), so that its ceiling is measured on the same loop."""
    try:
        import uvloop
    except ImportError:
        logging.getLogger("meja.server").info("event loop: asyncio")
        asyncio.run(main)
        return
    logging.getLogger("meja.server").info("event loop: uvloop")
    uvloop.run(main)


def run(args: argparse.Namespace) -> int:
    if getattr(args, "settings", False):
        print(settings_table())
        return 0
    try:
        settings = Settings.from_env(
            host=args.host, port=args.port, redis_url=args.redis, public_origin=args.public_origin
        )
    except SettingsError as exc:
        print(f"meja serve: {exc}", file=sys.stderr)
        return 2
    logging.basicConfig(
        level=getattr(logging, settings.log_level.upper(), logging.INFO),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    logging.getLogger("websockets").setLevel(logging.WARNING)
    try:
        run_loop(serve(settings))
    except Exception as exc:  # the port is taken, Redis cannot be reached...
        logging.getLogger("meja.server").error("cannot serve: %s: %s", type(exc).__name__, exc)
        return 1
    return 0
