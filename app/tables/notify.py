"""Turn alerts through a player's webhook, so a group can wire them into its chat.

After every commit, each human seat that has just become due to act and whose
player set a webhook URL gets one POST (fire and forget, 5 s timeout).

A webhook URL is checked when it is saved (``check_webhook_url``) and its host resolved
again before each alert (``TurnNotifier._pinned``): unless the host allows private
targets, every address the name resolves to must be public (``is_public``). Names are
resolved through the event loop's ``getaddrinfo`` (a worker thread), never in the loop.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import re
import socket
from typing import TYPE_CHECKING, Any, NamedTuple

from app import errors

if TYPE_CHECKING:
    # httpx (with what it pulls in, ≈ 6 MB resident) is imported when a webhook is first
    # read or posted: most servers never see one.
    import httpx

log = logging.getLogger("partida.notify")

MAX_URL_LENGTH = 500
_LABEL = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?")
#: Blocks that ``is_global`` (Python 3.11) calls global though IANA's special-purpose
#: registries say they are not globally reachable, or that are deprecated ways to reach an
#: IPv4 address: IETF protocol assignments (192.0.0.8 is its dummy address, RFC 7600), the
#: 6to4 relay anycast, the dummy IPv6 prefix, site-local IPv6 (routed like private space),
#: IETF protocol assignments (Teredo among them), 6to4, local-use NAT64, SRv6 SIDs and
#: documentation. Newer Pythons agree on most of them.
_NOT_GLOBAL = tuple(
    ipaddress.ip_network(n)
    for n in (
        "192.0.0.0/24",
        "192.88.99.0/24",
        "100:0:0:1::/64",
        "fec0::/10",
        "2001::/23",
        "2002::/16",
        "64:ff9b:1::/48",
        "5f00::/16",
        "3fff::/20",
    )
)
#: IPv6 blocks whose last 32 bits are the IPv4 address they stand for: IPv4-compatible
#: (which covers :: and ::1), IPv4-translated (SIIT) and the well-known NAT64 prefix.
#: (IPv4-mapped ::ffff:0:0/96 is ``ipv4_mapped``.)
_CARRIERS = tuple(ipaddress.ip_network(n) for n in ("::/96", "::ffff:0:0:0/96", "64:ff9b::/96"))
#: ISATAP's interface identifiers (RFC 5214): 0000:5efe or 0200:5efe, then an IPv4 address.
_ISATAP = (0x00005EFE, 0x02005EFE)

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


def is_public(address: str) -> bool:
    """Whether ``address`` (as getaddrinfo gives it, or any spelling ``ipaddress`` reads) is
    a public unicast address: ``is_global``, outside ``_NOT_GLOBAL``, not multicast. An
    IPv6 address that stands for an IPv4 one (``_carried_ipv4``) is judged as that IPv4
    address; one that embeds IPv4 addresses for a tunnel (6to4, Teredo's server and
    client, ISATAP) is refused unless each of them is public too."""
    try:
        ip: IPAddress = ipaddress.ip_address(address.split("%")[0])
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address):
        carried = _carried_ipv4(ip)
        if carried is not None:
            ip = carried
        elif not all(_is_public_ip(v4) for v4 in _tunnelled_ipv4(ip)):
            return False
    return _is_public_ip(ip)


def _is_public_ip(ip: IPAddress) -> bool:
    return ip.is_global and not ip.is_multicast and not any(ip in net for net in _NOT_GLOBAL)


def _carried_ipv4(ip: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address that ``ip`` is another spelling of (mapped, compatible, translated,
    NAT64): a packet to it reaches that address, so it is judged as that address."""
    if ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    if any(ip in net for net in _CARRIERS):
        return ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    return None


def _tunnelled_ipv4(ip: ipaddress.IPv6Address) -> list[ipaddress.IPv4Address]:
    """The IPv4 addresses a tunnel towards ``ip`` would reach: 6to4's router, Teredo's
    server and client, ISATAP's node (under any prefix)."""
    found = [ip.sixtofour] if ip.sixtofour is not None else []
    if ip.teredo is not None:
        found.extend(ip.teredo)
    if (int(ip) >> 32) & 0xFFFFFFFF in _ISATAP:
        found.append(ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF))
    return found


class WebhookTarget(NamedTuple):
    url: httpx.URL
    host: str  # the host as DNS knows it: IDNA-encoded name, or the IP literal
    port: int


def _invalid(message: str, reason: str, **params: object) -> errors.ValidationFailed:
    return errors.ValidationFailed(
        f"webhook_url: {message}", reason=reason, params=params, field="webhook_url"
    )


def parse_webhook_url(url: str) -> WebhookTarget:
    """The target of a well-formed http(s) URL; ValidationFailed (naming ``webhook_url``)
    for anything else: other schemes, no host, a port that is not 1-65535, a host that is
    neither an IP literal nor a DNS name of labels of at most 63 letters, digits and
    hyphens (253 characters in all)."""
    if len(url) > MAX_URL_LENGTH:
        raise _invalid(
            f"at most {MAX_URL_LENGTH} characters", "too_long", max_length=MAX_URL_LENGTH
        )
    import httpx

    try:
        parsed = httpx.URL(url)
        raw_host = parsed.raw_host.decode("ascii")
        port = parsed.port
    except (httpx.InvalidURL, ValueError, UnicodeError):
        raise _invalid("not a valid URL", "bad_url") from None
    if parsed.scheme not in ("http", "https") or not raw_host:
        raise _invalid("must be http:// or https:// with a host", "bad_url")
    if port is not None and not 1 <= port <= 65535:
        raise _invalid("the port must be a number from 1 to 65535", "bad_url")
    if ":" in raw_host:  # an IPv6 literal (httpx drops the brackets)
        try:
            ipaddress.IPv6Address(raw_host)
        except ValueError:
            raise _invalid(f"'{raw_host}' is not an IPv6 address", "bad_url") from None
    else:
        name = raw_host[:-1] if raw_host.endswith(".") else raw_host
        labels = name.split(".")
        if len(name) > 253 or not all(_LABEL.fullmatch(label) for label in labels):
            raise _invalid(
                "the host must be an IP address or a name of dot-separated labels of "
                "1 to 63 letters, digits and hyphens",
                "bad_url",
            )
    default = 443 if parsed.scheme == "https" else 80
    return WebhookTarget(parsed, raw_host, port or default)


async def resolve_public(host: str, port: int) -> list[str] | None:
    """The addresses ``host`` resolves to, through the event loop (a worker thread: the loop
    never blocks on DNS); None when it resolves to nothing or to any non-public address."""
    try:
        infos = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        return None
    addresses = [str(info[4][0]) for info in infos]
    if not addresses or not all(is_public(address) for address in addresses):
        return None
    return addresses


async def check_webhook_url(url: str, allow_private: bool) -> str:
    """Refuse malformed URLs and (unless allowed) hosts with any non-public address."""
    target = parse_webhook_url(url)
    if not allow_private and await resolve_public(target.host, target.port) is None:
        raise _invalid(
            f"'{target.host}' does not resolve, or resolves to a private or local address "
            "(not a public internet one); webhooks can only reach public internet addresses "
            "on this server",
            "private_address",
            host=target.host,
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
        self._transport = transport
        self._client: httpx.AsyncClient | None = None
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
        original; None when the URL is malformed or its host resolves to nothing or to any
        non-public address."""
        try:
            target = parse_webhook_url(url)
        except errors.AppError:
            return None
        addresses = await resolve_public(target.host, target.port)
        if addresses is None:
            return None
        original = target.url
        host = f"[{target.host}]" if ":" in target.host else target.host  # an IPv6 literal
        if original.port is not None:
            host = f"{host}:{original.port}"
        extensions = {"sni_hostname": target.host} if original.scheme == "https" else {}
        pinned = original.copy_with(host=addresses[0].split("%")[0])
        return pinned, {"Host": host}, extensions

    def _http(self) -> httpx.AsyncClient:
        if self._client is None:
            import httpx

            self._client = httpx.AsyncClient(timeout=5, transport=self._transport)
        return self._client

    async def _post(self, url: str, payload: dict[str, Any]) -> None:
        import httpx

        client = self._http()
        try:
            if self.allow_private:
                await client.post(url, json=payload)
            else:
                pinned = await self._pinned(url)
                if pinned is None:
                    self.refused += 1
                    log.info("webhook refused: its host resolves to a private address or none")
                    return
                target, headers, extensions = pinned
                await client.post(target, json=payload, headers=headers, extensions=extensions)
            self.sent += 1
        except (httpx.HTTPError, httpx.InvalidURL) as exc:
            log.info("webhook failed", extra={"error": type(exc).__name__})

    async def flush(self) -> None:
        """Wait for the alerts in flight."""
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        if self._client is not None:
            await self._client.aclose()
