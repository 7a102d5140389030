// Registry dates as the layout spells them: YYYY, MM, DD (and HH, mm, ss) between literals, as `DD.MM.YYYY`;
// kept as `YYYY-MM-DD`, the form the ledger's days take.
const tokens = {
  YYYY: '(\\d{4})',
  MM: '(\\d{2})',
  DD: '(\\d{2})',
  HH: '(\\d{2})',
  mm: '(\\d{2})',
  ss: '(\\d{2})',
} as const;
type Token = keyof typeof tokens;
const tokenPattern = /YYYY|MM|DD|HH|mm|ss/g;

export interface DatePattern {
  text: string;
  regex: RegExp;
  order: Token[];
}

/** A pattern as a regular expression; undefined when it lacks YYYY, MM or DD, or repeats one. */
export function compileDatePattern(text: string): DatePattern | undefined {
  const order = (text.match(tokenPattern) ?? []) as Token[];
  if (!['YYYY', 'MM', 'DD'].every((token) => order.includes(token as Token)) || new Set(order).size !== order.length)
    return undefined;
  const source = text.split(tokenPattern).map((literal) => literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const regex = new RegExp(
    `^${source.map((literal, index) => `${literal}${index < order.length ? tokens[order[index]!] : ''}`).join('')}$`,
  );
  return { text, regex, order };
}

const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** `YYYY-MM-DD` of a cell matching one of the patterns (the first that fits), or undefined when none does or the day does not exist. */
export function readDate(cell: string, patterns: readonly DatePattern[]): string | undefined {
  for (const pattern of patterns) {
    const match = pattern.regex.exec(cell);
    if (!match) continue;
    const parts: Partial<Record<Token, string>> = {};
    pattern.order.forEach((token, index) => (parts[token] = match[index + 1] ?? ''));
    const [year, month, day] = [Number(parts.YYYY), Number(parts.MM), Number(parts.DD)];
    if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return undefined;
    if (Number(parts.HH ?? 0) > 23 || Number(parts.mm ?? 0) > 59 || Number(parts.ss ?? 0) > 59) return undefined;
    return `${parts.YYYY}-${parts.MM}-${parts.DD}`;
  }
  return undefined;
}

/** A time cell, `HH:mm:ss` (or `HH:mm`). */
export const isTimeOfDay = (cell: string): boolean => /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/.test(cell);
