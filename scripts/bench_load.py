"""Run the load harness at increasing rates against a fresh server and plot the latencies.

    .venv/bin/python scripts/bench_load.py --backend sqlite --rates 50 100 200 400 \
        --tables 50 --duration 20 --out docs/benchmarks

Starts `python -m app` on a free loopback port (SQLite file, or a fresh PostgreSQL
database with --backend postgresql), runs `python -m app.loadtest` once per rate,
writes every run's figures to <out>/load-<backend>.json and plots p50/p95/p99
against the achieved throughput to <out>/load-<backend>.png (needs matplotlib:
pip install -e '.[bench]').
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _database(backend: str, folder: Path) -> str:
    if backend == "sqlite":
        return f"sqlite:///{folder}/bench-{uuid.uuid4().hex[:6]}.sqlite3"
    name = f"partida_bench_{uuid.uuid4().hex[:8]}"
    subprocess.run(
        [
            "psql",
            "-h",
            "127.0.0.1",
            "-U",
            "postgres",
            "-d",
            "test",
            "-c",
            f'CREATE DATABASE "{name}"',
        ],
        check=True,
        capture_output=True,
    )
    return f"postgresql://postgres@127.0.0.1:5432/{name}"


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--backend", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--rates", type=float, nargs="+", default=[50, 100, 200, 400])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--duration", type=float, default=20)
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "benchmarks")
    parser.add_argument("--delta", action="store_true", help="clients ask for delta frames")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    runs = []
    with tempfile.TemporaryDirectory() as tmp:
        for rate in args.rates:
            port = _free_port()
            env = {**os.environ, "PARTIDA_DATABASE_URL": _database(args.backend, Path(tmp)),
                   "PARTIDA_RATE_LIMIT_ENABLED": "false", "PARTIDA_LOG_LEVEL": "WARNING",
                   "PARTIDA_MAX_OPEN_TABLES_PER_PLAYER": "100000", "PARTIDA_BOT_DELAY": "0"}  # fmt: skip
            server = subprocess.Popen(
                [sys.executable, "-m", "app", "--port", str(port)], cwd=ROOT, env=env
            )
            try:
                for _ in range(100):
                    try:
                        if (
                            httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=1).status_code
                            == 200
                        ):
                            break
                    except httpx.HTTPError:
                        time.sleep(0.2)
                out = Path(tmp) / f"run-{rate}.json"
                subprocess.run(
                    [sys.executable, "-m", "app.loadtest", "--url", f"http://127.0.0.1:{port}",
                     "--tables", str(args.tables), "--rate", str(rate), "--duration", str(args.duration),
                     "--json", str(out), *(["--delta"] if args.delta else [])],
                    cwd=ROOT, check=False,
                )  # fmt: skip
                figures = json.loads(out.read_text())
                figures["target_rate"] = rate
                runs.append(figures)
            finally:
                server.terminate()
                server.wait(timeout=30)
    (args.out / f"load-{args.backend}.json").write_text(json.dumps(runs, indent=2))
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed: figures written, no plot", file=sys.stderr)
        return 0
    x = [r["actions_per_s"] for r in runs]
    fig, ax = plt.subplots(figsize=(7, 4.2))
    for key, style in (("p50", "o-"), ("p95", "s-"), ("p99", "^-")):
        ax.plot(x, [r["latency_ms"][key] for r in runs], style, label=key)
    ax.axhline(15, color="grey", linestyle=":", label="p99 target (15 ms)")
    ax.set_xlabel("committed actions per second (achieved)")
    ax.set_ylabel("action → all seats latency (ms)")
    ax.set_yscale("log")
    ax.set_title(f"Partida load, {args.tables} four-seat Luz tables, {args.backend}")
    ax.legend()
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(args.out / f"load-{args.backend}.png", dpi=120)
    print(f"wrote {args.out / f'load-{args.backend}.png'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
