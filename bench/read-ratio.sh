#!/usr/bin/env bash
# The read path against the framework's floor, in one run: Signet's authenticated
# GET /api/v1/usage (embedded default, a key with a large budget; every request authenticated,
# budgeted and logged) and a bare axum handler returning the same JSON (`bench/src/bin/bare.rs`),
# alternating, at 64 and 256 connections, closed loop. Prints each run and the ratio of
# Signet's requests a second to the bare handler's. Release build; everything on 127.0.0.1.
#   bash bench/read-ratio.sh [seconds per run, default 8] [rounds, default 2]
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_RUN=${1:-8}
ROUNDS=${2:-2}
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/signet-target}"
cargo build --release -q -p signet -p signet-bench
SIGNET="$CARGO_TARGET_DIR/release/signet"
BENCH="$CARGO_TARGET_DIR/release/signet-bench"
BARE="$CARGO_TARGET_DIR/release/bare"
WORK=$(mktemp -d)
source bench/lib.sh

port=$(free_port)
SIGNET_DATA_DIR="$WORK/embedded" SIGNET_LISTEN=127.0.0.1:$port SIGNET_LOG=warn "$SIGNET" serve &
pid=$!; PIDS+=("$pid")
wait_port "$port"
ws=$(SIGNET_DATA_DIR="$WORK/embedded" "$SIGNET" admin workspace create --name Bench --plan pro --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
key=$(SIGNET_DATA_DIR="$WORK/embedded" "$SIGNET" admin key create --workspace "$ws" --mode live --scopes account:read --per-minute 1000000000 --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["key"])')
curl -sf "http://127.0.0.1:$port/api/v1/usage" -H "Authorization: Bearer $key" > "$WORK/usage.json"
bare_port=$(free_port)
"$BARE" "127.0.0.1:$bare_port" "$WORK/usage.json" &
bare_pid=$!; PIDS+=("$bare_pid")
wait_port "$bare_port"
cmp -s "$WORK/usage.json" <(curl -sf "http://127.0.0.1:$bare_port/api/v1/usage") || { echo "the bare handler answers other bytes" >&2; exit 1; }

: > "$WORK/runs.jsonl"
for round in $(seq 1 "$ROUNDS"); do
  for c in 64 256; do
    for who in signet bare; do
      if [ "$who" = signet ]; then p=$port; sp=$pid; else p=$bare_port; sp=$bare_pid; fi
      "$BENCH" http --url "http://127.0.0.1:$p/api/v1/usage" --key "$key" --connections "$c" \
        --seconds "$SECONDS_PER_RUN" --server-pid "$sp" --json \
        | python3 -c 'import json,sys; r=json.load(sys.stdin); r["who"]=sys.argv[1]; r["round"]=int(sys.argv[2]); print(json.dumps(r))' "$who" "$round" \
        | tee -a "$WORK/runs.jsonl"
    done
  done
done
python3 - "$WORK/runs.jsonl" <<'PY'
import json, sys
runs = [json.loads(l) for l in open(sys.argv[1])]
print()
print("| round | connections | Signet req/s | Signet p99 ms | bare req/s | bare p99 ms | ratio |")
print("|---|---|---|---|---|---|---|")
for r in sorted({(x["round"], x["connections"]) for x in runs}):
    s = next(x for x in runs if (x["round"], x["connections"]) == r and x["who"] == "signet")
    b = next(x for x in runs if (x["round"], x["connections"]) == r and x["who"] == "bare")
    print(f"| {r[0]} | {r[1]} | {s['rps']:.0f} | {s['p99_ms']:.1f} | {b['rps']:.0f} | {b['p99_ms']:.1f} | {s['rps'] / b['rps']:.2f} |")
PY
