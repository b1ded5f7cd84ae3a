"""Structured logging through structlog; stdlib loggers are routed through the same renderer.

No secret reaches a log line: every line the one handler writes (uvicorn's access and
WebSocket lines, the app's loggers, tracebacks, ``extra`` fields) passes through
``redact``, which masks every secret value the process knows (app.known_secrets) wherever
it appears, and by key: ``token=...`` or ``invite=...`` in any URL or query,
``"token": "..."`` in JSON and reprs, the credential of any ``Authorization``/``Bearer``
header and the password in any ``scheme://user:password@host``. The database drivers'
statement loggers stay at WARNING whatever the root level.
"""

from __future__ import annotations

import logging
import re
import sys
from collections.abc import MutableMapping
from typing import Any

import structlog

from app.db.session import OutageLogFilter
from app.known_secrets import KNOWN


def _drop_color_message(
    _logger: Any, _name: str, event: MutableMapping[str, Any]
) -> MutableMapping[str, Any]:
    """uvicorn adds an ANSI-coloured duplicate of each message; keep only the plain one."""
    event.pop("color_message", None)
    return event


REDACTED = "[redacted]"
# A key naming a secret: token, access_token, admin_token, seed_secret, password, invite,
# invite_code, access_code, passkey, device_code.
_KEY = r"(?:[A-Za-z_]*(?:token|secret|password)|invite(?:_code)?|access_code|passkey|device_code)"
_SECRETS = (
    # token=... in a URL, a query string or key=value pairs (also percent-encoded `=`).
    re.compile(rf"(?i)(\b{_KEY}(?:=|%3D))[^&\s\"';,)\]}}]+"),
    # "token": "..." / 'token': '...' in JSON and Python reprs (also escaped quotes).
    re.compile(rf"(?i)(\b{_KEY}\\?[\"']\s*:\s*\\?[\"'])[^\"'\\]+"),
    # Authorization: Bearer ... / Basic ..., and a bare "Bearer ...".
    re.compile(
        r"(?i)(\bauthorization[\"']?\s*[:=,]\s*[\"']?(?:bearer|basic|token)?\s*)[^\s\"',)]+"
    ),
    re.compile(r"(?i)(\bbearer\s+)[^\s\"',)]+"),
    # The password of a URL's user (a webhook's, a database's): scheme://user:password@host.
    re.compile(r"(?i)(\b[a-z][a-z0-9+.-]*://[^/\s:@]*:)[^/\s@]+(?=@)"),
)


def redact(text: str) -> str:
    """``text`` with every credential it carries replaced by ``[redacted]``."""
    for pattern in _SECRETS:
        text = pattern.sub(lambda m: m.group(1) + REDACTED, text)
    return KNOWN.mask(text, REDACTED)


class RedactingFormatter(structlog.stdlib.ProcessorFormatter):
    """The renderer's whole output (message, extras, traceback) passed through ``redact``."""

    def format(self, record: logging.LogRecord) -> str:
        return redact(super().format(record))


STATEMENT_LOGGERS = ("aiosqlite", "asyncpg", "sqlalchemy.engine")


_SHARED: list[structlog.types.Processor] = [
    structlog.contextvars.merge_contextvars,
    structlog.stdlib.add_log_level,
    structlog.stdlib.add_logger_name,
    structlog.stdlib.ExtraAdder(),
    structlog.processors.TimeStamper(fmt="iso", utc=True),
    _drop_color_message,
]


def line_formatter(json: bool = False) -> RedactingFormatter:
    """The one formatter: console or JSON lines, redacted."""
    renderer: structlog.types.Processor = (
        structlog.processors.JSONRenderer() if json else structlog.dev.ConsoleRenderer(colors=False)
    )
    return RedactingFormatter(
        foreign_pre_chain=_SHARED,
        processors=[
            structlog.stdlib.ProcessorFormatter.remove_processors_meta,
            structlog.processors.format_exc_info,
            renderer,
        ],
    )


def configure_logging(level: str = "INFO", json: bool = False, access_log: bool = False) -> None:
    structlog.configure(
        processors=[*_SHARED, structlog.stdlib.ProcessorFormatter.wrap_for_formatter],
        logger_factory=structlog.stdlib.LoggerFactory(),
        cache_logger_on_first_use=True,
    )
    formatter = line_formatter(json)
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(formatter)
    handler.addFilter(OutageLogFilter())  # a database outage: one line per error, no traceback
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logging.getLogger(name).handlers[:] = []
        logging.getLogger(name).propagate = True
    # The drivers log every statement with its parameters at DEBUG (and SQLAlchemy's engine at
    # INFO): every table row's seed secret and invite code. No setting turns statement echo on.
    for name in STATEMENT_LOGGERS:
        logging.getLogger(name).setLevel(logging.WARNING)
    # One line per HTTP request only when asked for (PARTIDA_ACCESS_LOG); redacted like the rest.
    logging.getLogger("uvicorn.access").setLevel(logging.INFO if access_log else logging.WARNING)
