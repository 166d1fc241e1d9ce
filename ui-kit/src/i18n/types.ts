import type { messages } from "./locales/en/index.js";

/**
 * Every string the kit shows, grouped by screen. A string that takes values is a
 * function of them, so each language decides word order and plural forms itself.
 */
export type Messages = typeof messages;

/** The languages the kit ships, by locale code. */
export type LocaleCode = "ru" | "uk" | "en" | "es" | "de" | "pl" | "fr" | "tr";
