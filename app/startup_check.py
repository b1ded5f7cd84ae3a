"""A server started on a database that is not migrated stops with one line saying how to
migrate it, not with a traceback about a missing table.

`python -m app` (and `scripts/serve`, the Docker image) migrates before it serves;
`uvicorn app.main:app` does not. Before the application's own startup this compares the
database's schema revision with the newest migration: a database with no schema, or one left
at an older revision, fails the ASGI startup with a single message (the server prints it and
exits), naming the command that migrates it.
"""

from __future__ import annotations

from functools import lru_cache

from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.ext.asyncio import create_async_engine
from sqlalchemy.pool import NullPool
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.config import Settings
from app.migrate import alembic_config

MIGRATE_COMMAND = "python -m app migrate"


@lru_cache(maxsize=1)
def _migrations() -> ScriptDirectory:
    return ScriptDirectory.from_config(alembic_config())


def _current_revisions(conn: Connection) -> tuple[str, ...]:
    # No alembic_version table (a database nobody migrated) reads as no revision at all.
    return MigrationContext.configure(conn).get_current_heads()


def _known(revision: str) -> bool:
    try:
        return _migrations().get_revision(revision) is not None
    except Exception:  # alembic's resolution errors: a revision this code has never heard of
        return False


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
        heads = tuple(_migrations().get_heads())
        if current is None or set(current) == set(heads):
            return None
        if not current:
            detail = "it has no schema"
        elif not all(_known(rev) for rev in current):
            return None
        else:
            detail = f"it is at revision {', '.join(current)}, this server needs {', '.join(heads)}"
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
