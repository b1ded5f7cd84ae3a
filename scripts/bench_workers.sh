#!/usr/bin/env bash
# Capacity of 1 worker process against N (PARTIDA_WORKERS), side by side in one run.
#
#   scripts/bench_workers.sh [--backend sqlite|postgresql] [--workers "1 2"] [--load 100x4]
#                            [--warmup 5] [--duration 20] [--bench ../shared/bench]
#
# Each run starts `python -m app` afresh (a new SQLite file, or a new PostgreSQL database
# on 127.0.0.1), with the Redis broker on 127.0.0.1:6379 in every run (the same fan-out
# path whatever the count), the server's processes pinned to the first W CPUs (taskset)
# and the load client of the side-by-side bench (partida_load.js, unthrottled: every table
# sends its next move once the last one reached every seat) left to the scheduler. Prints
# one line per run: workers, committed actions/s, latency p50/p99 (action -> all seats), errors.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BACKEND=sqlite
WORKERS="1 2"
LOAD=100x4
WARMUP=5
DURATION=20
BENCH="$ROOT/../shared/bench"
PORT=18500
while [ $# -gt 0 ]; do
  case "$1" in
    --backend) BACKEND="$2"; shift 2 ;;
    --workers) WORKERS="$2"; shift 2 ;;
    --load) LOAD="$2"; shift 2 ;;
    --warmup) WARMUP="$2"; shift 2 ;;
    --duration) DURATION="$2"; shift 2 ;;
    --bench) BENCH="$2"; shift 2 ;;
    -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
TABLES="${LOAD%%x*}"; SEATS="${LOAD#*x}"
PY="$ROOT/.venv/bin/python"
SCRATCH="$(mktemp -d)"
SERVER=""
stop() {
  if [ -n "$SERVER" ] && kill -0 "$SERVER" 2>/dev/null; then
    kill -TERM "$SERVER"; wait "$SERVER" 2>/dev/null || true
  fi
  SERVER=""
}
trap 'stop; rm -rf "$SCRATCH"' EXIT

echo "| workers | CPUs | backend | load | actions/s | p50 ms | p99 ms | errors |"
echo "|---:|---|---|---|---:|---:|---:|---:|"
for w in $WORKERS; do
  cpus="0-$((w - 1))"
  if [ "$BACKEND" = postgresql ]; then
    db="bench_workers_$RANDOM"
    psql -h 127.0.0.1 -U postgres -d test -qc "CREATE DATABASE $db" >/dev/null
    url="postgresql://postgres@127.0.0.1:5432/$db"
  else
    url="sqlite:///$SCRATCH/w$w.db"
  fi
  (cd "$ROOT" && exec env PARTIDA_DATABASE_URL="$url" PARTIDA_WORKERS="$w" \
    PARTIDA_REDIS_URL=redis://127.0.0.1:6379/0 PARTIDA_REDIS_CHANNEL="bench-workers-$RANDOM" \
    PARTIDA_RATE_LIMIT_ENABLED=false PARTIDA_WS_MESSAGES_PER_SECOND=100000 PARTIDA_WS_BURST=100000 \
    PARTIDA_MAX_OPEN_TABLES_PER_PLAYER=100000 PARTIDA_BOT_DELAY=0 PARTIDA_LOG_LEVEL=WARNING \
    taskset -c "$cpus" "$PY" -m app --port "$PORT" --host 127.0.0.1) >"$SCRATCH/server-$w.log" 2>&1 &
  SERVER=$!
  for _ in $(seq 1 150); do
    curl -fsS -o /dev/null --max-time 1 "http://127.0.0.1:$PORT/readyz" 2>/dev/null && break
    sleep 0.2
  done
  node "$BENCH/partida_load.js" --url "http://127.0.0.1:$PORT" --matches "$TABLES" --players "$SEATS" \
    --rate 0 --warmup "$WARMUP" --duration "$DURATION" >"$SCRATCH/w$w.json" 2>"$SCRATCH/w$w.client.log"
  stop
  "$PY" - "$SCRATCH/w$w.json" "$w" "$cpus" "$BACKEND" "$LOAD" <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))
lat = d["latency_ms"]
print(f"| {sys.argv[2]} | {sys.argv[3]} | {sys.argv[4]} | {sys.argv[5]}@max | "
      f"{d['throughput_moves_per_s']} | {lat['p50']} | {lat['p99']} | {d['errors_total']} |")
PYEOF
  if [ "$BACKEND" = postgresql ]; then
    psql -h 127.0.0.1 -U postgres -d test -qc "DROP DATABASE $db WITH (FORCE)" >/dev/null
  fi
done
