"""A database that is down or silent is the server's trouble: 503 in the envelope, never 500,
and a readiness probe that answers.

PostgreSQL is reached through a TCP proxy of the test's own, which the test freezes (the
database accepts connections and never answers) or takes down (connections refused).
SQLite is taken away by putting a directory where its file was and emptying the pool.
"""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.main import create_app
from tests.conftest import test_games, test_settings
from tests.support.client import make_table, new_player
from tests.support.databases import BACKENDS, fresh_database
from tests.support.live import LiveServer

PG_TARGET = ("127.0.0.1", 5432)


class PgProxy:
    """A TCP proxy in front of PostgreSQL that can freeze (hold every byte) or go down."""

    def __init__(self) -> None:
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(64)
        self.port: int = self.listener.getsockname()[1]
        self.frozen = threading.Event()
        self.gone = threading.Event()
        self.sockets: list[socket.socket] = []
        self._lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _keep(self, *socks: socket.socket) -> None:
        with self._lock:
            self.sockets.extend(socks)

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            self._keep(client)
            if self.frozen.is_set():
                continue  # accepted, never answered
            upstream = socket.create_connection(PG_TARGET)
            self._keep(upstream)
            for src, dst in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(src, dst), daemon=True).start()

    def _pump(self, src: socket.socket, dst: socket.socket) -> None:
        while True:
            try:
                data = src.recv(65536)
            except OSError:
                return
            if not data:
                break
            while self.frozen.is_set() and not self.gone.is_set():
                self.gone.wait(0.05)  # hold the bytes: the database went silent
            if self.gone.is_set():
                break
            try:
                dst.sendall(data)
            except OSError:
                break
        for s in (src, dst):
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)

    def freeze(self) -> None:
        self.frozen.set()

    def down(self) -> None:
        """Connections drop and new ones are refused."""
        self.gone.set()
        self.listener.close()
        with self._lock:
            for s in self.sockets:
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)
                s.close()


def _through(proxy: PgProxy, url: str) -> str:
    return url.replace("@127.0.0.1:5432/", f"@127.0.0.1:{proxy.port}/")


def _run(live: LiveServer, coro: Any) -> Any:
    return asyncio.run_coroutine_threadsafe(coro, live.app.state.loop).result(timeout=60)


@pytest.fixture
def proxied_postgres(tmp_path: Path) -> Iterator[tuple[PgProxy, str]]:
    with fresh_database("postgresql", tmp_path) as url:
        proxy = PgProxy()
        try:
            yield proxy, _through(proxy, url)
        finally:
            proxy.down()


def test_readyz_answers_503_while_the_database_hangs(
    proxied_postgres: tuple[PgProxy, str],
) -> None:
    proxy, url = proxied_postgres
    live = LiveServer(
        create_app(
            test_settings(url, readiness_timeout_seconds=0.5),
            games=test_games(),  # type: ignore[arg-type]
        )
    ).start()
    try:
        assert httpx.get(f"{live.url}/readyz", timeout=30).status_code == 200
        proxy.freeze()
        # The database accepts and never answers: the probe still answers (long before this
        # generous client timeout), and says which part is not ready.
        r = httpx.get(f"{live.url}/readyz", timeout=60)
        assert r.status_code == 503
        assert r.json() == {"status": "not_ready", "database": "unreachable"}
        assert httpx.get(f"{live.url}/healthz", timeout=30).json() == {"status": "ok"}
    finally:
        proxy.down()
        live.stop()


def _database_calls(tid: str) -> list[tuple[str, str, Any, bool]]:
    """Calls that need the database: (method, path, body, authenticated)."""
    return [
        ("POST", "/api/v1/players", {"name": "Late"}, False),
        ("GET", "/api/v1/tables", None, False),
        ("GET", f"/api/v1/tables/{tid}", None, False),
        ("GET", f"/api/v1/tables/{tid}/state", None, False),
        ("GET", f"/api/v1/tables/{tid}/log", None, False),
        ("GET", "/api/v1/me", None, True),
        ("GET", "/api/v1/me/tables", None, True),
        ("POST", "/api/v1/tables", {"game": "pick", "seats": 2}, True),
        ("POST", f"/api/v1/tables/{tid}/join", None, True),
        ("POST", f"/api/v1/tables/{tid}/bots", {}, True),
    ]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_database_that_is_down_answers_503_unavailable_not_500(
    backend: str, tmp_path: Path
) -> None:
    with fresh_database(backend, tmp_path) as direct:
        proxy = PgProxy() if backend == "postgresql" else None
        url = _through(proxy, direct) if proxy else direct
        live = LiveServer(create_app(test_settings(url), games=test_games())).start()  # type: ignore[arg-type]
        try:
            with httpx.Client(base_url=live.url, timeout=60) as http:
                owner = new_player(http, "Owner")
                guest = new_player(http, "Guest")
                tid = make_table(owner, "pick", 3)["id"]

                if proxy is not None:
                    proxy.down()
                else:
                    path = Path(direct.split(":///", 1)[1])
                    away = tmp_path / "away"
                    away.mkdir()
                    for f in path.parent.glob(path.name + "*"):
                        shutil.move(str(f), away / f.name)
                    path.mkdir()  # no database can be opened there any more
                    _run(live, live.app.state.db.dispose())

                for method, path_, body, auth in _database_calls(tid):
                    headers = guest.auth if auth else {}
                    r = http.request(method, path_, json=body, headers=headers)
                    assert r.status_code == 503, (method, path_, r.status_code, r.text)
                    assert r.json()["error"]["code"] == "unavailable", r.text
                    assert r.headers["retry-after"].isdigit()
                assert http.get("/readyz").status_code == 503
                assert http.get("/healthz").status_code == 200
        finally:
            if proxy is not None:
                proxy.down()
            live.stop()
