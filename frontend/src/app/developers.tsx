// Developers settings: API keys (made with every option, the secret shown once, revoked) and
// the API log searched by request id, key, operation and status. Keys are an owner's or an
// admin's; the server refuses anyone else.
import { useEffect, useRef, useState } from "preact/hooks";
import type { ApiKeyMade, ApiKeyOut, ApiLogLine, DeliveryAttemptOut, TopicOut, WebhookOut, WebhookTestOut } from "../shared/api/graphql";
import { Confirm, Field, Notice, Table, useSubmit } from "../shared/ui";
import { t, when } from "../shared/words";
import { gql } from "./api";

type Note = { kind: "ok" | "error"; text: string };

/** The scopes a key may hold, as the service names them. */
const SCOPES = [
  "documents:read", "documents:write", "templates:read", "templates:write", "webhooks:read", "webhooks:write",
  "embedded:write", "drafts:write", "plays:read", "plays:write", "reports:read", "account:read",
  "settings:read", "settings:write", "people:read", "people:write", "notifications:read", "notifications:write",
  "money:read", "money:write",
];

export function Developers({ canKeys, canHooks }: { canKeys: boolean; canHooks: boolean }) {
  const [note, setNote] = useState<Note | null>(null);
  return (
    <>
      <h1>{t("dev.title")}</h1>
      {note && <Notice kind={note.kind}>{note.text}</Notice>}
      {canKeys && <Keys onNote={setNote} />}
      {canHooks && <Hooks onNote={setNote} />}
      <Log onNote={setNote} />
    </>
  );
}

const LINE = "requestId keyId method route status errorKind durationUs clientIp createdAt";
const KEY = "id name mode hint scopes draftOnly dailyLimit perMinute allow expiresAt revokedAt createdAt";

function Keys({ onNote }: { onNote: (n: Note) => void }) {
  const [keys, setKeys] = useState<ApiKeyOut[] | null>(null);
  const [made, setMade] = useState<ApiKeyMade | null>(null);
  const [revoking, setRevoking] = useState<ApiKeyOut | null>(null);
  const fail = (e: unknown) => onNote({ kind: "error", text: t("common.error", { message: (e as Error).message }) });
  const load = () => gql<{ apiKeys: ApiKeyOut[] }>(`{ apiKeys { ${KEY} } }`).then((d) => setKeys(d.apiKeys), fail);
  useEffect(() => void load(), []);
  const revoke = async (k: ApiKeyOut) => {
    setRevoking(null);
    try {
      await gql("mutation($id: String!) { revokeApiKey(id: $id) { id } }", { id: k.id });
      await load();
    } catch (e) {
      fail(e);
    }
  };
  const state = (k: ApiKeyOut) =>
    k.revokedAt ? t("dev.revoked") : k.expiresAt && k.expiresAt < Date.now() ? t("dev.expired") : t("dev.active");
  return (
    <section aria-labelledby="keys-title">
      <h2 id="keys-title">{t("dev.keys")}</h2>
      <p class="hint">{t("dev.keysLead")}</p>
      {made ? <Secret secret={made.secret} title={t("dev.secretTitle")} text={t("dev.secretText")} onDone={() => setMade(null)} /> : <NewKey onMade={(m) => { setMade(m); void load(); }} onError={fail} />}
      {keys === null ? (
        <p role="status">{t("common.loading")}</p>
      ) : keys.length === 0 ? (
        <p>{t("dev.noKeys")}</p>
      ) : (
        <Table caption={t("dev.keys")} head={[t("people.name"), t("dev.mode"), t("dev.scopes"), t("dev.state"), t("dev.created"), ""]}>
          {keys.map((k) => (
            <tr key={k.id}>
              <td><bdi>{k.name ?? k.id}</bdi> <code class="hint">…{k.hint}</code></td>
              <td>{k.mode === "live" ? t("dev.live") : t("dev.test")}{k.draftOnly && <span class="tag">draft-only</span>}</td>
              <td class="scopes">{k.scopes.length >= SCOPES.length ? t("dev.allScopes") : k.scopes.join(", ")}</td>
              <td>{state(k)}</td>
              <td>{when(k.createdAt)}</td>
              <td>{!k.revokedAt && <button type="button" class="secondary small" onClick={() => setRevoking(k)}>{t("dev.revoke")}</button>}</td>
            </tr>
          ))}
        </Table>
      )}
      {revoking && (
        <Confirm title={t("dev.revokeTitle", { name: revoking.name ?? revoking.id })} text={t("dev.revokeText")}
          confirm={t("dev.revoke")} cancel={t("common.cancel")} danger onConfirm={() => revoke(revoking)} onCancel={() => setRevoking(null)} />
      )}
    </section>
  );
}

/** The one time a secret is shown, with a button that copies it. */
function Secret({ secret, title, text, onDone }: { secret: string; title: string; text: string; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <div class="card secret">
      <h3 ref={heading} tabIndex={-1}>{title}</h3>
      <p>{text}</p>
      <p><code class="key" data-testid="secret">{secret}</code></p>
      <div class="actions start">
        <button type="button" class="secondary" onClick={async () => { await navigator.clipboard?.writeText(secret).catch(() => {}); setCopied(true); }}>{t("dev.copy")}</button>
        <button type="button" class="primary" onClick={onDone}>{t("dev.done")}</button>
        {copied && <span role="status">{t("dev.copied")}</span>}
      </div>
    </div>
  );
}

function NewKey({ onMade, onError }: { onMade: (m: ApiKeyMade) => void; onError: (e: unknown) => void }) {
  const [name, setName] = useState("");
  const [mode, setMode] = useState("test");
  const [all, setAll] = useState(true);
  const [scopes, setScopes] = useState<string[]>(["documents:read", "documents:write"]);
  const [draftOnly, setDraftOnly] = useState(false);
  const [daily, setDaily] = useState("");
  const [perMinute, setPerMinute] = useState("");
  const [allow, setAllow] = useState("");
  const [days, setDays] = useState("");
  const num = (s: string) => (s.trim() ? Number(s) : null);
  const [busy, submit] = useSubmit(async () => {
    const input = {
      name, mode, scopes: all ? SCOPES : scopes, draftOnly,
      dailyLimit: num(daily), perMinute: num(perMinute), expiresInDays: num(days),
      allow: allow.split("\n").map((l) => l.trim()).filter(Boolean),
    };
    const d = await gql<{ createApiKey: ApiKeyMade }>(`mutation($i: ApiKeyIn!) { createApiKey(input: $i) { secret key { ${KEY} } } }`, { i: input });
    setName("");
    onMade(d.createApiKey);
  }, onError);
  const optional = (label: string) => t("dev.optional", { label });
  return (
    <form class="card" onSubmit={submit}>
      <h3>{t("dev.newKey")}</h3>
      <div class="grid">
        <Field label={t("people.name")}>{(id) => <input id={id} required maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} />}</Field>
        <Field label={t("dev.mode")}>
          {(id) => (
            <select id={id} value={mode} onChange={(e) => setMode(e.currentTarget.value)}>
              <option value="test">{t("dev.test")}</option>
              <option value="live">{t("dev.live")}</option>
            </select>
          )}
        </Field>
        <Field label={optional(t("dev.dailyLimit"))}>{(id) => <input id={id} type="number" min={1} max={10000000} value={daily} onInput={(e) => setDaily(e.currentTarget.value)} />}</Field>
        <Field label={optional(t("dev.perMinute"))}>{(id) => <input id={id} type="number" min={1} max={100000} value={perMinute} onInput={(e) => setPerMinute(e.currentTarget.value)} />}</Field>
        <Field label={optional(t("dev.expires"))}>{(id) => <input id={id} type="number" min={1} max={3650} value={days} onInput={(e) => setDays(e.currentTarget.value)} />}</Field>
        <Field label={optional(t("dev.allow"))}>{(id) => <textarea id={id} rows={2} maxLength={1000} value={allow} onInput={(e) => setAllow(e.currentTarget.value)} />}</Field>
      </div>
      <fieldset class="scopes">
        <legend>{t("dev.scopes")}</legend>
        <label class="check"><input type="checkbox" checked={all} onChange={(e) => setAll(e.currentTarget.checked)} /> {t("dev.allScopes")}</label>
        {!all && (
          <div class="scope-grid">
            {SCOPES.map((s) => (
              <label class="check" key={s}>
                <input type="checkbox" checked={scopes.includes(s)}
                  onChange={(e) => setScopes(e.currentTarget.checked ? [...scopes, s] : scopes.filter((x) => x !== s))} />
                <code>{s}</code>
              </label>
            ))}
          </div>
        )}
      </fieldset>
      <label class="check"><input type="checkbox" checked={draftOnly} onChange={(e) => setDraftOnly(e.currentTarget.checked)} /> {t("dev.draftOnly")}</label>
      <div class="actions start"><button class="primary" type="submit" disabled={busy}>{t("dev.make")}</button></div>
    </form>
  );
}

function Log({ onNote }: { onNote: (n: Note) => void }) {
  const [lines, setLines] = useState<ApiLogLine[] | null>(null);
  const [requestId, setRequestId] = useState("");
  const [keyId, setKeyId] = useState("");
  const [route, setRoute] = useState("");
  const [status, setStatus] = useState("");
  const search = async (e?: Event) => {
    e?.preventDefault();
    const s = {
      requestId: requestId.trim() || null, keyId: keyId.trim() || null, route: route.trim() || null,
      status: status.trim() ? Number(status) : null, limit: 50,
    };
    try {
      const d = await gql<{ apiLog: ApiLogLine[] }>(`query($s: ApiLogSearch) { apiLog(search: $s) { ${LINE} } }`, { s });
      setLines(d.apiLog);
    } catch (err) {
      onNote({ kind: "error", text: t("common.error", { message: (err as Error).message }) });
    }
  };
  useEffect(() => void search(), []);
  return (
    <section aria-labelledby="log-title">
      <h2 id="log-title">{t("dev.log")}</h2>
      <p class="hint">{t("dev.logLead")}</p>
      <form class="card" onSubmit={search} role="search">
        <div class="grid">
          <Field label={t("dev.requestId")}>{(id) => <input id={id} maxLength={100} value={requestId} onInput={(e) => setRequestId(e.currentTarget.value)} />}</Field>
          <Field label={t("dev.key")}>{(id) => <input id={id} maxLength={100} value={keyId} onInput={(e) => setKeyId(e.currentTarget.value)} />}</Field>
          <Field label={t("dev.route")}>{(id) => <input id={id} maxLength={100} value={route} onInput={(e) => setRoute(e.currentTarget.value)} />}</Field>
          <Field label={t("dev.status")}>{(id) => <input id={id} type="number" min={100} max={599} value={status} onInput={(e) => setStatus(e.currentTarget.value)} />}</Field>
        </div>
        <div class="actions start"><button class="primary" type="submit">{t("dev.search")}</button></div>
      </form>
      {lines === null ? (
        <p role="status">{t("common.loading")}</p>
      ) : lines.length === 0 ? (
        <p>{t("dev.noLines")}</p>
      ) : (
        <Table caption={t("dev.log")} head={[t("activity.when"), t("dev.route"), t("dev.status"), t("dev.key"), t("dev.duration"), t("dev.requestId")]}>
          {lines.map((l) => (
            <tr key={l.requestId}>
              <td>{when(l.createdAt)}</td>
              <td><code>{l.method} {l.route}</code></td>
              <td class={l.status >= 400 ? "bad" : undefined}>{l.status}{l.errorKind && ` ${l.errorKind}`}</td>
              <td><code>{l.keyId ?? "—"}</code></td>
              <td>{(l.durationUs / 1000).toFixed(1)} ms</td>
              <td><code>{l.requestId}</code></td>
            </tr>
          ))}
        </Table>
      )}
    </section>
  );
}

const HOOK = "id url relay name eventTypes state disabledReason createdAt secret";

/** Webhook endpoints: added (the signing secret shown once), tested, their deliveries read
 * and delivered again, their secret rotated, removed. */
function Hooks({ onNote }: { onNote: (n: Note) => void }) {
  const [hooks, setHooks] = useState<WebhookOut[] | null>(null);
  const [topics, setTopics] = useState<TopicOut[]>([]);
  const [secret, setSecret] = useState<string | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const [removing, setRemoving] = useState<WebhookOut | null>(null);
  const fail = (e: unknown) => onNote({ kind: "error", text: t("common.error", { message: (e as Error).message }) });
  const load = () =>
    gql<{ webhooks: { data: WebhookOut[] }; webhookTopics: { topics: TopicOut[] } }>(`{ webhooks(limit: 100) { data { ${HOOK} } } webhookTopics { topics { name } } }`).then(
      (d) => { setHooks(d.webhooks.data); setTopics(d.webhookTopics.topics); },
      fail,
    );
  useEffect(() => void load(), []);
  const act = async (query: string, vars: Record<string, unknown>, done: (d: Record<string, unknown>) => void) => {
    try {
      done(await gql<Record<string, unknown>>(query, vars));
      await load();
    } catch (e) {
      fail(e);
    }
  };
  const name = (h: WebhookOut) => h.name ?? h.url ?? t("dev.relayName");
  return (
    <section aria-labelledby="hooks-title">
      <h2 id="hooks-title">{t("dev.hooks")}</h2>
      <p class="hint">{t("dev.hooksLead")}</p>
      {secret ? (
        <Secret secret={secret} title={t("dev.hookSecretTitle")} text={t("dev.hookSecretText")} onDone={() => setSecret(null)} />
      ) : (
        <NewHook topics={topics} onMade={(s) => { setSecret(s); void load(); }} onError={fail} />
      )}
      {hooks === null ? (
        <p role="status">{t("common.loading")}</p>
      ) : hooks.length === 0 ? (
        <p>{t("dev.noHooks")}</p>
      ) : (
        <Table caption={t("dev.hooks")} head={[t("people.name"), t("dev.topics"), t("dev.state"), t("people.actions")]}>
          {hooks.map((h) => (
            <tr key={h.id}>
              <td><bdi>{name(h)}</bdi>{h.url && h.name && <div class="hint"><code>{h.url}</code></div>}</td>
              <td class="scopes">{h.eventTypes.length >= topics.length && topics.length > 0 ? t("dev.allTopics") : h.eventTypes.join(", ")}</td>
              <td>{h.state}{h.disabledReason && <div class="hint">{h.disabledReason}</div>}</td>
              <td>
                <div class="row-actions">
                  <button type="button" class="secondary small" aria-expanded={open === h.id} onClick={() => setOpen(open === h.id ? null : h.id)}>{t("dev.deliveries")}</button>
                  <button type="button" class="secondary small" onClick={() => act("mutation($id: String!) { testWebhook(id: $id) { result } }", { id: h.id },
                    (d) => onNote({ kind: "ok", text: t("dev.tested", { result: (d.testWebhook as WebhookTestOut).result }) }))}>{t("dev.sendTest")}</button>
                  <button type="button" class="secondary small" onClick={() => act(`mutation($id: String!) { rotateWebhookSecret(id: $id) { secret } }`, { id: h.id },
                    (d) => { setSecret((d.rotateWebhookSecret as WebhookOut).secret ?? null); onNote({ kind: "ok", text: t("dev.rotated") }); })}>{t("dev.rotate")}</button>
                  <button type="button" class="secondary small" onClick={() => setRemoving(h)}>{t("people.remove")}</button>
                </div>
              </td>
            </tr>
          ))}
        </Table>
      )}
      {open && <Deliveries id={open} onNote={onNote} />}
      {removing && (
        <Confirm title={t("dev.removeHookTitle", { name: name(removing) })} text={t("dev.removeHookText")} confirm={t("people.remove")}
          cancel={t("common.cancel")} danger onCancel={() => setRemoving(null)}
          onConfirm={() => { const id = removing.id; setRemoving(null); void act("mutation($id: String!) { deleteWebhook(id: $id) { id } }", { id }, () => {}); }} />
      )}
    </section>
  );
}

function NewHook({ topics, onMade, onError }: { topics: TopicOut[]; onMade: (secret: string) => void; onError: (e: unknown) => void }) {
  const [name, setName] = useState("");
  const [url, setUrl] = useState("");
  const [relay, setRelay] = useState(false);
  const [all, setAll] = useState(true);
  const [chosen, setChosen] = useState<string[]>([]);
  const [busy, submit] = useSubmit(async () => {
    const input = { name: name || null, url: relay ? null : url, relay, eventTypes: all ? topics.map((x) => x.name) : chosen };
    const d = await gql<{ createWebhook: WebhookOut }>("mutation($i: WebhookCreateInput!) { createWebhook(input: $i) { secret } }", { i: input });
    setName("");
    setUrl("");
    onMade(d.createWebhook.secret ?? "");
  }, onError);
  return (
    <form class="card" onSubmit={submit}>
      <h3>{t("dev.newHook")}</h3>
      <div class="grid">
        <Field label={t("dev.optional", { label: t("people.name") })}>{(id) => <input id={id} maxLength={200} value={name} onInput={(e) => setName(e.currentTarget.value)} />}</Field>
        {!relay && <Field label={t("dev.url")}>{(id) => <input id={id} type="url" required maxLength={2000} value={url} onInput={(e) => setUrl(e.currentTarget.value)} />}</Field>}
      </div>
      <label class="check"><input type="checkbox" checked={relay} onChange={(e) => setRelay(e.currentTarget.checked)} /> {t("dev.relay")}</label>
      <fieldset class="scopes">
        <legend>{t("dev.topics")}</legend>
        <label class="check"><input type="checkbox" checked={all} onChange={(e) => setAll(e.currentTarget.checked)} /> {t("dev.allTopics")}</label>
        {!all && (
          <div class="scope-grid">
            {topics.map(({ name: topic }) => (
              <label class="check" key={topic}>
                <input type="checkbox" checked={chosen.includes(topic)}
                  onChange={(e) => setChosen(e.currentTarget.checked ? [...chosen, topic] : chosen.filter((x) => x !== topic))} />
                <code>{topic}</code>
              </label>
            ))}
          </div>
        )}
      </fieldset>
      <div class="actions start"><button class="primary" type="submit" disabled={busy}>{t("dev.addHook")}</button></div>
    </form>
  );
}

/** An endpoint's last 50 delivery attempts, each deliverable again. */
function Deliveries({ id, onNote }: { id: string; onNote: (n: Note) => void }) {
  const [attempts, setAttempts] = useState<DeliveryAttemptOut[] | null>(null);
  const load = () =>
    gql<{ webhookDeliveries: { data: DeliveryAttemptOut[] } }>(
      "query($id: String!) { webhookDeliveries(id: $id) { data { id deliveryId webhookId eventType try succeeded responseStatus result durationMs createdAt } } }",
      { id },
    ).then((d) => setAttempts(d.webhookDeliveries.data), (e: Error) => onNote({ kind: "error", text: t("common.error", { message: e.message }) }));
  useEffect(() => void load(), [id]);
  const replay = async (deliveryId: string) => {
    try {
      await gql("mutation($id: String!, $d: String!) { replayWebhookDelivery(id: $id, deliveryId: $d) { id } }", { id, d: deliveryId });
      onNote({ kind: "ok", text: t("dev.replayed") });
    } catch (e) {
      onNote({ kind: "error", text: t("common.error", { message: (e as Error).message }) });
    }
  };
  if (attempts === null) return <p role="status">{t("common.loading")}</p>;
  if (attempts.length === 0) return <p>{t("dev.noDeliveries")}</p>;
  return (
    <Table caption={t("dev.deliveries")} head={[t("activity.when"), t("dev.event"), t("dev.try"), t("dev.result"), t("dev.duration"), ""]}>
      {attempts.map((a) => (
        <tr key={a.id}>
          <td>{when(Date.parse(a.createdAt))}</td>
          <td><code>{a.eventType}</code></td>
          <td>{a.try}</td>
          <td class={a.succeeded ? undefined : "bad"}>{a.result}</td>
          <td>{a.durationMs} ms</td>
          <td><button type="button" class="secondary small" onClick={() => replay(a.deliveryId)}>{t("dev.replay")}</button></td>
        </tr>
      ))}
    </Table>
  );
}
