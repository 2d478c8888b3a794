"""A small language model behind llama.cpp's OpenAI-compatible HTTP server, for the AI drafting
end-to-end test (tests/it/ai_model.rs). xllamacpp runs llama.cpp's server inside this process.

usage: serve.py MODEL.gguf   prints "ready http://127.0.0.1:PORT" once /health answers 200,
then serves until SIGTERM. One thread: the tests run beside it on two cores.
"""
import os
import signal
import sys
import time
import urllib.request

# Before libgomp loads: idle OpenMP workers sleep rather than spin.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
import xllamacpp as xlc  # noqa: E402

params = xlc.CommonParams()
params.model.path = sys.argv[1]
params.hostnames = ["127.0.0.1"]
params.port = 0
params.n_ctx = 8192
params.n_parallel = 1
params.model_alias = {"smollm2"}
params.cpuparams.n_threads = 1
params.cpuparams_batch.n_threads = 1
params.verbosity = 1

server = xlc.Server(params)
url = server.listening_address
for _ in range(600):
    try:
        with urllib.request.urlopen(url + "/health", timeout=2) as r:
            if r.status == 200:
                break
    except OSError:
        pass
    time.sleep(0.1)
else:
    sys.exit(f"the model's server at {url} never answered /health")
print("ready", url, flush=True)


def stop(*_):
    # A clean shutdown waits for ever on a request in flight: leave at once.
    os._exit(0)


signal.signal(signal.SIGTERM, stop)
signal.signal(signal.SIGINT, stop)
while True:
    signal.pause()
