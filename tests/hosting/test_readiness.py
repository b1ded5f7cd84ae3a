"""`/readyz` tells a load balancer when this instance cannot serve: 503 with the failing part."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx

from tests.support.databases import _admin, fresh_database
from tests.support.process import ServerProcess, free_port


def test_readyz_turns_503_when_the_database_goes_away(tmp_path: Path) -> None:
    with fresh_database("postgresql", tmp_path, migrate=False) as url:
        server = ServerProcess(url).start()
        try:
            ready = httpx.get(f"{server.url}/readyz", timeout=10)
            assert ready.status_code == 200 and ready.json()["database"] == "ok"
            name = url.rsplit("/", 1)[1]
            asyncio.run(_admin(f'DROP DATABASE "{name}" WITH (FORCE)'))
            gone = httpx.get(f"{server.url}/readyz", timeout=10)
            assert gone.status_code == 503
            assert gone.json() == {"status": "not_ready", "database": "unreachable"}
            # Liveness is another question: the process itself is fine.
            assert httpx.get(f"{server.url}/healthz", timeout=10).json() == {"status": "ok"}
        finally:
            server.stop()


def test_an_instance_without_its_redis_is_still_ready(tmp_path: Path) -> None:
    """Redis is an accelerator, not a dependency (issue 17.8): an instance whose Redis is
    gone still serves its own players, so a load balancer must keep sending them to it."""
    with fresh_database("sqlite", tmp_path) as url:
        server = ServerProcess(url, PARTIDA_REDIS_URL=f"redis://127.0.0.1:{free_port()}/0")
        server.start()
        try:
            ready = httpx.get(f"{server.url}/readyz", timeout=30)
            assert ready.status_code == 200, ready.text
            assert ready.json() == {"status": "ready", "database": "ok", "redis": "unreachable"}
        finally:
            server.stop()
