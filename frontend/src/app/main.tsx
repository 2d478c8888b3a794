// The application: the people of a workspace run it in the browser. Signing in, then the
// shell (the workspace switcher, the screens their role may see, signing out) over GraphQL
// with the session cookie. Every rule is the server's; the page shows only what the
// person's scopes allow.
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import { signal } from "@preact/signals";
import type { MeOut } from "../shared/api/graphql";
import { Notice } from "../shared/ui";
import { preferred, t, use } from "../shared/words";
import { Account } from "./account";
import { Activity } from "./activity";
import { Failed, gql, mode, setMode, signOut } from "./api";
import { Approvals } from "./approvals";
import { Developers } from "./developers";
import { Documents } from "./documents";
import { Email } from "./email";
import { Settings } from "./settings";
import { Templates } from "./templates";
import { People } from "./people";
import { LinkPage, SignIn } from "./signin";
import "./app.css";
import "../builder/editor.css";

const ME = "{ me { person { id email name language } role workspace { id name role } workspaces { id name role } scopes testMode } }";

const path = signal(location.pathname);
const hash = signal(location.hash);
addEventListener("popstate", () => (path.value = location.pathname));
// A sign-in link opened in a tab already on the sign-in page changes only the fragment.
addEventListener("hashchange", () => (hash.value = location.hash));

function go(to: string) {
  history.pushState(null, "", to);
  path.value = to;
  // The new screen is read from its start: focus moves there without scrolling past the bar.
  scrollTo(0, 0);
  document.getElementById("main")?.focus({ preventScroll: true });
}

interface Screen {
  path: string;
  label: () => string;
  /** The scope the screen's reads need. */
  needs: string | null;
}

const SCREENS: Screen[] = [
  { path: "/app/documents", label: () => t("nav.documents"), needs: "documents:read" },
  { path: "/app/templates", label: () => t("nav.templates"), needs: "templates:read" },
  { path: "/app/approvals", label: () => t("nav.approvals"), needs: "documents:read" },
  { path: "/app/people", label: () => t("nav.people"), needs: "people:read" },
  { path: "/app/email", label: () => t("nav.email"), needs: "notifications:read" },
  { path: "/app/developers", label: () => t("nav.developers"), needs: "settings:read" },
  { path: "/app/activity", label: () => t("nav.activity"), needs: "settings:read" },
  { path: "/app/settings", label: () => t("nav.settings"), needs: "settings:read" },
  { path: "/app/account", label: () => t("nav.account"), needs: null },
];

function Shell() {
  const [me, setMe] = useState<MeOut | null>(null);
  // On a phone the screens sit behind one button; opening a screen closes it.
  const [menu, setMenu] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const load = async () => {
    try {
      const d = await gql<{ me: MeOut }>(ME);
      await use(d.me.person.language);
      setMe(d.me);
    } catch (e) {
      if (e instanceof Failed && e.status === 401) location.replace("/app/sign-in");
      else setError((e as Error).message);
    }
  };
  useEffect(() => void load(), []);
  if (error) return <main class="narrow" id="main"><Notice kind="error">{t("common.error", { message: error })}</Notice></main>;
  if (!me) return <p class="loading" role="status">{t("common.loading")}</p>;

  // The workspace's own test mode: every call works on test documents, whatever the switch.
  const pinned = me.testMode;
  const screens = SCREENS.filter((s) => !s.needs || me.scopes.includes(s.needs));
  const here = screens.find((s) => path.value.startsWith(s.path)) ?? screens[0];
  const switchTo = async (id: string) => {
    try {
      await gql("mutation($w: String!) { switchWorkspace(workspaceId: $w) }", { w: id });
      location.assign("/app");
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const leave = async () => {
    await signOut();
    location.assign("/app/sign-in");
  };
  return (
    <>
      <header class="top">
        <a class="brand" href="/app">{t("app.name")}</a>
        {me.workspaces.length > 1 ? (
          <label class="switcher">
            <span class="visually-hidden">{t("nav.workspace")}</span>
            <select value={me.workspace.id} onChange={(e) => switchTo(e.currentTarget.value)}>
              {me.workspaces.map((w) => <option value={w.id} key={w.id}>{w.name}</option>)}
            </select>
          </label>
        ) : (
          <span class="workspace"><bdi>{me.workspace.name}</bdi></span>
        )}
        <button type="button" class="menu-button secondary small" aria-expanded={menu} aria-controls="screens" onClick={() => setMenu(!menu)}>
          {t("nav.menu")}: {here.label()}
        </button>
        <nav id="screens" aria-label={t("nav.label")} class={menu ? "open" : undefined}>
          {screens.map((s) => (
            <a key={s.path} href={s.path} aria-current={s === here ? "page" : undefined}
              onClick={(e) => { e.preventDefault(); setMenu(false); go(s.path); }}>{s.label()}</a>
          ))}
        </nav>
        <button type="button" class={`mode-switch ${pinned ? "test" : mode.value}`} aria-pressed={pinned || mode.value === "test"} disabled={pinned}
          onClick={() => setMode(mode.value === "test" ? "live" : "test")}>{t("mode.test")}</button>
        <span class="who"><bdi>{me.person.name}</bdi></span>
        <button type="button" class="secondary small" onClick={leave}>{t("nav.signOut")}</button>
      </header>
      {pinned ? <p class="test-band" role="status">{t("mode.pinned")}</p> : mode.value === "test" && <p class="test-band" role="status">{t("mode.band")}</p>}
      <main id="main" tabIndex={-1}>
        {here.path === "/app/documents" && <Documents route={path.value} go={go} canWrite={me.scopes.includes("documents:write")} />}
        {here.path === "/app/templates" && <Templates route={path.value} go={go} canWrite={me.scopes.includes("templates:write")} />}
        {here.path === "/app/approvals" && <Approvals go={go} canDecide={me.role === "owner" || me.role === "admin"} />}
        {here.path === "/app/people" && <People me={me} />}
        {here.path === "/app/email" && <Email canWrite={me.scopes.includes("notifications:write")} />}
        {here.path === "/app/developers" && <Developers canKeys={me.role === "owner" || me.role === "admin"} canHooks={me.scopes.includes("webhooks:write")} />}
        {here.path === "/app/activity" && <Activity />}
        {here.path === "/app/account" && <Account me={me} onChange={load} />}
        {here.path === "/app/settings" && <Settings onChanged={load} />}
      </main>
    </>
  );
}

function App() {
  const token = hash.value.slice(1);
  if (path.value.startsWith("/app/sign-in")) return token ? <LinkPage token={token} /> : <SignIn />;
  return <Shell />;
}

const root = document.getElementById("app");
if (root) {
  // Before anyone is known, the browser's language; once signed in, the person's.
  use(preferred()).finally(() => {
    root.textContent = "";
    render(<App />, root);
  });
}
