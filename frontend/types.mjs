// Writes src/shared/api/graphql.ts from ../schema.graphql: every object, input and enum of
// the schema as TypeScript, so the pages' types come from the server's schema rather than
// being copied by hand. `node types.mjs --check` fails when the committed file differs
// (the test suite runs it, beside build.mjs --check).
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const here = new URL(".", import.meta.url).pathname;
const sdl = readFileSync(join(here, "..", "schema.graphql"), "utf8");
const out = join(here, "src", "shared", "api", "graphql.ts");

const scalars = { String: "string", Int: "number", Float: "number", Boolean: "boolean", ID: "string", JSON: "unknown", JSONObject: "Record<string, unknown>" };

/** A GraphQL type reference (`[Foo!]!`) as TypeScript. */
function ts(ref) {
  ref = ref.trim();
  const required = ref.endsWith("!");
  if (required) ref = ref.slice(0, -1);
  let t;
  if (ref.startsWith("[")) t = `Array<${ts(ref.slice(1, -1))}>`;
  else t = scalars[ref] ?? ref;
  return required ? t : `${t} | null`;
}

// Descriptions ("""...""" and "...") are dropped; what is left is one definition a block.
const text = sdl.replace(/"""[\s\S]*?"""/g, "").replace(/^\s*"[^"\n]*"\s*$/gm, "");
const lines = ["// Written by frontend/types.mjs from schema.graphql; do not edit.", ""];
const block = /^(type|input|enum)\s+(\w+)[^{]*\{([^}]*)\}/gm;
const defs = [...text.matchAll(block)].sort((a, b) => a[2].localeCompare(b[2]));
for (const [, kind, name, body] of defs) {
  if (["Query", "Mutation", "Subscription"].includes(name)) continue;
  const members = body.split("\n").map((l) => l.trim()).filter(Boolean);
  if (kind === "enum") {
    lines.push(`export type ${name} = ${members.map((m) => JSON.stringify(m)).join(" | ")};`, "");
    continue;
  }
  lines.push(`export interface ${name} {`);
  for (const m of members) {
    // A field with arguments keeps only its answer's type.
    const f = m.match(/^(\w+)(\([^)]*\))?\s*:\s*([^=]+?)(\s*=.*)?$/);
    if (!f) continue;
    const type = ts(f[3]);
    const optional = kind === "input" && type.endsWith("| null") ? "?" : "";
    lines.push(`  ${f[1]}${optional}: ${type};`);
  }
  lines.push("}", "");
}
const result = lines.join("\n");
if (process.argv.includes("--check")) {
  let committed = "";
  try { committed = readFileSync(out, "utf8"); } catch {}
  if (committed !== result) {
    console.error("frontend/src/shared/api/graphql.ts differs from schema.graphql (run: cd frontend && node types.mjs)");
    process.exit(1);
  }
  console.log("frontend/src/shared/api/graphql.ts matches schema.graphql");
} else {
  writeFileSync(out, result);
}
