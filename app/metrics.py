"""Prometheus metrics (served at /metrics to the admin token, or to a request ``straight_from``
an allowed address)."""

from __future__ import annotations

import asyncio
import ipaddress
import time
from collections.abc import Sequence

from prometheus_client import Counter, Gauge, Histogram
from starlette.types import Scope

from app.config import Network

REQUESTS = Counter(
    "partida_http_requests_total", "HTTP requests answered", ["method", "route", "status"]
)
ACTIONS = Counter("partida_actions_total", "Actions received, by outcome", ["game", "outcome"])
ACTION_LATENCY = Histogram(
    "partida_action_seconds",
    "Time from receiving an accepted action to its commit",
    ["game"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
)
SOCKETS = Gauge("partida_websockets", "Open WebSocket connections")
FRAMES = Counter("partida_ws_frames_total", "WebSocket frames", ["direction", "type"])
_LAG_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
LOOP_LAG = Histogram(
    "partida_event_loop_lag_seconds",
    "How late the event loop woke a probe that slept a fixed interval: while it is late, "
    "every table, socket and request on this instance waits",
    buckets=_LAG_BUCKETS,
)
LOOP_STALL = Histogram(
    "partida_event_loop_stall_seconds",
    "The part of each probe's lag this process spent computing (its CPU time): the loop "
    "held by the server's own work, not by other processes taking the machine's CPUs",
    buckets=_LAG_BUCKETS,
)


# While the process computes less than this share of the probe's interval, it is idle:
# nothing runs that could hold the loop, and the probe sleeps longer (see watch_event_loop).
IDLE_SHARE = 0.1


async def watch_event_loop(interval: float, idle_interval: float | None = None) -> None:
    """Sleep ``interval`` again and again and record each overshoot in LOOP_LAG, and the
    share of it the process spent on the CPU in LOOP_STALL (runs until cancelled). Anything
    that holds the loop without yielding shows up in both.

    With ``idle_interval`` (longer than ``interval``), the probe doubles its sleep, up to
    that, while the process is idle (under IDLE_SHARE of the sleep on the CPU), and comes
    back to ``interval`` at the first wake-up after work: on an idle server every wake-up
    costs a timer, a system call and a context switch (≈ 0.1 ms each on a small VM, so a
    10 ms probe alone took 11 ms of CPU per second). A hold of the loop at least as long as
    the sleep always makes the next wake-up late, whatever the sleep."""
    loop = asyncio.get_running_loop()
    sleep = interval
    longest = max(interval, idle_interval or interval)
    while True:
        started, cpu = loop.time(), time.process_time()
        await asyncio.sleep(sleep)
        used = time.process_time() - cpu
        lag = max(0.0, loop.time() - started - sleep)
        LOOP_LAG.observe(lag)
        LOOP_STALL.observe(min(lag, used))
        sleep = min(longest, sleep * 2) if used < IDLE_SHARE * sleep else interval


#: Headers a proxy adds, with every ``X-Forwarded-*``. A request carrying one came through a
#: proxy, so the address it comes from says nothing of who sent it: a proxy on this host is
#: loopback for every visitor, and X-Forwarded-For is only believed from
#: PARTIDA_FORWARDED_ALLOW_IPS (uvicorn rewrites the client address then, and leaves it the
#: proxy's for any other proxy).
PROXY_HEADERS = frozenset({b"forwarded", b"via", b"x-real-ip"})


def straight_from(scope: Scope, allowed: Sequence[Network]) -> bool:
    """Whether this request came straight (through no proxy) from an address in ``allowed``:
    who may read /metrics without the admin token."""
    headers = scope.get("headers", ())
    if any(name in PROXY_HEADERS or name.startswith(b"x-forwarded-") for name, _ in headers):
        return False
    client = scope.get("client")
    try:
        ip = ipaddress.ip_address(str(client[0]).split("%")[0]) if client else None
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped  # a dual-stack socket's spelling of an IPv4 client
    return ip is not None and any(ip in network for network in allowed)
