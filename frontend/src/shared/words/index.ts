// One catalogue of words per language for the application (and, as they move over, the
// other apps): `en.ts` is the reference, each other file is typed against it. Only the
// language in use is loaded (each file is its own chunk).
import { signal } from "@preact/signals";
import en, { type Words } from "./en";

export type { Words };
export type Key = keyof Words;

/** The 14 languages of `send.language`, each named in itself. */
export const LANGUAGES: [string, string][] = [
  ["en", "English"], ["es", "Español"], ["fr", "Français"], ["de", "Deutsch"], ["pt", "Português"],
  ["it", "Italiano"], ["nl", "Nederlands"], ["pl", "Polski"], ["tr", "Türkçe"], ["ru", "Русский"],
  ["ar", "العربية"], ["ja", "日本語"], ["zh", "中文"], ["ko", "한국어"],
];
const CODES = new Set(LANGUAGES.map(([c]) => c));

const loaders: Record<string, () => Promise<{ default: Words }>> = {
  es: () => import("./es"), fr: () => import("./fr"), de: () => import("./de"), pt: () => import("./pt"),
  it: () => import("./it"), nl: () => import("./nl"), pl: () => import("./pl"), tr: () => import("./tr"),
  ru: () => import("./ru"), ar: () => import("./ar"), ja: () => import("./ja"), zh: () => import("./zh"),
  ko: () => import("./ko"),
};

export const lang = signal("en");
const words = signal<Words>(en);

/** The browser's first language that is one of ours, else English. */
export function preferred(): string {
  for (const l of navigator.languages ?? [navigator.language]) {
    const code = l.toLowerCase().split("-")[0];
    if (CODES.has(code)) return code;
  }
  return "en";
}

/** Switches the page to `code`: its words, `lang` and `dir`. */
export async function use(code: string): Promise<void> {
  if (!CODES.has(code)) code = "en";
  const w = code === "en" ? en : (await loaders[code]()).default;
  words.value = w;
  lang.value = code;
  document.documentElement.lang = code;
  document.documentElement.dir = code === "ar" ? "rtl" : "ltr";
}

/** The words of `key` in the language in use, with `{name}` values filled in. */
export function t(key: Key, values: Record<string, string> = {}): string {
  return words.value[key].replace(/\{(\w+)\}/g, (m, name) => values[name] ?? m);
}

/** A moment (ms) as the language writes it, to the minute. */
export function when(ms: number): string {
  return new Intl.DateTimeFormat(lang.value, { dateStyle: "medium", timeStyle: "short" }).format(new Date(ms));
}
