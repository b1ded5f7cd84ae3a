"""A server carries only what its settings use: a SQLite server that has seen no webhook
has not imported asyncpg (PostgreSQL's driver) or httpx (the webhook client), together some
9 MB of every process's resident memory. Each is imported when first needed, and then
works: a PostgreSQL server still answers 503 for asyncpg's connection errors, and a webhook
is still read and posted (tests/api/test_webhook_targets.py, tests/hosting)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from app.config import Settings
from app.db.session import UNAVAILABLE_ERRORS, database_unavailable, unavailable_errors

PROBE = """
import json, sys
from app.config import Settings
from app.main import create_app
create_app(Settings(database_url=sys.argv[1]))
print(json.dumps(sorted(m for m in ("asyncpg", "httpx") if m in sys.modules)))
"""


def _imported(database_url: str) -> list[str]:
    out = subprocess.run(
        [sys.executable, "-c", PROBE, database_url],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return list(json.loads(out.stdout.strip().splitlines()[-1]))


def test_a_sqlite_server_imports_neither_the_postgresql_driver_nor_the_webhook_client(
    tmp_path: Path,
) -> None:
    assert _imported(f"sqlite:///{tmp_path}/lean.db") == []


def test_a_postgresql_server_knows_its_drivers_connection_errors() -> None:
    import asyncpg  # type: ignore[import-untyped]

    errors = unavailable_errors(postgresql=True)
    assert set(UNAVAILABLE_ERRORS) < set(errors)
    assert asyncpg.CannotConnectNowError in errors
    assert unavailable_errors(postgresql=False) == UNAVAILABLE_ERRORS
    assert database_unavailable(asyncpg.CannotConnectNowError("the server is starting"))
    assert Settings(database_url="postgresql://x@127.0.0.1/test").is_sqlite is False
