/** The forms of a counted noun, by Intl.PluralRules' categories ('one', 'few', 'many', 'other'). */
export type PluralForms = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string };

const rules = new Map<string, Intl.PluralRules>();

/** `count` and its noun in the form the language wants: 1 ваучер, 2 ваучера, 5 ваучеров. */
export function plural(locale: string, count: number, forms: PluralForms): string {
  let rule = rules.get(locale);
  if (rule === undefined) {
    rule = new Intl.PluralRules(locale);
    rules.set(locale, rule);
  }
  return `${count} ${forms[rule.select(count)] ?? forms.other}`;
}
