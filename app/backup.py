"""Consistent backups and restores: SQLite's online backup API, PostgreSQL's pg_dump/pg_restore."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from datetime import UTC, datetime
from pathlib import Path

from app.config import Settings

# Backups hold the secrets of running games: owner-only, like an SSH key.
BACKUP_MODE = 0o600


class BackupError(RuntimeError):
    pass


def _libpq_url(database_url: str) -> str:
    """postgresql+asyncpg://… → postgresql://… (what pg_dump understands)."""
    scheme, rest = database_url.split("://", 1)
    return "postgresql://" + rest if scheme.startswith("postgresql") else database_url


def _tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        raise BackupError(f"{name} is not installed; install the PostgreSQL client tools")
    return path


def default_backup_path(settings: Settings, folder: Path = Path("backups")) -> Path:
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    suffix = "sqlite3" if settings.is_sqlite else "pgdump"
    return folder / f"partida-{stamp}.{suffix}"


def _private_file(path: Path) -> None:
    """Create ``path`` (or empty it) readable and writable by its owner only, before anything
    is written to it: a backup holds the secrets of running games (seed secrets, hidden
    hands, token hashes). SQLite gives its journal the database file's mode; pg_dump
    writes into the existing file and keeps its mode."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, BACKUP_MODE)
    try:
        os.fchmod(fd, BACKUP_MODE)  # an existing file keeps its mode through os.open
    finally:
        os.close(fd)


def backup(settings: Settings, output: Path | None = None) -> Path:
    """Write a consistent snapshot of the database (safe while the server runs), mode 0600."""
    output = output or default_backup_path(settings)
    if settings.is_sqlite:
        source = settings.sqlite_path()
        if source is None or not source.exists():
            raise BackupError(f"no SQLite database at {source}")
        _private_file(output)
        with sqlite3.connect(source) as src, sqlite3.connect(output) as dst:
            src.backup(dst)
        return output
    pg_dump = _tool("pg_dump")
    _private_file(output)
    run = subprocess.run(
        [
            pg_dump,
            "--format=custom",
            "--no-owner",
            f"--file={output}",
            _libpq_url(settings.database_url),
        ],
        capture_output=True,
        text=True,
    )
    if run.returncode != 0:
        raise BackupError(f"pg_dump failed: {run.stderr.strip()}")
    return output


def restore(settings: Settings, source: Path) -> None:
    """Load a backup into the configured database, replacing what is there. Stop the server first."""
    if not source.exists():
        raise BackupError(f"no backup at {source}")
    if settings.is_sqlite:
        target = settings.sqlite_path()
        if target is None:
            raise BackupError("restoring needs a file-backed SQLite database")
        target.parent.mkdir(parents=True, exist_ok=True)
        with sqlite3.connect(source) as src, sqlite3.connect(target) as dst:
            src.backup(dst)
        return
    run = subprocess.run(
        [_tool("pg_restore"), "--clean", "--if-exists", "--no-owner", "--single-transaction",
         f"--dbname={_libpq_url(settings.database_url)}", str(source)],
        capture_output=True,
        text=True,
    )  # fmt: skip
    if run.returncode != 0:
        raise BackupError(f"pg_restore failed: {run.stderr.strip()}")
