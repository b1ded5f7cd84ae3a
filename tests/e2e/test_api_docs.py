"""The API documentation in a real browser: /docs (Swagger UI) renders every operation from
assets the app serves itself (no CDN: any request leaving the test server is refused and
counts as a failure), and its description links the AsyncAPI document of the table
WebSocket, which a click opens.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx

from tests.support.live import LiveServer

CHANNEL = "/api/v1/tables/{table_id}/ws"


def _watch(context: Any, page: Any, server: LiveServer) -> list[str]:
    """Everything that went wrong while the page loaded: script errors, console errors,
    failed requests, error responses, and any request for a host other than the server."""
    problems: list[str] = []

    def route(r: Any) -> None:
        if r.request.url.startswith(server.url):
            r.continue_()
        else:
            problems.append(f"outside request: {r.request.url}")
            r.abort()

    context.route("**/*", route)
    page.on("pageerror", lambda exc: problems.append(f"page error: {exc}"))
    page.on(
        "console",
        lambda m: problems.append(f"console {m.type}: {m.text}") if m.type == "error" else None,
    )
    page.on("requestfailed", lambda r: problems.append(f"failed: {r.url} {r.failure}"))
    page.on(
        "response",
        lambda r: problems.append(f"{r.status}: {r.url}") if r.status >= 400 else None,
    )
    return problems


def test_docs_render_offline_and_link_the_asyncapi_document(
    new_context: Callable[..., Any], e2e_server: LiveServer
) -> None:
    context = new_context()
    page = context.new_page()
    problems = _watch(context, page, e2e_server)
    assets: list[str] = []
    page.on("response", lambda r: assets.append(r.url) if "/docs/assets/" in r.url else None)

    page.goto("/docs")
    tables = page.locator(".opblock-summary-path[data-path='/api/v1/tables']")
    tables.first.wait_for(timeout=20_000)
    assert tables.first.is_visible()
    # Every path of the OpenAPI document is rendered, not just the first tag's.
    rendered = page.locator(".opblock-summary-path").evaluate_all(
        "nodes => nodes.map(n => n.dataset.path)"
    )
    openapi = httpx.get(f"{e2e_server.url}/openapi.json", timeout=30).json()
    assert set(rendered) == set(openapi["paths"])
    assert not page.get_by_text("Unable to render this definition").count()
    assert any(url.endswith("/swagger-ui-bundle.js") for url in assets), assets
    assert any(url.endswith("/swagger-ui.css") for url in assets), assets

    link = page.locator(".info .description").get_by_role("link", name="AsyncAPI document")
    assert link.get_attribute("href") == "/asyncapi.json"
    with (
        context.expect_event(
            "response", lambda r: r.url == f"{e2e_server.url}/asyncapi.json"
        ) as answer,
        context.expect_page() as opened,  # the description's links open in a new tab
    ):
        link.click()
    document_page = opened.value
    document_page.wait_for_load_state()
    assert document_page.url == f"{e2e_server.url}/asyncapi.json"
    response = answer.value
    assert response.status == 200
    assert response.headers["content-type"].startswith("application/json")

    doc = response.json()
    assert doc["asyncapi"].startswith("2.")
    channel = doc["channels"][CHANNEL]
    refs = [m["$ref"] for d in ("publish", "subscribe") for m in channel[d]["message"]["oneOf"]]
    messages = doc["components"]["messages"]
    assert {"client_action", "client_chat", "server_state", "server_error"} <= set(messages)
    for ref in refs:
        message = messages[ref.rsplit("/", 1)[1]]
        assert message["summary"], ref
    assert {"token", "since", "lang", "delta"} <= set(
        channel["bindings"]["ws"]["query"]["properties"]
    )
    assert "asyncapi" in document_page.locator("body").inner_text()
    assert not problems, problems


def test_redoc_is_not_served(e2e_server: LiveServer) -> None:
    """ReDoc would load from a CDN: /redoc is off rather than a blank page offline."""
    assert httpx.get(f"{e2e_server.url}/redoc", timeout=30).status_code == 404
