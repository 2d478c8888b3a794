// The <signet-scribe> element, for a caller's own website: a sandboxed frame showing Scribe,
// where a person drafts a document from a play, for a session link
// (`POST /embedded/scribe-session`).
//
//   <script src="https://signet.example.com/embed/scribe.js"></script>
//   <signet-scribe url="https://signet.example.com/scribe/..."></signet-scribe>
//
// It raises DOM events (CustomEvent, bubbling): `loaded`, `drafted` (detail: `draftId`, the
// new draft document's id, and `play`), `expired`, `error`, and grows to its content. The
// events are hints: confirm with GET /documents/{id}.

import { defineFrame } from "./frame";

defineFrame("signet-scribe", ["loaded", "drafted", "expired", "error"], "Draft a document", "drafting page");
