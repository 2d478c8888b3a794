// The activity record: who changed what in the workspace, when and from where (owners and
// admins), newest first, fifty at a time.
import { useEffect, useState } from "preact/hooks";
import type { ActivityOut } from "../shared/api/graphql";
import { Notice, Table } from "../shared/ui";
import { t, when, type Key } from "../shared/words";
import { gql } from "./api";

const PAGE = 50;

/** A line's detail in words: a role (`member`) or a change (`admin→owner`). */
function detail(d: string): string {
  return d
    .split("→")
    .map((r) => (["owner", "admin", "member", "viewer"].includes(r) ? t(`role.${r}` as Key) : r))
    .join(" → ");
}

/** The actions the record has words for; another (a newer server's) is shown as it is. */
const KNOWN = new Set([
  "member.invited", "member.role_changed", "member.removed", "member.left", "key.created", "key.revoked", "passkey.added",
  "webhook.created", "webhook.rotated", "webhook.deleted", "approval.approved", "approval.declined",
  "email.wording_saved", "email.wording_reset", "email.unsuppressed",
  "settings.changed", "team.created", "team.deleted", "team.member_added", "team.member_removed",
]);
const KINDS = new Set(["invitation", "reminder", "completed", "declined", "voided", "expired", "code", "receipt"]);

function what(a: ActivityOut): string {
  if (!KNOWN.has(a.action)) return `${a.action} ${a.subject}`;
  // An email's wording is named by its kind, in the reader's words.
  const subject = a.action.startsWith("email.wording") && KINDS.has(a.subject) ? t(`email.kind.${a.subject}` as Key) : a.subject;
  return t(`action.${a.action}` as Key, { subject, detail: detail(a.detail) });
}

export function Activity() {
  const [lines, setLines] = useState<ActivityOut[] | null>(null);
  const [more, setMore] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const load = async (before?: number) => {
    try {
      const d = await gql<{ activity: ActivityOut[] }>(
        "query($b: Int, $l: Int) { activity(before: $b, limit: $l) { id actor actorName action subject detail clientIp createdAt } }",
        { b: before ?? null, l: PAGE },
      );
      setLines((old) => (before ? [...(old ?? []), ...d.activity] : d.activity));
      setMore(d.activity.length === PAGE);
    } catch (e) {
      setError((e as Error).message);
    }
  };
  useEffect(() => void load(), []);
  return (
    <>
      <h1>{t("activity.title")}</h1>
      <p>{t("activity.lead")}</p>
      {error && <Notice kind="error">{t("common.error", { message: error })}</Notice>}
      {lines === null ? (
        !error && <p role="status">{t("common.loading")}</p>
      ) : lines.length === 0 ? (
        <p>{t("activity.none")}</p>
      ) : (
        <Table caption={t("activity.title")} head={[t("activity.when"), t("activity.who"), t("activity.what"), t("activity.from")]}>
          {lines.map((a) => (
            <tr key={a.id}>
              <td>{when(a.createdAt)}</td>
              <td><bdi>{a.actorName ?? a.actor}</bdi></td>
              <td><bdi>{what(a)}</bdi></td>
              <td><bdi>{a.clientIp}</bdi></td>
            </tr>
          ))}
        </Table>
      )}
      {more && lines && (
        <div class="actions start">
          <button type="button" class="secondary" onClick={() => load(lines[lines.length - 1].createdAt)}>{t("activity.older")}</button>
        </div>
      )}
    </>
  );
}
