#!/usr/bin/env python3
"""A stateful stand-in for the parts of Stripe's API that Signet uses, for tests on machines
that cannot reach Stripe (no emulator covers Connect onboarding and Checkout on connected
accounts: localstripe has no accounts or account links and ignores Stripe-Account;
stripe-mock is stateless).

It speaks Stripe's wire format, so the official `stripe` library works against it unchanged
(tests/it/stripe_standin.rs runs testkit/stripe/check_with_stripe.py to prove it):
form-encoded bodies with bracketed keys, `Authorization: Bearer sk_...`, the `Stripe-Account`
header where Stripe requires it, `Idempotency-Key`, Stripe's error shape, and webhook events
signed with Stripe's `Stripe-Signature` scheme (`t=...,v1=HMAC-SHA256(secret, "t.body")`).

What it holds, in memory, per secret key (live and test are separate worlds, as at Stripe):
accounts (Connect), account links, prices, Checkout sessions, payment intents, charges,
refunds, disputes, events and webhook endpoints. Hosted pages stand in for Stripe's: an
onboarding page (`/onboard/<token>`) and a Checkout page (`/pay/<session>`) where a test card
pays (4242 4242 4242 4242), is declined (4000 0000 0000 0002) or the person cancels.

Test-only controls, under `/_test/` (no key needed; the stand-in listens on 127.0.0.1):
  POST /_test/accounts/<id>/onboard        {"state": "complete" | "needs_info" | "disabled"}
  POST /_test/checkout/<cs>/complete       {"card": "4242424242424242"}   pay or decline
  POST /_test/checkout/<cs>/abandon        the person leaves (nothing happens at Stripe)
  POST /_test/checkout/<cs>/expire         the session runs out (checkout.session.expired)
  POST /_test/charges/<ch>/refund          {"amount": 500}  a refund made in the dashboard
  POST /_test/charges/<ch>/dispute         a dispute opened by the card holder
  POST /_test/events/<evt>/resend          deliver an event again (a replay)
  GET  /_test/events                       every event, newest first
  GET  /_test/requests                     every API request received (method, path, account)

Run: python3 standin.py --port 12111 --key sk_test_standin [--key sk_live_standin]
     [--webhook http://127.0.0.1:8080/hooks/stripe=whsec_...] [--any-key] [--until-stdin-closes]
It prints `ready http://127.0.0.1:<port>` once it listens. With `--any-key` every sk_test_/sk_live_
key is its own world, made on first use (one stand-in serves many tests, each with its keys);
`POST /_test/webhooks {"key", "url", "secret", "connect"}` registers a world's endpoint. With
`--until-stdin-closes` it ends when its standard input closes (its test process ended).
"""

import argparse
import hashlib
import hmac
import json
import secrets
import threading
import time
import urllib.parse
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

API_VERSION = "2025-09-30.clover"
ZERO_DECIMAL = {"bif", "clp", "djf", "gnf", "jpy", "kmf", "krw", "mga", "pyg", "rwf", "ugx",
                "vnd", "vuv", "xaf", "xof", "xpf"}
CARD_OK = "4242424242424242"
CARD_DECLINED = "4000000000000002"


def new_id(prefix):
    return f"{prefix}_{secrets.token_hex(12)}"


def decode_form(body):
    """Stripe's form encoding: `a[b][0][c]=v` into nested dicts and lists."""
    out = {}
    for key, value in urllib.parse.parse_qsl(body, keep_blank_values=True):
        parts = [key.split("[", 1)[0]] + [p.rstrip("]") for p in key.split("[")[1:]]
        node = out
        for i, part in enumerate(parts):
            last = i == len(parts) - 1
            nxt = None if last else parts[i + 1]
            container_is_list = isinstance(node, list)
            if container_is_list:
                idx = int(part) if part.isdigit() else len(node)
                while len(node) <= idx:
                    node.append(None)
                if last:
                    node[idx] = value
                else:
                    if node[idx] is None:
                        node[idx] = [] if (nxt.isdigit() or nxt == "") else {}
                    node = node[idx]
            else:
                if last:
                    node[part] = value
                else:
                    if part not in node:
                        node[part] = [] if (nxt.isdigit() or nxt == "") else {}
                    node = node[part]
    return out


class StripeError(Exception):
    def __init__(self, status, message, kind="invalid_request_error", code=None, param=None):
        super().__init__(message)
        self.status, self.message, self.kind, self.code, self.param = status, message, kind, code, param

    def body(self):
        e = {"type": self.kind, "message": self.message}
        if self.code:
            e["code"] = self.code
        if self.param:
            e["param"] = self.param
        return {"error": e}


class World:
    """Everything one secret key sees."""

    def __init__(self, live):
        self.live = live
        self.accounts, self.links, self.prices, self.payment_links = {}, {}, {}, {}
        self.sessions, self.intents, self.charges = {}, {}, {}
        self.refunds, self.disputes, self.events = {}, {}, []
        self.endpoints = []  # [{"url", "secret", "connect"}]
        self.idempotent = {}


class Standin:
    def __init__(self, keys, public_url, any_key=False):
        self.lock = threading.RLock()
        self.any_key = any_key
        self.worlds = {k: World(k.startswith("sk_live_")) for k in keys}
        self.public_url = public_url
        self.requests = []
        self.onboarding = {}  # token -> (key, account id, link)
        self.pay_pages = {}   # session id -> key

    # ---- objects ------------------------------------------------------------------------

    def account(self, w, params):
        acct = {
            "id": new_id("acct"), "object": "account", "type": params.get("type", "standard"),
            "country": params.get("country", "US"), "email": params.get("email"),
            "business_type": None, "charges_enabled": False, "payouts_enabled": False,
            "details_submitted": False, "default_currency": "usd", "created": int(time.time()),
            "metadata": params.get("metadata", {}) or {},
            "requirements": {"currently_due": ["business_profile.url", "external_account",
                                               "tos_acceptance.date"],
                             "eventually_due": [], "past_due": [], "disabled_reason":
                                 "requirements.past_due", "current_deadline": None,
                             "errors": [], "pending_verification": []},
            "controller": params.get("controller", {}), "livemode": w.live,
        }
        w.accounts[acct["id"]] = acct
        return acct

    def event(self, w, kind, obj, account=None, previous=None):
        evt = {
            "id": new_id("evt"), "object": "event", "api_version": API_VERSION,
            "created": int(time.time()), "type": kind, "livemode": w.live,
            "pending_webhooks": len(w.endpoints), "request": {"id": None, "idempotency_key": None},
            "data": {"object": json.loads(json.dumps(obj))},
        }
        if previous is not None:
            evt["data"]["previous_attributes"] = previous
        if account:
            evt["account"] = account
        w.events.append(evt)
        self.deliver(w, evt)
        return evt

    def deliver(self, w, evt, tamper=False):
        body = json.dumps(evt, separators=(",", ":")).encode()
        for ep in list(w.endpoints):
            if bool(evt.get("account")) != ep.get("connect", False) and ep.get("connect") is not None:
                continue
            t = int(time.time())
            sig = hmac.new(ep["secret"].encode(), f"{t}.".encode() + body, hashlib.sha256).hexdigest()
            sent = body.replace(b'"amount"', b'"amount_x"') if tamper else body
            req = urllib.request.Request(ep["url"], data=sent, method="POST", headers={
                "Content-Type": "application/json; charset=utf-8",
                "Stripe-Signature": f"t={t},v1={sig}", "User-Agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)"})
            threading.Thread(target=self._post, args=(req,), daemon=True).start()

    @staticmethod
    def _post(req):
        for wait in (0, 0.5, 2):
            time.sleep(wait)
            try:
                with urllib.request.urlopen(req, timeout=10) as r:
                    if r.status < 300:
                        return
            except Exception:
                continue

    def onboard(self, w, acct, state):
        before = {k: acct[k] for k in ("charges_enabled", "payouts_enabled", "details_submitted")}
        req = acct["requirements"]
        if state == "complete":
            acct.update(charges_enabled=True, payouts_enabled=True, details_submitted=True)
            req.update(currently_due=[], past_due=[], disabled_reason=None)
        elif state == "needs_info":
            acct.update(charges_enabled=True, payouts_enabled=False, details_submitted=True)
            req.update(currently_due=["individual.verification.document"], past_due=[],
                       disabled_reason=None, current_deadline=int(time.time()) + 7 * 86400)
        elif state == "disabled":
            acct.update(charges_enabled=False, payouts_enabled=False, details_submitted=True)
            req.update(currently_due=["individual.verification.document"],
                       past_due=["individual.verification.document"],
                       disabled_reason="requirements.past_due")
        else:
            raise StripeError(400, f"unknown onboarding state {state}")
        self.event(w, "account.updated", acct, account=acct["id"], previous=before)
        return acct

    def session(self, w, account, params):
        if account not in w.accounts:
            raise StripeError(403, f"The provided key does not have access to account '{account}' "
                                   "(or that account does not exist).", "invalid_request_error",
                              "account_invalid")
        acct = w.accounts[account]
        if not acct["charges_enabled"]:
            raise StripeError(400, "Your account cannot currently make charges.", "invalid_request_error",
                              "account_invalid")
        if params.get("mode") != "payment":
            raise StripeError(400, "Missing required param: mode.", param="mode")
        items = params.get("line_items") or []
        if not items:
            raise StripeError(400, "Missing required param: line_items.", param="line_items")
        total, currency = 0, None
        for i, item in enumerate(items):
            qty = int(item.get("quantity", "1"))
            if "price" in item:
                price = w.prices.get((account, item["price"]))
                if not price:
                    raise StripeError(400, f"No such price: '{item['price']}'", param=f"line_items[{i}][price]",
                                      code="resource_missing")
                amount, cur = price["unit_amount"], price["currency"]
            else:
                pd = item.get("price_data") or {}
                try:
                    amount = int(pd["unit_amount"])
                    cur = pd["currency"].lower()
                except (KeyError, ValueError):
                    raise StripeError(400, "line_items need price or price_data with currency and unit_amount",
                                      param=f"line_items[{i}]")
            if currency and cur != currency:
                raise StripeError(400, "All line items must have the same currency.")
            currency = cur
            total += amount * qty
        fee = int((params.get("payment_intent_data") or {}).get("application_fee_amount", "0") or 0)
        if fee > total:
            raise StripeError(400, "application_fee_amount must be less than the total amount.")
        for url in ("success_url", "cancel_url"):
            if url != "cancel_url" and not params.get(url):
                raise StripeError(400, f"Missing required param: {url}.", param=url)
        cs = {
            "id": new_id("cs_live" if w.live else "cs_test"), "object": "checkout.session",
            "mode": "payment", "status": "open", "payment_status": "unpaid",
            "amount_total": total, "amount_subtotal": total, "currency": currency,
            "client_reference_id": params.get("client_reference_id"),
            "customer_email": params.get("customer_email"), "metadata": params.get("metadata", {}) or {},
            "payment_intent": None, "success_url": params.get("success_url"),
            "cancel_url": params.get("cancel_url"), "created": int(time.time()),
            "expires_at": int(params.get("expires_at") or time.time() + 86400), "livemode": w.live,
            "url": None, "_fee": fee, "_account": account,
            "payment_intent_data": {"metadata": ((params.get("payment_intent_data") or {}).get("metadata") or {})},
        }
        cs["url"] = f"{self.public_url}/pay/{cs['id']}"
        w.sessions[cs["id"]] = cs
        return cs

    def pay(self, w, cs, card):
        if cs["status"] != "open":
            raise StripeError(400, f"This Checkout Session is {cs['status']}.")
        account = cs["_account"]
        pi = w.intents.get(cs["payment_intent"]) if cs["payment_intent"] else None
        if pi is None:
            pi = {"id": new_id("pi"), "object": "payment_intent", "amount": cs["amount_total"],
                  "currency": cs["currency"], "status": "requires_payment_method",
                  "application_fee_amount": cs["_fee"], "latest_charge": None,
                  "metadata": cs["payment_intent_data"]["metadata"], "livemode": w.live,
                  "created": int(time.time()), "last_payment_error": None}
            w.intents[pi["id"]] = pi
            cs["payment_intent"] = pi["id"]
        card = (card or "").replace(" ", "")
        if card == CARD_DECLINED:
            pi["status"] = "requires_payment_method"
            pi["last_payment_error"] = {"type": "card_error", "code": "card_declined",
                                        "decline_code": "generic_decline",
                                        "message": "Your card was declined."}
            self.event(w, "payment_intent.payment_failed", pi, account=account)
            return False
        if card != CARD_OK:
            raise StripeError(402, "Your card number is incorrect.", "card_error", "incorrect_number")
        ch = {"id": new_id("ch"), "object": "charge", "amount": cs["amount_total"],
              "amount_refunded": 0, "currency": cs["currency"], "paid": True, "status": "succeeded",
              "refunded": False, "disputed": False, "payment_intent": pi["id"],
              "application_fee_amount": cs["_fee"], "livemode": w.live, "created": int(time.time()),
              "receipt_url": f"{self.public_url}/receipts/{secrets.token_hex(8)}",
              "receipt_number": f"{secrets.randbelow(9000) + 1000}-{secrets.randbelow(9000) + 1000}",
              "metadata": pi["metadata"]}
        w.charges[ch["id"]] = ch
        pi.update(status="succeeded", latest_charge=ch["id"], last_payment_error=None)
        cs.update(status="complete", payment_status="paid")
        self.event(w, "charge.succeeded", ch, account=account)
        self.event(w, "payment_intent.succeeded", pi, account=account)
        self.event(w, "checkout.session.completed", public(cs), account=account)
        return True

    def expire(self, w, cs):
        if cs["status"] != "open":
            raise StripeError(400, f"Only Checkout Sessions with a status in ['open'] can be expired. "
                                   f"This Checkout Session has a status of '{cs['status']}'.")
        cs["status"] = "expired"
        self.event(w, "checkout.session.expired", public(cs), account=cs["_account"])
        return cs

    def refund(self, w, account, ch, amount):
        amount = ch["amount"] - ch["amount_refunded"] if amount is None else int(amount)
        if amount <= 0 or amount > ch["amount"] - ch["amount_refunded"]:
            raise StripeError(400, "Refund amount is greater than unrefunded amount on charge.")
        rf = {"id": new_id("re"), "object": "refund", "amount": amount, "charge": ch["id"],
              "currency": ch["currency"], "payment_intent": ch["payment_intent"],
              "status": "succeeded", "created": int(time.time())}
        w.refunds[rf["id"]] = rf
        ch["amount_refunded"] += amount
        ch["refunded"] = ch["amount_refunded"] == ch["amount"]
        self.event(w, "charge.refunded", ch, account=account)
        return rf

    def dispute(self, w, account, ch):
        dp = {"id": new_id("dp"), "object": "dispute", "amount": ch["amount"], "charge": ch["id"],
              "currency": ch["currency"], "payment_intent": ch["payment_intent"],
              "reason": "fraudulent", "status": "needs_response", "created": int(time.time())}
        w.disputes[dp["id"]] = dp
        ch["disputed"] = True
        self.event(w, "charge.dispute.created", dp, account=account)
        return dp


def public(obj):
    """An object as Stripe shows it: the stand-in's own bookkeeping (`_...`) left out."""
    return {k: v for k, v in obj.items() if not k.startswith("_")}


def find_session(s, sid):
    for key, w in s.worlds.items():
        if sid in w.sessions:
            return w, w.sessions[sid]
    raise StripeError(404, f"No such checkout.session: '{sid}'", code="resource_missing")


def find_charge(s, chid):
    for w in s.worlds.values():
        if chid in w.charges:
            ch = w.charges[chid]
            pi = w.intents[ch["payment_intent"]]
            cs = next(c for c in w.sessions.values() if c["payment_intent"] == pi["id"])
            return w, cs["_account"], ch
    raise StripeError(404, f"No such charge: '{chid}'", code="resource_missing")


PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="font-family: system-ui, sans-serif; max-width: 32rem; margin: 2rem auto; padding: 0 1rem">
<p style="color:#635bff;font-weight:700">Stripe stand-in (test)</p>{body}</body></html>"""


def make_handler(s):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def reply(self, status, obj, headers=None):
            body = json.dumps(obj).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Request-Id", new_id("req"))
            self.send_header("Stripe-Version", API_VERSION)
            for k, v in (headers or {}).items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(body)

        def html(self, status, title, body, location=None):
            data = PAGE.format(title=title, body=body).encode()
            self.send_response(status)
            if location:
                self.send_header("Location", location)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def body(self):
            n = int(self.headers.get("Content-Length") or 0)
            if n > 1_000_000:
                raise StripeError(413, "Request too large")
            return self.rfile.read(n).decode() if n else ""

        def do_GET(self):
            self.handle_any("GET")

        def do_POST(self):
            self.handle_any("POST")

        def do_DELETE(self):
            self.handle_any("DELETE")

        def handle_any(self, method):
            path = urllib.parse.urlparse(self.path).path
            raw = self.body() if method == "POST" else ""
            try:
                with s.lock:
                    if path.startswith("/v1/"):
                        return self.api(method, path, raw)
                    if path.startswith("/_test/"):
                        return self.test(method, path, json.loads(raw or "{}") if raw.strip().startswith("{") else decode_form(raw))
                    if path.startswith("/onboard/"):
                        return self.onboard_page(method, path, decode_form(raw))
                    if path.startswith("/pay/"):
                        return self.pay_page(method, path, decode_form(raw))
                raise StripeError(404, f"Unrecognized request URL ({method}: {path}).")
            except StripeError as e:
                self.reply(e.status, e.body())

        # ---- the API ------------------------------------------------------------------------

        def api(self, method, path, raw):
            auth = self.headers.get("Authorization", "")
            key = auth[7:] if auth.startswith("Bearer ") else None
            if key and s.any_key and key not in s.worlds and (
                    key.startswith("sk_test_") or key.startswith("sk_live_")):
                s.worlds[key] = World(key.startswith("sk_live_"))
            if key not in s.worlds:
                raise StripeError(401, f"Invalid API Key provided: {(key or '')[:8]}***", "invalid_request_error")
            w = s.worlds[key]
            account = self.headers.get("Stripe-Account")
            s.requests.append({"method": method, "path": path, "account": account, "live": w.live})
            idem = self.headers.get("Idempotency-Key")
            if method == "POST" and idem:
                seen = w.idempotent.get(idem)
                if seen:
                    if seen[0] != (path, raw, account):
                        raise StripeError(400, "Keys for idempotent requests can only be used with the same "
                                               "parameters they were first used with.", "idempotency_error")
                    return self.reply(seen[1], seen[2], {"Idempotent-Replayed": "true"})
            params = decode_form(raw)
            status, obj = self.route(w, method, path, params, account)
            if method == "POST" and idem:
                w.idempotent[idem] = ((path, raw, account), status, obj)
            self.reply(status, obj)

        def route(self, w, method, path, params, account):
            parts = path.strip("/").split("/")[1:]  # after v1
            need_account = lambda: account or (_ for _ in ()).throw(
                StripeError(400, "This request needs the Stripe-Account header of the connected account."))
            if parts == ["accounts"] and method == "POST":
                if account:
                    raise StripeError(400, "Accounts are made by the platform, without Stripe-Account.")
                return 200, s.account(w, params)
            if len(parts) == 2 and parts[0] == "accounts":
                acct = w.accounts.get(parts[1])
                if not acct:
                    raise StripeError(404, f"No such account: '{parts[1]}'", code="resource_missing")
                if method == "GET":
                    return 200, acct
                if method == "DELETE":
                    del w.accounts[parts[1]]
                    s.event(w, "account.application.deauthorized",
                            {"id": new_id("ca"), "object": "application", "name": "Signet"}, account=parts[1])
                    return 200, {"id": parts[1], "object": "account", "deleted": True}
            if parts == ["account_links"] and method == "POST":
                acct = w.accounts.get(params.get("account", ""))
                if not acct:
                    raise StripeError(400, f"No such account: '{params.get('account')}'", param="account")
                for p in ("refresh_url", "return_url", "type"):
                    if not params.get(p):
                        raise StripeError(400, f"Missing required param: {p}.", param=p)
                token = secrets.token_urlsafe(16)
                link = {"object": "account_link", "created": int(time.time()),
                        "expires_at": int(time.time()) + 300,
                        "url": f"{s.public_url}/onboard/{token}"}
                s.onboarding[token] = (w, acct["id"], dict(params, expires_at=link["expires_at"]))
                return 200, link
            if parts == ["prices"] and method == "POST":
                acct_id = need_account()
                price = {"id": new_id("price"), "object": "price", "active": True,
                         "currency": params["currency"].lower(), "unit_amount": int(params["unit_amount"]),
                         "product": params.get("product") or new_id("prod"), "type": "one_time",
                         "livemode": w.live}
                w.prices[(acct_id, price["id"])] = price
                return 200, price
            if len(parts) == 2 and parts[0] == "prices" and method == "GET":
                price = w.prices.get((need_account(), parts[1]))
                if not price:
                    raise StripeError(404, f"No such price: '{parts[1]}'", code="resource_missing")
                return 200, price
            if parts == ["payment_links"] and method == "POST":
                acct_id = need_account()
                items = []
                for i, item in enumerate(params.get("line_items") or []):
                    price = w.prices.get((acct_id, item.get("price", "")))
                    if not price:
                        raise StripeError(400, f"No such price: '{item.get('price')}'",
                                          param=f"line_items[{i}][price]", code="resource_missing")
                    items.append({"id": new_id("li"), "object": "item", "price": price,
                                  "quantity": int(item.get("quantity", "1")),
                                  "amount_total": price["unit_amount"] * int(item.get("quantity", "1")),
                                  "currency": price["currency"]})
                if not items:
                    raise StripeError(400, "Missing required param: line_items.", param="line_items")
                link = {"id": new_id("plink"), "object": "payment_link", "active": True,
                        "url": f"https://buy.stripe.com/test_{secrets.token_hex(8)}", "livemode": w.live,
                        "_items": items}
                w.payment_links[(acct_id, link["id"])] = link
                return 200, public(link)
            if parts == ["payment_links"] and method == "GET":
                acct_id = need_account()
                data = [public(l) for (a, _), l in w.payment_links.items() if a == acct_id and l["active"]]
                return 200, {"object": "list", "data": data[:100], "has_more": False, "url": "/v1/payment_links"}
            if len(parts) == 3 and parts[0] == "payment_links" and parts[2] == "line_items" and method == "GET":
                link = w.payment_links.get((need_account(), parts[1]))
                if not link:
                    raise StripeError(404, f"No such payment_link: '{parts[1]}'", code="resource_missing")
                return 200, {"object": "list", "data": link["_items"], "has_more": False,
                             "url": f"/v1/payment_links/{parts[1]}/line_items"}
            if parts == ["checkout", "sessions"] and method == "POST":
                return 200, public(s.session(w, need_account(), params))
            if len(parts) >= 3 and parts[:2] == ["checkout", "sessions"]:
                cs = w.sessions.get(parts[2])
                if not cs or cs["_account"] != need_account():
                    raise StripeError(404, f"No such checkout.session: '{parts[2]}'", code="resource_missing")
                if len(parts) == 3 and method == "GET":
                    return 200, public(cs)
                if parts[3:] == ["expire"] and method == "POST":
                    return 200, public(s.expire(w, cs))
            for kind, table in (("payment_intents", w.intents), ("charges", w.charges), ("refunds", w.refunds)):
                if len(parts) == 2 and parts[0] == kind and method == "GET":
                    acct_id = need_account()
                    obj = table.get(parts[1])
                    if obj is None or not owned_by(w, acct_id, obj):
                        raise StripeError(404, f"No such {kind[:-1]}: '{parts[1]}'", code="resource_missing")
                    return 200, obj
            if parts == ["webhook_endpoints"] and method == "POST":
                ep = {"id": new_id("we"), "object": "webhook_endpoint", "url": params["url"],
                      "enabled_events": params.get("enabled_events", ["*"]),
                      "connect": params.get("connect") == "true",
                      "secret": "whsec_" + secrets.token_hex(24), "status": "enabled"}
                w.endpoints.append({"url": ep["url"], "secret": ep["secret"], "connect": ep["connect"]})
                return 200, ep
            if parts == ["events"] and method == "GET":
                return 200, {"object": "list", "data": list(reversed(w.events))[:100], "has_more": False,
                             "url": "/v1/events"}
            if len(parts) == 2 and parts[0] == "events" and method == "GET":
                for e in w.events:
                    if e["id"] == parts[1]:
                        return 200, e
                raise StripeError(404, f"No such event: '{parts[1]}'", code="resource_missing")
            raise StripeError(404, f"Unrecognized request URL ({method}: {path}).")

        # ---- hosted pages ---------------------------------------------------------------------

        def onboard_page(self, method, path, form):
            token = path.split("/")[2]
            found = s.onboarding.get(token)
            if not found or found[2]["expires_at"] < time.time():
                return self.html(410, "Link expired", "<h1>This link has expired</h1>")
            w, acct_id, link = found
            if method == "POST":
                del s.onboarding[token]
                s.onboard(w, w.accounts[acct_id], form.get("state", "complete"))
                return self.html(303, "Done", "", location=link["return_url"])
            return self.html(200, "Set up payments", f"""<h1>Set up payments for Signet</h1>
<form method="post"><input type="hidden" name="state" value="complete">
<button type="submit">Submit details</button></form>
<form method="post"><input type="hidden" name="state" value="needs_info">
<button type="submit">Submit without an ID document</button></form>""")

        def pay_page(self, method, path, form):
            sid = path.split("/")[2]
            w, cs = find_session(s, sid)
            if method == "POST":
                if form.get("action") == "cancel":
                    return self.html(303, "Cancelled", "", location=cs["cancel_url"] or "/")
                paid = s.pay(w, cs, form.get("card", ""))
                if paid:
                    return self.html(303, "Paid", "", location=cs["success_url"].replace(
                        "{CHECKOUT_SESSION_ID}", cs["id"]))
                return self.html(402, "Declined", self.pay_form(cs, "Your card was declined."))
            if cs["status"] != "open":
                return self.html(410, "Closed", f"<h1>This payment page is {cs['status']}</h1>")
            return self.html(200, "Pay", self.pay_form(cs, None))

        @staticmethod
        def pay_form(cs, problem):
            amount = cs["amount_total"]
            shown = amount if cs["currency"] in ZERO_DECIMAL else f"{amount / 100:.2f}"
            note = f'<p role="alert" style="color:#b00020">{problem}</p>' if problem else ""
            return f"""<h1>Pay {shown} {cs['currency'].upper()}</h1>{note}
<form method="post"><label>Card number <input name="card" autocomplete="cc-number" inputmode="numeric"></label>
<button type="submit" name="action" value="pay">Pay</button>
<button type="submit" name="action" value="cancel">Cancel</button></form>"""

        # ---- test controls --------------------------------------------------------------------

        def test(self, method, path, body):
            parts = path.strip("/").split("/")[1:]
            if parts == ["events"] and method == "GET":
                return self.reply(200, [e for w in s.worlds.values() for e in reversed(w.events)])
            if parts == ["requests"] and method == "GET":
                return self.reply(200, s.requests)
            if len(parts) == 3 and parts[0] == "accounts" and parts[2] == "onboard":
                for w in s.worlds.values():
                    if parts[1] in w.accounts:
                        return self.reply(200, s.onboard(w, w.accounts[parts[1]], body.get("state", "complete")))
                raise StripeError(404, f"No such account: '{parts[1]}'")
            if len(parts) == 3 and parts[0] == "checkout":
                w, cs = find_session(s, parts[1])
                if parts[2] == "complete":
                    paid = s.pay(w, cs, body.get("card", CARD_OK))
                    return self.reply(200, {"paid": paid, "session": public(cs)})
                if parts[2] == "abandon":
                    return self.reply(200, public(cs))
                if parts[2] == "expire":
                    return self.reply(200, public(s.expire(w, cs)))
            if len(parts) == 3 and parts[0] == "charges":
                w, account, ch = find_charge(s, parts[1])
                if parts[2] == "refund":
                    return self.reply(200, s.refund(w, account, ch, body.get("amount")))
                if parts[2] == "dispute":
                    return self.reply(200, s.dispute(w, account, ch))
            if len(parts) == 3 and parts[0] == "events" and parts[2] in ("resend", "tamper"):
                for w in s.worlds.values():
                    for e in w.events:
                        if e["id"] == parts[1]:
                            s.deliver(w, e, tamper=parts[2] == "tamper")
                            return self.reply(200, e)
                raise StripeError(404, f"No such event: '{parts[1]}'")
            if parts == ["webhooks"] and method == "POST":
                w = s.worlds.setdefault(body["key"], World(body["key"].startswith("sk_live_")))
                w.endpoints.append({"url": body["url"], "secret": body["secret"], "connect": body.get("connect")})
                return self.reply(200, {"ok": True})
            raise StripeError(404, f"no test control {method} {path}")

    return Handler


def owned_by(w, account, obj):
    pi_id = obj["id"] if obj.get("object") == "payment_intent" else obj.get("payment_intent")
    return any(cs["payment_intent"] == pi_id and cs["_account"] == account for cs in w.sessions.values())


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--port", type=int, default=0)
    p.add_argument("--key", action="append", default=[], help="a secret key it accepts (sk_test_... or sk_live_...)")
    p.add_argument("--any-key", action="store_true", help="every sk_test_/sk_live_ key is a world")
    p.add_argument("--until-stdin-closes", action="store_true", help="end when standard input closes")
    p.add_argument("--webhook", action="append", default=[],
                   help="URL=whsec_... : deliver every event of every key's world there (Connect events included)")
    a = p.parse_args()
    keys = a.key or ["sk_test_standin"]
    server = ThreadingHTTPServer(("127.0.0.1", a.port), None)
    url = f"http://127.0.0.1:{server.server_address[1]}"
    s = Standin(keys, url, any_key=a.any_key)
    if a.until_stdin_closes:
        import os
        import sys

        def watch():
            sys.stdin.buffer.read()
            os._exit(0)

        threading.Thread(target=watch, daemon=True).start()
    for spec in a.webhook:
        target, secret = spec.rsplit("=", 1)
        for w in s.worlds.values():
            w.endpoints.append({"url": target, "secret": secret, "connect": None})
    server.RequestHandlerClass = make_handler(s)
    print(f"ready {url}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
