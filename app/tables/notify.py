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


def _internal(address: str) -> bool:
    ip = ipaddress.ip_address(address.split("%")[0])
    return (
        ip.is_private
        or ip.is_loopback
        or ip.is_link_local
        or ip.is_reserved
        or ip.is_multicast
        or ip.is_unspecified
    )


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
        if any(_internal(str(address)) for address in addresses):
            raise errors.ValidationFailed(
                "webhooks cannot point at private or local addresses on this server",
                field="webhook_url",
            )
    return url


class TurnNotifier:
    """Posts turn alerts. Unless private targets are allowed, each post resolves the host
    again and connects to the address it checked: a name that pointed outside when it was
    saved cannot be turned towards this server's network later (DNS rebinding)."""

    def __init__(
        self,
        public_url: str | None,
        allow_private: bool = False,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self.public_url = public_url.rstrip("/") if public_url else None
        self.allow_private = allow_private
        self._client = httpx.AsyncClient(timeout=5, transport=transport)
        self._tasks: set[asyncio.Task[None]] = set()
        self.sent = 0
        self.refused = 0

    def your_turn(self, url: str, payload: dict[str, Any]) -> None:
        if self.public_url:
            payload = {**payload, "table_url": f"{self.public_url}/tables/{payload['table_id']}"}
        task = asyncio.create_task(self._post(url, payload))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _pinned(self, url: str) -> tuple[httpx.URL, dict[str, str], dict[str, Any]] | None:
        """The URL aimed at the checked address, with the Host header and TLS name of the
        original; None when the host resolves to nothing or to an internal address."""
        target = httpx.URL(url)
        port = target.port or (443 if target.scheme == "https" else 80)
        try:
            infos = await asyncio.get_running_loop().getaddrinfo(
                target.host, port, type=socket.SOCK_STREAM
            )
        except OSError:
            return None
        addresses = [str(info[4][0]) for info in infos]
        if not addresses or any(_internal(address) for address in addresses):
            return None
        host = f"[{target.host}]" if ":" in target.host else target.host  # an IPv6 literal
        if target.port is not None:
            host = f"{host}:{target.port}"
        extensions = {"sni_hostname": target.host} if target.scheme == "https" else {}
        return target.copy_with(host=addresses[0].split("%")[0]), {"Host": host}, extensions

    async def _post(self, url: str, payload: dict[str, Any]) -> None:
        try:
            if self.allow_private:
                await self._client.post(url, json=payload)
            else:
                pinned = await self._pinned(url)
                if pinned is None:
                    self.refused += 1
                    log.info("webhook refused: its host resolves to a private address or none")
                    return
                target, headers, extensions = pinned
                await self._client.post(
                    target, json=payload, headers=headers, extensions=extensions
                )
            self.sent += 1
        except httpx.HTTPError as exc:
            log.info("webhook failed", extra={"error": type(exc).__name__})

    async def flush(self) -> None:
        """Wait for the alerts in flight."""
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await self._client.aclose()
