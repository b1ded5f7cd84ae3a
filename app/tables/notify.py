"""Turn alerts through a player's webhook, so a group can wire them into its chat.

After every commit, each human seat that has just become due to act and whose
player set a webhook URL gets one POST (fire and forget, 5 s timeout).
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import socket
from typing import Any
from urllib.parse import urlparse

import httpx

from app import errors

log = logging.getLogger("partida.notify")


def check_webhook_url(url: str, allow_private: bool) -> str:
    """Refuse what is not http(s), and (unless allowed) hosts that resolve to private addresses."""
    parsed = urlparse(url)
    if parsed.scheme not in ("http", "https") or not parsed.hostname:
        raise errors.ValidationFailed(
            "a webhook URL must be http:// or https:// with a host", field="webhook_url"
        )
    if len(url) > 500:
        raise errors.ValidationFailed(
            "webhook URLs are at most 500 characters", field="webhook_url"
        )
    if not allow_private:
        try:
            addresses = {
                info[4][0] for info in socket.getaddrinfo(parsed.hostname, parsed.port or 443)
            }
        except OSError:
            raise errors.ValidationFailed(
                f"cannot resolve {parsed.hostname}", field="webhook_url"
            ) from None
        for address in addresses:
            ip = ipaddress.ip_address(str(address).split("%")[0])
            if ip.is_private or ip.is_loopback or ip.is_link_local or ip.is_reserved:
                raise errors.ValidationFailed(
                    "webhooks cannot point at private or local addresses on this server",
                    field="webhook_url",
                )
    return url


class TurnNotifier:
    def __init__(self, public_url: str | None) -> None:
        self.public_url = public_url.rstrip("/") if public_url else None
        self._client = httpx.AsyncClient(timeout=5)
        self._tasks: set[asyncio.Task[None]] = set()
        self.sent = 0

    def your_turn(self, url: str, payload: dict[str, Any]) -> None:
        if self.public_url:
            payload = {**payload, "table_url": f"{self.public_url}/tables/{payload['table_id']}"}
        task = asyncio.create_task(self._post(url, payload))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _post(self, url: str, payload: dict[str, Any]) -> None:
        try:
            await self._client.post(url, json=payload)
            self.sent += 1
        except httpx.HTTPError as exc:
            log.info("webhook failed", extra={"error": type(exc).__name__})

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await self._client.aclose()
