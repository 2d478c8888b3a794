"""The installed wheel against a live `signet serve` (started by tests/it/clients.rs, which
sets SIGNET_BASE_URL, SIGNET_API_KEY: a test key with every scope, and SIGNET_LIMITED_KEY: a
test key with a budget of a few requests a minute)."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import socket
import subprocess
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import pytest

import signet
from signet import Signet, each, metadata, models, verify_webhook
from signet.api.documents import (
    documents_create,
    documents_get,
    documents_list,
    documents_send,
    documents_test_sign,
)
from signet.api.webhooks import webhooks_create, webhooks_rotate, webhooks_test
from signet.models import DocumentCreateIn, WebhookCreateIn, WebhookTestIn

BASE = os.environ["SIGNET_BASE_URL"]


def source() -> dict:
    return {
        "type": "doc",
        "content": [
            {
                "type": "heading",
                "attrs": {"level": 1},
                "content": [{"type": "text", "text": "Services agreement"}],
            },
            {
                "type": "paragraph",
                "content": [
                    {
                        "type": "text",
                        "text": "The provider does the work; the client pays.",
                    }
                ],
            },
            {"type": "signatureBlock", "attrs": {"role": "client"}},
            {"type": "signatureBlock", "attrs": {"role": "provider"}},
        ],
    }


def new_document(client: Signet, **extra) -> signet.models.DocumentOut:
    body = {
        "title": "Services agreement",
        "source": source(),
        "people": [
            {"name": "Ada Client", "email": "ada@example.com", "role": "client"},
            {"name": "Bob Provider", "email": "bob@example.com", "role": "provider"},
        ],
        **extra,
    }
    return documents_create.sync(client=client, body=DocumentCreateIn.from_dict(body))


def wait_for(predicate, what: str, seconds: float = 60.0):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


@pytest.fixture
def client():
    with Signet() as c:  # SIGNET_API_KEY and SIGNET_BASE_URL
        yield c


class Receiver:
    """A local webhook receiver keeping every delivery's raw body and headers."""

    def __init__(self) -> None:
        self.deliveries: list[tuple[bytes, dict[str, str]]] = []
        deliveries = self.deliveries

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("content-length", "0")))
                deliveries.append(
                    (body, {k.lower(): v for k, v in self.headers.items()})
                )
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hooks/signet"

    def of_type(self, topic: str) -> list[tuple[bytes, dict[str, str]]]:
        return [
            (b, h) for b, h in self.deliveries if json.loads(b).get("type") == topic
        ]


def test_the_installed_wheel_is_used():
    assert "site-packages" in signet.__file__, signet.__file__
    assert (
        signet.SERVICE_VERSION == httpx.get(f"{BASE}/health").headers["service-version"]
    )


def test_a_key_is_required(monkeypatch):
    monkeypatch.delenv("SIGNET_API_KEY")
    with pytest.raises(ValueError, match="SIGNET_API_KEY"):
        Signet()


def test_from_words_to_a_sealed_pdf_with_a_verified_webhook(client, tmp_path):
    receiver = Receiver()
    hook = webhooks_create.sync(
        client=client,
        body=WebhookCreateIn(
            event_types=["documents.document.sent", "documents.document.executed"],
            url=receiver.url,
        ),
    )
    secret = hook.secret
    assert secret.startswith("whsec_")

    doc = new_document(client, metadata={"deal": "py-42"}, externalId="py-deal-42")
    assert doc.state == "draft" and doc.test
    sent = documents_send.sync(doc.id, client=client)
    assert sent.state == "sent"
    for seat in ("client", "provider"):
        documents_test_sign.sync(
            doc.id, client=client, body=models.TestSignIn(seat=seat)
        )
    executed = wait_for(
        lambda: (
            (d := documents_get.sync(doc.id, client=client)).state == "executed" and d
        ),
        "the document to be executed",
    )
    assert all(p.status == "signed" for p in executed.people if p.action == "sign")

    # The sealed PDF, as bytes and streamed to a file: the same file, judged by pyHanko.
    pdf = client.signed_pdf(doc.id)
    assert pdf.startswith(b"%PDF-")
    saved = client.signed_pdf(doc.id, to=tmp_path / "signed.pdf")
    assert saved.read_bytes() == pdf
    assert not (tmp_path / "signed.pdf.part").exists()
    root = tmp_path / "test-root.pem"
    root.write_bytes(httpx.get(f"{BASE}/ca/test-root.pem").content)
    pyhanko = shutil.which("pyhanko")
    assert pyhanko, "pyhanko is on the PATH (scripts/test installs pyhanko-cli)"
    out = subprocess.run(
        [
            pyhanko,
            "sign",
            "validate",
            "--pretty-print",
            "--trust-replace",
            "--trust",
            str(root),
            str(saved),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert "The signature is judged VALID." in out.stdout, out.stdout + out.stderr
    csv = client.audit_log(doc.id)
    assert csv.splitlines()[0].startswith(b"")
    assert b"signed" in csv

    # The executed event arrives at the receiver and verifies with the endpoint's secret.
    body, headers = wait_for(
        lambda: receiver.of_type("documents.document.executed"), "the executed webhook"
    )[0]
    event = verify_webhook(body, headers, secret)
    assert event.type == "documents.document.executed"
    assert event.document_id == doc.id
    assert event.webhook_id == headers["webhook-id"]

    # Tampered, re-signed by another secret, too old: refused.
    with pytest.raises(signet.WebhookVerificationError):
        verify_webhook(body.replace(doc.id.encode(), b"doc_other"), headers, secret)
    other = "whsec_" + "A" * 43
    with pytest.raises(signet.WebhookVerificationError):
        verify_webhook(body, headers, other)
    with pytest.raises(signet.WebhookVerificationError, match="older"):
        verify_webhook(
            body, headers, secret, now=int(headers["webhook-timestamp"]) + 301
        )
    # Either signature header is enough.
    only_service = {k: v for k, v in headers.items() if k != "webhook-signature"}
    assert verify_webhook(body, only_service, secret).id == event.id
    receiver.server.shutdown()


def test_a_rotated_secret_verifies_with_the_old_and_the_new(client):
    receiver = Receiver()
    hook = webhooks_create.sync(
        client=client,
        body=WebhookCreateIn(
            event_types=["documents.document.executed"], url=receiver.url
        ),
    )
    rotated = webhooks_rotate.sync(hook.id, client=client)
    assert rotated.secret != hook.secret
    webhooks_test.sync(hook.id, client=client, body=WebhookTestIn.from_dict({}))
    body, headers = wait_for(lambda: receiver.deliveries, "the test delivery")[0]
    assert len(headers["webhook-signature"].split()) == 2
    assert verify_webhook(body, headers, hook.secret).test
    assert verify_webhook(body, headers, rotated.secret).test
    assert verify_webhook(body, headers, [other_secret(), rotated.secret]).test
    receiver.server.shutdown()


def other_secret() -> str:
    return "whsec_" + "B" * 43


def test_every_page_and_the_filters(client):
    tag = uuid.uuid4().hex[:12]
    made = [
        new_document(client, metadata={"batch": tag, "n": str(i)}).id for i in range(5)
    ]
    # Newest first, two a page: every one of the batch, once.
    seen = [
        d.id
        for d in each(
            documents_list, client=client, limit=2, metadata=metadata({"batch": tag})
        )
    ]
    assert seen == list(reversed(made))
    only = documents_list.sync(
        client=client, metadata=metadata({"batch": tag, "n": "3"})
    )
    assert [d.id for d in only.data] == [made[3]]
    assert only.page.next_cursor is None
    drafts = [
        d.id for d in each(documents_list, client=client, state="draft", limit=200)
    ]
    assert set(made) <= set(drafts)


def test_errors_are_exceptions_with_the_spec_shape(client):
    with pytest.raises(signet.NotFound) as e:
        documents_get.sync("doc_does_not_exist", client=client)
    assert e.value.kind == "not_found" and e.value.status == 404
    assert e.value.request_id and not e.value.retryable
    with pytest.raises(signet.InvalidRequest) as e:
        documents_create.sync(
            client=client,
            body=DocumentCreateIn.from_dict({"title": "x", "source": {}, "people": []}),
        )
    assert e.value.kind == "invalid" and e.value.message
    with pytest.raises(signet.Unauthenticated):
        documents_list.sync(client=Signet("svc_test_not_a_key"))


def test_the_same_idempotency_key_answers_the_first_result(client):
    body = DocumentCreateIn.from_dict(
        {
            "title": "Once",
            "source": source(),
            "people": [
                {"name": "Ada", "email": "ada@example.com", "role": "client"},
                {"name": "Bob", "email": "bob@example.com", "role": "provider"},
            ],
        }
    )
    key = f"py-{uuid.uuid4().hex}"
    first = documents_create.sync(client=client, body=body, idempotency_key=key)
    again = documents_create.sync_detailed(
        client=client, body=body, idempotency_key=key
    )
    assert again.parsed.id == first.id
    assert again.headers["idempotent-replayed"] == "true"
    # Without a key, each call is its own document.
    assert (
        documents_create.sync(client=client, body=body).id
        != documents_create.sync(client=client, body=body).id
    )


def test_a_429_is_retried_after_retry_after():
    limited = os.environ["SIGNET_LIMITED_KEY"]
    with (
        Signet(limited, max_retries=0) as impatient,
        pytest.raises(signet.RateLimited) as e,
    ):
        for _ in range(20):
            documents_list.sync(client=impatient, limit=1)
    assert e.value.retryable and e.value.retry_after is not None
    assert 0 <= e.value.retry_after <= 60
    started = time.monotonic()
    with Signet(limited) as patient:
        page = documents_list.sync(client=patient, limit=1)
    assert page.data is not None
    assert time.monotonic() - started >= e.value.retry_after - 1.5


def test_the_async_client(client):
    async def run():
        async with Signet() as c:
            doc = await documents_create.asyncio(
                client=c,
                body=DocumentCreateIn.from_dict(
                    {
                        "title": "Async",
                        "source": source(),
                        "people": [
                            {
                                "name": "Ada",
                                "email": "ada@example.com",
                                "role": "client",
                            },
                            {
                                "name": "Bob",
                                "email": "bob@example.com",
                                "role": "provider",
                            },
                        ],
                    }
                ),
            )
            ids = [d.id async for d in signet.aeach(documents_list, client=c, limit=3)]
            with pytest.raises(signet.NotFound):
                await documents_get.asyncio("doc_missing", client=c)
            with pytest.raises(signet.NotFound):
                await c.asigned_pdf(doc.id)
            return doc.id, ids

    made, ids = asyncio.run(run())
    assert made in ids


def test_downloads_before_execution_are_not_found_and_leave_no_file(client, tmp_path):
    doc = new_document(client)
    target = tmp_path / "out.pdf"
    with pytest.raises(signet.NotFound):
        client.signed_pdf(doc.id, to=target)
    assert not target.exists() and not Path(str(target) + ".part").exists()


def test_a_server_that_cannot_be_reached_is_a_transport_error():
    # A port that was just free: nothing listens there.
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with (
        Signet(
            "svc_test_any", base_url=f"http://127.0.0.1:{port}", max_retries=1
        ) as nowhere,
        pytest.raises(signet.SignetError) as e,
    ):
        documents_list.sync(client=nowhere)
    assert e.value.kind == "transport" and e.value.retryable and e.value.status is None
