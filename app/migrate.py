"""Apply alembic migrations programmatically (used by `python -m app` and the tests)."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

from alembic import command
from alembic.config import Config

ROOT = Path(__file__).resolve().parent.parent


def alembic_config(database_url: str | None = None) -> Config:
    config = Config(str(ROOT / "alembic.ini"))
    config.set_main_option("script_location", str(ROOT / "migrations"))
    config.attributes["configure_logging"] = False
    if database_url:
        config.attributes["database_url"] = database_url
    return config


def upgrade_to_head(database_url: str | None = None) -> None:
    """Bring the database schema to the newest revision (a no-op when it is already there).

    The migration environment runs its own event loop, so from a thread that already has
    one running (an async caller, a test under an async driver) it runs on a helper thread.
    """
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        command.upgrade(alembic_config(database_url), "head")
        return
    errors: list[BaseException] = []

    def run() -> None:
        try:
            command.upgrade(alembic_config(database_url), "head")
        except BaseException as exc:  # re-raised in the caller's thread
            errors.append(exc)

    worker = threading.Thread(target=run)
    worker.start()
    worker.join()
    if errors:
        raise errors[0]
