"""What connected but quiet table sockets cost a running server: CPU per second and memory.

    taskset -c 0 env PARTIDA_DATABASE_URL=sqlite:////tmp/quiet.db \
        PARTIDA_RATE_LIMIT_ENABLED=false PARTIDA_MAX_OPEN_TABLES_PER_PLAYER=100000 \
        PARTIDA_LOG_LEVEL=WARNING .venv/bin/python -m app --port 18300 --host 127.0.0.1 &
    taskset -c 1 .venv/bin/python scripts/bench_quiet_sockets.py --url http://127.0.0.1:18300

Starts nothing: it finds the server's process by the port it listens on (or --pid), reads
its resident memory before anything else, creates the tables through the REST API (four-
seat Luz tables by default, started, nobody moves), measures a quiet window without
sockets, opens one socket per seat, waits for the first frames to settle and measures a
quiet window with them. CPU time is read from /proc/PID/stat (user + system, the server
and all its threads), memory from /proc/PID/status (VmRSS). It prints figures and asserts
nothing: the machine is shared, compare runs side by side.

The client sockets send no pings of their own (a browser does not) and offer
permessage-deflate as browsers do (--no-compression to offer none).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import httpx
import websockets

TICKS = os.sysconf("SC_CLK_TCK")


def _listening_inodes(port: int) -> set[str]:
    inodes = set()
    for name in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(name).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            # state 0A is LISTEN; the local address ends in the port in hex.
            if fields[3] == "0A" and int(fields[1].rsplit(":", 1)[1], 16) == port:
                inodes.add(fields[9])
    return inodes


def find_pid(port: int) -> int:
    """The process that listens on ``port`` (one of ours, so its fds are readable)."""
    wanted = {f"socket:[{inode}]" for inode in _listening_inodes(port)}
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            for fd in (proc / "fd").iterdir():
                if os.readlink(fd) in wanted:
                    return int(proc.name)
        except OSError:
            continue
    raise SystemExit(f"no readable process listens on port {port}: pass --pid")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of the process so far (all its threads)."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    # The command name may hold spaces: the fields after it start past the last ')'.
    fields = stat[stat.rindex(")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def quiet_window(pid: int, seconds: float) -> float:
    """Milliseconds of server CPU per second over ``seconds`` of nothing happening."""
    cpu, wall = cpu_seconds(pid), time.monotonic()
    await asyncio.sleep(seconds)
    return (cpu_seconds(pid) - cpu) * 1000 / (time.monotonic() - wall)


async def make_tables(
    http: httpx.AsyncClient, tables: int, seats: int, game: str, time_control: dict[str, Any] | None
) -> list[tuple[str, list[str]]]:
    gate = asyncio.Semaphore(16)

    async def post(path: str, **kwargs: Any) -> httpx.Response:
        # A pooled connection the server closed as idle (its keep-alive timeout) just as
        # the request went out: sent again (a join answered twice is a 409, not an error).
        for attempt in range(3):
            try:
                r = await http.post(path, **kwargs)
            except httpx.RemoteProtocolError:
                if attempt == 2:
                    raise
                continue
            if attempt and r.status_code == 409:
                return r
            r.raise_for_status()
            return r
        raise AssertionError("unreachable")

    async def one(t: int) -> tuple[str, list[str]]:
        async with gate:
            tokens = []
            for s in range(seats):
                r = await post("/api/v1/players", json={"name": f"quiet-{t}-{s}"})
                tokens.append(str(r.json()["token"]))
            auth = [{"Authorization": f"Bearer {tok}"} for tok in tokens]
            body: dict[str, Any] = {"game": game, "seats": seats}
            if time_control is not None:
                body["time_control"] = time_control
            r = await post("/api/v1/tables", json=body, headers=auth[0])
            table_id = str(r.json()["id"])
            for s in range(1, seats):
                await post(f"/api/v1/tables/{table_id}/join", headers=auth[s])
            await post(f"/api/v1/tables/{table_id}/start", headers=auth[0])
            return table_id, tokens

    return list(await asyncio.gather(*(one(t) for t in range(tables))))


async def hold(url: str, compression: bool, opened: asyncio.Event, frames: list[int]) -> None:
    """One seat's socket: open it, read whatever comes, never send."""
    async with websockets.connect(
        url,
        ping_interval=None,
        max_size=2**22,
        compression="deflate" if compression else None,
    ) as ws:
        opened.set()
        async for _ in ws:
            frames[0] += 1


async def run(args: argparse.Namespace) -> None:
    base = args.url.rstrip("/")
    pid = args.pid or find_pid(urlparse(base).port or 80)
    print(f"server pid {pid}", flush=True)
    print(f"RSS before set-up: {rss_mb(pid):.1f} MB")
    time_control = json.loads(args.time_control) if args.time_control else None
    async with httpx.AsyncClient(base_url=base, timeout=120) as http:
        started = time.monotonic()
        made = await make_tables(http, args.tables, args.seats, args.game, time_control)
        print(f"{len(made)} tables made in {time.monotonic() - started:.1f} s")
    await asyncio.sleep(args.settle)
    print(f"RSS with tables, no sockets: {rss_mb(pid):.1f} MB")
    if args.idle_window > 0:
        ms = await quiet_window(pid, args.idle_window)
        print(f"CPU with tables, no sockets: {ms:.1f} ms/s over {args.idle_window:.0f} s")
    ws_base = base.replace("http", "ws", 1)
    frames = [0]
    tasks: list[asyncio.Task[None]] = []
    started = time.monotonic()
    for table_id, tokens in made:
        for token in tokens:
            opened = asyncio.Event()
            url = f"{ws_base}/api/v1/tables/{table_id}/ws?token={token}"
            tasks.append(asyncio.create_task(hold(url, not args.no_compression, opened, frames)))
            # One at a time (a short wait each): a storm of handshakes is another benchmark.
            await asyncio.wait(
                [asyncio.create_task(opened.wait()), tasks[-1]],
                return_when=asyncio.FIRST_COMPLETED,
            )
    failed = [t for t in tasks if t.done()]
    print(
        f"{len(tasks) - len(failed)} sockets open in {time.monotonic() - started:.1f} s"
        f" ({len(failed)} failed)"
    )
    await asyncio.sleep(args.settle)
    print(f"RSS with {len(tasks) - len(failed)} sockets: {rss_mb(pid):.1f} MB")
    before = frames[0]
    ms = await quiet_window(pid, args.window)
    print(
        f"CPU with {len(tasks) - len(failed)} quiet sockets: {ms:.1f} ms/s over"
        f" {args.window:.0f} s ({frames[0] - before} frames received meanwhile)"
    )
    print(f"RSS after the window: {rss_mb(pid):.1f} MB")
    dropped = [t for t in tasks if t.done()]
    print(f"sockets closed by the end: {len(dropped)}")
    if args.hold > 0:
        # Time for a profiler (py-spy record -p PID) to look at the quiet server.
        print(f"holding the sockets open {args.hold:.0f} s more", flush=True)
        await asyncio.sleep(args.hold)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--url", default="http://127.0.0.1:18300")
    parser.add_argument("--pid", type=int, help="the server's process (default: by the port)")
    parser.add_argument("--tables", type=int, default=250)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--game", default="luz")
    parser.add_argument(
        "--time-control",
        help='a time control for every table, as JSON (e.g. \'{"clock": "async"}\')',
    )
    parser.add_argument("--window", type=float, default=30.0, help="quiet window, seconds")
    parser.add_argument(
        "--idle-window", type=float, default=10.0, help="quiet window before the sockets (0: none)"
    )
    parser.add_argument("--settle", type=float, default=5.0, help="wait before measuring")
    parser.add_argument("--no-compression", action="store_true")
    parser.add_argument("--hold", type=float, default=0.0, help="keep the sockets open after")
    asyncio.run(run(parser.parse_args(argv)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
