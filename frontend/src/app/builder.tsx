// The application's builder: the same builder as the frame's, loaded only when a person opens
// it (its editor is most of its weight), over the application's GraphQL with the session.
// A new template is saved at its first save, and each later save is its next version.
import { useEffect, useState } from "preact/hooks";
import type { JSONContent } from "@tiptap/core";
import { Notice } from "../shared/ui";
import { lang, t } from "../shared/words";
import type { BuilderApi, Saved, Stored } from "../builder/Builder";
import { gql } from "./api";

type Module = typeof import("../builder/Builder");
type Go = (to: string) => void;

const SAVED = "id version name";

/** Throws the builder's `Refused` for a GraphQL error, keeping a conflict a conflict. */
async function call<T>(m: Module, query: string, variables: Record<string, unknown>): Promise<T> {
  try {
    return await gql<T>(query, variables);
  } catch (e) {
    const kind = (e as { kind?: string }).kind;
    throw new m.Refused((e as Error).message, kind === "conflict" ? 409 : 400);
  }
}

function api(m: Module): BuilderApi {
  return {
    check: async (source: JSONContent) => (await call<{ checkDocument: Awaited<ReturnType<BuilderApi["check"]>> }>(m,
      "query($i: DocumentCheckInput!) { checkDocument(input: $i) { ok problems { path message } warnings { path message } roles questions } }",
      { i: { source, forTemplate: true } })).checkDocument,
    preview: async (source, paper, profile) => (await call<{ templatePreview: Awaited<ReturnType<BuilderApi["preview"]>> }>(m,
      "query($i: TemplatePreviewInput!) { templatePreview(input: $i) { pages { width height image } fields { name type role page x y width height } } }",
      { i: { source, paper, profile } })).templatePreview,
    create: async (name, source, paper, profile) => (await call<{ createTemplateFromSource: Saved }>(m,
      `mutation($i: TemplateSourceInput!) { createTemplateFromSource(input: $i) { ${SAVED} } }`,
      { i: { name, source, paper, profile } })).createTemplateFromSource,
    version: async (id, version, name, source, paper, profile) => (await call<{ createTemplateVersion: Saved }>(m,
      `mutation($id: String!, $i: TemplateVersionInput!) { createTemplateVersion(id: $id, input: $i) { ${SAVED} } }`,
      { id, i: { version, name, source, paper, profile } })).createTemplateVersion,
    load: async (id) => (await call<{ templateSource: Stored }>(m,
      "query($id: String!) { templateSource(id: $id) { id name kind version source paper profile } }", { id })).templateSource,
    upload: async (name, fileName, file) => (await call<{ createTemplateFromFile: Saved }>(m,
      `mutation($i: TemplateFileInput!) { createTemplateFromFile(input: $i) { ${SAVED} } }`,
      { i: { name, fileName, file, placeFields: true } })).createTemplateFromFile,
    page: async (id, page) => (await call<{ templatePage: { width: number; height: number; image: string | null } }>(m,
      "query($id: String!, $p: Int!) { templatePage(id: $id, page: $p) { width height image } }", { id, p: page })).templatePage,
  };
}

/** `/app/templates/new` and `/app/templates/{id}/edit`. */
export function TemplateBuilder({ id, go }: { id: string | null; go: Go }) {
  const [m, setM] = useState<Module | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  useEffect(() => {
    (async () => {
      const [builder, words] = await Promise.all([import("../builder/Builder"), import("../builder/words")]);
      await words.use(lang.value);
      setM(builder);
    })().catch((e) => setFailed(String(e)));
  }, []);
  const back = (
    <p><a href="/app/templates" onClick={(e) => { e.preventDefault(); go("/app/templates"); }}>{t("tpl.back")}</a></p>
  );
  if (failed) return <>{back}<Notice kind="error">{t("common.error", { message: failed })}</Notice></>;
  if (!m) return <>{back}<p role="status">{t("common.loading")}</p></>;
  return (
    <>
      {back}
      <h1 class="visually-hidden">{t("tpl.write")}</h1>
      <m.Builder api={api(m)} templateId={id}
        onSaved={(s) => history.replaceState(null, "", `/app/templates/${encodeURIComponent(s.id)}/edit`)} />
    </>
  );
}
