"""The official MCP Python client (`mcp` 2.x) against Signet's tool server, on both transports:
streamable HTTP at /mcp (protocol 2026-07-28, questions through InputRequiredResult) and
`signet mcp --stdio` (the initialize handshake, questions asked while the call waits).

Run by tests/it/mcp.rs with SIGNET_BASE_URL, SIGNET_FULL_KEY (a test key with every scope of a
Pro workspace), SIGNET_READ_KEY (documents:read only), SIGNET_PLAY (a published play whose
questions are `pet` then, for a dog, `walks`), SIGNET_BIN and SIGNET_STDIO_ENV (the server's
settings as JSON, for the stdio process). Exits non-zero on the first failed check."""

import asyncio
import json
import os
import re
import time

import httpx
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp_types import ElicitResult

BASE = os.environ["SIGNET_BASE_URL"]
FULL = os.environ["SIGNET_FULL_KEY"]
READ = os.environ["SIGNET_READ_KEY"]
PLAY = os.environ["SIGNET_PLAY"]
PEOPLE = [
    {"name": "Olive Owner", "email": "olive@example.com", "role": "owner"},
    {"name": "Sam Sitter", "email": "sam@example.com", "role": "sitter"},
]
SEEN = []  # every tool answer's text, to look for signing links


def http(key):
    return streamable_http_client(f"{BASE}/mcp", http_client=create_mcp_http_client(headers={"Authorization": f"Bearer {key}"}))


def check(cond, what):
    if not cond:
        raise AssertionError(what)
    print(f"ok - {what}", flush=True)


class Person:
    """Answers the play's forms as a person would: a dog, one walk."""

    def __init__(self, accept=True):
        self.forms = []
        self.accept = accept

    async def __call__(self, context, params):
        schema = params.requested_schema
        props = schema["properties"] if isinstance(schema, dict) else schema.properties
        self.forms.append(sorted(props))
        if not self.accept:
            return ElicitResult(action="decline")
        choice = {"pet": "dog", "walks": "one"}
        return ElicitResult(action="accept", content={k: choice[k] for k in props})


async def call(client, name, args):
    res = await client.call_tool(name, args)
    text = " ".join(getattr(c, "text", "") for c in res.content)
    SEEN.append(text)
    return res, (res.structured_content if res.structured_content is not None else {}), text


async def over_http():
    person = Person()
    async with Client(http(FULL), elicitation_callback=person) as c:
        check(c.protocol_version == "2026-07-28", f"HTTP speaks 2026-07-28 (got {c.protocol_version})")
        tools = {t.name: t for t in (await c.list_tools()).tools}
        for name in ["find_documents", "get_document", "create_document", "create_document_from_template",
                     "check_source", "send_document", "remind_people", "void_document", "test_sign",
                     "list_templates", "get_template", "list_plays", "get_play", "list_playbooks",
                     "draft_from_play", "answer_draft", "ai_draft", "ai_edit", "get_ai_job",
                     "get_usage", "get_payment_status"]:
            check(name in tools, f"HTTP lists {name}")
        ann = tools["find_documents"].annotations
        check(ann.read_only_hint is True and ann.destructive_hint is False, "find_documents is marked read-only")
        check(tools["void_document"].annotations.destructive_hint is True, "void_document is marked destructive")
        check(tools["create_document"].annotations.read_only_hint is False, "create_document is not read-only")
        check(tools["create_document"].input_schema["type"] == "object"
              and "source" in tools["create_document"].input_schema["properties"], "create_document has a JSON schema")
        check(tools["remind_people"].input_schema["required"][0] == "id", "remind_people takes the document id")
        # Embedding sessions sign: no tool makes them.
        check(not any("embed" in n for n in tools), "no tool makes a signing session")

        # Drafting from a play through the person's answers, asked by the client.
        res, draft, _ = await call(c, "draft_from_play", {"play": PLAY, "people": PEOPLE})
        check(not res.is_error, f"draft_from_play succeeds: {res.content}")
        check(draft["status"] == "draft" and draft["documentId"], f"the draft is made: {draft.get('status')}")
        check(person.forms == [["pet"], ["walks"]], f"the person was asked two rounds: {person.forms}")
        check(draft["answers"] == {"pet": "dog", "walks": "one"}, f"with their answers: {draft['answers']}")
        doc_id = draft["documentId"]

        res, doc, _ = await call(c, "send_document", {"id": doc_id})
        check(not res.is_error and doc["state"] == "sent", "send_document sends it")
        for seat in ["owner", "sitter"]:
            res, _, text = await call(c, "test_sign", {"id": doc_id, "seat": seat})
            check(not res.is_error, f"test_sign signs {seat}: {text[:200]}")
        deadline = time.monotonic() + 90
        while True:
            _, doc, _ = await call(c, "get_document", {"id": doc_id})
            if doc["state"] == "executed" or time.monotonic() > deadline:
                break
            await asyncio.sleep(0.3)
        check(doc["state"] == "executed", f"the document is executed ({doc['state']})")
        _, page, _ = await call(c, "find_documents", {"state": "executed", "limit": 5})
        check(doc_id in [d["id"] for d in page["data"]], "find_documents finds it among the executed")
        trail = await c.read_resource(f"signet://documents/{doc_id}/audit-trail")
        text = trail.contents[0].text
        check("signed" in text and len(text.splitlines()) > 3, f"its audit trail is a resource: {text[:300]}")
        templates = await c.list_resource_templates()
        check({t.uri_template for t in templates.resource_templates}
              == {"signet://documents/{id}/audit-trail", "signet://templates/{id}/seats"}, "the resource templates")

        # Bad input is the tool's error in the spec's shape, not a crash.
        res, err, _ = await call(c, "get_document", {"id": "doc_nope"})
        check(res.is_error and err["error"]["kind"] == "not_found", "an unknown document is not_found")
        res, err, _ = await call(c, "void_document", {})
        check(res.is_error and err["error"]["kind"] == "invalid", "a missing id is invalid")

    # A client that cannot ask the person: the questions come back for the assistant.
    async with Client(http(FULL)) as c:
        res, draft, text = await call(c, "draft_from_play", {"play": PLAY, "people": PEOPLE})
        check(draft["status"] == "needs_input" and draft["questions"][0]["id"] == "pet", "without elicitation the questions come back")
        check("answer_draft" in text and "Which pet?" in text, "with what to ask and how to answer")
        res, draft, _ = await call(c, "answer_draft", {"draftRef": draft["draftRef"], "answers": {"pet": "cat"}})
        check(draft["status"] == "draft" and draft["documentId"], "answer_draft finishes the draft")

    # A key without the scope: the tool is not listed and is refused.
    async with Client(http(READ)) as c:
        names = {t.name for t in (await c.list_tools()).tools}
        check("find_documents" in names and "create_document" not in names, f"a read key lists read tools only: {sorted(names)}")
        res, err, _ = await call(c, "create_document", {"title": "x", "source": {"type": "doc", "content": []}, "people": []})
        check(res.is_error and err["error"]["kind"] == "forbidden" and "documents:write" in err["error"]["message"],
              f"a write tool is refused to a read key: {err}")

    # A client of an earlier protocol: a session, the questions asked while the call waits.
    person = Person()
    async with Client(http(FULL), mode="legacy", elicitation_callback=person) as c:
        check(c.protocol_version != "2026-07-28", f"a legacy HTTP session ({c.protocol_version})")
        res, draft, _ = await call(c, "draft_from_play", {"play": PLAY, "people": PEOPLE})
        check(not res.is_error and draft["status"] == "draft", f"a legacy HTTP session drafts through the questions: {draft.get('status')}")
        check(person.forms == [["pet"], ["walks"]], f"asked over the session's stream: {person.forms}")

    # The door: no key, a wrong key, a foreign Host, a body over the limit.
    headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
    ping = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
    r = httpx.post(f"{BASE}/mcp", json=ping, headers=headers)
    check(r.status_code == 401 and r.json()["error"]["kind"] == "unauthenticated", f"no key: 401 ({r.status_code})")
    r = httpx.post(f"{BASE}/mcp", json=ping, headers={**headers, "Authorization": "Bearer svc_test_wrong"})
    check(r.status_code == 401, f"a wrong key: 401 ({r.status_code})")
    r = httpx.post(f"{BASE}/mcp", json=ping, headers={**headers, "Authorization": f"Bearer {FULL}", "Host": "evil.example"})
    check(r.status_code == 403, f"a foreign Host is refused ({r.status_code})")
    big = {**ping, "params": {"padding": "x" * (2 * 1024 * 1024 + 10)}}
    r = httpx.post(f"{BASE}/mcp", json=big, headers={**headers, "Authorization": f"Bearer {FULL}"})
    check(r.status_code == 400 and "larger than the limit" in r.json()["error"]["message"],
          f"a message over 2 MiB is refused before it is read ({r.status_code})")


async def over_stdio():
    # Only the server's settings and the key: any other SIGNET_ variable would be refused as an
    # unknown setting.
    env = {
        "PATH": os.environ["PATH"],
        "HOME": os.environ.get("HOME", "/tmp"),
        **json.loads(os.environ["SIGNET_STDIO_ENV"]),
        "SIGNET_API_KEY": FULL,
        "SIGNET_LOG": "warn",
    }
    env.pop("REDIS_URL", None)
    params = StdioServerParameters(command=os.environ["SIGNET_BIN"], args=["mcp", "--stdio"], env=env)
    person = Person()
    async with Client(params, mode="legacy", elicitation_callback=person) as c:
        check(c.server_info.name == "signet", f"stdio: the server is signet ({c.server_info.name})")
        tools = {t.name: t for t in (await c.list_tools()).tools}
        check("draft_from_play" in tools and tools["get_usage"].annotations.read_only_hint, "stdio lists the tools")
        res, draft, _ = await call(c, "draft_from_play", {"play": PLAY, "people": PEOPLE})
        check(not res.is_error and draft["status"] == "draft", f"stdio drafts through the questions: {draft.get('status')}")
        check(person.forms == [["pet"], ["walks"]], f"asked while the call waited: {person.forms}")
        res, usage, _ = await call(c, "get_usage", {})
        check(not res.is_error and usage["plan"] == "pro", "get_usage reads the plan")
    declining = Person(accept=False)
    async with Client(params, mode="legacy", elicitation_callback=declining) as c:
        res, draft, _ = await call(c, "draft_from_play", {"play": PLAY, "people": PEOPLE})
        check(draft["status"] == "needs_input" and declining.forms == [["pet"]], "a declined form leaves the questions for the assistant")
    bad = StdioServerParameters(command=os.environ["SIGNET_BIN"], args=["mcp", "--stdio"], env={**env, "SIGNET_API_KEY": "svc_test_wrong"})
    try:
        async with Client(bad, mode="legacy") as c:
            await c.list_tools()
        check(False, "a wrong SIGNET_API_KEY is refused")
    except Exception as e:  # the process exits at once: the client cannot connect
        check(True, f"a wrong SIGNET_API_KEY is refused ({type(e).__name__})")


async def main():
    await over_http()
    await over_stdio()
    links = [t for t in SEEN if re.search(r"/s/[A-Za-z0-9_-]{16,}", t)]
    check(not links, "no tool answer carries a signing link")


if __name__ == "__main__":
    asyncio.run(main())
