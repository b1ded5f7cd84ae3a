"""Schema only through alembic: an empty database upgrades to head with no drift."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect
from sqlalchemy.ext.asyncio import create_async_engine

from app.db import models  # noqa: F401
from app.db.base import Base
from app.migrate import ROOT, alembic_config
from tests.support.databases import BACKENDS, fresh_database


async def _diff_and_tables(url: str) -> tuple[list[Any], set[str]]:
    engine = create_async_engine(url)
    try:
        async with engine.connect() as conn:

            def check(sync_conn: Any) -> tuple[list[Any], set[str]]:
                context = MigrationContext.configure(sync_conn, opts={"compare_type": True})
                return compare_metadata(context, Base.metadata), set(
                    inspect(sync_conn).get_table_names()
                )

            return await conn.run_sync(check)
    finally:
        await engine.dispose()


@pytest.mark.parametrize("backend", BACKENDS)
def test_upgrade_empty_database_to_head_has_no_drift(backend: str, tmp_path: Path) -> None:
    with fresh_database(backend, tmp_path) as url:
        diff, tables = asyncio.run(_diff_and_tables(url))
    assert diff == []
    assert {"players", "game_tables", "seats", "action_log", "alembic_version"} <= tables


@pytest.mark.parametrize("backend", BACKENDS)
def test_downgrade_to_base_and_up_again(backend: str, tmp_path: Path) -> None:
    from alembic import command

    with fresh_database(backend, tmp_path) as url:
        config = alembic_config(url)
        command.downgrade(config, "base")
        _, tables = asyncio.run(_diff_and_tables(url))
        assert tables <= {"alembic_version"}
        command.upgrade(config, "head")
        diff, _ = asyncio.run(_diff_and_tables(url))
    assert diff == []


def test_replicas_starting_together_upgrade_once(tmp_path: Path) -> None:
    """compose --scale starts several apps at once; each runs the migrations on start.

    Separate processes, as replicas are: alembic's ``context`` and ``op`` are
    process-wide, so threads of one process cannot stand in for them.
    """
    code = (
        "import sys, time; from app.migrate import upgrade_to_head; "
        "time.sleep(max(0.0, float(sys.argv[2]) - time.time())); upgrade_to_head(sys.argv[1])"
    )
    with fresh_database("postgresql", tmp_path, migrate=False) as url:
        # All four start migrating at the same moment, after their imports.
        start_at = str(time.time() + 3)
        replicas = [
            subprocess.Popen(
                [sys.executable, "-c", code, url, start_at],
                cwd=ROOT,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
            )
            for _ in range(4)
        ]
        for replica in replicas:
            output, _ = replica.communicate(timeout=120)
            # none of them fails on a schema another is still making
            assert replica.returncode == 0, output
        diff, _tables = asyncio.run(_diff_and_tables(url))
        assert diff == []
