// Builds the person-facing pages into dist/: content-hashed bundles, a manifest, and
// assets.rs, which the signet-frontend crate includes so the binary serves them without Node.
// The output depends only on the sources and the locked versions: `node build.mjs --check`
// fails when the committed dist/ differs from a fresh build (the test suite runs it).
import * as esbuild from "esbuild";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync, cpSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const here = new URL(".", import.meta.url).pathname;
const check = process.argv.includes("--check");
const out = check ? mkdtempSync(join(tmpdir(), "signet-dist-")) : join(here, "dist");

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

// What every page's build shares: minified modules, hashed names, Preact's JSX.
const page = {
  absWorkingDir: here,
  bundle: true,
  minify: true,
  format: "esm",
  target: "es2020",
  jsx: "automatic",
  jsxImportSource: "preact",
  entryNames: "[name]-[hash]",
  assetNames: "[name]-[hash]",
  outdir: out,
  metafile: true,
  legalComments: "none",
  charset: "utf8",
  logLevel: "warning",
};

const result = await esbuild.build({
  ...page,
  entryPoints: { sign: "src/sign/main.tsx" },
  // The handwriting faces are served by the binary from pdf/fonts, not bundled.
  external: ["/assets/*"],
});

// Scribe, the drafting frame: one small page, its 14 languages' words inside.
const scribeResult = await esbuild.build({
  ...page,
  entryPoints: { scribe: "src/scribe/main.tsx" },
});

// The builder frame: the TipTap editor over the source model, its 14 languages' words inside.
const builderResult = await esbuild.build({
  ...page,
  entryPoints: { builder: "src/builder/main.tsx" },
  splitting: true,
  chunkNames: "[name]-[hash]",
});

// The application: its words in every language but English are chunks of their own, loaded
// only for the language in use.
const appResult = await esbuild.build({
  ...page,
  entryPoints: { app: "src/app/main.tsx" },
  splitting: true,
  chunkNames: "app-[name]-[hash]",
});

// Loaders for other websites' pages: plain scripts (no module), no shared chunk.
await esbuild.build({
  absWorkingDir: here,
  entryPoints: {
    signing_embed: "src/embed/signing.ts",
    scribe_embed: "src/embed/scribe.ts",
    builder_embed: "src/embed/builder.ts",
  },
  bundle: true,
  minify: true,
  format: "iife",
  target: "es2020",
  entryNames: "[name]-[hash]",
  outdir: out,
  legalComments: "none",
  charset: "utf8",
  logLevel: "warning",
});

const types = { ".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8", ".woff2": "font/woff2" };
const files = readdirSync(out).filter((f) => !f.endsWith(".rs") && !f.endsWith(".json")).sort();
const manifest = {};
for (const f of files) {
  // `app-es-HASH.js` is `app-es.js`; `app-HASH.js` is `app.js`.
  const name = f.slice(0, f.lastIndexOf("-"));
  const ext = f.slice(f.lastIndexOf("."));
  manifest[name + ext] = f;
}
writeFileSync(join(out, "manifest.json"), JSON.stringify(manifest, null, 2) + "\n");
const rows = files.map((f) => {
  const ext = f.slice(f.lastIndexOf("."));
  return `    ("${f}", "${types[ext] ?? "application/octet-stream"}", include_bytes!("${f}")),`;
});
const logical = Object.entries(manifest).map(([k, v]) => `    ("${k}", "${v}"),`);
writeFileSync(
  join(out, "assets.rs"),
  `// Written by build.mjs; do not edit.\n` +
    `/// Every built file: its name, its content type, its bytes.\n` +
    `pub static FILES: &[(&str, &str, &[u8])] = &[\n${rows.join("\n")}\n];\n` +
    `/// Logical names (\`sign.js\`) to built names.\n` +
    `pub static MANIFEST: &[(&str, &str)] = &[\n${logical.join("\n")}\n];\n`,
);

if (check) {
  const committed = join(here, "dist");
  const a = readdirSync(out).sort();
  let b = [];
  try { b = readdirSync(committed).sort(); } catch {}
  const differ = [];
  if (a.join() !== b.join()) differ.push(`files: built ${a.join(", ")}; committed ${b.join(", ")}`);
  else for (const f of a) if (!readFileSync(join(out, f)).equals(readFileSync(join(committed, f)))) differ.push(f);
  rmSync(out, { recursive: true, force: true });
  if (differ.length) {
    console.error(`frontend/dist differs from a fresh build of frontend/src (run: cd frontend && npm run build):\n  ${differ.join("\n  ")}`);
    process.exit(1);
  }
  console.log("frontend/dist matches its sources");
} else {
  const sizes = Object.entries({ ...result.metafile.outputs, ...scribeResult.metafile.outputs, ...builderResult.metafile.outputs, ...appResult.metafile.outputs }).map(([f, o]) => `${f.split("/").pop()} ${o.bytes} B`);
  console.log(sizes.join("\n"));
}
