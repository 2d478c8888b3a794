// Type-checked against the built package (tests/it/clients.rs runs tsc over it): the README's
// calls compile, and their answers have the generated types.
import { Signet, SignetError, verifyWebhook, type Schemas } from "signet-client";
import { saveAuditLog, saveSignedPdf } from "signet-client/node";

export async function usage(signet: Signet): Promise<string[]> {
  const doc: Schemas["DocumentOut"] = await signet.post("/api/v1/documents", {
    body: {
      title: "Services agreement",
      source: { type: "doc", content: [{ type: "signatureBlock", attrs: { role: "client" } }] },
      people: [{ name: "Ada Lovelace", email: "ada@example.com", role: "client" }],
    },
  });
  const same: Schemas["DocumentOut"] = await signet.get("/api/v1/documents/{id}", { params: { path: { id: doc.id } } });
  const fromTemplate = await signet.post("/api/v1/templates/{id}/documents", {
    params: { path: { id: "tpl_1" } },
    body: { people: [{ name: "Ada", email: "ada@example.com", role: "tenant" }], sendNow: true },
  });
  const ids: string[] = [same.id, fromTemplate.id];
  for await (const d of signet.each("/api/v1/documents", { params: { query: { state: "sent", metadata: { deal: "42" } } } })) {
    const typed: Schemas["DocumentOut"] = d;
    ids.push(typed.id);
  }
  for await (const hook of signet.each("/api/v1/webhooks")) ids.push(hook.id);
  const pdf: Uint8Array = await signet.signedPdf(doc.id);
  ids.push(String(pdf.length));
  await saveSignedPdf(signet, doc.id, "agreement.pdf");
  await saveAuditLog(signet, doc.id, "agreement-audit.csv");
  try {
    await signet.post("/api/v1/documents/{id}/void", { params: { path: { id: doc.id } }, body: { reason: "wrong" } });
  } catch (e) {
    if (e instanceof SignetError) ids.push(e.kind, e.requestId ?? "", String(e.retryable));
  }
  const event = await verifyWebhook("{}", new Headers(), ["whsec_a", "whsec_b"]);
  ids.push(event.type, event.data.document?.id ?? "");
  return ids;
}
