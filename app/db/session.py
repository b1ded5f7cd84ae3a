"""The async engine and session factory, built from settings."""

from __future__ import annotations

import socket
import sys
from typing import Any

from sqlalchemy import event
from sqlalchemy import exc as sa_exc
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

from app.config import Settings


def make_engine(settings: Settings) -> AsyncEngine:
    """Create the engine; SQLite gets WAL, a busy timeout and enforced foreign keys."""
    settings.ensure_data_dir()
    if settings.is_sqlite:
        engine = create_async_engine(
            settings.database_url, connect_args={"timeout": 30}, pool_size=5, max_overflow=10
        )

        @event.listens_for(engine.sync_engine, "connect")
        def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
            cursor = dbapi_conn.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA busy_timeout=30000")
            cursor.close()

        return engine
    return create_async_engine(
        settings.database_url,
        pool_size=10,
        max_overflow=20,
        pool_pre_ping=True,
        connect_args={"timeout": settings.database_connect_timeout_seconds},
    )


# What a database that is down, unreachable or silent raises: raw from the drivers when
# the connection attempt fails (refused, timed out), wrapped by SQLAlchemy once connected.
UNAVAILABLE_ERRORS: tuple[type[Exception], ...] = (
    ConnectionError,
    TimeoutError,
    socket.gaierror,
    sa_exc.OperationalError,
    sa_exc.InterfaceError,
    sa_exc.DisconnectionError,
    sa_exc.TimeoutError,  # no pooled connection came free in time
)


def unavailable_errors(postgresql: bool) -> tuple[type[Exception], ...]:
    """:data:`UNAVAILABLE_ERRORS`, with asyncpg's own when the database is PostgreSQL (a
    SQLite server never imports asyncpg, ≈ 3 MB resident)."""
    if not postgresql:
        return UNAVAILABLE_ERRORS
    import asyncpg  # type: ignore[import-untyped]

    return (
        *UNAVAILABLE_ERRORS,
        asyncpg.PostgresConnectionError,  # class 08: connection exceptions
        asyncpg.CannotConnectNowError,
        asyncpg.TooManyConnectionsError,
        asyncpg.InvalidCatalogNameError,  # the database is gone
        asyncpg.OperatorInterventionError,  # class 57: shutdown, crash, cancel
    )


def database_unavailable(exc: BaseException) -> bool:
    """Does ``exc`` say that the database cannot be reached (rather than a bug)?"""
    if isinstance(exc, sa_exc.DBAPIError) and exc.connection_invalidated:
        return True
    # asyncpg's errors are only raised once it is imported (by a PostgreSQL engine).
    return isinstance(exc, unavailable_errors("asyncpg" in sys.modules))


def make_sessionmaker(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    return async_sessionmaker(engine, expire_on_commit=False)
