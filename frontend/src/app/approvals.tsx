// Approvals: the sends and templates of draft-only keys that wait for a person (owners and
// admins decide; the server refuses anyone else), in the mode the switch says. Approving a
// document's send sends it; declining leaves it a draft.
import { useEffect, useState } from "preact/hooks";
import type { ApprovalOut, ApprovalPageOut } from "../shared/api/graphql";
import { Confirm, Field, Notice, Table } from "../shared/ui";
import { t, when, type Key } from "../shared/words";
import { gql, mode } from "./api";

/** At most this many a page: each row's document is read in the same request, one root field
 * each, and an operation selects at most 20. */
const PAGE = 19;

type Row = ApprovalOut & { title?: string | null };

export function Approvals({ go, canDecide }: { go: (to: string) => void; canDecide: boolean }) {
  const [state, setState] = useState("pending");
  const [rows, setRows] = useState<Row[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [note, setNote] = useState<{ kind: "ok" | "error"; text: string } | null>(null);
  const [declining, setDeclining] = useState<Row | null>(null);
  const fail = (e: unknown) => setNote({ kind: "error", text: t("common.error", { message: (e as Error).message }) });

  const load = async (cursor: string | null) => {
    try {
      const d = await gql<{ approvals: ApprovalPageOut }>(
        "query($s: String, $l: Int, $c: String) { approvals(state: $s, limit: $l, cursor: $c) { data { id documentId templateId state createdAt decidedAt note } page { nextCursor } } }",
        { s: state, l: PAGE, c: cursor },
      );
      const page: Row[] = d.approvals.data;
      // The names of what waits, in one request.
      const asked = page.map((a, i) => (a.documentId ? `d${i}: document(id: ${JSON.stringify(a.documentId)}) { title }` : a.templateId ? `d${i}: template(id: ${JSON.stringify(a.templateId)}) { title: name }` : "")).filter(Boolean);
      if (asked.length) {
        const names = await gql<Record<string, { title: string } | null>>(`{ ${asked.join(" ")} }`).catch(() => ({}) as Record<string, { title: string } | null>);
        page.forEach((a, i) => (a.title = names[`d${i}`]?.title ?? null));
      }
      setRows((old) => (cursor ? [...(old ?? []), ...page] : page));
      setNext(d.approvals.page.nextCursor ?? null);
    } catch (e) {
      fail(e);
    }
  };
  useEffect(() => void load(null), [state, mode.value]);

  const decide = async (a: Row, approve: boolean, note?: string) => {
    try {
      const m = approve
        ? "mutation($id: String!) { approveSend(approvalId: $id, by: \"\") { id state } }"
        : "mutation($id: String!, $n: String) { declineSend(approvalId: $id, by: \"\", note: $n) { id state } }";
      await gql(m, { id: a.id, n: note || null });
      setNote({ kind: "ok", text: approve ? t("approvals.approved", { name: a.title ?? a.id }) : t("approvals.declined", { name: a.title ?? a.id }) });
      await load(null);
    } catch (e) {
      fail(e);
    }
  };

  const link = (a: Row) =>
    a.documentId ? (
      <a href={`/app/documents/${encodeURIComponent(a.documentId)}`} onClick={(e) => { e.preventDefault(); go(`/app/documents/${encodeURIComponent(a.documentId!)}`); }}><bdi>{a.title ?? a.documentId}</bdi></a>
    ) : (
      <bdi>{a.title ?? a.templateId}</bdi>
    );

  return (
    <>
      <h1>{t("approvals.title")}</h1>
      <p>{t("approvals.lead")}</p>
      {note && <Notice kind={note.kind}>{note.text}</Notice>}
      <div class="segmented" role="group" aria-label={t("docs.state")}>
        {["pending", "approved", "declined", "withdrawn"].map((s) => (
          <button type="button" key={s} aria-pressed={state === s} onClick={() => setState(s)}>{t(`approval.${s}` as Key)}</button>
        ))}
      </div>
      {rows === null ? (
        <p role="status">{t("common.loading")}</p>
      ) : rows.length === 0 ? (
        <p>{t("approvals.none")}</p>
      ) : (
        <Table caption={t("approvals.title")} head={[t("approvals.what"), t("approvals.kind"), t("approvals.asked"), state === "pending" ? "" : t("approvals.decided")]}>
          {rows.map((a) => (
            <tr key={a.id}>
              <td>{link(a)}{a.note && <div class="hint"><bdi>{a.note}</bdi></div>}</td>
              <td>{a.documentId ? t("approvals.send") : t("approvals.template")}</td>
              <td>{when(Date.parse(a.createdAt))}</td>
              <td class="row-actions">
                {a.state === "pending" && canDecide ? (
                  <>
                    <button type="button" class="primary small" onClick={() => decide(a, true)}>{t("approvals.approve")}</button>
                    <button type="button" class="secondary small" onClick={() => setDeclining(a)}>{t("approvals.decline")}</button>
                  </>
                ) : (
                  a.decidedAt && when(Date.parse(a.decidedAt))
                )}
              </td>
            </tr>
          ))}
        </Table>
      )}
      {next && rows && (
        <div class="actions start">
          <button type="button" class="secondary" onClick={() => load(next)}>{t("activity.older")}</button>
        </div>
      )}
      {declining && <Decline row={declining} onDecline={(note) => { setDeclining(null); void decide(declining, false, note); }} onCancel={() => setDeclining(null)} />}
    </>
  );
}

/** Declining may say why, for whoever asked (kept with the approval). */
function Decline({ row, onDecline, onCancel }: { row: Row; onDecline: (note: string) => void; onCancel: () => void }) {
  const [note, setNote] = useState("");
  return (
    <Confirm title={t("approvals.declineTitle", { name: row.title ?? row.id })} text={t("approvals.declineText")}
      confirm={t("approvals.decline")} cancel={t("common.cancel")} onConfirm={() => onDecline(note.trim())} onCancel={onCancel}>
      <Field label={t("approvals.note")}>
        {(id) => <textarea id={id} rows={3} maxLength={2000} value={note} onInput={(e) => setNote(e.currentTarget.value)} />}
      </Field>
    </Confirm>
  );
}
