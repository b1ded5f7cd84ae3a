"""`uvicorn app.main:app` on a database nobody migrated stops with one line naming the migrate
command (issue 19.8): exit status non-zero, no traceback, and the database left as it was."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from alembic import command

from app.migrate import alembic_config
from app.startup_check import MIGRATE_COMMAND
from tests.support.databases import fresh_database
from tests.support.process import ROOT, free_port


def _uvicorn(database_url: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PARTIDA_DATABASE_URL": database_url, "PARTIDA_LOG_LEVEL": "WARNING"}
    return subprocess.run(
        [sys.executable, "-m", "uvicorn", "app.main:app", "--port", str(free_port())],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _assert_refused(run: subprocess.CompletedProcess[str], detail: str) -> None:
    assert run.returncode != 0, run.stderr
    assert "Traceback" not in run.stderr, run.stderr
    said = [line for line in run.stderr.splitlines() if "is not migrated" in line]
    assert len(said) == 1, run.stderr
    assert f"run `{MIGRATE_COMMAND}`" in said[0] and detail in said[0], said[0]


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_an_empty_database_is_refused_with_the_migrate_command(
    backend: str, tmp_path: Path
) -> None:
    with fresh_database(backend, tmp_path, migrate=False) as url:
        if backend == "sqlite":
            Path(url.split(":///", 1)[1]).touch()
        _assert_refused(_uvicorn(url), "it has no schema")


def test_a_missing_sqlite_file_is_refused_and_not_created(tmp_path: Path) -> None:
    path = tmp_path / "data" / "partida.sqlite3"
    _assert_refused(_uvicorn(f"sqlite:///{path}"), "the file does not exist yet")
    assert not path.exists()


def test_a_database_at_an_older_revision_is_refused(tmp_path: Path) -> None:
    with fresh_database("sqlite", tmp_path, migrate=False) as url:
        command.upgrade(alembic_config(url), "0001")
        _assert_refused(_uvicorn(url), "it is at revision 0001")


def test_the_servers_reading_of_the_migrations_is_alembics() -> None:
    """The server reads the migrations folder without alembic (which would stay resident):
    the same revisions, the same heads as alembic's own reading."""
    from alembic.script import ScriptDirectory

    from app.migrate import alembic_config
    from app.startup_check import migrations

    scripts = ScriptDirectory.from_config(alembic_config())
    known, heads = migrations()
    assert known == {s.revision for s in scripts.walk_revisions()}
    assert heads == set(scripts.get_heads())
