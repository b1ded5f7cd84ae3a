"""The public lobby cannot be emptied (issue 17.5).

GET /tables filters private tables in the query (not after a LIMIT) and pages with an opaque
keyset cursor (X-Next-Cursor / Link rel="next"), so no number of private or older tables hides
a public one: following the cursor reaches every public table exactly once, in order, even
while tables are being created between pages. A cursor the server did not issue is a 422
(issue 34.3: cursors are signed with the deployment's key, which every instance shares and a
restart keeps, and each decoded field is checked before any database sees it).

Runs on both databases (the session server of conftest is parametrized by backend).
"""

from __future__ import annotations

import asyncio
import base64
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import async_sessionmaker, create_async_engine

from app.db.models import GameTable, ServerSecret
from app.main import create_app
from app.signing import Signer, deployment_key
from tests.conftest import test_games, test_settings
from tests.support.client import Player, make_table, new_player
from tests.support.databases import fresh_database
from tests.support.live import LiveServer, temporary_server

DEFAULT_PAGE = 200


def _private(owner: Player) -> str:
    r = owner.post("/api/v1/tables", {"game": "pick", "seats": 2, "private": True})
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


def _follow(
    client: httpx.Client | Player, params: dict[str, Any], between: Any = None
) -> list[list[dict[str, Any]]]:
    """Every page of GET /tables, following X-Next-Cursor; ``between`` runs between pages."""
    pages: list[list[dict[str, Any]]] = []
    cursor: str | None = None
    while True:
        query = {**params, **({"cursor": cursor} if cursor else {})}
        r = client.get("/api/v1/tables", params=query)
        assert r.status_code == 200, r.text
        pages.append(r.json())
        cursor = r.headers.get("x-next-cursor")
        if cursor is None:
            assert "link" not in r.headers
            return pages
        assert r.headers["link"].endswith('; rel="next"') and cursor in r.headers["link"]
        assert len(pages) < 500, "the cursor does not advance"
        if between is not None:
            between()


def _set_created_at(live: LiveServer, moments: dict[str, datetime]) -> None:
    """Back-date tables straight in the database (old tables, and ties on created_at)."""

    async def run() -> None:
        engine = create_async_engine(live.service().settings.database_url)
        try:
            async with engine.begin() as conn:
                for tid, moment in moments.items():
                    await conn.execute(
                        update(GameTable).where(GameTable.id == tid).values(created_at=moment)
                    )
        finally:
            await engine.dispose()

    asyncio.run(run())
    for tid in moments:
        live.service().invalidate(tid)


def test_private_tables_cannot_push_the_public_ones_off_the_lobby(
    http: httpx.Client, live: LiveServer
) -> None:
    """More private tables than a page, all newer than a public one: outsiders still see it on
    the first page of the default listing (and of the open filter); nothing private shows."""
    owner, crowd, outsider = (
        new_player(http, "Host"),
        new_player(http, "Crowd"),
        new_player(http, "Outsider"),
    )
    public = make_table(owner, "pick", 2)["id"]
    hidden = {_private(crowd) for _ in range(DEFAULT_PAGE + 10)}
    for viewer in (outsider, http):
        for params in ({}, {"status": "open"}, {"status": "open", "game": "pick"}):
            first = viewer.get("/api/v1/tables", params=params)
            assert first.status_code == 200
            ids = [t["id"] for t in first.json()]
            assert public in ids, params
            assert not hidden & set(ids)
            assert all(not t["private"] for t in first.json())
    # Their player sees every one of them, page after page, each once.
    mine = [t["id"] for page in _follow(crowd, {"status": "open", "limit": 50}) for t in page]
    assert hidden <= set(mine) and len(mine) == len(set(mine))


@pytest.mark.parametrize("limit", [1, 7])
def test_following_the_cursor_reaches_every_public_table_once_under_inserts(
    backend: str, tmp_path: Path, limit: int
) -> None:
    """Public, private, old and same-instant tables; more are created between pages. Every
    public table of the start is reached exactly once, newest first, pages never overlap, none
    is longer than the limit and no private table of others ever appears."""
    with temporary_server(tmp_path, backend) as live, httpx.Client(base_url=live.url) as http:
        _reach_every_public_table(live, http, limit)


def _reach_every_public_table(live: LiveServer, http: httpx.Client, limit: int) -> None:
    owner, other, outsider = new_player(http, "O"), new_player(http, "X"), new_player(http, "V")
    public = [make_table(owner, "pick", 2)["id"] for _ in range(30)]
    private = [_private(other) for _ in range(30)]
    # Ten public and ten private tables share one instant (the id breaks the tie); ten public
    # ones are years old.
    instant = datetime.now(UTC) - timedelta(days=1)
    moments = {tid: instant for tid in public[:10] + private[:10]}
    moments |= {tid: instant - timedelta(days=3000 + i) for i, tid in enumerate(public[10:20])}
    _set_created_at(live, moments)

    created_meanwhile: list[str] = []

    def meanwhile() -> None:
        created_meanwhile.append(make_table(owner, "pick", 2)["id"])
        created_meanwhile.append(_private(other))

    params = {"game": "pick", "limit": limit}
    pages = _follow(outsider, params, between=meanwhile if limit < DEFAULT_PAGE else None)
    assert all(len(page) <= limit for page in pages)
    listed = [t for page in pages for t in page]
    ids = [t["id"] for t in listed]
    assert len(ids) == len(set(ids)), "a table was listed twice"
    assert set(ids) == set(public), "a public table was skipped (or a new one slipped in)"
    assert not set(private) & set(ids) and not set(created_meanwhile[1::2]) & set(ids)
    assert all(not t["private"] for t in listed)
    keys = [(datetime.fromisoformat(t["created_at"]), t["id"]) for t in listed]
    assert keys == sorted(keys, reverse=True), "not newest first"
    # Anonymous callers page the same way.
    anonymous = [t["id"] for page in _follow(http, params) for t in page]
    assert set(anonymous) == set(public) | set(created_meanwhile[::2])


def _cursor(value: Any) -> str:
    return base64.urlsafe_b64encode(json.dumps(value).encode()).decode().rstrip("=")


@pytest.mark.parametrize(
    "params",
    [
        {"cursor": "not a cursor"},
        {"cursor": "%%%"},
        {"cursor": ""},
        {"cursor": "x" * 201},
        {"cursor": _cursor({"a": 1})},
        {"cursor": _cursor(["2026-01-01T00:00:00+00:00"])},
        {"cursor": _cursor(["yesterday", "abc"])},
        {"cursor": _cursor(["2026-01-01T00:00:00+00:00", ""])},
        {"cursor": _cursor(["2026-01-01T00:00:00+00:00", "x" * 33])},
        {"cursor": _cursor(["0001-01-01T00:00:00+14:00", "abc"])},
        {"cursor": _cursor([1, 2])},
        {"cursor": base64.urlsafe_b64encode(b"\xff\xfe").decode()},
        {"limit": 0},
        {"limit": DEFAULT_PAGE + 1},
        {"limit": "many"},
    ],
)
def test_a_bad_cursor_or_limit_is_a_validation_error(
    http: httpx.Client, params: dict[str, Any]
) -> None:
    r = http.get("/api/v1/tables", params=params)
    assert r.status_code == 422, r.text
    assert r.json()["error"]["code"] == "validation_error"


def _server_signer(live: LiveServer) -> Signer:
    """The signer of the running server (its own key), to sign payloads it never would."""
    made = asyncio.run_coroutine_threadsafe(
        live.service().lobby.cursors.signer(), live.app.state.loop
    )
    signer: Signer = made.result(timeout=30)
    return signer


def _payload(value: Any) -> bytes:
    return json.dumps(value).encode()


def _real_cursor(http: httpx.Client, owner: Player) -> str:
    """A cursor the server issued (its first page of one table, with more to follow)."""
    make_table(owner, "pick", 2)
    make_table(owner, "pick", 2)
    r = http.get("/api/v1/tables", params={"limit": 1})
    assert r.status_code == 200, r.text
    return r.headers["x-next-cursor"]


NOW = "2026-01-01T00:00:00+00:00"
#: Forged cursors: (name, how to make it from a real cursor, a real table id and the server's
#: own signer). The unsigned ones are what a client can make up; the ones the server's key
#: signs stand for a bug that ever signed a bad field: the fields are checked all the same.
FORGERIES: list[tuple[str, Any]] = [
    ("made up, valid looking", lambda c, tid, me: _cursor([NOW, tid])),
    ("made up, NUL in the id", lambda c, tid, me: _cursor([NOW, "a\x00b"])),
    ("made up, NUL in the date", lambda c, tid, me: _cursor(["2026-01-01\x00", tid])),
    ("signed by another key", lambda c, tid, me: Signer(b"k" * 32, "lobby cursor").sign(
        _payload([NOW, tid]))),
    ("another purpose", lambda c, tid, me: Signer(b"k" * 32, "other").sign(_payload([NOW, tid]))),
    ("truncated by one", lambda c, tid, me: c[:-1]),
    ("truncated to the payload", lambda c, tid, me: c.rpartition(".")[0]),
    ("truncated to the signature", lambda c, tid, me: c.rpartition(".")[2]),
    ("payload swapped", lambda c, tid, me: _cursor([NOW, tid]) + "." + c.rpartition(".")[2]),
    ("signature of another", lambda c, tid, me: c.rpartition(".")[0] + "."
        + me.sign(_payload([NOW, tid])).rpartition(".")[2]),
    ("non-ASCII signature", lambda c, tid, me: c.rpartition(".")[0] + ".²é"),
    ("two dots", lambda c, tid, me: c + "." + c),
    ("longer than any issued", lambda c, tid, me: c + "A" * 200),
    ("signed, NUL in the id", lambda c, tid, me: me.sign(_payload([NOW, "a\x00b"]))),
    ("signed, id too long", lambda c, tid, me: me.sign(_payload([NOW, "x" * 33]))),
    ("signed, id not ours", lambda c, tid, me: me.sign(_payload([NOW, "a b"]))),
    ("signed, naive date", lambda c, tid, me: me.sign(_payload(["2026-01-01T00:00:00", tid]))),
    ("signed, not a date", lambda c, tid, me: me.sign(_payload(["yesterday", tid]))),
    ("signed, before year 1", lambda c, tid, me: me.sign(
        _payload(["0001-01-01T00:00:00+14:00", tid]))),
    ("signed, numbers", lambda c, tid, me: me.sign(_payload([1, 2]))),
    ("signed, an object", lambda c, tid, me: me.sign(_payload({"at": NOW, "id": tid}))),
    ("signed, not JSON", lambda c, tid, me: me.sign(b"\xff\xfe")),
]  # fmt: skip


@pytest.mark.parametrize("forge", [f for _, f in FORGERIES], ids=[n for n, _ in FORGERIES])
def test_a_cursor_the_server_did_not_issue_is_refused_naming_the_cursor(
    http: httpx.Client, live: LiveServer, forge: Any
) -> None:
    """Every kind of forgery is a 422 validation_error with ``field: "cursor"`` (never a 500
    on PostgreSQL, never a page), while the real cursor still leads to the next page."""
    owner = new_player(http, "Cursors")
    real = _real_cursor(http, owner)
    table_id = make_table(owner, "pick", 2)["id"]
    forged = forge(real, table_id, _server_signer(live))
    assert forged != real
    r = http.get("/api/v1/tables", params={"limit": 1, "cursor": forged})
    assert r.status_code == 422, (forged, r.text)
    error = r.json()["error"]
    assert error["code"] == "validation_error" and error["field"] == "cursor", error
    assert http.get("/api/v1/tables", params={"limit": 1, "cursor": real}).status_code == 200


def test_a_cursor_holds_on_every_instance_and_after_restarts(backend: str, tmp_path: Path) -> None:
    """Two instances on one database honour each other's cursors, and so does a restarted
    one (the key made by the first is kept in the database). A deployment's
    PARTIDA_SECRET_KEY is its key instead: cursors of the stored key are then refused, and its
    own hold across restarts."""
    configured = "s" * 40

    def instance(**overrides: Any) -> LiveServer:
        settings = test_settings(url, **overrides)
        return LiveServer(create_app(settings, games=test_games())).start()  # type: ignore[arg-type]

    def page(live: LiveServer, cursor: str | None = None) -> httpx.Response:
        params: dict[str, Any] = {"limit": 1, **({"cursor": cursor} if cursor else {})}
        return httpx.get(f"{live.url}/api/v1/tables", params=params, timeout=30)

    with fresh_database(backend, tmp_path) as url:
        first, second = instance(), instance()
        try:
            with httpx.Client(base_url=first.url, timeout=30) as http:
                owner = new_player(http, "Keys")
                tables = [make_table(owner, "pick", 2)["id"] for _ in range(3)]
            cursor = page(first).headers["x-next-cursor"]
            on_second = page(second, cursor)
            assert on_second.status_code == 200, on_second.text
            assert [t["id"] for t in on_second.json()] == [tables[1]]
        finally:
            first.stop()
            second.stop()
        restarted = instance()
        try:
            again = page(restarted, cursor)
            assert again.status_code == 200, again.text
            assert again.json() == on_second.json()
        finally:
            restarted.stop()
        keyed = instance(secret_key=configured)
        try:
            assert page(keyed, cursor).status_code == 422
            own = page(keyed).headers["x-next-cursor"]
        finally:
            keyed.stop()
        keyed_again = instance(secret_key=configured)
        try:
            assert [t["id"] for t in page(keyed_again, own).json()] == [tables[1]]
        finally:
            keyed_again.stop()


def test_a_short_secret_key_is_refused_at_startup() -> None:
    with pytest.raises(ValueError, match="secret_key"):
        test_settings("sqlite+aiosqlite:///unused.sqlite3", secret_key="short")


def test_instances_starting_together_agree_on_one_key(backend: str, tmp_path: Path) -> None:
    """Several instances making the deployment's key at once (a fresh database): one insert
    wins, every instance signs with that key, and the database holds one."""

    async def start_together(url: str) -> tuple[list[bytes], int]:
        engine = create_async_engine(url)
        try:
            made = async_sessionmaker(engine, expire_on_commit=False)
            keys = await asyncio.gather(*(deployment_key(made, None) for _ in range(6)))
            async with made() as session:
                rows = len((await session.execute(select(ServerSecret))).scalars().all())
        finally:
            await engine.dispose()
        return list(keys), rows

    with fresh_database(backend, tmp_path) as url:
        keys, rows = asyncio.run(start_together(url))
    assert len(set(keys)) == 1 and rows == 1
