/**
 * Choosing a language: by locale code ("de", "de-AT"), by the numeric language id
 * authd's clients already use (English 3, German 6…), or from the browser's list.
 */
import { messages as english } from "./locales/en/index.js";
import { pseudoLocalize } from "./pseudo.js";
import type { LocaleCode, Messages } from "./types.js";

/** The numeric language ids and the locale each stands for. */
export const LANGUAGE_IDS: Readonly<Record<number, LocaleCode>> = Object.freeze({
  0: "ru",
  1: "uk",
  3: "en",
  4: "es",
  6: "de",
  15: "pl",
  16: "fr",
  82: "tr",
});

export const LOCALES: readonly LocaleCode[] = ["en", "ru", "uk", "es", "de", "pl", "fr", "tr"];

/** A locale code, a numeric language id, or "pseudo" for truncation checks. */
export type LocaleInput = LocaleCode | "pseudo" | (string & {}) | number;

function isLocale(value: string): value is LocaleCode {
  return (LOCALES as readonly string[]).includes(value);
}

/** The shipped locale `input` names, "pseudo", or null when it names none of them. */
export function resolveLocale(input: LocaleInput): LocaleCode | "pseudo" | null {
  if (typeof input === "number") return LANGUAGE_IDS[input] ?? null;
  const trimmed = input.trim().toLowerCase();
  if (trimmed === "pseudo") return "pseudo";
  if (/^\d+$/.test(trimmed)) return LANGUAGE_IDS[Number(trimmed)] ?? null;
  const base = trimmed.split(/[-_]/)[0] ?? "";
  return isLocale(base) ? base : null;
}

/**
 * The first shipped language in the user's order of preference: a list such as
 * `navigator.languages`, or an Accept-Language header (weights honoured). English
 * when none matches.
 */
export function negotiateLocale(preferred: readonly string[] | string | undefined): LocaleCode {
  const list =
    typeof preferred === "string"
      ? preferred
          .split(",")
          .map((part, index) => {
            const [tag = "", ...params] = part.trim().split(";");
            const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
            const weight = q ? Number(q.slice(2)) : 1;
            return { tag, weight: Number.isFinite(weight) ? weight : 0, index };
          })
          .filter((entry) => entry.weight > 0)
          .sort((a, b) => b.weight - a.weight || a.index - b.index)
          .map((entry) => entry.tag)
      : (preferred ?? []);
  for (const tag of list) {
    const code = resolveLocale(tag);
    if (code && code !== "pseudo") return code;
  }
  return "en";
}

/** The languages the browser prefers, or none outside a browser. */
export function browserLanguages(): readonly string[] {
  const { navigator } = globalThis as { navigator?: { languages?: readonly string[] } };
  return navigator?.languages ?? [];
}

/**
 * The strings of one language. English is in every bundle; the others are loaded on
 * first use, so an app pays only for the languages its users ask for.
 */
export async function loadMessages(locale: LocaleCode | "pseudo"): Promise<Messages> {
  switch (locale) {
    case "en":
      return english;
    case "pseudo":
      return pseudoLocalize(english);
    case "ru":
      return (await import("./locales/ru/index.js")).messages;
    case "uk":
      return (await import("./locales/uk/index.js")).messages;
    case "es":
      return (await import("./locales/es/index.js")).messages;
    case "de":
      return (await import("./locales/de/index.js")).messages;
    case "pl":
      return (await import("./locales/pl/index.js")).messages;
    case "fr":
      return (await import("./locales/fr/index.js")).messages;
    case "tr":
      return (await import("./locales/tr/index.js")).messages;
  }
}

export { english };
