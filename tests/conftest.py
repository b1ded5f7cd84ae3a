"""Shared test configuration: hypothesis profiles.

`ci` (the default) plays a bounded number of games so `.ci/run` stays fast;
`long` plays thousands — run it before resolving an engine issue:
    HYPOTHESIS_PROFILE=long pytest tests/unit/games
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    max_examples=20,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "long",
    max_examples=2000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile("dev", max_examples=10, deadline=None)
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci")
settings.load_profile(PROFILE)


# --------------------------------------------------------------------------- server fixtures

from collections.abc import Iterator  # noqa: E402
from pathlib import Path  # noqa: E402

import httpx  # noqa: E402
import pytest  # noqa: E402

from app.config import Settings  # noqa: E402
from app.main import create_app  # noqa: E402
from tests.support.databases import BACKENDS, fresh_database  # noqa: E402
from tests.support.live import LiveServer  # noqa: E402
from tests.support.pickgame import PICK  # noqa: E402


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Under ``long`` a property test plays thousands of games, far past the per-test timeout
    (pyproject's, which guards against hangs in CI): lift it for the property tests only."""
    if PROFILE != "long":
        return
    for item in items:
        if getattr(getattr(item, "obj", None), "is_hypothesis_test", False):
            item.add_marker(pytest.mark.timeout(0))


def test_games() -> dict[str, object]:
    """The catalog the API tests run with: the test-only game plus every registered game."""
    from app.games import REGISTRY

    return {"pick": PICK, **REGISTRY}


test_games.__test__ = False  # type: ignore[attr-defined]


def test_settings(database_url: str, **overrides: object) -> Settings:
    """Settings for a test server: bots act at once; REST limits off unless a test sets them."""
    values: dict[str, object] = {
        "database_url": database_url,
        "bot_delay": 0,
        "environment": "test",
        "log_level": "WARNING",
        "rate_limit_enabled": False,
        "max_open_tables_per_player": 1000,
        # Strong bots search a few times per move: a test's game does not wait on them.
        "bot_search_iterations": 6,
        **overrides,
    }
    return Settings(**values)  # type: ignore[arg-type]


test_settings.__test__ = False  # type: ignore[attr-defined]


@pytest.fixture(scope="session", params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture(scope="session")
def database_url(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with fresh_database(backend, tmp_path_factory.mktemp("db")) as url:
        yield url


@pytest.fixture(scope="session")
def live(database_url: str) -> Iterator[LiveServer]:
    settings = test_settings(database_url)
    app = create_app(settings, games=test_games())  # type: ignore[arg-type]
    server = LiveServer(app, ws_max_size=settings.ws_max_frame_bytes).start()
    yield server
    server.stop()


@pytest.fixture
def http(live: LiveServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=live.url, timeout=30) as client:
        yield client


@pytest.fixture
def tmp_dir(tmp_path: Path) -> Path:
    return tmp_path
