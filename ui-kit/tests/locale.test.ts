/**
 * Choosing the language: locale codes, region tags, numeric language ids, the browser's
 * list or an Accept-Language header, the pseudo-locale, and loading each language.
 */
import { describe, expect, it } from "vitest";
import {
  english,
  LANGUAGE_IDS,
  LOCALES,
  loadMessages,
  negotiateLocale,
  resolveLocale,
} from "../src/i18n/locale.js";
import { pseudoLocalize, pseudoString } from "../src/i18n/pseudo.js";

describe("resolveLocale", () => {
  it("takes each shipped locale code", () => {
    for (const code of LOCALES) expect(resolveLocale(code)).toBe(code);
  });

  it("takes region tags, any case, with - or _", () => {
    expect(resolveLocale("de-AT")).toBe("de");
    expect(resolveLocale("pt-BR")).toBeNull();
    expect(resolveLocale("EN_gb")).toBe("en");
    expect(resolveLocale("fr-CA")).toBe("fr");
    expect(resolveLocale("  uk-UA ")).toBe("uk");
  });

  it("takes numeric language ids as numbers and as strings", () => {
    expect(resolveLocale(0)).toBe("ru");
    expect(resolveLocale(6)).toBe("de");
    expect(resolveLocale(82)).toBe("tr");
    expect(resolveLocale("15")).toBe("pl");
    expect(resolveLocale("0")).toBe("ru");
    expect(resolveLocale(" 16 ")).toBe("fr");
  });

  it("answers null for what names no shipped language", () => {
    expect(resolveLocale("ja")).toBeNull();
    expect(resolveLocale("")).toBeNull();
    expect(resolveLocale("english")).toBeNull();
    expect(resolveLocale(2)).toBeNull();
    expect(resolveLocale("99")).toBeNull();
    expect(resolveLocale(-1)).toBeNull();
  });

  it("knows the pseudo-locale", () => {
    expect(resolveLocale("pseudo")).toBe("pseudo");
    expect(resolveLocale("PSEUDO")).toBe("pseudo");
  });
});

describe("LANGUAGE_IDS", () => {
  it("maps each numeric id to its language and nothing else", () => {
    expect(LANGUAGE_IDS).toEqual({
      0: "ru",
      1: "uk",
      3: "en",
      4: "es",
      6: "de",
      15: "pl",
      16: "fr",
      82: "tr",
    });
  });

  it("covers every shipped locale once, and cannot be changed", () => {
    expect(Object.values(LANGUAGE_IDS).sort()).toEqual([...LOCALES].sort());
    expect(Object.isFrozen(LANGUAGE_IDS)).toBe(true);
  });
});

describe("negotiateLocale", () => {
  it("takes the first shipped language of a list", () => {
    expect(negotiateLocale(["ja-JP", "pl-PL", "de"])).toBe("pl");
    expect(negotiateLocale(["es-MX"])).toBe("es");
  });

  it("skips the pseudo-locale in a preference list", () => {
    expect(negotiateLocale(["pseudo", "fr"])).toBe("fr");
    expect(negotiateLocale("pseudo")).toBe("en");
  });

  it("falls back to English", () => {
    expect(negotiateLocale([])).toBe("en");
    expect(negotiateLocale(undefined)).toBe("en");
    expect(negotiateLocale(["ja", "zh-CN"])).toBe("en");
    expect(negotiateLocale("")).toBe("en");
  });

  it("honours Accept-Language weights, not the written order", () => {
    expect(negotiateLocale("fr;q=0.5, de;q=0.9, en;q=0.1")).toBe("de");
    expect(negotiateLocale("ja, tr-TR;q=0.8, ru;q=0.9")).toBe("ru");
    expect(negotiateLocale("uk-UA,uk;q=0.9,en-US;q=0.8,en;q=0.7")).toBe("uk");
  });

  it("keeps the written order between equal weights, and drops q=0", () => {
    expect(negotiateLocale("es;q=0.7, pl;q=0.7")).toBe("es");
    expect(negotiateLocale("de;q=0, fr")).toBe("fr");
    expect(negotiateLocale("de;q=0")).toBe("en");
  });

  it("treats a broken weight as zero", () => {
    expect(negotiateLocale("de;q=abc, pl")).toBe("pl");
  });
});

describe("pseudoLocalize", () => {
  it("accents letters and brackets the text", () => {
    const text = pseudoString("Save");
    expect(text.startsWith("[Šávé")).toBe(true);
    expect(text.endsWith("]")).toBe(true);
  });

  it("makes text about a third longer", () => {
    const source = "Some of the information entered is not valid.";
    const text = pseudoString(source);
    const inner = text.slice(1, -1);
    expect(inner.length).toBeGreaterThanOrEqual(Math.round(source.length * 1.3));
    expect(inner.length).toBeLessThanOrEqual(Math.round(source.length * 1.5));
  });

  it("keeps values and punctuation readable", () => {
    expect(pseudoString("Use 8 characters.")).toBe("[Ûšé 8 çháráçtérš. ······]");
  });

  it("walks every group and wraps function messages around their result", () => {
    const pseudo = pseudoLocalize(english);
    expect(pseudo.common.cancel).toBe(pseudoString(english.common.cancel));
    expect(pseudo.common.stepUp.title).toBe(pseudoString(english.common.stepUp.title));
    expect(pseudo.errors.INVALID_EMAIL_OR_PASSWORD).toBe(
      pseudoString(english.errors.INVALID_EMAIL_OR_PASSWORD),
    );
    expect(pseudo.common.passwordTooShort({ min: 8 })).toBe(
      pseudoString(english.common.passwordTooShort({ min: 8 })),
    );
    expect(pseudo.common.continueWith({ provider: "GitHub" })).toContain("GîtHüb");
  });

  it("leaves the English strings untouched", () => {
    pseudoLocalize(english);
    expect(english.common.cancel).toBe("Cancel");
  });
});

describe("loadMessages", () => {
  const cancel: Record<string, string> = {
    en: "Cancel",
    ru: "Отмена",
    uk: "Скасувати",
    es: "Cancelar",
    de: "Abbrechen",
    pl: "Anuluj",
    fr: "Annuler",
    tr: "İptal",
  };

  it.each(LOCALES)("returns the %s strings", async (code) => {
    const messages = await loadMessages(code);
    expect(messages.common.cancel).toBe(cancel[code]);
    if (code !== "en") expect(messages.errors.HTTP_ERROR).not.toBe(english.errors.HTTP_ERROR);
  });

  it("returns German for German", async () => {
    const messages = await loadMessages("de");
    expect(messages.common.email).toBe("E-Mail");
    expect(messages.common.passwordTooShort({ min: 8 })).toBe("Verwende mindestens 8 Zeichen.");
    expect(messages.errors.INVALID_EMAIL_OR_PASSWORD).toBe(
      "E-Mail-Adresse oder Passwort ist falsch.",
    );
  });

  it("uses each language's plural forms", async () => {
    const ru = await loadMessages("ru");
    expect(ru.common.passwordTooShort({ min: 1 })).toBe("Используйте не менее 1 символа.");
    expect(ru.common.passwordTooShort({ min: 8 })).toBe("Используйте не менее 8 символов.");
    expect(ru.common.passwordTooShort({ min: 21 })).toBe("Используйте не менее 21 символа.");
    const uk = await loadMessages("uk");
    expect(uk.common.passwordTooShort({ min: 3 })).toBe("Використайте щонайменше 3 символи.");
    expect(uk.common.passwordTooShort({ min: 12 })).toBe("Використайте щонайменше 12 символів.");
    const pl = await loadMessages("pl");
    expect(pl.common.passwordTooShort({ min: 1 })).toBe("Użyj co najmniej 1 znaku.");
    expect(pl.common.passwordTooShort({ min: 8 })).toBe("Użyj co najmniej 8 znaków.");
    const fr = await loadMessages("fr");
    expect(fr.common.passwordTooShort({ min: 1 })).toBe("Utilisez au moins 1 caractère.");
    expect(fr.common.passwordTooShort({ min: 8 })).toBe("Utilisez au moins 8 caractères.");
  });

  it("keeps English in every bundle and builds the pseudo-locale from it", async () => {
    expect(await loadMessages("en")).toBe(english);
    const pseudo = await loadMessages("pseudo");
    expect(pseudo.common.cancel).toBe(pseudoString("Cancel"));
  });
});
