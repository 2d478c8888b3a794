#!/usr/bin/env bash
# Load against a release build, at 64 and 256 connections, on the embedded default and on
# PostgreSQL+Redis. Prints one line per run; copy them into bench/RESULTS.md. Everything
# listens on 127.0.0.1 and stops when the script ends.
#   bash bench/run.sh [seconds] [usage|documents]
# BENCH_RATE=R makes every run open loop: R requests due a second in all, latency counted
# from when each was due (signet-bench http --rate).
# usage:     authenticated GET /api/v1/usage
# documents: POST /api/v1/documents with sendNow (create + check + render + send), live key
# templates: POST /api/v1/documents/send from a template made of the same words, live key
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_RUN=${1:-10}
SCENARIO=${2:-usage}
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/signet-target}"
cargo build --release -q -p signet -p signet-bench
SIGNET="$CARGO_TARGET_DIR/release/signet"
BENCH="$CARGO_TARGET_DIR/release/signet-bench"
WORK=$(mktemp -d)
source bench/lib.sh


run_scenario() { # name, then env assignments
  local name=$1; shift
  local port; port=$(free_port)
  env "$@" SIGNET_LISTEN=127.0.0.1:$port SIGNET_LOG=warn "$SIGNET" serve &
  local pid=$!; PIDS+=("$pid")
  wait_port "$port"
  local ws key
  ws=$(env "$@" "$SIGNET" admin workspace create --name Bench --plan pro --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
  local scopes=account:read path=/api/v1/usage extra=()
  if [ "$SCENARIO" = documents ]; then
    scopes=documents:read,documents:write path=/api/v1/documents extra=(--body bench/create-send.json)
  fi
  if [ "$SCENARIO" = templates ]; then
    scopes=documents:read,documents:write,templates:read,templates:write path=/api/v1/documents/send
  fi
  key=$(env "$@" "$SIGNET" admin key create --workspace "$ws" --mode live --scopes "$scopes" --per-minute 1000000000 --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["key"])')
  if [ "$SCENARIO" = templates ]; then
    # The create+send body's words as a template (its questions answered in the words), then
    # a send of it to its two seats.
    python3 - bench/create-send.json > "$WORK/template-source.json" <<'PY'
import json, sys
body = json.load(open(sys.argv[1]))
answers = body["variableValues"]
def walk(n):
    if isinstance(n, dict):
        if n.get("type") == "variableChip" and n["attrs"]["name"].startswith("custom."):
            return {"type": "text", "text": answers[n["attrs"]["name"][7:]]}
        return {k: walk(v) for k, v in n.items()}
    if isinstance(n, list):
        return [walk(v) for v in n]
    return n
print(json.dumps({"name": body["title"], "source": walk(body["source"])}))
PY
    local tpl
    tpl=$(curl -sf -X POST "http://127.0.0.1:$port/api/v1/templates/source" -H "Authorization: Bearer $key" \
      -H "Idempotency-Key: bench-template-$port" -H 'Content-Type: application/json' --data @"$WORK/template-source.json" \
      | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
    python3 -c 'import json,sys; print(json.dumps({"templateId": sys.argv[1], "metadata": {"crm.deal": "bench"}, "parties": [
      {"seat": "client", "name": "Ada Client", "email": "ada@example.com"},
      {"seat": "provider", "name": "Bob Provider", "email": "bob@example.com"}]}))' "$tpl" > "$WORK/template-send.json"
    extra=(--body "$WORK/template-send.json")
  fi
  for c in 64 256; do
    printf '%s, ' "$name"
    "$BENCH" http --url "http://127.0.0.1:$port$path" --key "$key" --connections "$c" --seconds "$SECONDS_PER_RUN" --server-pid "$pid" ${BENCH_RATE:+--rate "$BENCH_RATE"} "${extra[@]}"
  done
  kill "$pid"; wait "$pid" 2>/dev/null || true
}

# Embedded default: SQLite in a fresh data folder, budgets in process.
run_scenario "embedded (SQLite)" SIGNET_DATA_DIR="$WORK/embedded"

# PostgreSQL + Redis, throwaway servers.
PGBIN=$(pg_config --bindir 2>/dev/null || ls -d /usr/lib/postgresql/*/bin | tail -n1)
PGPORT=$(free_port); RPORT=$(free_port)
mkdir -p "$WORK/pg"
AS=()
if [ "$(id -u)" = 0 ]; then chown -R postgres "$WORK"; AS=(runuser -u postgres --); fi
"${AS[@]}" "$PGBIN/initdb" -D "$WORK/pg/data" -U postgres --auth=trust --no-sync >/dev/null
"${AS[@]}" "$PGBIN/postgres" -D "$WORK/pg/data" -p "$PGPORT" -k "$WORK/pg" -c listen_addresses=127.0.0.1 -c max_connections=200 >/dev/null 2>&1 &
PIDS+=($!)
redis-server --port "$RPORT" --bind 127.0.0.1 --save '' --appendonly no --loglevel warning >/dev/null &
PIDS+=($!)
wait_port "$PGPORT"; wait_port "$RPORT"
PGENV=(DATABASE_URL="postgres://postgres@127.0.0.1:$PGPORT/postgres" REDIS_URL="redis://127.0.0.1:$RPORT"
       SIGNET_SECRET_KEY=bench-secret-bench-secret-bench-secret-00 SIGNET_DATA_DIR="$WORK/scaled")
env "${PGENV[@]}" "$SIGNET" migrate
run_scenario "PostgreSQL+Redis" "${PGENV[@]}"
