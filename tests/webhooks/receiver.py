"""A webhook receiver for the test suite, verifying with the `standardwebhooks` library.

Each request is verified against every secret given, separately, and one JSON line is
appended to the log: the path, the headers, the body, which secrets verified it, and what the
library said about three tampered copies (a changed body, a wrong secret, a timestamp older
than five minutes). The answer is 2xx when a secret verified it, 400 when none did, or what
--answer / --fail-first say.

    python3 receiver.py --port-file F --log L [--secret whsec_...]... [--fail-first N]
                        [--answer CODE] [--delay SECONDS]
"""

import argparse
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from standardwebhooks.webhooks import Webhook


def for_library(secret):
    # The spec: pass `whsec_` plus the secret with each - swapped for + and each _ for /.
    rest = secret[len("whsec_"):]
    return "whsec_" + rest.replace("-", "+").replace("_", "/")


def attempt(secret, body, headers):
    try:
        Webhook(for_library(secret)).verify(body, headers)
        return "ok"
    except Exception as e:  # the library's WebhookVerificationError, or a decoding error
        return "rejected: %s" % e


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--port-file", required=True)
    p.add_argument("--log", required=True)
    p.add_argument("--secret", action="append", default=[])
    p.add_argument("--secrets-file", help="one secret per line, read on every request")
    p.add_argument("--fail-first", type=int, default=0)
    p.add_argument("--answer", type=int, default=0)
    p.add_argument("--delay", type=float, default=0.0)
    args = p.parse_args()
    lock = threading.Lock()
    seen = {"n": 0}

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *a):
            pass

        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("content-length", 0))).decode()
            headers = {k.lower(): v for k, v in self.headers.items()}
            secrets = list(args.secret)
            if args.secrets_file:
                with open(args.secrets_file) as f:
                    secrets += [l.strip() for l in f if l.strip()]
            verified = [attempt(s, body, headers) == "ok" for s in secrets]
            tampered = {}
            if secrets:
                s = secrets[0]
                tampered["body"] = attempt(s, body + " ", headers)
                tampered["secret"] = attempt("whsec_" + "A" * 32, body, headers)
                old = dict(headers, **{"webhook-timestamp": str(int(time.time()) - 301)})
                tampered["timestamp"] = attempt(s, body, old)
            with lock:
                seen["n"] += 1
                n = seen["n"]
            if args.delay:
                time.sleep(args.delay)
            if n <= args.fail_first:
                code = 503
            elif args.answer:
                code = args.answer
            else:
                code = 200 if any(verified) else 400
            record = {"path": self.path, "headers": headers, "body": body, "verified": verified,
                      "tampered": tampered, "answered": code}
            with lock, open(args.log, "a") as f:
                f.write(json.dumps(record) + "\n")
            self.send_response(code)
            self.send_header("content-length", "0")
            self.end_headers()

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    with open(args.port_file + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    import os
    os.replace(args.port_file + ".tmp", args.port_file)
    server.serve_forever()


if __name__ == "__main__":
    main()
