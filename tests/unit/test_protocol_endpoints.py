"""docs/API.md cannot fall behind the server (issue 19.8): its "Every endpoint" table lists
exactly the routes the app registers under /api/v1, REST and WebSocket, by method and path."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.routing import APIWebSocketRoute, iter_route_contexts

from app.main import API_PREFIX, create_app
from tests.conftest import test_settings

API_DOC = Path(__file__).resolve().parents[2] / "docs" / "API.md"
ROW = re.compile(r"^\| `(GET|POST|PUT|PATCH|DELETE|WS)` \| `(/api/v1/[^`]*)` \|", re.MULTILINE)


def _placeholders_alike(path: str) -> str:
    # A parameter's name is the OpenAPI's business; the document may call it {id}.
    return re.sub(r"\{[^}]+\}", "{}", path)


def _registered(tmp_path: Path) -> set[tuple[str, str]]:
    """(method, path) of every route under /api/v1, included routers flattened; a
    WebSocket's method is WS."""
    app = create_app(test_settings(f"sqlite+aiosqlite:///{tmp_path / 'unused.sqlite3'}"))
    found: set[tuple[str, str]] = set()
    for ctx in iter_route_contexts(app.routes):
        path = str(ctx.path_format or "")
        if not path.startswith(API_PREFIX + "/"):
            continue
        if isinstance(ctx.original_route, APIWebSocketRoute):
            found.add(("WS", _placeholders_alike(path)))
        found |= {(m, _placeholders_alike(path)) for m in ctx.methods or () if m != "HEAD"}
    return found


def test_every_endpoint_of_the_app_is_in_the_protocol_document_and_no_other(
    tmp_path: Path,
) -> None:
    documented = {(m, _placeholders_alike(p)) for m, p in ROW.findall(API_DOC.read_text())}
    registered = _registered(tmp_path)
    assert len(registered) > 30 and ("WS", "/api/v1/tables/{}/ws") in registered
    assert sorted(registered - documented) == [], "routes missing from docs/API.md"
    assert sorted(documented - registered) == [], "docs/API.md lists routes the app lacks"
