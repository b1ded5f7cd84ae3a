"""Prometheus metrics (served at /metrics)."""

from __future__ import annotations

import asyncio
import time

from prometheus_client import Counter, Gauge, Histogram

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


async def watch_event_loop(interval: float) -> None:
    """Sleep ``interval`` again and again and record each overshoot in LOOP_LAG, and the
    share of it the process spent on the CPU in LOOP_STALL (runs until cancelled). Anything
    that holds the loop without yielding shows up in both."""
    loop = asyncio.get_running_loop()
    while True:
        started, cpu = loop.time(), time.process_time()
        await asyncio.sleep(interval)
        lag = max(0.0, loop.time() - started - interval)
        LOOP_LAG.observe(lag)
        LOOP_STALL.observe(min(lag, time.process_time() - cpu))
