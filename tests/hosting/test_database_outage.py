"""A database that is down or silent is the server's trouble: 503 in the envelope, never 500,
and a readiness probe that answers.

PostgreSQL is reached through a TCP proxy of the test's own, which the test freezes (the
database accepts connections and never answers) or takes down (connections refused).
SQLite is taken away by putting a directory where its file was and emptying the pool.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import re
import shutil
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import exc as sa_exc

from app.logging import configure_logging
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


def _take_away(
    live: LiveServer, backend: str, proxy: PgProxy | None, direct: str, tmp_path: Path
) -> None:
    """The database goes down: PostgreSQL's connections drop and new ones are refused; SQLite's
    file is moved away, a directory put in its place and the pool emptied."""
    if proxy is not None:
        proxy.down()
        return
    path = Path(direct.split(":///", 1)[1])
    away = tmp_path / "away"
    away.mkdir()
    for f in path.parent.glob(path.name + "*"):
        shutil.move(str(f), away / f.name)
    path.mkdir()  # no database can be opened there any more
    _run(live, live.app.state.db.dispose())


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

                _take_away(live, backend, proxy, direct, tmp_path)

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


#: A line of the server's log (ConsoleRenderer): time, level, message, [logger], extras.
LOG_LINE = re.compile(r"^\d{4}-\d\d-\d\dT[\d:.]+Z \[(\w+) *\] .* \[([\w.]+)\]")


@pytest.mark.parametrize("backend", BACKENDS)
def test_each_request_during_an_outage_logs_one_line_and_no_traceback(
    backend: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 34.8: an outage logged a traceback per request (and per pass of the clock
    keeper), burying the log. Now the log, as the server writes it, holds no traceback,
    only one-line records, and at most one line per failing request."""
    rounds = 3
    with fresh_database(backend, tmp_path) as direct:
        proxy = PgProxy() if backend == "postgresql" else None
        url = _through(proxy, direct) if proxy else direct
        # The clock keeper looks at the tables often: its passes meet the outage too.
        settings = test_settings(url, log_level="INFO", clock_tick_seconds=0.05)
        live = LiveServer(create_app(settings, games=test_games())).start()  # type: ignore[arg-type]
        requests = 0
        try:
            with httpx.Client(base_url=live.url, timeout=60) as http:
                owner, guest = new_player(http, "Owner"), new_player(http, "Guest")
                tid = make_table(owner, "pick", 3)["id"]
                logging.getLogger("httpx").setLevel(logging.WARNING)  # the test's own client
                capsys.readouterr()
                _take_away(live, backend, proxy, direct, tmp_path)
                for _ in range(rounds):
                    for method, path_, body, auth in _database_calls(tid):
                        headers = guest.auth if auth else {}
                        r = http.request(method, path_, json=body, headers=headers)
                        assert r.status_code == 503, (method, path_, r.status_code, r.text)
                        requests += 1
                log = capsys.readouterr().err
        finally:
            logging.getLogger("httpx").setLevel(logging.NOTSET)
            if proxy is not None:
                proxy.down()
            live.stop()
    lines = log.splitlines()
    assert "Traceback" not in log, log
    assert all(LOG_LINE.match(line) for line in lines), log  # each record is one line
    answered = [line for line in lines if "database unavailable" in line and "[partida]" in line]
    assert 0 < len(answered) <= requests, log


@pytest.fixture
def server_log() -> Iterator[io.StringIO]:
    """The server's logging set up as `python -m app` does, written here instead of to
    stderr; the test's put back after."""
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    configure_logging("INFO")
    written = io.StringIO()
    (handler,) = root.handlers
    assert isinstance(handler, logging.StreamHandler)
    handler.setStream(written)
    try:
        yield written
    finally:
        root.handlers[:] = handlers
        root.setLevel(level)


def _unreachable() -> BaseException:
    """What SQLAlchemy raises when PostgreSQL refuses the connection, as raised."""
    try:
        try:
            raise ConnectionRefusedError(111, "Connect call failed ('127.0.0.1', 5432)")
        except ConnectionRefusedError as refused:
            raise sa_exc.OperationalError("SELECT secret FROM players", {}, refused) from refused
    except sa_exc.OperationalError as error:
        return error


def _logged(name: str, error: BaseException) -> None:
    try:
        raise error
    except BaseException:
        logging.getLogger(name).exception("clock keeper failed on a table")


def test_any_logger_logs_a_database_outage_in_one_line(server_log: io.StringIO) -> None:
    """The class: wherever the error is logged with its traceback (a background pass, a
    socket, the broker), directly or as the cause of another error, it is one line naming
    it, without the statement; any other error keeps its traceback."""
    wrapped = RuntimeError("the pass failed")
    wrapped.__cause__ = _unreachable()
    _logged("partida.tables", _unreachable())
    _logged("partida.realtime", wrapped)
    lines = server_log.getvalue().splitlines()
    assert len(lines) == 2 and all(LOG_LINE.match(line) for line in lines), lines
    assert all("ConnectionRefusedError: [Errno 111] Connect call failed" in x for x in lines)
    assert not any("SELECT" in line for line in lines)
    _logged("partida.tables", ValueError("a bug"))
    assert "Traceback" in server_log.getvalue()


def test_at_debug_the_outage_keeps_its_traceback(server_log: io.StringIO) -> None:
    logging.getLogger("partida.tables").setLevel(logging.DEBUG)
    try:
        _logged("partida.tables", _unreachable())
    finally:
        logging.getLogger("partida.tables").setLevel(logging.NOTSET)
    assert "Traceback" in server_log.getvalue()
