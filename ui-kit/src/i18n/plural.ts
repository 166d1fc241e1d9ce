/** Picks the plural form of `count` for `locale` by the Unicode plural rules. */
export function plural(
  locale: string,
  count: number,
  forms: { one: string; other: string } & Partial<Record<"zero" | "two" | "few" | "many", string>>,
): string {
  const category = new Intl.PluralRules(locale).select(count);
  return (forms[category] ?? forms.other).replace("#", String(count));
}
