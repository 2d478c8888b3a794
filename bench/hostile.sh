#!/usr/bin/env bash
# An honest workspace's latency while another workspace attacks at its full per-minute budget
# (issue "Hostile callers"): first quiet, then during each attack. Embedded default, release
# build, everything on 127.0.0.1. Prints one line per run; copy them into bench/RESULTS.md.
#   bash bench/hostile.sh [seconds]
# The honest side runs open loop (signet-bench http --rate): reads (GET /api/v1/usage) at
# READ_RATE a second, then create+send (POST /api/v1/documents, sendNow) at SEND_RATE.
# Attacks, each by the attacker's own Pro key at its plan's 1,200 requests a minute:
#   3  GraphQL: 20 aliases of documentSource (words included) on a 1.5 MB document, one
#      operation a second; each spends 20 units for its root fields, 100 for the words read
#      and 120 for its 30 MB answer, so about five run a minute and the rest are refused
#   6  fan-out: 20 relay endpoints (the cap), test sends at 20 a second
#   7  slow receivers: 20 endpoints at a receiver that never answers, live sends at 20 a second
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_RUN=${1:-10}
READ_RATE=${READ_RATE:-500}
SEND_RATE=${SEND_RATE:-100}
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/signet-target}"
cargo build --release -q -p signet -p signet-bench
SIGNET="$CARGO_TARGET_DIR/release/signet"
BENCH="$CARGO_TARGET_DIR/release/signet-bench"
WORK=$(mktemp -d)
source bench/lib.sh

json() { python3 -c "import json,sys; print(json.load(sys.stdin)$1)"; }

export SIGNET_DATA_DIR="$WORK/data" SIGNET_LOG=warn
export SIGNET_WEBHOOKS_ALLOW_PRIVATE=true SIGNET_WEBHOOKS_ALLOW_HTTP=true
PORT=$(free_port)
SIGNET_LISTEN=127.0.0.1:$PORT "$SIGNET" serve &
SERVER=$!; PIDS+=("$SERVER")
wait_port "$PORT"
BASE="http://127.0.0.1:$PORT"

ws() { "$SIGNET" admin workspace create --name "$1" --plan pro --json | json '["id"]'; }
HONEST_WS=$(ws Honest)
HONEST=$("$SIGNET" admin key create --workspace "$HONEST_WS" --mode live --all-scopes --per-minute 1000000000 --json | json '["key"]')
EVIL_WS=$(ws Attacker)
EVIL_LIVE=$("$SIGNET" admin key create --workspace "$EVIL_WS" --mode live --all-scopes --json | json '["key"]')
EVIL_TEST=$("$SIGNET" admin key create --workspace "$EVIL_WS" --mode test --all-scopes --json | json '["key"]')

# The attacks' bodies: a 1.5 MB document and a GraphQL operation reading it 20 times.
python3 - "$WORK" <<'PY'
import json, sys
work = sys.argv[1]
para = {"type": "paragraph", "content": [{"type": "text", "text": "Clause text that goes on. " * 16}]}
doc = {"title": "Long", "people": [{"name": "Ada", "email": "ada@example.com", "role": "client"}],
       "source": {"type": "doc", "content": [para] * 3500 + [{"type": "signatureBlock", "attrs": {"role": "client"}}]}}
open(f"{work}/long.json", "w").write(json.dumps(doc))
PY
LONG=$(curl -s -H "Authorization: Bearer $EVIL_LIVE" -H 'Content-Type: application/json' -H "Idempotency-Key: long-$RANDOM$RANDOM" \
  --data-binary @"$WORK/long.json" "$BASE/api/v1/documents" | json '["id"]')
python3 - "$WORK" "$LONG" <<'PY'
import json, sys
work, doc = sys.argv[1], sys.argv[2]
fields = " ".join(f'a{i}: documentSource(id: "{doc}") {{ title source }}' for i in range(20))
open(f"{work}/aliases.json", "w").write(json.dumps({"query": "{ " + fields + " }"}))
PY

# A receiver that takes connections and never answers.
SILENT=$(free_port)
python3 - "$SILENT" <<'PY' &
import socket, sys, time
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(4096)
held = []
while True:
    c, _ = s.accept(); held.append(c)
PY
PIDS+=($!)
wait_port "$SILENT"
for i in $(seq 1 20); do
  curl -s -o /dev/null -H "Authorization: Bearer $EVIL_TEST" -H 'Content-Type: application/json' \
    -d '{"relay": true, "eventTypes": ["documents.document.sent"]}' "$BASE/api/v1/webhooks"
  curl -s -o /dev/null -H "Authorization: Bearer $EVIL_LIVE" -H 'Content-Type: application/json' \
    -d "{\"url\": \"http://127.0.0.1:$SILENT/h$i\", \"eventTypes\": [\"documents.document.sent\"]}" "$BASE/api/v1/webhooks"
done

honest() { # label
  printf '%s, reads, ' "$1"
  "$BENCH" http --url "$BASE/api/v1/usage" --key "$HONEST" --connections 32 --seconds "$SECONDS_PER_RUN" --rate "$READ_RATE" --server-pid "$SERVER"
  printf '%s, create+send, ' "$1"
  "$BENCH" http --url "$BASE/api/v1/documents" --key "$HONEST" --connections 32 --seconds "$SECONDS_PER_RUN" --rate "$SEND_RATE" --server-pid "$SERVER" --body bench/create-send.json
}

attack() { # label, then signet-bench http arguments
  local label=$1; shift
  "$BENCH" http "$@" --seconds $((2 * SECONDS_PER_RUN + 8)) --warmup 0 >"$WORK/attack.txt" 2>&1 &
  local pid=$!
  sleep 2
  honest "$label"
  wait "$pid" || true
  printf '%s, attacker, ' "$label"; cat "$WORK/attack.txt"
}

honest quiet
attack "attack 3 (GraphQL aliases)" --url "$BASE/graphql" --key "$EVIL_LIVE" --connections 4 --rate 1 --body "$WORK/aliases.json"
attack "attack 6 (test fan-out)" --url "$BASE/api/v1/documents" --key "$EVIL_TEST" --connections 8 --rate 20 --body bench/create-send.json
attack "attack 7 (silent receivers)" --url "$BASE/api/v1/documents" --key "$EVIL_LIVE" --connections 8 --rate 20 --body bench/create-send.json
honest "quiet again"
