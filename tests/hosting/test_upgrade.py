"""Upgrades: the server migrates a database left at an older revision when it starts."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from alembic import command
from alembic.script import ScriptDirectory
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from app.migrate import alembic_config
from tests.support.databases import BACKENDS, fresh_database
from tests.support.process import ServerProcess


async def _revision(url: str) -> str:
    engine = create_async_engine(url)
    async with engine.connect() as conn:
        rev = (await conn.execute(text("SELECT version_num FROM alembic_version"))).scalar_one()
    await engine.dispose()
    return str(rev)


@pytest.mark.parametrize("backend", BACKENDS)
def test_start_upgrades_an_older_database(backend: str, tmp_path: Path) -> None:
    with fresh_database(backend, tmp_path, migrate=False) as url:
        command.upgrade(alembic_config(url), "0001")
        assert asyncio.run(_revision(url)) == "0001"
        server = ServerProcess(url).start()
        server.stop()
        head = ScriptDirectory.from_config(alembic_config(url)).get_current_head()
        assert asyncio.run(_revision(url)) == head
