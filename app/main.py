"""create_app(): routers, WebSocket, static files, error envelope, metrics, lifespan."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta
from pathlib import Path
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.cors import CORSMiddleware
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.openapi.utils import get_openapi
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from sqlalchemy import text
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from swagger_ui_bundle import swagger_ui_path  # type: ignore[import-untyped]

from app import errors, pages
from app.api.deps import is_admin
from app.api.routes import admin as admin_routes
from app.api.routes import endings, play, players, tables
from app.api.routes import games as games_routes
from app.config import Settings, get_settings, networks
from app.db.session import (
    database_unavailable,
    make_engine,
    make_sessionmaker,
    unavailable_errors,
)
from app.games import REGISTRY
from app.games.base import Engine, action_adapter
from app.logging import configure_logging
from app.metrics import REQUESTS, straight_from, watch_event_loop
from app.realtime import ws
from app.realtime.asyncapi import asyncapi_document
from app.realtime.broker import BrokerMessage, Resync, TableUpdate, make_broker
from app.realtime.hub import Connection, Hub
from app.realtime.roster import Roster
from app.refusals import validation_failed
from app.security import (
    BodySizeLimitMiddleware,
    RateLimiter,
    RateLimitMiddleware,
    SecurityHeadersMiddleware,
    client_ip,
)
from app.startup_check import RefuseUnmigratedDatabase
from app.tables.admin import Admin, housekeeping_loop
from app.tables.chat import Chat
from app.tables.clocks import clock_keeper
from app.tables.notify import TurnNotifier
from app.tables.ratings import Ratings
from app.tables.service import TableService

log = logging.getLogger("partida")

STATIC_DIR = Path(__file__).resolve().parent.parent / "static"
DOCS_DIR = Path(__file__).resolve().parent.parent / "docs"
# The protocol's own documents, served as Markdown and linked from /docs: the contract of
# v1 (docs/API.md) and its extensions (docs/API-EXTENSIONS.md).
PROTOCOL_DOCS = {
    "/docs/protocol": DOCS_DIR / "API.md",
    "/docs/protocol/extensions": DOCS_DIR / "API-EXTENSIONS.md",
}
API_PREFIX = "/api/v1"
# Swagger UI ships with the app (swagger-ui-bundle-v2): /docs works without internet access.
DOCS_ASSETS = "/docs/assets"

# Seconds a client is told to wait (Retry-After) when the database is unavailable.
UNAVAILABLE_RETRY_AFTER = 5

# The collector's thresholds while serving (Python's are 700, 10, 10). What a move makes
# (the table's new state, its views and frames) lives until the table's next move, a second
# or so: collected every 700 allocations, it survived into the oldest generation, which then
# grew fast enough for a full collection every few seconds, 150-200 ms each with 1,000
# sockets connected: every table on the instance stalled (p99 of 208 ms at 500 actions/s).
# Collected every 50,000, most of it is freed by reference counting first; a young
# collection takes tens of milliseconds a few times in 20 s, and full ones become rare (p99
# 18 ms in the same run, docs/BENCHMARKS.md). Cyclic garbage waits a little longer: a few MB.
GC_THRESHOLDS = (50_000, 20, 100)

_HTTP_CODES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    413: "payload_too_large",
    415: "unsupported_media_type",
    429: "rate_limited",
}


class RequestMetrics:
    """Counts requests by route template (never by raw path, to keep label sets small)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        status = 500

        async def send_wrapper(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, send_wrapper)
        finally:
            route = scope.get("route")
            path = getattr(route, "path", "unmatched")
            REQUESTS.labels(scope["method"], path, str(status)).inc()


def _install_error_handlers(app: FastAPI, postgresql: bool) -> None:
    @app.exception_handler(errors.AppError)
    async def _app_error(request: Request, exc: errors.AppError) -> JSONResponse:
        if isinstance(exc, errors.WrongInvite):
            # A wrong invite code, on any route, is a guess against the address's budget.
            with contextlib.suppress(errors.RateLimited):
                await request.app.state.limiter.failed_code(client_ip(request.scope))
        return JSONResponse(
            exc.envelope(), status_code=exc.status, headers=getattr(exc, "headers", None)
        )

    @app.exception_handler(RequestValidationError)
    async def _validation(request: Request, exc: RequestValidationError) -> JSONResponse:
        found = exc.errors()
        # The first part of a loc is where the value came from (body, query, path...): the
        # document walked holds each, so that the path leaves out pydantic's own parts.
        sent = {
            "body": exc.body,
            "query": dict(request.query_params),
            "path": dict(request.path_params),
            "header": dict(request.headers),
            "cookie": dict(request.cookies),
        }
        refusal = validation_failed("", found, document=sent, drop=1)
        first = found[0].get("msg", "") if found else "invalid request"
        refusal.message = f"{refusal.params['field'] or 'body'}: {first}"
        return JSONResponse(jsonable_encoder(refusal.envelope()), status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> Response:
        code = _HTTP_CODES.get(exc.status_code, "http_error")
        message = str(exc.detail) if exc.detail else code.replace("_", " ")
        headers = dict(getattr(exc, "headers", None) or {})
        if exc.status_code == 404:
            message = "no such resource"
            if not request.url.path.startswith("/api/"):
                # Outside the API the answer depends on what the client asks for.
                headers["Vary"] = "Accept, Accept-Language"
                if pages.wants_html(request) and pages.STATIC_DIR.is_dir():
                    page = pages.not_found_page(pages.page_lang(request))
                    return HTMLResponse(page, status_code=404, headers=headers)
        return JSONResponse(
            errors.envelope(code, message), status_code=exc.status_code, headers=headers or None
        )

    async def _unavailable(_request: Request, exc: Exception) -> JSONResponse:
        # One line per request (app.db.session.OutageLogFilter): in an outage every request
        # fails alike; the traceback is written at PARTIDA_LOG_LEVEL=DEBUG only.
        log.warning("database unavailable", exc_info=exc)
        return JSONResponse(
            errors.Unavailable(
                "the server cannot reach its database right now; try again shortly"
            ).envelope(),
            status_code=errors.Unavailable.status,
            headers={"Retry-After": str(UNAVAILABLE_RETRY_AFTER)},
        )

    # A database that is down, unreachable or silent is the server's trouble, not a bug: 503
    # in the envelope, whatever the driver raised.
    for error_class in unavailable_errors(postgresql):
        app.add_exception_handler(error_class, _unavailable)

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
        if database_unavailable(exc):
            # Raised outside the routes (a middleware), or wrapped: the same 503.
            return await _unavailable(request, exc)
        log.exception("unhandled error", exc_info=exc)
        return JSONResponse(
            errors.envelope(
                "internal_error", "something went wrong on our side; it has been logged"
            ),
            status_code=500,
        )


def _openapi_with_games(app: FastAPI, games: dict[str, Engine]) -> Any:
    """The OpenAPI document, with each game's option and action schemas as components."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema:
            return app.openapi_schema
        schema = get_openapi(
            title=app.title, version=app.version, description=app.description, routes=app.routes
        )
        components = schema.setdefault("components", {}).setdefault("schemas", {})
        for game_id, engine in games.items():
            for name, sub in (
                (
                    f"{game_id}_options",
                    engine.Options.model_json_schema(ref_template="#/components/schemas/{model}"),
                ),
                (
                    f"{game_id}_action",
                    action_adapter(engine).json_schema(ref_template="#/components/schemas/{model}"),
                ),
            ):
                for def_name, definition in sub.pop("$defs", {}).items():
                    components.setdefault(def_name, definition)
                components[name] = sub
        request = components.get("ActionRequest")
        if request is not None and games:
            request["properties"]["action"] = {
                "description": "an action of the table's game: one element of legal_actions",
                "oneOf": [{"$ref": f"#/components/schemas/{g}_action"} for g in games],
            }
        app.openapi_schema = schema
        return schema

    return openapi


def _serve_markdown(app: FastAPI, path: str, text: str) -> None:
    """Serve a document of the repository, read once at startup, as Markdown."""

    @app.get(path, include_in_schema=False)
    async def markdown() -> Response:
        return Response(text, media_type="text/markdown; charset=utf-8")


def create_app(settings: Settings | None = None, games: dict[str, Engine] | None = None) -> FastAPI:
    """Build the application; ``games`` overrides the catalog (tests use a tiny game)."""
    settings = settings or get_settings()
    catalog = REGISTRY if games is None else games

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        configure_logging(settings.log_level, settings.log_json, settings.access_log)
        engine = make_engine(settings)
        broker = make_broker(settings.redis_url, settings.redis_channel)
        sessions = make_sessionmaker(engine)
        # Each part gets what it uses when it is made; nothing is attached afterwards.
        roster: Roster[Connection] = Roster()
        notifier = TurnNotifier(settings.public_url, allow_private=settings.webhook_allow_private)
        ratings = Ratings(sessions, catalog)
        service = TableService(
            sessions,
            catalog,
            broker,
            settings,
            presence=roster.connected_players,
            notifier=notifier,
            on_finished=ratings.rate_table,
        )
        chat = Chat(service)
        hub = Hub(service, chat, roster)
        admin = Admin(service)
        app.state.service, app.state.hub, app.state.db = service, hub, engine
        app.state.loop = asyncio.get_running_loop()
        app.state.admin, app.state.chat, app.state.ratings = admin, chat, ratings

        async def on_update(update: BrokerMessage) -> None:
            # Every instance's updates: the clock keeper looks again at the tables that
            # changed (a new deadline, a player who left) instead of walking them all.
            match update:
                case TableUpdate(table_id):
                    service.absence.table_changed(table_id)
                case Resync():
                    service.absence.rescan()
            await hub.on_update(update)

        # The deployment's signing key now, so that a database without one gets it at startup.
        await service.lobby.cursors.signer()
        await broker.start(on_update)
        resumed = await service.bots.resume()
        await ratings.rate_pending()
        sweeper = asyncio.create_task(
            housekeeping_loop(
                admin,
                timedelta(hours=settings.open_table_ttl_hours),
                settings.housekeeping_interval_seconds,
            ),
            name="housekeeping",
        )
        keeper = asyncio.create_task(
            clock_keeper(
                service.absence,
                hub.connected_by_table,
                settings.clock_tick_seconds,
                settings.presence_touch_seconds,
                settings.clock_rescan_seconds,
            ),
            name="clock-keeper",
        )
        probe = (
            asyncio.create_task(
                watch_event_loop(
                    settings.loop_lag_probe_seconds, settings.loop_lag_probe_idle_seconds
                ),
                name="loop-lag-probe",
            )
            if settings.loop_lag_probe_seconds > 0
            else None
        )
        # Everything alive now (modules, schemas, engines' data) lives as long as the process:
        # out of the collector's sight, a full collection no longer walks it (a gen-2 pass
        # under load took 80-200 ms before, stalling every table on this instance).
        gc.collect()
        gc.freeze()
        gc.set_threshold(*GC_THRESHOLDS)
        log.info("partida ready", extra={"games": sorted(catalog), "resumed_tables": resumed})
        try:
            yield
        finally:
            sweeper.cancel()
            keeper.cancel()
            if probe is not None:
                probe.cancel()
            await hub.close()
            await service.close()
            await notifier.close()
            await broker.stop()
            await engine.dispose()

    app = FastAPI(
        title="Partida",
        version="1.0",
        description=(
            "Four rules-enforced board games. The public protocol v1 is described in "
            "[the protocol document](/docs/protocol) (Markdown: endpoints, the error "
            "envelope, the WebSocket frames, versions), with its "
            "[extensions](/docs/protocol/extensions). "
            "The table WebSocket is described by the [AsyncAPI document](/asyncapi.json)."
        ),
        lifespan=lifespan,
        # /docs is served below from bundled assets instead of a CDN. ReDoc is not bundled
        # (its default page loads from a CDN, broken offline) and Swagger UI renders the
        # same document: no /redoc.
        docs_url=None,
        redoc_url=None,
    )
    app.state.settings = settings
    app.state.limiter = limiter = RateLimiter(settings)
    _install_error_handlers(app, postgresql=not settings.is_sqlite)
    if settings.cors_origins:
        app.add_middleware(
            CORSMiddleware,
            allow_origins=settings.cors_origins,
            allow_methods=["GET", "POST", "DELETE"],
            allow_headers=["Authorization", "Content-Type"],
            expose_headers=["X-Next-Cursor", "Link"],  # GET /tables pagination
        )
    app.add_middleware(RateLimitMiddleware, limiter=limiter)
    app.add_middleware(BodySizeLimitMiddleware, max_bytes=settings.max_body_bytes)
    app.add_middleware(SecurityHeadersMiddleware)
    app.add_middleware(RequestMetrics)
    # Outermost: `uvicorn app.main:app` on a database nobody migrated stops with one line
    # naming the migrate command, before the lifespan's first query would fail on it.
    app.add_middleware(RefuseUnmigratedDatabase, settings=settings)
    for module in (players, games_routes, tables, endings, play, admin_routes):
        app.include_router(module.router, prefix=API_PREFIX)
    app.include_router(ws.router)

    scrapers = networks(settings.metrics_allow)

    @app.get("/metrics", include_in_schema=False)
    async def metrics(request: Request, admin: Annotated[bool, Depends(is_admin)]) -> Response:
        """Prometheus metrics, for the admin token or PARTIDA_METRICS_ALLOW's addresses."""
        if not (admin or straight_from(request.scope, scrapers)):
            # Refused as a path that does not exist: a visitor learns nothing of it.
            raise StarletteHTTPException(404)
        return Response(generate_latest(), media_type=CONTENT_TYPE_LATEST)

    app.mount(DOCS_ASSETS, StaticFiles(directory=str(swagger_ui_path)), name="docs-assets")

    @app.get("/docs", include_in_schema=False)
    async def docs(request: Request) -> HTMLResponse:
        """Swagger UI over /openapi.json, from the bundled assets (no CDN)."""
        root = str(request.scope.get("root_path", "")).rstrip("/")
        assets = f"{root}{DOCS_ASSETS}"
        return get_swagger_ui_html(
            openapi_url=f"{root}{app.openapi_url}",
            title=f"{app.title} API",
            swagger_js_url=f"{assets}/swagger-ui-bundle.js",
            swagger_css_url=f"{assets}/swagger-ui.css",
            swagger_favicon_url=f"{assets}/favicon-32x32.png",
        )

    for path, source in PROTOCOL_DOCS.items():
        if source.is_file():
            _serve_markdown(app, path, source.read_text(encoding="utf-8"))

    document = asyncapi_document()

    @app.get("/asyncapi.json", include_in_schema=False)
    async def asyncapi() -> dict[str, Any]:
        """The WebSocket protocol as an AsyncAPI document."""
        return document

    @app.get("/healthz", tags=["health"])
    async def healthz() -> dict[str, str]:
        """Liveness: the process answers."""
        return {"status": "ok"}

    @app.get("/readyz", tags=["health"])
    async def readyz(request: Request) -> JSONResponse:
        """Readiness: the database answers. Redis, when configured, is reported but does not
        gate it: it only speeds replicas up (each still serves its own sockets without it)."""
        # Each check is bounded: a database (or Redis) that accepts connections and never
        # answers makes the instance not ready, it does not hang the probe.
        checks: dict[str, str] = {}
        try:
            async with asyncio.timeout(settings.readiness_timeout_seconds):
                async with request.app.state.db.connect() as conn:
                    await conn.execute(text("SELECT 1"))
            checks["database"] = "ok"
        except Exception:
            checks["database"] = "unreachable"
        if settings.redis_url:
            try:
                async with asyncio.timeout(settings.readiness_timeout_seconds):
                    ok = await request.app.state.service.broker.ping()
            except TimeoutError:
                ok = False
            checks["redis"] = "ok" if ok else "unreachable"
        ready = checks["database"] == "ok"
        return JSONResponse(
            {"status": "ready" if ready else "not_ready", **checks},
            status_code=200 if ready else 503,
        )

    if STATIC_DIR.is_dir():
        app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")

        @app.get("/", include_in_schema=False)
        async def index() -> FileResponse:
            return FileResponse(STATIC_DIR / "index.html")

        @app.get("/admin", include_in_schema=False)
        async def admin_page() -> FileResponse:
            return FileResponse(STATIC_DIR / "admin.html")

        @app.get("/tables/{table_id}", include_in_schema=False)
        async def table_page(table_id: str) -> FileResponse:
            return FileResponse(STATIC_DIR / "table.html")

        @app.get("/replays/{table_id}", include_in_schema=False)
        async def replay_page(table_id: str) -> FileResponse:
            return FileResponse(STATIC_DIR / "replay.html")

        @app.get("/players/{player_id}", include_in_schema=False)
        async def player_page(player_id: str) -> FileResponse:
            return FileResponse(STATIC_DIR / "player.html")

        @app.get("/games/{game_id}/rules", include_in_schema=False)
        async def rules_page(game_id: str) -> FileResponse:
            # An unknown game is an unknown page: the same 404 envelope as any other path.
            if game_id not in catalog:
                raise StarletteHTTPException(status_code=404)
            return FileResponse(STATIC_DIR / "rules.html")

    app.openapi = _openapi_with_games(app, catalog)  # type: ignore[method-assign]
    return app


def _default_app() -> FastAPI:
    return create_app()


app = _default_app()
