#!/usr/bin/env python3
"""Keeps the Stripe stand-in honest: the official `stripe` library, pointed at it, makes and
reads the objects Signet uses and verifies the stand-in's webhook signatures with its own
helper. Run by tests/it/stripe_standin.rs; exits non-zero with the reason on any mismatch.

  python3 check_with_stripe.py
"""

import json
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import stripe

KEY = "sk_test_standin"
SECRET = "whsec_" + "c" * 32
received = []


class Receiver(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        received.append((body, self.headers.get("Stripe-Signature")))
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()


def wait_for(kind, after=0, timeout=10):
    end = time.time() + timeout
    while time.time() < end:
        for body, sig in received[after:]:
            if json.loads(body)["type"] == kind:
                return body, sig
        time.sleep(0.05)
    raise AssertionError(f"no {kind} event delivered; got {[json.loads(b)['type'] for b, _ in received]}")


def control(base, path, body=None):
    req = urllib.request.Request(base + path, data=json.dumps(body or {}).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req) as r:
        return json.loads(r.read())


def main():
    hook = ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    threading.Thread(target=hook.serve_forever, daemon=True).start()
    hook_url = f"http://127.0.0.1:{hook.server_address[1]}/stripe"
    proc = subprocess.Popen([sys.executable, str(Path(__file__).with_name("standin.py")), "--key", KEY,
                             "--webhook", f"{hook_url}={SECRET}"], stdout=subprocess.PIPE, text=True)
    try:
        base = proc.stdout.readline().split()[1]
        client = stripe.StripeClient(KEY, base_addresses={"api": base}, max_network_retries=0)

        # A connected account, onboarded through its hosted page (as a person would).
        acct = client.v1.accounts.create(params={"type": "standard", "email": "owner@example.com",
                                                 "metadata": {"workspace": "ws_1"}})
        assert acct.object == "account" and not acct.charges_enabled, acct
        link = client.v1.account_links.create(params={
            "account": acct.id, "refresh_url": "http://127.0.0.1/refresh",
            "return_url": "http://127.0.0.1/return", "type": "account_onboarding"})
        assert link.url.startswith(base + "/onboard/"), link
        form = urllib.parse.urlencode({"state": "complete"}).encode()
        opener = urllib.request.build_opener(NoRedirect)
        try:
            opener.open(urllib.request.Request(link.url, data=form, method="POST"))
            raise AssertionError("the onboarding page did not send the person back")
        except urllib.error.HTTPError as e:
            assert e.code == 303 and e.headers["Location"] == "http://127.0.0.1/return", (e.code, e.headers)
        acct = client.v1.accounts.retrieve(acct.id)
        assert acct.charges_enabled and acct.details_submitted and not acct.requirements.currently_due, acct
        body, sig = wait_for("account.updated")
        event = stripe.Webhook.construct_event(body, sig, SECRET)
        assert event.type == "account.updated" and event.account == acct.id, event
        assert event.data.object.charges_enabled is True

        # A tampered body fails the library's own check.
        try:
            stripe.Webhook.construct_event(body.replace(b"true", b"false", 1), sig, SECRET)
            raise AssertionError("a tampered event verified")
        except stripe.SignatureVerificationError:
            pass
        # So does one signed too long ago (the tolerance is the library's default, 300 s).
        t = int(time.time()) - 600
        import hashlib
        import hmac as h
        old = f"t={t},v1=" + h.new(SECRET.encode(), f"{t}.".encode() + body, hashlib.sha256).hexdigest()
        try:
            stripe.Webhook.construct_event(body, old, SECRET)
            raise AssertionError("an old event verified")
        except stripe.SignatureVerificationError:
            pass

        # A direct charge on the connected account through Checkout, with the platform's fee.
        opts = {"stripe_account": acct.id}
        price = client.v1.prices.create(params={"currency": "usd", "unit_amount": 2500}, options=opts)
        cs = client.v1.checkout.sessions.create(params={
            "mode": "payment",
            "line_items": [{"price_data": {"currency": "usd", "unit_amount": 4999,
                                           "product_data": {"name": "Deposit"}}, "quantity": 1},
                           {"price": price.id, "quantity": 2}],
            "payment_intent_data": {"application_fee_amount": 200, "metadata": {"document": "doc_1"}},
            "success_url": "http://127.0.0.1/paid?cs={CHECKOUT_SESSION_ID}",
            "cancel_url": "http://127.0.0.1/cancelled", "client_reference_id": "per_1",
            "metadata": {"document": "doc_1", "seat": "client"}}, options=opts)
        assert cs.object == "checkout.session" and cs.status == "open", cs
        assert cs.amount_total == 4999 + 2 * 2500 and cs.currency == "usd", cs
        assert cs.url.startswith(base + "/pay/"), cs.url
        # Without the account header, the session is not found (it lives on the account).
        try:
            client.v1.checkout.sessions.retrieve(cs.id)
            raise AssertionError("a connected account's session was read without Stripe-Account")
        except stripe.InvalidRequestError:
            pass

        # Declined, then paid on the hosted page.
        seen = len(received)
        control(base, f"/_test/checkout/{cs.id}/complete", {"card": "4000000000000002"})
        body, sig = wait_for("payment_intent.payment_failed", seen)
        failed = stripe.Webhook.construct_event(body, sig, SECRET)
        assert failed.data.object.last_payment_error.code == "card_declined", failed
        assert client.v1.checkout.sessions.retrieve(cs.id, options=opts).status == "open"
        try:
            opener.open(urllib.request.Request(cs.url, method="POST",
                                               data=urllib.parse.urlencode({"card": "4242 4242 4242 4242", "action": "pay"}).encode()))
            raise AssertionError("the pay page did not send the person back")
        except urllib.error.HTTPError as e:
            assert e.code == 303 and e.headers["Location"] == f"http://127.0.0.1/paid?cs={cs.id}", e.headers
        body, sig = wait_for("checkout.session.completed", seen)
        done = stripe.Webhook.construct_event(body, sig, SECRET)
        assert done.account == acct.id and done.data.object.payment_status == "paid", done
        assert done.data.object.metadata["document"] == "doc_1"
        cs = client.v1.checkout.sessions.retrieve(cs.id, options=opts)
        pi = client.v1.payment_intents.retrieve(cs.payment_intent, options=opts)
        assert pi.status == "succeeded" and pi.application_fee_amount == 200, pi
        charge = client.v1.charges.retrieve(pi.latest_charge, options=opts)
        assert charge.paid and charge.receipt_url and charge.receipt_number, charge

        # Refunds and disputes made in the dashboard arrive as events.
        seen = len(received)
        control(base, f"/_test/charges/{charge.id}/refund", {"amount": 1000})
        body, sig = wait_for("charge.refunded", seen)
        assert stripe.Webhook.construct_event(body, sig, SECRET).data.object.amount_refunded == 1000
        control(base, f"/_test/charges/{charge.id}/dispute")
        body, sig = wait_for("charge.dispute.created", seen)
        assert stripe.Webhook.construct_event(body, sig, SECRET).data.object.charge == charge.id

        # A session that runs out; a zero-decimal currency; a retried create with the same
        # Idempotency-Key answers the same session.
        jpy = client.v1.checkout.sessions.create(params={
            "mode": "payment", "success_url": "http://127.0.0.1/ok",
            "line_items": [{"price_data": {"currency": "jpy", "unit_amount": 5000,
                                           "product_data": {"name": "Fee"}}, "quantity": 1}],
            "payment_intent_data": {"application_fee_amount": 100}},
            options={**opts, "idempotency_key": "same-1"})
        again = client.v1.checkout.sessions.create(params={
            "mode": "payment", "success_url": "http://127.0.0.1/ok",
            "line_items": [{"price_data": {"currency": "jpy", "unit_amount": 5000,
                                           "product_data": {"name": "Fee"}}, "quantity": 1}],
            "payment_intent_data": {"application_fee_amount": 100}},
            options={**opts, "idempotency_key": "same-1"})
        assert again.id == jpy.id and jpy.amount_total == 5000, (jpy, again)
        seen = len(received)
        expired = client.v1.checkout.sessions.expire(jpy.id, options=opts)
        assert expired.status == "expired", expired
        wait_for("checkout.session.expired", seen)

        # A wrong key is Stripe's 401.
        try:
            stripe.StripeClient("sk_test_wrong", base_addresses={"api": base}).v1.accounts.retrieve(acct.id)
            raise AssertionError("a wrong key was taken")
        except stripe.AuthenticationError:
            pass
        print("the stripe library agrees with the stand-in")
    finally:
        proc.terminate()
        hook.shutdown()


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


if __name__ == "__main__":
    main()
