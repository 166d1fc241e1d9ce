/** A date in the page's language, e.g. "5 Dec 2026"; an unreadable one shows as it came. */
export function formatDate(locale: string, iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(locale === "pseudo" ? "en" : locale, {
    dateStyle: "medium",
  }).format(date);
}
