#!/usr/bin/env bash
# Webhook fan-out to a local receiver (bench/src/bin/fanout.rs), on the embedded default and on
# PostgreSQL (a throwaway server). Prints one line per run; copy them into bench/RESULTS.md.
#   bash bench/fanout.sh
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/signet-target}"
cargo build --release -q -p signet-bench --bin fanout
FANOUT="$CARGO_TARGET_DIR/release/fanout"
export SIGNET_LOG=warn
WORK=$(mktemp -d)
source bench/lib.sh

runs() { # label, then extra arguments
  local label=$1; shift
  for shape in "1 1000" "10 1000" "10000 10"; do
    set -- $shape "$@"
    printf '%s, ' "$label"
    "$FANOUT" --events "$1" --endpoints "$2" "${@:3}"
    shift 2
  done
}

runs "embedded (SQLite)"
printf 'embedded (SQLite), '
"$FANOUT" --warm --events 1 --endpoints 1000

PGBIN=$(pg_config --bindir 2>/dev/null || ls -d /usr/lib/postgresql/*/bin | tail -n1)
PGPORT=$(free_port)
mkdir -p "$WORK/pg"
AS=()
if [ "$(id -u)" = 0 ]; then chown -R postgres "$WORK"; AS=(runuser -u postgres --); fi
"${AS[@]}" "$PGBIN/initdb" -D "$WORK/pg/data" -U postgres --auth=trust --no-sync >/dev/null
"${AS[@]}" "$PGBIN/postgres" -D "$WORK/pg/data" -p "$PGPORT" -k "$WORK/pg" -c listen_addresses=127.0.0.1 >/dev/null 2>&1 &
PIDS+=($!)
wait_port "$PGPORT"
for db in 1 2 3 4; do "${AS[@]}" "$PGBIN/createdb" -h 127.0.0.1 -p "$PGPORT" -U postgres "fan$db"; done
n=0
for shape in "1 1000" "10 1000" "10000 10"; do
  n=$((n + 1))
  set -- $shape
  printf 'PostgreSQL, '
  "$FANOUT" --events "$1" --endpoints "$2" --database-url "postgres://postgres@127.0.0.1:$PGPORT/fan$n"
done
printf 'PostgreSQL, '
"$FANOUT" --warm --events 1 --endpoints 1000 --database-url "postgres://postgres@127.0.0.1:$PGPORT/fan4"
