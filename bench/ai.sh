#!/usr/bin/env bash
# AI drafting against the local small model (SmolLM2-135M-Instruct behind llama.cpp's
# OpenAI-compatible server, tests/it/llm/serve.py, the same parts as the end-to-end test):
# N draft jobs posted at once to `signet serve` on the embedded default, one running at a
# time; for each, the time it waited in the queue, the model's own time (Signet's clock around
# each call), and Signet's own time around the model (reading the answer, converting, the
# checks, writing); then jobs a minute.
#
# usage: bash bench/ai.sh [N]      (N jobs, default 8)
# BENCH_BIN=path uses that binary instead of building the release one.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-8}
WORK=$(mktemp -d)
. bench/lib.sh

if [ -z "${BENCH_BIN:-}" ]; then
  cargo build --release -q -p signet
  SIGNET="${CARGO_TARGET_DIR:-target}/release/signet"
else
  SIGNET=$BENCH_BIN
fi
MODEL=${SIGNET_LLM_MODEL:-$HOME/.cache/signet-llm/SmolLM2-135M-Instruct.Q4_1.gguf}
[ -s "$MODEL" ] || { echo "no model at $MODEL: run scripts/test --no-run first" >&2; exit 1; }

python3 tests/it/llm/serve.py "$MODEL" > "$WORK/model.out" 2> "$WORK/model.err" &
PIDS+=($!)
for _ in $(seq 1 300); do grep -q '^ready ' "$WORK/model.out" 2>/dev/null && break; sleep 0.1; done
MODEL_URL=$(sed -n 's/^ready //p' "$WORK/model.out")
[ -n "$MODEL_URL" ] || { echo "the model's server did not start" >&2; cat "$WORK/model.err" >&2; exit 1; }

export SIGNET_DATA_DIR="$WORK/data" SIGNET_LOG=warn \
  SIGNET_AI_PROVIDER=openai SIGNET_AI_BASE_URL="$MODEL_URL/v1" SIGNET_AI_MODEL=smollm2 \
  SIGNET_AI_MAX_TOKENS=700 SIGNET_AI_FREQUENCY_PENALTY=1.0 SIGNET_AI_JOBS_AT_ONCE=1
"$SIGNET" migrate > /dev/null
json() { python3 -c "import json,sys; print(json.load(sys.stdin)$1)"; }
ws=$("$SIGNET" admin workspace create --name Bench --plan pro --json | json '["id"]')
"$SIGNET" admin workspace update "$ws" --ai on --ai-daily-limit 1000 > /dev/null
key=$("$SIGNET" admin key create --workspace "$ws" --mode test --all-scopes --per-minute 100000 --json | json '["key"]')
port=$(free_port)
SIGNET_LISTEN=127.0.0.1:$port "$SIGNET" serve > "$WORK/serve.log" 2>&1 &
PIDS+=($!)
wait_port "$port"

python3 - "$port" "$key" "$N" <<'PY'
import json, statistics, sys, time, urllib.request
port, key, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
base = f"http://127.0.0.1:{port}/api/v1"
def call(method, path, body=None):
    req = urllib.request.Request(base + path, method=method,
        data=json.dumps(body).encode() if body is not None else None,
        headers={"Authorization": f"Bearer {key}", "Content-Type": "application/json"})
    with urllib.request.urlopen(req) as r:
        return json.load(r)
brief = {"type": "services", "answers": {"parties": ["client", "provider"],
         "terms": "A logo, delivered in two weeks"}}
t0 = time.time()
ids = [call("POST", "/documents/ai/draft", {
    "prompt": f"A short services agreement number {i}: the provider designs a logo for the client.",
    "brief": brief})["id"] for i in range(n)]
jobs = {}
while len(jobs) < n:
    time.sleep(0.5)
    for i in ids:
        if i in jobs:
            continue
        j = call("GET", f"/documents/ai/jobs/{i}")
        if j["state"] not in ("queued", "running"):
            jobs[i] = j
wall = time.time() - t0
ms = lambda s: time.mktime(time.strptime(s[:19], "%Y-%m-%dT%H:%M:%S")) * 1000 + int(s[20:23])
rows = []
for i in ids:
    j = jobs[i]
    c, s, f = ms(j["createdAt"]), ms(j["startedAt"]), ms(j["finishedAt"])
    u = j["usage"]
    rows.append((j["state"], int(s - c), u["modelMs"], int(f - s) - u["modelMs"], u["calls"], u["written"]))
print(f"{'state':<8} {'queued ms':>10} {'model ms':>9} {'Signet ms':>10} {'calls':>5} {'written':>7}")
for r in rows:
    print(f"{r[0]:<8} {r[1]:>10} {r[2]:>9} {r[3]:>10} {r[4]:>5} {r[5]:>7}")
for i in ids:
    if jobs[i]["state"] != "done":
        print(f"{i}: {jobs[i]['reason']}: {'; '.join(jobs[i]['problems'][:4])}")
done = [r for r in rows if r[0] == "done"]
print(f"{len(done)} of {n} done in {wall:.1f} s: {60 * n / wall:.1f} jobs a minute")
own = [r[3] for r in rows]
print(f"Signet's own time around the model per job: median {statistics.median(own):.0f} ms, "
      f"max {max(own)} ms; the first job's queue wait {rows[0][1]} ms")
calls = sum(r[4] for r in rows)
print(f"model time per call: median {statistics.median([r[2] / max(r[4], 1) for r in rows]):.0f} ms; "
      f"{calls} calls for {n} jobs ({calls - n} repair rounds)")
PY
