# What the benchmark scripts share; sourced after they set WORK (their scratch folder).
# Every process a script starts goes in PIDS: on exit they are stopped, newest first, and WORK
# removed.
PIDS=()
cleanup() { for ((i=${#PIDS[@]}-1; i>=0; i--)); do kill "${PIDS[$i]}" 2>/dev/null || true; done; sleep 1; rm -rf "$WORK"; }
trap cleanup EXIT
# A port nothing listens on now.
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
# Waits up to 30 s for something to listen on port $1.
wait_port() { for _ in $(seq 1 300); do (exec 3<>/dev/tcp/127.0.0.1/"$1") 2>/dev/null && return 0; sleep 0.1; done; echo "port $1 never opened" >&2; return 1; }
