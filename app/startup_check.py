"""A server started on a database that is not migrated stops with one line saying how to
migrate it, not with a traceback about a missing table.

`python -m app` (and `scripts/serve`, the Docker image) migrates before it serves;
`uvicorn app.main:app` does not. Before the application's own startup this compares the
database's schema revision with the newest migration: a database with no schema, or one left
at an older revision, fails the ASGI startup with a single message (the server prints it and
exits), naming the command that migrates it.
"""

from __future__ import annotations

import ast
import re
from functools import lru_cache
from pathlib import Path

from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.ext.asyncio import create_async_engine
from sqlalchemy.pool import NullPool
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.config import Settings

MIGRATE_COMMAND = "python -m app migrate"


VERSIONS = Path(__file__).resolve().parents[1] / "migrations" / "versions"
# A migration script's own lines naming it and the one it follows (alembic's format).
_REVISION_LINE = re.compile(r"^(revision|down_revision)\b[^=\n]*=\s*(.+)$", re.MULTILINE)


@lru_cache(maxsize=1)
def migrations() -> tuple[frozenset[str], frozenset[str]]:
    """Every revision of the migrations folder, and its heads (those no other one follows),
    read from the scripts' ``revision`` and ``down_revision`` lines: alembic's runtime would
    stay resident in the server for this one check (tests/hosting holds it to alembic's)."""
    known: set[str] = set()
    followed: set[str] = set()
    for script in VERSIONS.glob("*.py"):
        lines = {
            m[1]: ast.literal_eval(m[2].strip())
            for m in _REVISION_LINE.finditer(script.read_text())
        }
        known.add(lines["revision"])
        down = lines.get("down_revision")
        followed.update((down,) if isinstance(down, str) else (down or ()))
    return frozenset(known), frozenset(known - followed)


def _current_revisions(conn: Connection) -> tuple[str, ...]:
    # No alembic_version table (a database nobody migrated) reads as no revision at all.
    if not inspect(conn).has_table("alembic_version"):
        return ()
    return tuple(conn.execute(text("SELECT version_num FROM alembic_version")).scalars())


async def _revisions(settings: Settings) -> tuple[str, ...] | None:
    """The database's schema revisions; None when they cannot be read (the database is down
    or refuses us: the application's own startup meets that and reports it as always)."""
    connect_args = (
        {} if settings.is_sqlite else {"timeout": settings.database_connect_timeout_seconds}
    )
    engine = create_async_engine(
        settings.database_url, poolclass=NullPool, connect_args=connect_args
    )
    try:
        async with engine.connect() as conn:
            return await conn.run_sync(_current_revisions)
    except Exception:
        return None
    finally:
        await engine.dispose()


async def schema_problem(settings: Settings) -> str | None:
    """One line saying that the database is not migrated and how to migrate it, or None when
    its schema is at the newest migration (or newer: a later release migrated it, and
    whether this one may serve it is not a question of a missing migration)."""
    where = make_url(settings.database_url).render_as_string(hide_password=True)
    path = settings.sqlite_path()
    if path is not None and not path.exists():
        # Connecting would create an empty file; say what is missing instead.
        detail = "the file does not exist yet"
    else:
        current = await _revisions(settings)
        known, heads = migrations()
        if current is None or set(current) == set(heads):
            return None
        if not current:
            detail = "it has no schema"
        elif not set(current) <= known:
            return None
        else:
            detail = (
                f"it is at revision {', '.join(current)}, "
                f"this server needs {', '.join(sorted(heads))}"
            )
    return (
        f"partida: the database {where} is not migrated ({detail}); "
        f"run `{MIGRATE_COMMAND}` with the same PARTIDA_DATABASE_URL, then start the server again "
        "(`python -m app` migrates and serves in one step)"
    )


class RefuseUnmigratedDatabase:
    """ASGI wrapper: at the lifespan's startup, a database that is not migrated fails the
    startup with :func:`schema_problem`'s line as the message (the server logs it and exits
    non-zero); otherwise the application starts as usual."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.settings = settings

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "lifespan":
            await self.app(scope, receive, send)
            return
        startup = await receive()
        problem = await schema_problem(self.settings)
        if problem is not None:
            await send({"type": "lifespan.startup.failed", "message": problem})
            return
        pending: list[Message] = [startup]

        async def replay_startup() -> Message:
            return pending.pop() if pending else await receive()

        await self.app(scope, replay_startup, send)
