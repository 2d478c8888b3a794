#!/usr/bin/env python3
"""A local SMTP server for the tests (aiosmtpd): real SMTP on 127.0.0.1, with STARTTLS when
given a certificate, AUTH when given a user, and scripted answers. Each accepted message is
written as NNNNNN.eml with a NNNNNN.json beside it (envelope, TLS, AUTH). Prints "ready" once
it listens."""

import argparse
import asyncio
import json
import os
import ssl
import logging
import sys

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword

# aiosmtpd logs a warning about its own API on every login; the tests read their own output.
logging.getLogger("mail.log").setLevel(logging.ERROR)


class Handler:
    def __init__(self, out, fail_first, reject, delay_ms):
        self.out = out
        self.fail_first = fail_first
        self.reject = {a.lower() for a in reject}
        self.delay = delay_ms / 1000.0
        self.seen = 0
        self.kept = 0

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address.lower() in self.reject:
            return "550 5.1.1 <%s>: Recipient address rejected: User unknown" % address
        envelope.rcpt_tos.append(address)
        return "250 2.1.5 Ok"

    async def handle_DATA(self, server, session, envelope):
        self.seen += 1
        if self.seen <= self.fail_first:
            return "451 4.3.0 Temporary local problem, try again later"
        if self.delay:
            await asyncio.sleep(self.delay)
        self.kept += 1
        base = os.path.join(self.out, "%06d" % self.kept)
        meta = {
            "mailFrom": envelope.mail_from,
            "rcptTos": envelope.rcpt_tos,
            "tls": session.ssl is not None,
            "authenticated": bool(session.authenticated),
        }
        with open(base + ".eml.tmp", "wb") as f:
            f.write(envelope.original_content or envelope.content)
        with open(base + ".json", "w") as f:
            json.dump(meta, f)
        os.rename(base + ".eml.tmp", base + ".eml")
        return "250 2.0.0 Ok: queued as %06d" % self.kept


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--dir", required=True)
    p.add_argument("--cert")
    p.add_argument("--key")
    p.add_argument("--user")
    p.add_argument("--password")
    p.add_argument("--fail-first", type=int, default=0)
    p.add_argument("--reject", action="append", default=[])
    p.add_argument("--delay-ms", type=int, default=0)
    a = p.parse_args()
    os.makedirs(a.dir, exist_ok=True)
    kwargs = {}
    if a.cert:
        ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        ctx.load_cert_chain(a.cert, a.key)
        kwargs["tls_context"] = ctx
        kwargs["require_starttls"] = True
    if a.user:
        def authenticator(server, session, envelope, mechanism, auth_data):
            ok = (
                isinstance(auth_data, LoginPassword)
                and auth_data.login.decode() == a.user
                and auth_data.password.decode() == a.password
            )
            return AuthResult(success=ok)

        kwargs["authenticator"] = authenticator
        kwargs["auth_required"] = True
        kwargs["auth_require_tls"] = bool(a.cert)
    handler = Handler(a.dir, a.fail_first, a.reject, a.delay_ms)
    controller = Controller(
        handler, hostname="127.0.0.1", port=a.port, ready_timeout=10, **kwargs
    )
    controller.start()
    print("ready", flush=True)
    try:
        sys.stdin.read()  # until the test closes our stdin, or ends
    finally:
        controller.stop()


if __name__ == "__main__":
    main()
