"""Serving: one uvicorn process, or N worker processes behind one port.

With ``PARTIDA_WORKERS`` above 1, ``python -m app`` migrates once, then starts that many
worker processes, each its own server on the same address with ``SO_REUSEPORT``: the kernel
spreads the connections over them evenly. Nothing else is shared between them but the
database and the Redis broker, exactly as between instances on different machines: a table's
sockets may be held by several workers, each action is checked against the stored version
(compare-and-set), and every worker hears every table's updates through Redis. The
supervisor stops them all when it is stopped, and stops (non-zero) when one of them dies, so
whatever runs it restarts the whole server.
"""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import time
from types import FrameType
from typing import Any

import uvicorn

from app.config import Settings
from app.pings import serving_protocol

# How long the workers get to shut down cleanly (their sockets closed, their writers
# flushed) before they are killed.
STOP_SECONDS = 30.0


class WorkersRefused(ValueError):
    """The settings cannot run several workers (said why, for the person starting it)."""


def check_workers(settings: Settings) -> None:
    if settings.workers == 1:
        return
    if not settings.redis_url:
        raise WorkersRefused(
            "PARTIDA_WORKERS above 1 needs PARTIDA_REDIS_URL: the workers hear each other's "
            "table updates through Redis"
        )
    if settings.is_sqlite and settings.sqlite_path() is None:
        raise WorkersRefused(
            "PARTIDA_WORKERS above 1 needs a database file or PostgreSQL: an in-memory "
            "SQLite database is one process's own"
        )


def uvicorn_options(settings: Settings) -> dict[str, Any]:
    return {
        "ws_max_size": settings.ws_max_frame_bytes,
        "ws_per_message_deflate": settings.ws_compression,
        # uvicorn's WebSocket protocol, its keepalive pings on a shared beat (app/pings.py).
        "ws": serving_protocol(settings.ws_compression_window_bits),
        "log_config": None,
        "proxy_headers": True,
        # The client address (per-IP rate limits, logs) comes from X-Forwarded-For only
        # when the connection is from one of these proxies.
        "forwarded_allow_ips": settings.forwarded_allow_ips,
    }


def serve(settings: Settings, host: str, port: int) -> int:
    """Serve until stopped: in this process, or through ``settings.workers`` workers."""
    if settings.workers == 1:
        uvicorn.run("app.main:app", host=host, port=port, **uvicorn_options(settings))
        return 0
    return _supervise(settings.workers, host, port)


def serve_worker(settings: Settings, host: str, port: int) -> int:
    """One worker: a server of its own on a socket that shares the port (SO_REUSEPORT)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind((host, port))
    sock.set_inheritable(True)
    config = uvicorn.Config("app.main:app", **uvicorn_options(settings))
    uvicorn.Server(config).run(sockets=[sock])
    return 0


def _supervise(count: int, host: str, port: int) -> int:
    command = [sys.executable, "-m", "app", "worker", "--host", host, "--port", str(port)]
    workers = [subprocess.Popen(command) for _ in range(count)]
    stopping = False

    def stop(_signum: int, _frame: FrameType | None) -> None:
        nonlocal stopping
        stopping = True

    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, stop)
    code = 0
    while not stopping:
        exited = [w for w in workers if w.poll() is not None]
        if exited:
            code = exited[0].returncode or 1
            print(f"a worker exited ({code}); stopping the others", file=sys.stderr)
            break
        time.sleep(0.2)
    for worker in workers:
        if worker.poll() is None:
            worker.terminate()
    deadline = time.monotonic() + STOP_SECONDS
    for worker in workers:
        try:
            worker.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            worker.kill()
            worker.wait()
    return code
