"""The real server as a subprocess (`python -m app`), for crash and scale-out tests."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class ServerProcess:
    def __init__(self, database_url: str, port: int | None = None, **env: Any) -> None:
        self.port = port or free_port()
        self.env = {
            **os.environ,
            "PARTIDA_DATABASE_URL": database_url,
            "PARTIDA_BOT_DELAY": "0",
            "PARTIDA_LOG_LEVEL": "WARNING",
            "PARTIDA_RATE_LIMIT_ENABLED": "false",
            "PARTIDA_MAX_OPEN_TABLES_PER_PLAYER": "1000",
            **{k: str(v) for k, v in env.items()},
        }
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, timeout: float = 60) -> ServerProcess:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "app", "--port", str(self.port)], cwd=ROOT, env=self.env
        )
        deadline = time.monotonic() + timeout
        while True:
            try:
                if httpx.get(f"{self.url}/readyz", timeout=2).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited with {self.proc.returncode}")
            if time.monotonic() > deadline:
                raise RuntimeError("the server did not become ready")
            time.sleep(0.1)

    def kill(self) -> None:
        """SIGKILL: no shutdown hooks, no flush — a crash."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=30)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.kill()
