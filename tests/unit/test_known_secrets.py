"""Secrets masked by value (issue 34.4): whatever makes or reads a secret remembers it
(app.known_secrets.remember), and the log formatter masks every remembered value wherever it
appears in a line, under any key or none, escaped or not; the store is bounded; secret
columns remember their values when a row is made and when it is loaded from either
database; the settings remember theirs; the drivers' statement loggers stay at WARNING.
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
import secrets
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
from sqlalchemy.ext.asyncio import async_sessionmaker, create_async_engine

from app import known_secrets
from app.config import Settings
from app.db.models import GameTable, Player, utcnow
from app.known_secrets import SHORTEST, KnownSecrets, remember
from app.logging import REDACTED, STATEMENT_LOGGERS, configure_logging, line_formatter
from tests.support.databases import BACKENDS, fresh_database


def _logged(json_lines: bool, emit: Callable[[logging.Logger], None]) -> str:
    """What a logger writes through the server's formatter while ``emit(logger)`` runs."""
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(line_formatter(json_lines))
    logger = logging.getLogger(f"partida.test.{secrets.token_hex(4)}")
    logger.addHandler(handler)
    logger.propagate = False
    logger.setLevel(logging.DEBUG)
    emit(logger)
    return out.getvalue()


@pytest.mark.parametrize("json_lines", [False, True])
def test_a_remembered_value_is_masked_wherever_it_appears(json_lines: bool) -> None:
    # The API every secret uses, today's and those to come (passkeys, device codes).
    secret = remember(secrets.token_urlsafe(24))
    odd = remember("adm/in+" + secrets.token_urlsafe(12) + '"q')  # escaped in URLs and JSON
    code = remember(secrets.token_urlsafe(9))  # shorter than the others, glued at a run's end

    def emit(log: logging.Logger) -> None:
        log.info("GET /api/v1/tables/%s?x=%s HTTP/1.1", secret, quote(odd, safe=""))
        log.debug("frame %s", json.dumps({"type": "hello", "words": f"a {secret} b"}))
        log.warning("pair", extra={"note": secret, "other": {"nested": odd}})
        log.info("glued %s%s|%s|3D%s", "x" * 3, secret, odd, code)
        try:
            raise ValueError(f"no table '{secret}' ({odd})")
        except ValueError:
            log.exception("failed")

    logs = _logged(json_lines, emit)
    for form in (secret, code, odd, quote(odd, safe=""), json.dumps(odd)[1:-1]):
        assert form not in logs
    assert logs.count(REDACTED) >= 8
    assert "GET /api/v1/tables/" in logs and "ValueError" in logs and "Traceback" in logs


@pytest.mark.parametrize("json_lines", [False, True])
def test_secrets_never_remembered_are_masked_by_their_key(json_lines: bool) -> None:
    """A wrong invite code or token is not remembered (else clients could flood the store)."""
    wrong = [f"wrong{secrets.token_urlsafe(12)}" for _ in range(7)]

    def emit(log: logging.Logger) -> None:
        log.info('"WebSocket /api/v1/tables/t1/ws?invite=%s&since=3" [accepted]', wrong[0])
        log.info("GET /api/v1/tables/t1?invite_code=%s&token=%s", wrong[1], wrong[2])
        log.info("body %s", json.dumps({"invite": wrong[3], "access_code": wrong[4]}))
        log.info("headers %s", {"authorization": f"Bearer {wrong[5]}"})
        log.info("HTTP Request: POST https://bot:%s@hooks.example/turn", wrong[6])

    logs = _logged(json_lines, emit)
    assert [w for w in wrong if w in logs] == []
    assert "invite=[redacted]&since=3" in logs and "[redacted]]" not in logs
    assert "https://bot:[redacted]@hooks.example/turn" in logs


def test_the_store_is_bounded_and_forgets_the_least_recent_first() -> None:
    known = KnownSecrets(most=100, most_lasting=3)
    admin = "admin-" + secrets.token_urlsafe(16)
    known.remember(admin, lasting=True)
    values = [secrets.token_urlsafe(24) for _ in range(1000)]
    for value in values:
        known.remember(value)
    known.remember(values[0])  # remembered again: the most recent now
    assert len(known) == 101
    line = " ".join(values)
    masked = known.mask(f"{admin} {values[0]} {line}", "*")
    assert masked.split(" ")[:2] == ["*", "*"]
    assert masked.count("*") == 2 + 100
    assert values[1] in masked and values[900] in masked and values[901] not in masked
    odd = [f"pass word {secrets.token_urlsafe(9)}" for _ in range(5)]  # one regex finds these
    for value in odd:
        known.remember(value, lasting=True)
    assert admin not in known and odd[1] not in known and len(known) == 103
    assert known.mask(f"{admin} {odd[1]} {odd[4]}", "*") == f"{admin} {odd[1]} *"


def test_values_too_short_to_be_secrets_are_not_remembered() -> None:
    known = KnownSecrets()
    known.remember("x" * (SHORTEST - 1))
    known.remember("")
    assert len(known) == 0
    assert known.mask("x" * 40, "*") == "x" * 40


def test_the_statement_loggers_stay_at_warning_at_any_root_level() -> None:
    root = logging.getLogger()
    touched = [logging.getLogger(name) for name in (*STATEMENT_LOGGERS, "uvicorn.access")]
    saved = root.handlers[:], root.level, [logger.level for logger in touched]
    try:
        configure_logging("DEBUG", access_log=True)
        for name in (*STATEMENT_LOGGERS, "sqlalchemy.engine.Engine"):
            assert logging.getLogger(name).getEffectiveLevel() == logging.WARNING, name
        assert logging.getLogger("partida").isEnabledFor(logging.DEBUG)
    finally:
        root.handlers[:], level, levels = saved
        root.setLevel(level)
        for logger, was in zip(touched, levels, strict=True):
            logger.setLevel(was)


def test_the_settings_secrets_are_remembered() -> None:
    admin, code, db_password, redis_password = (secrets.token_urlsafe(16) for _ in range(4))
    Settings(
        admin_token=admin,
        access_code=code,
        database_url=f"postgresql+asyncpg://partida:{db_password}@db:5432/partida",
        redis_url=f"redis://:{redis_password}@redis:6379/0",
    )
    assert all(v in known_secrets.KNOWN for v in (admin, code, db_password, redis_password))


@pytest.fixture
def fresh_store(monkeypatch: pytest.MonkeyPatch) -> Iterator[KnownSecrets]:
    store = KnownSecrets()
    monkeypatch.setattr(known_secrets, "KNOWN", store)
    yield store


def test_a_secret_column_remembers_what_it_is_set_to(fresh_store: KnownSecrets) -> None:
    code, seed = secrets.token_urlsafe(9), secrets.token_hex(32)
    table = GameTable(id="t1", game="g", invite_code=code, seed_secret=seed)
    assert code in fresh_store and seed in fresh_store
    table.invite_code = later = secrets.token_urlsafe(9)
    assert later in fresh_store


async def _write_then_read(url: str, store: KnownSecrets, monkeypatch: pytest.MonkeyPatch) -> None:
    """A row written before ``store`` existed (as if by another instance, or before a
    restart) is loaded: its secrets are then in ``store``."""
    engine = create_async_engine(url)
    sessions = async_sessionmaker(engine)
    code, seed = secrets.token_urlsafe(9), secrets.token_hex(32)
    try:
        async with sessions() as session, session.begin():
            session.add(Player(id="p1", name="Ana", token_hash="h" * 64, created_at=utcnow()))
            session.add(
                GameTable(
                    id="t1", game="g", options={}, seat_count=2, seed=1, owner_id="p1",
                    private=True, invite_code=code, seed_secret=seed,
                )
            )  # fmt: skip
        monkeypatch.setattr(known_secrets, "KNOWN", store)
        assert code not in store and seed not in store
        async with sessions() as session:
            assert await session.get(GameTable, "t1") is not None
    finally:
        await engine.dispose()
    assert code in store and seed in store


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_secret_column_remembers_what_is_loaded_from_the_database(
    backend: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = KnownSecrets()
    with fresh_database(backend, tmp_path) as url:
        asyncio.run(_write_then_read(url, store, monkeypatch))
