"""/metrics is no longer public (issue 34.8): it is served to a request that carries the
admin token, or that comes straight (through no proxy) from an address of
PARTIDA_METRICS_ALLOW (loopback by default); to anyone else it is a path that does not
exist, answered exactly as one. A request that came through a proxy is never admitted by its
address: the proxy may be on this host, and then every visitor looks like loopback."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from pydantic import ValidationError

from app.config import Settings, networks
from tests.support.client import new_player
from tests.support.live import LiveServer, temporary_server
from tests.support.process import ServerProcess

ADMIN = "host-secret-token-0123456789"
TOKEN = {"Authorization": f"Bearer {ADMIN}"}
#: What a proxy in front adds, naming a visitor from the internet or a spoofed loopback.
FORWARDED = [
    {"x-forwarded-for": "203.0.113.5"},
    {"x-forwarded-for": "127.0.0.1"},
    {"forwarded": "for=203.0.113.5;proto=https"},
    {"x-real-ip": "127.0.0.1"},
    {"x-forwarded-proto": "https"},
    {"x-forwarded-port": "443"},
    {"via": "1.1 caddy"},
]


def _is_metrics(r: httpx.Response) -> bool:
    return r.status_code == 200 and "partida_http_requests_total" in r.text


def _missing_path(http: httpx.Client, headers: dict[str, str]) -> tuple[int, str]:
    r = http.get("/no-such-path", headers=headers)
    return r.status_code, r.text


@pytest.fixture
def server(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[LiveServer]:
    overrides = getattr(request, "param", {})
    with temporary_server(tmp_path, admin_token=ADMIN, **overrides) as live:
        yield live


def test_loopback_reads_metrics_without_a_token(server: LiveServer) -> None:
    """The default keeps a Prometheus or sidecar on the same host working."""
    with httpx.Client(base_url=server.url, timeout=30) as http:
        assert _is_metrics(http.get("/metrics"))


@pytest.mark.parametrize("server", [{"metrics_allow": "10.0.0.0/8,fd00::/8"}], indirect=True)
@pytest.mark.parametrize("accept", ["application/json", "text/html"])
def test_an_address_outside_the_range_gets_what_a_missing_path_gets(
    server: LiveServer, accept: str
) -> None:
    with httpx.Client(base_url=server.url, timeout=30) as http:
        headers = {"accept": accept}
        r = http.get("/metrics", headers=headers)
        assert (r.status_code, r.text) == _missing_path(http, headers)
        assert "partida_" not in r.text


@pytest.mark.parametrize("server", [{"metrics_allow": "none"}], indirect=True)
def test_only_the_admin_token_opens_metrics_when_no_address_is_allowed(
    server: LiveServer,
) -> None:
    with httpx.Client(base_url=server.url, timeout=30) as http:
        player = new_player(http, "Ana")
        refused = [
            {},
            {"Authorization": "Bearer wrong-token-0123456789"},
            {"Authorization": f"Basic {ADMIN}"},
            player.auth,  # a player's token is no admin token
        ]
        for headers in refused:
            r = http.get("/metrics", headers=headers)
            assert (r.status_code, r.text) == _missing_path(http, {}), headers
        assert _is_metrics(http.get("/metrics", headers=TOKEN))


@pytest.mark.parametrize("headers", FORWARDED)
def test_a_request_through_a_proxy_is_not_admitted_by_its_address(
    server: LiveServer, headers: dict[str, str]
) -> None:
    """The test client is on loopback, which the default allows: only the proxy header
    differs, and the admin token still opens it."""
    with httpx.Client(base_url=server.url, timeout=30) as http:
        r = http.get("/metrics", headers=headers)
        assert (r.status_code, r.text) == _missing_path(http, {})
        assert _is_metrics(http.get("/metrics", headers={**headers, **TOKEN}))


@pytest.mark.parametrize(
    "forwarded_allow_ips", ["127.0.0.0/8", "192.0.2.1"], ids=["trusted", "untrusted"]
)
def test_python_m_app_behind_a_local_proxy_refuses_its_visitors(
    tmp_path: Path, forwarded_allow_ips: str
) -> None:
    """`python -m app` behind a proxy on this host (the test client on 127.0.0.1), whether
    PARTIDA_FORWARDED_ALLOW_IPS believes it (the client becomes the visitor) or not (the
    client stays the proxy, loopback): a visitor's request never reads the metrics."""
    server = ServerProcess(
        f"sqlite:///{tmp_path / 'partida.sqlite3'}",
        PARTIDA_FORWARDED_ALLOW_IPS=forwarded_allow_ips,
        PARTIDA_ADMIN_TOKEN=ADMIN,
        PARTIDA_REDIS_URL="",
    ).start()
    try:
        with httpx.Client(base_url=server.url, timeout=30) as http:
            assert _is_metrics(http.get("/metrics"))  # straight from loopback
            for visitor in ("203.0.113.5", "127.0.0.1"):
                r = http.get("/metrics", headers={"x-forwarded-for": visitor})
                assert r.status_code == 404, (visitor, r.text)
            assert _is_metrics(http.get("/metrics", headers={"x-forwarded-for": "x", **TOKEN}))
    finally:
        server.stop()


def test_the_setting_reads_addresses_and_networks_or_none() -> None:
    assert [str(n) for n in networks(" 127.0.0.1, 10.0.0.0/8 ,::1,")] == [
        "127.0.0.1/32",
        "10.0.0.0/8",
        "::1/128",
    ]
    assert networks("none") == ()
    with pytest.raises(ValidationError, match=r"'10\.0\.0\.300' is not an address or a network"):
        Settings(metrics_allow="127.0.0.1,10.0.0.300")
