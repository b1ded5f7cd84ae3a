"""The async engine and session factory, built from settings."""

from __future__ import annotations

import logging
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


def unreachable_cause(exc: BaseException | None) -> BaseException | None:
    """``exc``, or the first error of its chain (cause, else context), that says the
    database cannot be reached (:func:`database_unavailable`); None if none does."""
    for _ in range(8):  # a chain is short; a cycle must not hang the logging
        if exc is None:
            return None
        if database_unavailable(exc):
            return exc
        exc = exc.__cause__ or exc.__context__
    return None


def outage_summary(exc: BaseException) -> str:
    """One line for a database error: the driver's error class and the first line of its
    message (without SQLAlchemy's statement and parameters), at most 200 characters."""
    inner = exc.orig if isinstance(exc, sa_exc.DBAPIError) and exc.orig is not None else exc
    message = (str(inner).strip().splitlines() or [""])[0][:200]
    name = type(inner).__name__
    return f"{name}: {message}" if message else name


class OutageLogFilter(logging.Filter):
    """A record whose error says the database (or another service) cannot be reached goes
    out as one line: the error's summary is added to its message and its traceback dropped,
    unless its logger is at DEBUG. During an outage every request and every background pass
    meets the same error, and a traceback for each buried the log (issue 34.8)."""

    def filter(self, record: logging.LogRecord) -> bool:
        cause = unreachable_cause(record.exc_info[1] if record.exc_info else None)
        if cause is None or logging.getLogger(record.name).isEnabledFor(logging.DEBUG):
            return True
        if not isinstance(record.msg, str):
            return True  # structlog's own event dict: left to its processors
        record.msg = f"{record.getMessage()} (unreachable: {outage_summary(cause)})"
        record.args = None
        record.exc_info = None
        record.exc_text = None
        return True
