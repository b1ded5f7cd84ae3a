"""Prometheus metrics (served at /metrics)."""

from __future__ import annotations

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
