"""The protocol document belongs to the project (issue 19.8): docs/API.md and its extensions
are served by the app, linked from the API documentation at /docs, and shipped in the image."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from app.main import create_app
from tests.conftest import test_settings

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = {
    "/docs/protocol": ROOT / "docs" / "API.md",
    "/docs/protocol/extensions": ROOT / "docs" / "API-EXTENSIONS.md",
}


@pytest.fixture
async def client(tmp_path: Path) -> AsyncIterator[httpx.AsyncClient]:
    # These pages need no database: the app is not started (no lifespan), only asked.
    app = create_app(test_settings(f"sqlite+aiosqlite:///{tmp_path / 'unused.sqlite3'}"))
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://partida.test") as client:
        yield client


async def test_docs_links_the_protocol_document_and_its_extensions(
    client: httpx.AsyncClient,
) -> None:
    page = await client.get("/docs")
    assert page.status_code == 200
    # Swagger UI at /docs renders the OpenAPI document, whose description carries the links.
    assert "/openapi.json" in page.text
    description = (await client.get("/openapi.json")).json()["info"]["description"]
    for path in DOCUMENTS:
        assert f"]({path})" in description, path


@pytest.mark.parametrize("path", list(DOCUMENTS))
async def test_the_protocol_documents_are_served_as_markdown(
    client: httpx.AsyncClient, path: str
) -> None:
    answer = await client.get(path)
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/markdown")
    assert answer.text == DOCUMENTS[path].read_text(encoding="utf-8")


def test_the_protocol_document_links_its_extensions_and_no_outside_spec() -> None:
    protocol = DOCUMENTS["/docs/protocol"].read_text(encoding="utf-8")
    assert protocol.startswith("# Partida public protocol, v1")
    assert "(API-EXTENSIONS.md)" in protocol
    assert "(API.md)" in DOCUMENTS["/docs/protocol/extensions"].read_text(encoding="utf-8")
    for name in ("README.md", "docs/API.md", "docs/API-EXTENSIONS.md"):
        assert "shared/API" not in (ROOT / name).read_text(encoding="utf-8"), name


def test_the_image_carries_the_documents_it_serves() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "COPY --chown=partida docs/API.md docs/API-EXTENSIONS.md ./docs/" in dockerfile
