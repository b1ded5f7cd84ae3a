"""Abuse limits and page hardening: REST rate limits, body size cap, security headers.

Rate limits use the `limits` library: in memory for one instance, on Redis when
PARTIDA_REDIS_URL is set so that every instance counts against the same budget.
"""

from __future__ import annotations

import hashlib
import json
import math
import time
from typing import Any

import limits
from limits.aio.strategies import MovingWindowRateLimiter
from limits.storage import storage_from_string
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app import errors
from app.config import Settings


def client_ip(scope: Scope) -> str:
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


def bearer_key(scope: Scope) -> str | None:
    for name, value in scope.get("headers", ()):
        if name == b"authorization":
            scheme, _, token = value.decode("latin-1").partition(" ")
            if scheme.lower() == "bearer" and token:
                return hashlib.sha256(token.encode()).hexdigest()[:32]
    return None


class RateLimiter:
    """Moving-window limits per client IP, per token and for player creation."""

    def __init__(self, settings: Settings) -> None:
        uri = "async+memory://"
        options: dict[str, Any] = {}
        if settings.redis_url:
            uri = "async+" + settings.redis_url
            options["implementation"] = "redispy"
        self.enabled = settings.rate_limit_enabled
        self._limiter = MovingWindowRateLimiter(storage_from_string(uri, **options))
        self.per_ip = limits.parse(settings.rate_limit_ip)
        self.per_token = limits.parse(settings.rate_limit_token)
        self.new_players = limits.parse(settings.rate_limit_new_players)
        self.replay_per_ip = limits.parse(settings.rate_limit_replay_ip)
        self.replay_per_token = limits.parse(settings.rate_limit_replay_token)

    async def hit(self, item: limits.RateLimitItem, *keys: str) -> bool:
        if not self.enabled:
            return True
        try:
            return bool(await self._limiter.hit(item, *keys))
        except Exception:
            # A broken limiter store must not take the game server down with it.
            return True

    async def check_new_player(self, ip: str) -> None:
        if not await self.hit(self.new_players, "new-player", ip):
            raise errors.RateLimited(
                f"too many players created from this address (limit {self.new_players})",
                reason="new_players",
            )

    async def check_code_budget(self, ip: str) -> None:
        """Before a code is tried: once the address's budget is spent, no guess is tried at
        all (else a right guess would still stand out from the refused wrong ones)."""
        if not self.enabled:
            return
        try:
            left = bool(await self._limiter.test(self.new_players, "new-player", ip))
        except Exception:
            return
        if not left:
            raise errors.RateLimited(
                f"too many attempts from this address (limit {self.new_players}); "
                "wait before trying another code",
                reason="code_attempts",
            )

    async def failed_code(self, ip: str) -> None:
        """A wrong access or invite code: it counts against the address's new-player budget
        like a sign-in, so codes cannot be guessed faster than players can be created."""
        if not await self.hit(self.new_players, "new-player", ip):
            raise errors.RateLimited(
                f"too many attempts from this address (limit {self.new_players}); "
                "wait before trying another code",
                reason="code_attempts",
            )

    async def retry_after(self, item: limits.RateLimitItem, *keys: str) -> int:
        """Whole seconds until ``item`` frees a request for ``keys`` (at least 1)."""
        try:
            stats = await self._limiter.get_window_stats(item, *keys)
            return max(1, math.ceil(stats.reset_time - time.time()))
        except Exception:
            return int(item.get_expiry())

    async def check_replay(self, ip: str, token: str | None) -> None:
        """Replays re-play whole games: a budget of their own per IP and per token."""
        budgets = [(self.replay_per_ip, "replay-ip", ip)]
        if token is not None:
            budgets.append((self.replay_per_token, "replay-token", token))
        for item, scope, key in budgets:
            if not await self.hit(item, scope, key):
                raise errors.RetryLater(
                    f"too many replay requests (limit {item}); retry later",
                    retry_after=await self.retry_after(item, scope, key),
                    reason="replay",
                )


async def _send_json(
    send: Send, status: int, body: dict[str, Any], headers: tuple[tuple[bytes, bytes], ...] = ()
) -> None:
    payload = json.dumps(body).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(payload)).encode()),
                *headers,
            ],
        }
    )
    await send({"type": "http.response.body", "body": payload})


class RateLimitMiddleware:
    """429 with the error envelope when an IP or a token exceeds its REST budget."""

    def __init__(self, app: ASGIApp, limiter: RateLimiter) -> None:
        self.app = app
        self.limiter = limiter

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"].startswith("/api/") and self.limiter.enabled:
            ip = client_ip(scope)
            token = bearer_key(scope)
            ok = await self.limiter.hit(self.limiter.per_ip, "ip", ip)
            if ok and token is not None:
                ok = await self.limiter.hit(self.limiter.per_token, "token", token)
            if not ok:
                error = errors.RateLimited("too many requests; slow down and retry in a minute")
                await _send_json(send, 429, error.envelope(), ((b"retry-after", b"60"),))
                return
        await self.app(scope, receive, send)


class BodySizeLimitMiddleware:
    """413 for request bodies over the configured size (declared or streamed)."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        too_big = errors.envelope(
            "payload_too_large",
            f"request bodies are limited to {self.max_bytes} bytes",
            params={"max_bytes": self.max_bytes},
        )
        for name, value in scope.get("headers", ()):
            if name == b"content-length" and value.isdigit() and int(value) > self.max_bytes:
                await _send_json(send, 413, too_big)
                return
        received = 0
        started = False

        async def limited_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    raise _BodyTooLarge()
            return message

        async def tracking_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, limited_receive, tracking_send)
        except _BodyTooLarge:
            if not started:
                await _send_json(send, 413, too_big)


class _BodyTooLarge(HTTPException):
    """Raised from inside body reading; FastAPI passes HTTP exceptions on to the 413 handler."""

    def __init__(self) -> None:
        super().__init__(413, "the request body is too large")


_PAGE_CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self' ws: wss:; frame-ancestors 'none'; "
    "base-uri 'self'; form-action 'self'"
)


class SecurityHeadersMiddleware:
    """nosniff, no framing, a strict referrer policy everywhere; a CSP on HTML pages."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers += [
                    (b"x-content-type-options", b"nosniff"),
                    (b"x-frame-options", b"DENY"),
                    (b"referrer-policy", b"same-origin"),
                ]
                content_type = next((v for k, v in headers if k == b"content-type"), b"")
                if content_type.startswith(b"text/html") and not scope["path"].startswith("/docs"):
                    headers.append((b"content-security-policy", _PAGE_CSP.encode()))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, with_headers)
