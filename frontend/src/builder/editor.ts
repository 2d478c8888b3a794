// The builder's editor: TipTap over ProseMirror, whose document is the source model itself
// (`editor.getJSON()` is what POST /templates/source takes). Three nodes of our own —
// `fieldTag` (inline), `variableChip` (inline) and `signatureBlock` (block) — and Heading
// extended with `audience` (a sender-only section). Every attribute defaults to null, which
// the source model reads as "left out", so nothing is written that the person did not set.
import { Editor, Extension, Mark, Node, mergeAttributes } from "@tiptap/core";
import type { JSONContent } from "@tiptap/core";
import { Plugin, PluginKey } from "@tiptap/pm/state";
import type { EditorState } from "@tiptap/pm/state";
import { Decoration, DecorationSet } from "@tiptap/pm/view";
import type { Node as PmNode } from "@tiptap/pm/model";
import { Document } from "@tiptap/extension-document";
import { Paragraph } from "@tiptap/extension-paragraph";
import { Text } from "@tiptap/extension-text";
import { Bold } from "@tiptap/extension-bold";
import { Italic } from "@tiptap/extension-italic";
import { Underline } from "@tiptap/extension-underline";
import { Strike } from "@tiptap/extension-strike";
import { Blockquote } from "@tiptap/extension-blockquote";
import { BulletList, ListItem, ListKeymap, OrderedList } from "@tiptap/extension-list";
import { HardBreak } from "@tiptap/extension-hard-break";
import { HorizontalRule } from "@tiptap/extension-horizontal-rule";
import { CodeBlock } from "@tiptap/extension-code-block";
import { Dropcursor, Gapcursor, UndoRedo } from "@tiptap/extensions";
import { Heading } from "@tiptap/extension-heading";
import { Table, TableCell, TableHeader, TableRow } from "@tiptap/extension-table";
import { Image } from "@tiptap/extension-image";
import { t } from "./words";

export const FIELD_TYPES = [
  "signature", "initials", "text", "date", "checkbox", "radio", "select",
  "number", "email", "name", "company", "phone", "payment",
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** A field's attributes as the source model names them. */
export const FIELD_ATTRS = [
  "name", "type", "role", "required", "autofill", "editable", "placeholder", "tooltip",
  "locked", "options", "default", "amount", "currency", "description", "formula",
] as const;
export type FieldAttrs = { [K in (typeof FIELD_ATTRS)[number]]?: unknown } & { name: string; type: FieldType; role: string };

const typeName = (type: string) => t(`type_${type}` as "type_text");

/** Attributes kept as they are and written to the DOM as `data-*`, so copy and paste keeps
 * them within the editor. */
function kept(names: readonly string[]) {
  return Object.fromEntries(names.map((n) => [n, {
    default: null,
    parseHTML: (el: HTMLElement) => {
      const v = el.getAttribute(`data-${n}`);
      if (v === null) return null;
      try { return JSON.parse(v); } catch { return v; }
    },
    renderHTML: (attrs: Record<string, unknown>) => (attrs[n] == null ? {} : { [`data-${n}`]: typeof attrs[n] === "string" ? attrs[n] : JSON.stringify(attrs[n]) }),
  }]));
}

export const FieldTag = Node.create({
  name: "fieldTag",
  group: "inline",
  inline: true,
  atom: true,
  selectable: true,
  draggable: true,
  addAttributes: () => kept(FIELD_ATTRS),
  parseHTML: () => [{ tag: "span[data-field-tag]" }],
  renderHTML({ node, HTMLAttributes }) {
    const a = node.attrs;
    return ["span", mergeAttributes(HTMLAttributes, {
      "data-field-tag": "",
      class: `field-tag type-${a.type}`,
      "data-seat": a.role ?? "",
      title: t("fieldOf", { type: typeName(String(a.type)), seat: String(a.role ?? "") }),
    }), `${a.name ?? "?"}`];
  },
});

export const VariableChip = Node.create({
  name: "variableChip",
  group: "inline",
  inline: true,
  atom: true,
  selectable: true,
  addAttributes: () => kept(["name"]),
  parseHTML: () => [{ tag: "span[data-variable-chip]" }],
  renderHTML({ node, HTMLAttributes }) {
    const name = String(node.attrs.name ?? "");
    const question = name.startsWith("custom.");
    return ["span", mergeAttributes(HTMLAttributes, {
      "data-variable-chip": "",
      class: question ? "chip question" : "chip",
    }), question ? name.slice(7) : name];
  },
});

export const SignatureBlock = Node.create({
  name: "signatureBlock",
  group: "block",
  atom: true,
  selectable: true,
  draggable: true,
  addAttributes: () => kept(["role"]),
  parseHTML: () => [{ tag: "div[data-signature-block]" }],
  renderHTML({ node, HTMLAttributes }) {
    return ["div", mergeAttributes(HTMLAttributes, {
      "data-signature-block": "",
      class: "signature-block",
      "data-seat": node.attrs.role ?? "",
    }), t("signsHere", { seat: String(node.attrs.role ?? "?") })];
  },
});

/** Headings of levels 1 to 4, with `audience: "sender"` for a sender-only section. */
export const SourceHeading = Heading.extend({
  addAttributes() {
    return {
      ...this.parent?.(),
      audience: {
        default: null,
        parseHTML: (el: HTMLElement) => el.getAttribute("data-audience"),
        renderHTML: (a: Record<string, unknown>) => (a.audience ? { "data-audience": a.audience } : {}),
      },
    };
  },
}).configure({ levels: [1, 2, 3, 4] });

/** A table as the source model has it: rows and cells, no widths. TipTap's own writes the
 * widths as a `style` attribute, which the page's policy refuses. */
const SourceTable = Table.extend({
  renderHTML({ HTMLAttributes }) {
    return ["table", mergeAttributes(this.options.HTMLAttributes, HTMLAttributes), ["tbody", 0]];
  },
}).configure({ resizable: false });

/** Where a paragraph's or heading's lines sit (`textAlign`), kept as the source has it and
 * shown with a class (TipTap's TextAlign writes a `style` attribute, which the page's policy
 * refuses). */
const Align = Extension.create({
  name: "textAlign",
  addGlobalAttributes: () => [{
    types: ["heading", "paragraph"],
    attributes: {
      textAlign: {
        default: null,
        parseHTML: (el: HTMLElement) => el.getAttribute("data-align"),
        renderHTML: (a: Record<string, unknown>) => (a.textAlign ? { "data-align": a.textAlign } : {}),
      },
    },
  }],
});

const LINK = /^(https?:\/\/|mailto:)/i;

/** A link: an http, https or mailto address the person typed (the source model refuses
 * others). A mark of our own rather than TipTap's Link, which brings a URL finder the builder
 * does not use (20 KB). */
export const Link = Mark.create({
  name: "link",
  inclusive: false,
  addAttributes: () => ({ href: { default: null } }),
  parseHTML: () => [{
    tag: "a[href]",
    // Pasted links keep only the kinds the source model takes; others become plain words.
    getAttrs: (el) => {
      const href = (el as HTMLElement).getAttribute("href") ?? "";
      return LINK.test(href) ? { href } : false;
    },
  }],
  renderHTML: ({ HTMLAttributes }) => {
    const href = String(HTMLAttributes.href ?? "");
    return ["a", mergeAttributes(HTMLAttributes, { href: LINK.test(href) ? href : null, rel: "noopener noreferrer nofollow" }), 0];
  },
});

/** The check's problems, shown at their place: a decoration on each node a problem names. */
export const problemsKey = new PluginKey<DecorationSet>("problems");
const Problems = Extension.create({
  name: "problems",
  addProseMirrorPlugins() {
    return [new Plugin<DecorationSet>({
      key: problemsKey,
      state: {
        init: () => DecorationSet.empty,
        apply(tr, old) {
          const set = tr.getMeta(problemsKey) as DecorationSet | undefined;
          return set ?? old.map(tr.mapping, tr.doc);
        },
      },
      props: { decorations: (state) => problemsKey.getState(state) },
    })];
  },
});

/** Makes the editor in `element`, starting from `content`. */
export function makeEditor(element: HTMLElement, content: JSONContent | null, onChange: () => void, label: string): Editor {
  return new Editor({
    element,
    content: content ?? { type: "doc", content: [{ type: "paragraph" }] },
    // The page's policy allows no inline styles: ProseMirror's rules are in builder.css.
    injectCSS: false,
    extensions: [
      // What the source model has, each on its own (TipTap's StarterKit would bring inline
      // code, which the model has not, and a URL finder).
      Document, Paragraph, Text, Bold, Italic, Underline, Strike, Blockquote,
      BulletList, OrderedList, ListItem, ListKeymap, HardBreak, HorizontalRule, CodeBlock,
      Dropcursor, Gapcursor, UndoRedo,
      SourceHeading,
      Link,
      SourceTable, TableRow, TableHeader, TableCell, Align,
      Image.configure({ allowBase64: true }),
      FieldTag,
      VariableChip,
      SignatureBlock,
      Problems,
    ],
    editorProps: {
      attributes: { "aria-label": label, "aria-multiline": "true", role: "textbox", class: "page-words" },
    },
    onUpdate: onChange,
  });
}

/** The position of the node at a check's path (`source.content[3].content[1]`), if there is
 * one; a path into attributes names its node. */
export function positionOf(doc: PmNode, path: string): { from: number; node: PmNode } | null {
  const steps = [...path.matchAll(/content\[(\d+)\]/g)].map((m) => Number(m[1]));
  if (steps.length === 0) return null;
  let node = doc;
  let from = -1; // the position before `node`; the doc has none
  for (const i of steps) {
    if (i >= node.childCount) break;
    let at = from + 1;
    for (let k = 0; k < i; k++) at += node.child(k).nodeSize;
    from = at;
    node = node.child(i);
  }
  return from < 0 ? null : { from, node };
}

/** Decorations for the problems' paths: the named node outlined, with its message. */
export function problemDecorations(state: EditorState, problems: { path: string; message: string }[]): DecorationSet {
  const marks: Decoration[] = [];
  for (const p of problems) {
    const at = positionOf(state.doc, p.path);
    if (!at) continue;
    const attrs = { class: "has-problem", title: p.message };
    marks.push(Decoration.node(at.from, at.from + at.node.nodeSize, attrs));
  }
  return DecorationSet.create(state.doc, marks);
}

export type Found = { pos: number; node: PmNode };

/** Every node of `type` in the document, in order. */
export function nodesOf(doc: PmNode, type: string): Found[] {
  const out: Found[] = [];
  doc.descendants((node, pos) => {
    if (node.type.name === type) out.push({ pos, node });
  });
  return out;
}

/** The seats the words name, in the order they first appear. */
export function seatsIn(doc: PmNode): string[] {
  const seats: string[] = [];
  doc.descendants((node) => {
    const role = node.type.name === "fieldTag" || node.type.name === "signatureBlock" ? node.attrs.role : null;
    if (typeof role === "string" && role && !seats.includes(role)) seats.push(role);
  });
  return seats;
}

/** The questions (`custom.<key>` chips) the words ask, in order. */
export function questionsIn(doc: PmNode): string[] {
  const out: string[] = [];
  for (const { node } of nodesOf(doc, "variableChip")) {
    const n = String(node.attrs.name ?? "");
    if (n.startsWith("custom.") && !out.includes(n.slice(7))) out.push(n.slice(7));
  }
  return out;
}

/** Renames a seat everywhere: fields, signature blocks and `seat.name`-style chips. */
export function renameSeat(editor: Editor, from: string, to: string) {
  const tr = editor.state.tr;
  editor.state.doc.descendants((node, pos) => {
    const name = node.type.name;
    if ((name === "fieldTag" || name === "signatureBlock") && node.attrs.role === from) {
      tr.setNodeMarkup(pos, undefined, { ...node.attrs, role: to });
    } else if (name === "variableChip" && typeof node.attrs.name === "string" && node.attrs.name.startsWith(`${from}.`)) {
      tr.setNodeMarkup(pos, undefined, { ...node.attrs, name: to + node.attrs.name.slice(from.length) });
    }
  });
  editor.view.dispatch(tr);
}

/** A name for a new field of `type` that no other field has. */
export function freshName(doc: PmNode, type: string, seat: string): string {
  const taken = new Set(nodesOf(doc, "fieldTag").map((f) => String(f.node.attrs.name ?? "").toLowerCase()));
  const base = `${typeName(type)} (${seat})`;
  if (!taken.has(base.toLowerCase())) return base;
  for (let i = 2; ; i++) if (!taken.has(`${base} ${i}`.toLowerCase())) return `${base} ${i}`;
}

/** The editor's words as the source model: TipTap's JSON with empty attributes left out. */
export function sourceOf(editor: Editor): JSONContent {
  const clean = (n: JSONContent): JSONContent => {
    const out: JSONContent = { type: n.type };
    if (n.attrs) {
      const attrs = Object.fromEntries(Object.entries(n.attrs).filter(([, v]) => v !== null && v !== undefined));
      if (Object.keys(attrs).length) out.attrs = attrs;
    }
    if (n.marks?.length) out.marks = n.marks;
    if (n.text !== undefined) out.text = n.text;
    if (n.content) out.content = n.content.map(clean);
    return out;
  };
  return clean(editor.getJSON());
}
