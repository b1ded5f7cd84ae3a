"""Structured logging through structlog; stdlib loggers are routed through the same renderer.

No secret reaches a log line: every line the one handler writes (uvicorn's access and
WebSocket lines, the app's loggers, tracebacks, ``extra`` fields) passes through
``redact``, which masks ``token=...`` in any URL or query, ``"token": "..."`` in JSON
and reprs, and the credential of any ``Authorization``/``Bearer`` header.
"""

from __future__ import annotations

import logging
import re
import sys
from collections.abc import MutableMapping
from typing import Any

import structlog

from app.db.session import OutageLogFilter


def _drop_color_message(
    _logger: Any, _name: str, event: MutableMapping[str, Any]
) -> MutableMapping[str, Any]:
    """uvicorn adds an ANSI-coloured duplicate of each message; keep only the plain one."""
    event.pop("color_message", None)
    return event


REDACTED = "[redacted]"
# A key naming a secret: token, access_token, admin_token, auth_token, secret, password.
_KEY = r"(?:[A-Za-z_]*token|secret|password|invite_code)"
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
)


def redact(text: str) -> str:
    """``text`` with every credential it carries replaced by ``[redacted]``."""
    for pattern in _SECRETS:
        text = pattern.sub(lambda m: m.group(1) + REDACTED, text)
    return text


class RedactingFormatter(structlog.stdlib.ProcessorFormatter):
    """The renderer's whole output (message, extras, traceback) passed through ``redact``."""

    def format(self, record: logging.LogRecord) -> str:
        return redact(super().format(record))


def configure_logging(level: str = "INFO", json: bool = False, access_log: bool = False) -> None:
    shared: list[structlog.types.Processor] = [
        structlog.contextvars.merge_contextvars,
        structlog.stdlib.add_log_level,
        structlog.stdlib.add_logger_name,
        structlog.stdlib.ExtraAdder(),
        structlog.processors.TimeStamper(fmt="iso", utc=True),
        _drop_color_message,
    ]
    renderer: structlog.types.Processor = (
        structlog.processors.JSONRenderer() if json else structlog.dev.ConsoleRenderer(colors=False)
    )
    structlog.configure(
        processors=[*shared, structlog.stdlib.ProcessorFormatter.wrap_for_formatter],
        logger_factory=structlog.stdlib.LoggerFactory(),
        cache_logger_on_first_use=True,
    )
    formatter = RedactingFormatter(
        foreign_pre_chain=shared,
        processors=[
            structlog.stdlib.ProcessorFormatter.remove_processors_meta,
            structlog.processors.format_exc_info,
            renderer,
        ],
    )
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(formatter)
    handler.addFilter(OutageLogFilter())  # a database outage: one line per error, no traceback
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logging.getLogger(name).handlers[:] = []
        logging.getLogger(name).propagate = True
    # One line per HTTP request only when asked for (PARTIDA_ACCESS_LOG); redacted like the rest.
    logging.getLogger("uvicorn.access").setLevel(logging.INFO if access_log else logging.WARNING)
