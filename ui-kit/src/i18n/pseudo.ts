/**
 * A pseudo-locale: every string accented, a third longer and bracketed, so a screen
 * that truncates or hard-codes text shows it at a glance while staying readable.
 */

const ACCENTS: Readonly<Record<string, string>> = {
  a: "á",
  e: "é",
  i: "î",
  o: "ö",
  u: "ü",
  c: "ç",
  n: "ñ",
  s: "š",
  y: "ý",
  z: "ž",
  A: "Å",
  E: "É",
  I: "Î",
  O: "Ö",
  U: "Û",
  C: "Ç",
  N: "Ñ",
  S: "Š",
  Y: "Ý",
  Z: "Ž",
};

export function pseudoString(text: string): string {
  const accented = text.replace(/[a-zA-Z]/g, (letter) => ACCENTS[letter] ?? letter);
  const padding = "·".repeat(Math.ceil(text.length * 0.35));
  return `[${accented}${padding ? ` ${padding}` : ""}]`;
}

function pseudoValue(value: unknown): unknown {
  if (typeof value === "string") return pseudoString(value);
  if (typeof value === "function") {
    return (...args: unknown[]) => pseudoString(String(value(...args)));
  }
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [key, pseudoValue(inner)]),
    );
  }
  return value;
}

export function pseudoLocalize<T>(messages: T): T {
  return pseudoValue(messages) as T;
}
