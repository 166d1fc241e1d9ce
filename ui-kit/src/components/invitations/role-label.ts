import type { Messages } from "../../i18n/types.js";

/** A role (or several joined by commas) in the page's language; roles an app defines itself show as named. */
export function roleLabel(messages: Messages, role: string): string {
  const names = messages.invitations.roles as Readonly<Record<string, string>>;
  return role
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => names[part] ?? part)
    .join(", ");
}

/** A date in the page's language, e.g. "5 Dec 2026". */
export function formatDate(locale: string, iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(locale === "pseudo" ? "en" : locale, {
    dateStyle: "medium",
  }).format(date);
}
