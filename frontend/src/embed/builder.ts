// The <signet-builder> element, for a caller's own website: a sandboxed frame showing the
// template builder, where a person writes a template and places its fields, for a session
// link (`POST /embedded/builder-session`).
//
//   <script src="https://signet.example.com/embed/builder.js"></script>
//   <signet-builder url="https://signet.example.com/builder/..."></signet-builder>
//
// It raises DOM events (CustomEvent, bubbling): `loaded`, `saved` (detail: `templateId`,
// `version` and `name`; once per save), `expired`, `error`, and grows to its content. The
// events are hints: confirm with GET /templates/{id}.

import { defineFrame } from "./frame";

defineFrame("signet-builder", ["loaded", "saved", "expired", "error"], "Write a template", "template builder");
