"""The public lobby cannot be emptied (issue 17.5).

GET /tables filters private tables in the query (not after a LIMIT) and pages with an opaque
keyset cursor (X-Next-Cursor / Link rel="next"), so no number of private or older tables hides
a public one: following the cursor reaches every public table exactly once, in order, even
while tables are being created between pages. A cursor the server did not issue is a 422.

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
from sqlalchemy import update
from sqlalchemy.ext.asyncio import create_async_engine

from app.db.models import GameTable
from tests.support.client import Player, make_table, new_player
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
