/**
 * Every language has every string: each error code the server can answer, the client's
 * own codes, and every key of every group, translated (not left in English) and with
 * no key the English strings do not have.
 */
import { describe, expect, it } from "vitest";
import { ERROR_CATALOGUE } from "../../server/errors.js";
import { SOCIAL_REDIRECT_ERRORS } from "../../server/social/redirect-errors.js";
import { english, LOCALES, loadMessages } from "../src/i18n/locale.js";
import type { LocaleCode } from "../src/i18n/types.js";

/** Codes the client makes up itself: no answer, or an answer that is not authd's. */
const CLIENT_CODES = ["NETWORK_ERROR", "INVALID_RESPONSE", "HTTP_ERROR"];

/**
 * Strings that are rightly the same as English, as "<locale>:<path>". Keep this tiny:
 * each entry is a word the language really shares with English, never a string
 * someone forgot to translate.
 */
const SAME_AS_ENGLISH = new Set<string>([
  // German writes a person's name field as "Name", exactly like English.
  "de:common.name",
  // German borrowed "Team" and its plural "Teams" from English.
  "de:organization.fields.team",
  "de:teams.title",
  // German calls a web browser "Browser".
  "de:account.sessions.unknownBrowser",
  // French spells "Invitation(s)" like English.
  "fr:invitations.title",
  "fr:invitations.page.title",
]);

const OTHER_LOCALES = LOCALES.filter((code) => code !== "en");

/**
 * A value for any argument a message function takes: reads as "7" (a string, with the
 * string methods) and as the number 7 in arithmetic and plural rules, so the walk needs
 * no list of argument names and still covers groups added later.
 */
function sampleArgs(value: number): unknown {
  const sample = Object.assign(new String(String(value)), { valueOf: () => value });
  return new Proxy({}, { get: (_target, key) => (typeof key === "string" ? sample : undefined) });
}

const SAMPLES = [sampleArgs(1), sampleArgs(7)];

interface Leaf {
  path: string;
  /** The texts it shows: one for a string, one per sample for a function. */
  texts: string[];
}

type Shape = "string" | "function" | "group";

function shapeOf(value: unknown): Shape | "other" {
  if (typeof value === "string") return "string";
  if (typeof value === "function") return "function";
  if (typeof value === "object" && value !== null) return "group";
  return "other";
}

/** Every string of a message tree by dotted path; functions called with the samples. */
function leaves(tree: unknown, prefix = ""): Map<string, Leaf> {
  const found = new Map<string, Leaf>();
  for (const [key, value] of Object.entries(tree as Record<string, unknown>)) {
    const path = prefix ? `${prefix}.${key}` : key;
    const shape = shapeOf(value);
    if (shape === "group") {
      for (const [inner, leaf] of leaves(value, path)) found.set(inner, leaf);
    } else if (shape === "function") {
      const message = value as (args: unknown) => unknown;
      found.set(path, { path, texts: SAMPLES.map((args) => String(message(args))) });
    } else {
      found.set(path, { path, texts: [String(value)] });
    }
  }
  return found;
}

/** Paths and their shape (string, function or group), to compare two trees' keys. */
function shapes(tree: unknown, prefix = ""): Map<string, string> {
  const found = new Map<string, string>();
  for (const [key, value] of Object.entries(tree as Record<string, unknown>)) {
    const path = prefix ? `${prefix}.${key}` : key;
    found.set(path, shapeOf(value));
    if (shapeOf(value) === "group") for (const entry of shapes(value, path)) found.set(...entry);
  }
  return found;
}

/** What is wrong with one language's strings compared with English, one line per problem. */
function problems(locale: string, messages: unknown, reference: unknown = english): string[] {
  const found: string[] = [];
  const expected = shapes(reference);
  const actual = shapes(messages);
  for (const [path, shape] of expected) {
    const theirs = actual.get(path);
    if (theirs === undefined) found.push(`${locale}: missing ${path}`);
    else if (theirs !== shape) found.push(`${locale}: ${path} is a ${theirs}, English a ${shape}`);
  }
  for (const path of actual.keys()) {
    if (!expected.has(path)) found.push(`${locale}: ${path} is not in English`);
  }
  const englishLeaves = leaves(reference);
  for (const [path, leaf] of leaves(messages)) {
    for (const text of leaf.texts) {
      if (text.trim() === "") found.push(`${locale}: ${path} is empty`);
      if (/undefined|\[object |NaN/.test(text)) found.push(`${locale}: ${path} shows "${text}"`);
    }
    const theirs = englishLeaves.get(path);
    if (
      locale !== "en" &&
      theirs &&
      !SAME_AS_ENGLISH.has(`${locale}:${path}`) &&
      leaf.texts.some((text, index) => text === theirs.texts[index])
    ) {
      found.push(`${locale}: ${path} is still English: "${leaf.texts.join(" / ")}"`);
    }
  }
  return found;
}

const loaded = Object.fromEntries(
  await Promise.all(LOCALES.map(async (code) => [code, await loadMessages(code)] as const)),
) as Record<LocaleCode, Awaited<ReturnType<typeof loadMessages>>>;

describe("the message catalogue", () => {
  // A sign-in that comes back without signing in carries one of these in the address
  // (the kit looks them up in upper case), or the provider's own OAuth refusal.
  const redirectCodes = [
    ...SOCIAL_REDIRECT_ERRORS.map((code) => code.toUpperCase()),
    "ACCESS_DENIED",
  ];
  const serverCodes = [...new Set([...Object.keys(ERROR_CATALOGUE), ...redirectCodes])];

  it("knows the server's codes", () => {
    // Guards the import: an empty catalogue would make the checks below pass vacuously.
    expect(serverCodes.length).toBeGreaterThan(100);
    expect(serverCodes).toContain("INVALID_EMAIL_OR_PASSWORD");
  });

  it.each(LOCALES)(
    "%s has a sentence for every error code the server or client can answer",
    (code) => {
      const errors = loaded[code].errors as Readonly<Record<string, unknown>>;
      const missing = [...serverCodes, ...CLIENT_CODES].filter(
        (key) => typeof errors[key] !== "string" || (errors[key] as string).trim() === "",
      );
      expect(missing).toEqual([]);
    },
  );

  it("English has no error sentence for a code neither side uses", () => {
    const known = new Set([...serverCodes, ...CLIENT_CODES]);
    expect(Object.keys(english.errors).filter((key) => !known.has(key))).toEqual([]);
  });

  it("English has no empty string", () => {
    expect(problems("en", english)).toEqual([]);
  });

  it.each(OTHER_LOCALES)("%s has exactly the English keys, all translated", (code) => {
    expect(problems(code, loaded[code])).toEqual([]);
  });

  it("every allowed exception still names a string that exists and matches English", () => {
    for (const entry of SAME_AS_ENGLISH) {
      const [code = "", path = ""] = entry.split(":");
      const theirs = leaves(loaded[code as LocaleCode]).get(path);
      expect(theirs, entry).toBeDefined();
      expect(theirs?.texts, entry).toEqual(leaves(english).get(path)?.texts);
    }
  });

  describe("the check itself", () => {
    const reference = {
      common: { save: "Save", count: ({ n }: { n: number }) => `${n} items` },
      errors: { A: "Broken." },
    };

    it("reports a missing key, an extra key, an untranslated string and a wrong shape", () => {
      const broken = {
        common: { save: "Save", count: "7 Stück" },
        errors: { B: "Kaputt." },
      };
      expect(problems("xx", broken, reference)).toEqual([
        "xx: common.count is a string, English a function",
        "xx: missing errors.A",
        "xx: errors.B is not in English",
        'xx: common.save is still English: "Save"',
      ]);
    });

    it("reports a function that answers the English text or an empty one", () => {
      const english = { count: ({ n }: { n: number }) => `${n} items` };
      expect(problems("xx", { count: ({ n }: { n: number }) => `${n} items` }, english)).toEqual([
        'xx: count is still English: "1 items / 7 items"',
      ]);
      expect(problems("xx", { count: () => " " }, english)).toEqual([
        "xx: count is empty",
        "xx: count is empty",
      ]);
    });

    it("accepts a full translation", () => {
      const good = {
        common: { save: "Speichern", count: ({ n }: { n: number }) => `${n} Stück` },
        errors: { A: "Kaputt." },
      };
      expect(problems("xx", good, reference)).toEqual([]);
    });
  });
});
