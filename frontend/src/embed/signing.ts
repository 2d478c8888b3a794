// The <signet-signing> element, for a caller's own website: a sandboxed frame showing the
// embedded signing page of a session link (`POST /documents/{id}/embed-session`).
//
//   <script src="https://signet.example.com/embed/signing.js"></script>
//   <signet-signing url="https://signet.example.com/e/..."></signet-signing>
//
// It raises DOM events (CustomEvent, bubbling): `loaded`, `ready` (the first page is visible),
// `completed`, `declined`, `expired`, `error`, and grows to its content. The events are hints:
// confirm the outcome with a webhook or GET /documents/{id}. Messages are taken only from the
// frame itself, from the link's own origin.

import { defineFrame } from "./frame";

defineFrame("signet-signing", ["loaded", "ready", "completed", "declined", "expired", "error"], "Sign the document", "signing page");
