"""A real uvicorn server in a background thread, for tests that talk HTTP and WebSocket."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import uvicorn
from fastapi import FastAPI


class LiveServer:
    def __init__(self, app: FastAPI, ws_max_size: int = 64 * 1024) -> None:
        self.app = app
        self._sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._sock.bind(("127.0.0.1", 0))
        self.port: int = self._sock.getsockname()[1]
        config = uvicorn.Config(app, log_config=None, ws_max_size=ws_max_size, lifespan="on")
        self.server = uvicorn.Server(config)
        self._thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [self._sock]}, daemon=True
        )

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> LiveServer:
        self._thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if time.monotonic() > deadline or not self._thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self._thread.join(timeout=30)

    def service(self) -> Any:
        return self.app.state.service


@contextmanager
def temporary_server(
    tmp_path: Path, backend: str = "sqlite", **overrides: Any
) -> Iterator[LiveServer]:
    """A server of its own (fresh database, custom settings) for one test."""
    from app.main import create_app
    from tests.conftest import test_games, test_settings
    from tests.support.databases import fresh_database

    with fresh_database(backend, tmp_path) as url:
        app = create_app(test_settings(url, **overrides), games=test_games())  # type: ignore[arg-type]
        live = LiveServer(app).start()
        try:
            yield live
        finally:
            live.stop()
