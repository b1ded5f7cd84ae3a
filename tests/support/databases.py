"""Test databases: a fresh SQLite file, or a fresh PostgreSQL database on the local server."""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import asyncpg

from app.migrate import upgrade_to_head

POSTGRES_URL = os.environ.get(
    "PARTIDA_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test"
)
BACKENDS = ("sqlite", "postgresql")


def _server_url(url: str) -> tuple[str, str]:
    base, _, _db = url.rpartition("/")
    return base, _db


async def _admin(sql: str) -> None:
    conn = await asyncpg.connect(POSTGRES_URL)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


@contextmanager
def fresh_database(backend: str, tmp_dir: Path, *, migrate: bool = True) -> Iterator[str]:
    """Yield the URL of an empty database of ``backend`` (migrated to head unless told not to)."""
    if backend == "sqlite":
        path = tmp_dir / f"partida-{uuid.uuid4().hex[:8]}.sqlite3"
        url = f"sqlite+aiosqlite:///{path}"
        if migrate:
            upgrade_to_head(url)
        yield url
        return
    name = f"partida_test_{uuid.uuid4().hex[:12]}"
    asyncio.run(_admin(f'CREATE DATABASE "{name}"'))
    base, _ = _server_url(POSTGRES_URL)
    url = f"{base}/{name}".replace("postgresql://", "postgresql+asyncpg://", 1)
    try:
        if migrate:
            upgrade_to_head(url)
        yield url
    finally:
        asyncio.run(_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
