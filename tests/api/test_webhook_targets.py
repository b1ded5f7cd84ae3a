"""Webhook targets (issue 17.10): only public internet addresses, checked without blocking.

A webhook URL is refused (422 validation_error naming ``webhook_url``) when it is malformed
or when any address its host resolves to is not public: the standard library's
``is_global`` (100.64.0.0/10, 198.18.0.0/15, ::1, fc00::/7, 2001:db8::/32, ...), what IANA
says is not globally reachable though Python 3.11 calls it global (192.0.0.0/24,
192.88.99.0/24, fec0::/10, 2002::/16, ...), and every IPv6 form that embeds an IPv4
address (compatible, mapped, translated, NAT64, 6to4, Teredo, ISATAP) judged by that
address too (issue 34.8). Names are resolved through the event loop's ``getaddrinfo`` when
the URL is saved and again before each alert.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app import errors
from app.tables.notify import TurnNotifier, check_webhook_url, is_public
from tests.support.client import Player, new_player

NOT_PUBLIC = [
    "100.64.0.1",  # carrier-grade NAT, 100.64.0.0/10
    "100.127.255.254",
    "127.0.0.1",
    "10.1.2.3",
    "172.16.0.1",
    "192.168.1.1",
    "169.254.169.254",  # cloud metadata
    "0.0.0.0",
    "192.0.0.1",
    "198.18.0.1",
    "240.0.0.1",
    "255.255.255.255",
    "224.0.0.1",
    "::1",
    "::",
    "fe80::1",
    "fc00::1",
    "fd12:3456::1",
    "fec0::1",  # site-local
    "2002::1",  # 6to4
    "2002:7f00:1::1",  # 6to4 around 127.0.0.1
    "::ffff:127.0.0.1",
    "::ffff:10.0.0.1",
    "::ffff:100.64.0.1",
    "64:ff9b::7f00:1",  # NAT64 around 127.0.0.1
    "64:ff9b::a00:1",  # NAT64 around 10.0.0.1
    "64:ff9b:1::1",  # local-use NAT64
    "2001:db8::1",
    "ff02::1",
    "ff0e::1",  # global-scope multicast
    "100::1",
    # Issue 34.8: accepted until then.
    "192.0.0.8",  # IPv4 dummy address, in 192.0.0.0/24 (IETF protocol assignments)
    "::127.0.0.1",  # IPv4-compatible
    "::ffff:0:7f00:1",  # IPv4-translated 127.0.0.1
    "::ffff:192.0.0.8",
    "64:ff9b::c000:8",  # NAT64 around 192.0.0.8
    "2001:0:4136:e378:8000:63bf:80ff:fffe",  # Teredo, client 127.0.0.1
    "2606:4700::5efe:7f00:1",  # ISATAP around 127.0.0.1 under a public prefix
    "2606:4700::200:5efe:a00:1",  # ISATAP around 10.0.0.1
    "3fff::1",  # documentation (2024)
    "5f00::1",  # SRv6 SIDs
    "192.88.99.1",  # 6to4 relay anycast (deprecated)
    "100:0:0:1::1",  # dummy IPv6 prefix
]


def _url(address: str) -> str:
    return f"http://[{address}]/hook" if ":" in address else f"http://{address}/hook"


def _set(player: Player, url: str) -> httpx.Response:
    return player.http.patch("/api/v1/me", json={"webhook_url": url}, headers=player.auth)


def _refused(response: httpx.Response) -> bool:
    if response.status_code != 422:
        return False
    error = response.json()["error"]
    return error["code"] == "validation_error" and error["field"] == "webhook_url"


@pytest.fixture
def ana(http: httpx.Client) -> Player:
    return new_player(http, "Ana")


@pytest.mark.parametrize("address", NOT_PUBLIC)
def test_a_webhook_at_a_non_public_address_is_refused(ana: Player, address: str) -> None:
    assert _refused(r := _set(ana, _url(address))), r.text
    assert ana.get("/api/v1/me").json()["webhook_url"] is None  # nothing saved


@pytest.mark.parametrize(
    "host",
    ["localhost", "2130706433", "0x7f.1", "127.1", "localhost."],  # all of them 127.0.0.1
)
def test_a_webhook_at_a_name_that_resolves_inside_is_refused(ana: Player, host: str) -> None:
    assert _refused(r := _set(ana, f"http://{host}:8080/hook")), r.text


@pytest.mark.parametrize(
    "url",
    [
        "http://[::1/hook",  # unclosed IPv6 bracket
        "http://[fe80::1%25eth0]/hook",  # a zone is no public address either
        "http://[not:an:address]/",
        "http://example.com:0/",
        "http://example.com:65536/",
        "http://example.com:99999999999999999999/",
        "http://example.com:port/",
        "http://example.com:-1/",
        f"http://{'a' * 64}.example/",  # a label over 63 characters
        "http://" + ".".join(["abcdefghi"] * 26) + "/",  # a name over 253 characters
        "http://a..example/",
        "http://-leading.example/",
        "http://under_score.example/",
        "http://exa mple.com/",
        "http:///hook",
        "http://:80/hook",
        "javascript:alert(1)",
        "ftp://example.com/",
        "http://example.com/\x00",
        "not a url",
        "",
        "http://example.com/" + "x" * 500,
    ],
)
def test_a_malformed_webhook_url_is_refused(ana: Player, url: str) -> None:
    assert _refused(r := _set(ana, url)), r.text


def test_a_public_address_is_accepted_and_saved(ana: Player) -> None:
    url = "http://93.184.216.34:8443/hook"  # a literal: resolving it asks no DNS server
    assert (r := _set(ana, url)).status_code == 200, r.text
    assert ana.get("/api/v1/me").json()["webhook_url"] == url


@given(address=st.ip_addresses())
@settings(suppress_health_check=list(HealthCheck), deadline=None)
def test_is_public_is_never_wider_than_is_global(address: Any) -> None:
    """The class: every address the standard library calls not global is refused."""
    if not address.is_global:
        assert not is_public(str(address))
    if address.version == 6 and address.ipv4_mapped is not None:
        assert is_public(str(address)) == is_public(str(address.ipv4_mapped))


#: IPv4 addresses that are not public: what ``is_global`` refuses, and the blocks IANA says
#: are not globally reachable though Python 3.11 calls them global (192.0.0.0/24).
non_public_ipv4 = st.one_of(
    st.ip_addresses(v=4).filter(lambda a: not a.is_global),
    *(
        st.ip_addresses(network=block)
        for block in (
            "192.0.0.0/24",
            "192.88.99.0/24",
            "127.0.0.0/8",
            "10.0.0.0/8",
            "100.64.0.0/10",
        )
    ),
)
_BITS_80 = st.integers(0, 2**80 - 1)
_BITS_64 = st.integers(0, 2**64 - 1)
_BITS_32 = st.integers(0, 2**32 - 1)
_PUBLIC_PREFIX = st.integers(0, 2**48 - 1).map(lambda low: 0x2606 << 48 | low)  # a /64


def _v6(value: int) -> ipaddress.IPv6Address:
    return ipaddress.IPv6Address(value)


def embedded(v4: ipaddress.IPv4Address) -> st.SearchStrategy[ipaddress.IPv6Address]:
    """Every IPv6 form that embeds ``v4``: compatible, mapped, translated, NAT64 (well-known
    and local-use), 6to4, Teredo (as server, and as the obfuscated client), ISATAP."""
    n = int(v4)
    return st.one_of(
        st.just(_v6(n)),  # ::a.b.c.d
        st.just(_v6(0xFFFF << 32 | n)),  # ::ffff:a.b.c.d
        st.just(_v6(0xFFFF << 48 | n)),  # ::ffff:0:a.b.c.d
        st.just(_v6(0x64FF9B << 96 | n)),  # 64:ff9b::a.b.c.d
        _BITS_32.map(lambda mid: _v6(0x64FF9B0001 << 80 | mid << 32 | n)),  # 64:ff9b:1::/48
        _BITS_80.map(lambda low: _v6(0x2002 << 112 | n << 80 | low)),  # 6to4
        _BITS_64.map(lambda low: _v6(0x20010000 << 96 | n << 64 | low)),  # Teredo server
        _BITS_64.map(lambda high: _v6(0x20010000 << 96 | high << 32 | n ^ 0xFFFFFFFF)),
        st.builds(
            lambda prefix, iid: _v6(prefix << 64 | iid << 32 | n),  # ISATAP
            _PUBLIC_PREFIX,
            st.sampled_from([0x00005EFE, 0x02005EFE]),
        ),
    )


@st.composite
def ipv6_spellings(draw: st.DrawFn, ip: ipaddress.IPv6Address) -> str:
    """A way of writing ``ip`` that the URL parser accepts: any case, zero padding, a dotted
    IPv4 tail or not, any run of zero groups compressed to ``::`` or none."""
    groups = [int(ip) >> 16 * (7 - i) & 0xFFFF for i in range(8)]
    dotted = draw(st.booleans())
    head = groups[:6] if dotted else groups
    texts = []
    for group in head:
        digits = f"{group:x}".zfill(draw(st.integers(1, 4)))
        texts.append(digits.upper() if draw(st.booleans()) else digits)
    tail = [str(ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF))] if dotted else []
    runs = [
        (i, j) for i in range(len(head)) for j in range(i + 1, len(head) + 1) if not any(head[i:j])
    ]
    run = draw(st.none() | st.sampled_from(runs)) if runs else None
    if run is None:
        spelling = ":".join(texts + tail)
    else:
        spelling = ":".join(texts[: run[0]]) + "::" + ":".join(texts[run[1] :] + tail)
    assert ipaddress.IPv6Address(spelling) == ip, spelling
    return spelling


@st.composite
def ipv4_spellings(draw: st.DrawFn, ip: ipaddress.IPv4Address) -> str:
    """A way of writing ``ip`` that inet_aton reads: one to four parts, each decimal, octal
    or hexadecimal (``2130706433``, ``0x7f.1``, ``0177.0.0.1``, ``127.1``)."""
    value, count = int(ip), draw(st.integers(1, 4))
    parts = [value >> 8 * (3 - i) & 0xFF for i in range(count - 1)]
    parts.append(value & (1 << 8 * (5 - count)) - 1)
    spelled = []
    for part in parts:
        base = draw(st.sampled_from(["{:d}", "0x{:x}", "0{:o}"]))
        spelled.append(base.format(part))
    return ".".join(spelled)


#: A URL host for a non-public IPv4 address: the address spelled in any way, or embedded
#: in any IPv6 form and that spelled in any way.
non_public_hosts = non_public_ipv4.flatmap(
    lambda v4: st.one_of(
        ipv4_spellings(v4),
        embedded(v4).flatmap(ipv6_spellings).map(lambda spelling: f"[{spelling}]"),
    )
)


@given(host=non_public_hosts)
@settings(max_examples=400, suppress_health_check=list(HealthCheck), deadline=None)
def test_a_non_public_ipv4_address_in_any_form_and_spelling_is_refused(host: str) -> None:
    """The class of issue 34.8 ([::127.0.0.1], [::ffff:0:7f00:1], 192.0.0.8): whatever
    IPv6 form carries the address and however the URL writes it, saving it is refused."""
    url = f"https://{host}:8443/hook"
    with pytest.raises(errors.ValidationFailed) as refused:
        asyncio.run(check_webhook_url(url, allow_private=False))
    assert refused.value.details == {"field": "webhook_url"}


@given(v4=non_public_ipv4, data=st.data())
@settings(suppress_health_check=list(HealthCheck), deadline=None)
def test_is_public_refuses_every_form_that_embeds_a_non_public_ipv4(
    v4: ipaddress.IPv4Address, data: st.DataObject
) -> None:
    assert not is_public(str(v4))
    assert not is_public(str(data.draw(embedded(v4))))


#: Any address that is not public: what ``is_global`` refuses, and the blocks it lets through
#: (site-local, 6to4, NAT64 around an inside address) or that issue 17 quotes (100.64.0.0/10).
non_public = st.one_of(
    st.ip_addresses().filter(lambda a: not a.is_global),
    st.ip_addresses(network="100.64.0.0/10"),
    st.ip_addresses(network="fec0::/10"),
    st.ip_addresses(network="2002::/16"),
    st.ip_addresses(network="10.0.0.0/8").map(
        lambda a: ipaddress.IPv6Address(int(ipaddress.ip_address("64:ff9b::")) + int(a))
    ),
    st.ip_addresses(network="192.0.0.0/24").flatmap(embedded),
)


@given(address=non_public)
@settings(max_examples=25, suppress_health_check=list(HealthCheck), deadline=None, database=None)
def test_any_non_public_literal_is_refused_through_the_api(
    http: httpx.Client, address: Any
) -> None:
    player = new_player(http, "Hypo")
    assert _refused(r := _set(player, _url(str(address)))), r.text


class Resolver:
    """A stand-in for the loop's getaddrinfo: a coroutine that records each call."""

    def __init__(self, *addresses: str, fail: bool = False) -> None:
        self.addresses = addresses
        self.fail = fail
        self.calls: list[tuple[str, int]] = []

    async def __call__(self, host: str, port: int, **_: Any) -> list[Any]:
        self.calls.append((host, port))
        if self.fail:
            raise socket.gaierror(socket.EAI_NONAME, "unknown name")
        return [
            (socket.AF_INET6 if ":" in a else socket.AF_INET, socket.SOCK_STREAM, 6, "", (a, port))
            for a in self.addresses
        ]


@pytest.fixture
def no_blocking_dns(monkeypatch: pytest.MonkeyPatch) -> None:
    """socket.getaddrinfo in the loop's thread would block every table: make it fail."""

    def blocking(*_: Any, **__: Any) -> Any:
        raise AssertionError("socket.getaddrinfo called: DNS would block the event loop")

    monkeypatch.setattr(socket, "getaddrinfo", blocking)


@pytest.mark.parametrize(
    ("addresses", "accepted"),
    [
        (("93.184.216.34",), True),
        (("93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"), True),
        (("93.184.216.34", "10.0.0.7"), False),  # one inside is enough to refuse
        (("100.64.3.4",), False),
        (("2606:2800:220:1::1", "fec0::5"), False),
        (("2002:a00:1::",), False),
        (("::ffff:169.254.169.254",), False),
        ((), False),  # resolves to nothing
    ],
)
async def test_saving_resolves_through_the_loop_and_needs_every_address_public(
    monkeypatch: pytest.MonkeyPatch,
    no_blocking_dns: None,
    addresses: tuple[str, ...],
    accepted: bool,
) -> None:
    resolver = Resolver(*addresses)
    monkeypatch.setattr(asyncio.get_running_loop(), "getaddrinfo", resolver)
    url = "https://hooks.example:8443/turn"
    if accepted:
        assert await check_webhook_url(url, allow_private=False) == url
    else:
        with pytest.raises(errors.ValidationFailed) as refused:
            await check_webhook_url(url, allow_private=False)
        assert refused.value.details == {"field": "webhook_url"}
    assert resolver.calls == [("hooks.example", 8443)]


async def test_a_name_that_does_not_resolve_is_refused_without_blocking(
    monkeypatch: pytest.MonkeyPatch, no_blocking_dns: None
) -> None:
    resolver = Resolver(fail=True)
    monkeypatch.setattr(asyncio.get_running_loop(), "getaddrinfo", resolver)
    with pytest.raises(errors.ValidationFailed):
        await check_webhook_url("http://nowhere.example/", allow_private=False)
    assert resolver.calls == [("nowhere.example", 80)]


async def test_an_international_name_is_resolved_in_its_ascii_form(
    monkeypatch: pytest.MonkeyPatch, no_blocking_dns: None
) -> None:
    resolver = Resolver("93.184.216.34")
    monkeypatch.setattr(asyncio.get_running_loop(), "getaddrinfo", resolver)
    assert await check_webhook_url("https://bücher.example/x", allow_private=False)
    assert resolver.calls == [("xn--bcher-kva.example", 443)]


@pytest.mark.parametrize("inside", ["100.64.0.9", "fec0::9", "2002:7f00:1::", "::ffff:127.0.0.1"])
async def test_an_alert_to_a_name_now_pointing_inside_is_not_sent(
    monkeypatch: pytest.MonkeyPatch, inside: str
) -> None:
    """DNS rebinding: the name pointed outside when saved, inside when the alert goes."""
    seen: list[httpx.Request] = []

    def reply(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(204)

    monkeypatch.setattr(asyncio.get_running_loop(), "getaddrinfo", Resolver(inside))
    notifier = TurnNotifier(None, allow_private=False, transport=httpx.MockTransport(reply))
    try:
        notifier.your_turn("https://hooks.example/turn", {"table_id": "t"})
        await notifier.flush()
    finally:
        await notifier.close()
    assert (notifier.refused, notifier.sent, seen) == (1, 0, [])


@pytest.mark.parametrize("url", ["http://[::1/x", "http://example.com:99999/", "gopher://x/"])
async def test_an_alert_to_a_malformed_saved_url_is_refused_not_raised(url: str) -> None:
    """A URL saved before these checks existed: refused at delivery, no task error."""
    notifier = TurnNotifier(None, allow_private=False)
    try:
        notifier.your_turn(url, {"table_id": "t"})
        tasks = list(notifier._tasks)
        await notifier.flush()
    finally:
        await notifier.close()
    assert all(task.exception() is None for task in tasks)
    assert (notifier.refused, notifier.sent) == (1, 0)


def test_is_public_agrees_with_the_quoted_blocks() -> None:
    for address in NOT_PUBLIC:
        assert not is_public(address), address
    for address in ("8.8.8.8", "93.184.216.34", "2606:4700::1111", "::ffff:8.8.8.8"):
        assert is_public(address), address
    assert ipaddress.ip_address("fec0::1").is_global  # why is_global alone is not enough
    assert ipaddress.ip_address("2002::1").is_global
