"""Load harness: T tables of bot-like clients over real WebSockets against a running server.

    python -m app.loadtest --url http://127.0.0.1:8000 --game luz --tables 50 --seats 4 \
        --rate 200 --duration 30 --json load.json

Every seat is its own WebSocket client that, on its turn, sends a random legal
action. Reported: throughput (actions/s), action → all-seats latency
percentiles (from sending an action until every socket of that table holds the
new version), errors, bytes per seat per action, and the server's resident
memory (from its /metrics; PARTIDA_ADMIN_TOKEN in the environment reads it from
another host). Bounded in time (--duration) and count (--max-actions); only
loopback targets unless --allow-remote.

The server's REST limits apply to the set-up calls: start it with
PARTIDA_RATE_LIMIT_ENABLED=false (and a high PARTIDA_MAX_OPEN_TABLES_PER_PLAYER)
for large runs.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import ipaddress
import json
import os
import random
import socket
import statistics
import sys
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlparse

import httpx
import websockets


@dataclass
class Figures:
    tables: int = 0
    sockets: int = 0
    actions: int = 0
    errors: int = 0
    error_codes: dict[str, int] = field(default_factory=dict)
    latencies_ms: list[float] = field(default_factory=list)
    bytes_received: int = 0
    frames_received: int = 0
    finished_tables: int = 0
    elapsed_s: float = 0.0
    server_cpu_s: float | None = None

    def count_error(self, code: str) -> None:
        self.errors += 1
        self.error_codes[code] = self.error_codes.get(code, 0) + 1

    def summary(self, server_rss: float | None) -> dict[str, Any]:
        lat = sorted(self.latencies_ms)

        def pct(p: float) -> float | None:
            if not lat:
                return None
            return round(lat[min(len(lat) - 1, int(p / 100 * len(lat)))], 2)

        per_seat_action = self.bytes_received / max(
            1, self.actions * max(1, self.sockets // max(1, self.tables))
        )
        return {
            "tables": self.tables,
            "sockets": self.sockets,
            "actions": self.actions,
            "elapsed_s": round(self.elapsed_s, 2),
            "actions_per_s": round(self.actions / self.elapsed_s, 1) if self.elapsed_s else 0.0,
            "latency_ms": {"p50": pct(50), "p95": pct(95), "p99": pct(99), "max": pct(100),
                           "mean": round(statistics.fmean(lat), 2) if lat else None},
            "errors": self.errors,
            "error_codes": self.error_codes,
            "bytes_per_seat_per_action": round(per_seat_action, 1),
            "finished_tables": self.finished_tables,
            "server_rss_mb": server_rss,
            # Server CPU per committed action: 1000 / this is the capacity of one core.
            "server_cpu_ms_per_action": round(1000 * self.server_cpu_s / self.actions, 3)
            if self.server_cpu_s is not None and self.actions else None,
        }  # fmt: skip


class RateGate:
    """A global token bucket: at most ``rate`` actions per second across all seats."""

    def __init__(self, rate: float | None) -> None:
        self.rate = rate
        self.next_slot = time.perf_counter()
        self._lock = asyncio.Lock()

    async def wait(self, deadline: float) -> None:
        """Wait for the next free slot, but not past ``deadline`` (the end of the run)."""
        if not self.rate:
            return
        async with self._lock:
            now = time.perf_counter()
            slot = max(now, self.next_slot)
            self.next_slot = slot + 1 / self.rate
        if slot > now:
            await asyncio.sleep(min(slot, deadline) - now)


class Table:
    def __init__(self, table_id: str, seats: int) -> None:
        self.id = table_id
        self.seats = seats
        self.sent_at: dict[int, float] = {}
        self.arrivals: dict[int, int] = {}


async def _seat(
    ws_url: str, table: Table, seat_token: str, rng: random.Random, gate: RateGate,
    figures: Figures, deadline: float, max_actions: int, stop: asyncio.Event,
) -> None:  # fmt: skip
    async with websockets.connect(f"{ws_url}&token={seat_token}", max_size=2**22) as ws:
        acted_on = 0
        while not stop.is_set():
            timeout = deadline - time.perf_counter()
            if timeout <= 0:
                return
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=timeout)
            except TimeoutError:
                return
            figures.bytes_received += len(raw)
            figures.frames_received += 1
            frame = json.loads(raw)
            if frame["type"] == "error":
                figures.count_error(frame["error"]["code"])
                await ws.send('{"type":"sync"}')
                continue
            if frame["type"] != "state":
                continue
            version = frame["version"]
            if version in table.sent_at:
                table.arrivals[version] = table.arrivals.get(version, 0) + 1
                if table.arrivals[version] == table.seats:
                    figures.latencies_ms.append(
                        (time.perf_counter() - table.sent_at.pop(version)) * 1000
                    )
                    del table.arrivals[version]
            if frame["status"] == "finished":
                if frame["seat"] == 0:
                    figures.finished_tables += 1
                return
            if frame["legal_actions"] and version > acted_on:
                acted_on = version
                await gate.wait(deadline)
                # A seat queued behind the rate gate may wake after the run's end.
                if time.perf_counter() >= deadline:
                    return
                if stop.is_set() or figures.actions >= max_actions:
                    stop.set()
                    return
                action = rng.choice(frame["legal_actions"])
                table.sent_at[version + 1] = time.perf_counter()
                figures.actions += 1
                await ws.send(json.dumps({"type": "action", "version": version, "action": action}))


def _is_loopback(url: str) -> bool:
    host = urlparse(url).hostname or ""
    try:
        return all(
            ipaddress.ip_address(info[4][0]).is_loopback for info in socket.getaddrinfo(host, None)
        )
    except (OSError, ValueError):
        return False


def _metrics_auth() -> dict[str, str]:
    """The admin token from PARTIDA_ADMIN_TOKEN, if set: /metrics answers it from anywhere
    (without it, only from the addresses of the server's PARTIDA_METRICS_ALLOW)."""
    token = os.environ.get("PARTIDA_ADMIN_TOKEN")
    return {"Authorization": f"Bearer {token}"} if token else {}


async def _server_metric(http: httpx.AsyncClient, name: str) -> float | None:
    try:
        text = (await http.get("/metrics", headers=_metrics_auth())).text
    except httpx.HTTPError:
        return None
    for line in text.splitlines():
        if line.startswith(f"{name} "):
            return float(line.split()[1])
    return None


async def _server_rss(http: httpx.AsyncClient) -> float | None:
    rss = await _server_metric(http, "process_resident_memory_bytes")
    return None if rss is None else round(rss / 2**20, 1)


async def run(args: argparse.Namespace) -> dict[str, Any]:
    base = args.url.rstrip("/")
    ws_base = base.replace("http", "ws", 1)
    figures = Figures()
    rng = random.Random(args.seed)
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        tables: list[tuple[Table, list[str]]] = []
        sem = asyncio.Semaphore(32)

        async def new_player(name: str) -> str:
            async with sem:
                r = await http.post("/api/v1/players", json={"name": name})
                r.raise_for_status()
                return str(r.json()["token"])

        async def setup_table(t: int) -> tuple[Table, list[str]]:
            tokens = [await new_player(f"load-{t}-{s}") for s in range(args.seats)]
            auth = [{"Authorization": f"Bearer {tok}"} for tok in tokens]
            async with sem:
                created = await http.post(
                    "/api/v1/tables", json={"game": args.game, "seats": args.seats}, headers=auth[0]
                )
                created.raise_for_status()
                tid = created.json()["id"]
                for s in range(1, args.seats):
                    (
                        await http.post(f"/api/v1/tables/{tid}/join", headers=auth[s])
                    ).raise_for_status()
                (await http.post(f"/api/v1/tables/{tid}/start", headers=auth[0])).raise_for_status()
            return Table(tid, args.seats), tokens

        tables = await asyncio.gather(*(setup_table(t) for t in range(args.tables)))
        figures.tables = len(tables)
        figures.sockets = len(tables) * args.seats
        gate = RateGate(args.rate)
        stop = asyncio.Event()
        # The harness's own collector pauses would count as server latency: keep what set-up
        # made out of the collector's sight.
        gc.collect()
        gc.freeze()
        cpu_before = await _server_metric(http, "process_cpu_seconds_total")
        started = time.perf_counter()
        deadline = started + args.duration
        tasks = [
            _seat(f"{ws_base}/api/v1/tables/{table.id}/ws?delta={int(args.delta)}", table, token,
                  random.Random(rng.random()),
                  gate, figures, deadline, args.max_actions, stop)
            for table, tokens in tables
            for token in tokens
        ]  # fmt: skip
        rss_task = asyncio.create_task(_sample_rss(http, args.duration))
        outcomes = await asyncio.gather(*tasks, return_exceptions=True)
        # A seat that could not connect, or whose socket dropped, is an error like an error frame.
        for outcome in outcomes:
            if isinstance(outcome, BaseException):
                figures.count_error(f"socket:{type(outcome).__name__}")
        figures.elapsed_s = time.perf_counter() - started
        cpu_after = await _server_metric(http, "process_cpu_seconds_total")
        if cpu_before is not None and cpu_after is not None:
            figures.server_cpu_s = cpu_after - cpu_before
        rss = await rss_task if rss_task.done() else None
        if rss is None:
            rss_task.cancel()
            rss = await _server_rss(http)
    return figures.summary(rss)


async def _sample_rss(http: httpx.AsyncClient, duration: float) -> float | None:
    """Peak resident memory seen while the load runs (sampled once a second)."""
    peak: float | None = None
    end = time.perf_counter() + duration
    while time.perf_counter() < end:
        rss = await _server_rss(http)
        if rss is not None:
            peak = max(peak or 0.0, rss)
        await asyncio.sleep(1)
    return peak


def _print_table(result: dict[str, Any]) -> None:
    lat = result["latency_ms"]
    rows = [
        ("tables / sockets", f"{result['tables']} / {result['sockets']}"),
        ("actions", f"{result['actions']} in {result['elapsed_s']} s"),
        ("throughput", f"{result['actions_per_s']} actions/s"),
        ("latency p50/p95/p99", f"{lat['p50']} / {lat['p95']} / {lat['p99']} ms"),
        ("errors", f"{result['errors']} {result['error_codes'] or ''}"),
        ("bytes / seat / action", str(result["bytes_per_seat_per_action"])),
        ("server RSS (peak)", f"{result['server_rss_mb']} MB"),
        ("server CPU / action", f"{result['server_cpu_ms_per_action']} ms"),
    ]
    for name, value in rows:
        print(f"{name:<24} {value}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m app.loadtest", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)  # fmt: skip
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--game", default="luz")
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument(
        "--rate",
        type=float,
        help="target actions/s across all tables (default: as fast as possible)",
    )
    parser.add_argument("--duration", type=float, default=20.0, help="seconds of load, at most")
    parser.add_argument("--max-actions", type=int, default=1_000_000, help="actions, at most")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--delta", action="store_true", help="ask for delta frames (a JSON Patch of the view)"
    )
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    parser.add_argument("--allow-remote", action="store_true", help="allow a non-loopback target")
    args = parser.parse_args(argv)
    if args.duration > 600 or args.tables > 2000:
        parser.error("bounded runs only: --duration ≤ 600 s, --tables ≤ 2000")
    if not args.allow_remote and not _is_loopback(args.url):
        parser.error(
            f"{args.url} is not a loopback address; pass --allow-remote to load another host"
        )
    result = asyncio.run(run(args))
    _print_table(result)
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(result, fh, indent=2)
    print(json.dumps(result))
    return 0 if result["errors"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
