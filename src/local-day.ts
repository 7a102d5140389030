import { UsageError } from './errors.js';
import { t } from './run-scope.js';

// Local days (`TZ`) as `YYYY-MM-DD`: what `--date` names for report and reconcile --registry, and what registry
// rows are compared on. Given as `YYYY-MM-DD` or, as a desk writes it, `DD.MM.YYYY`.

const pad = (value: number) => String(value).padStart(2, '0');

/** The local day of an instant. */
export function localDay(instant: Date): string {
  return `${instant.getFullYear()}-${pad(instant.getMonth() + 1)}-${pad(instant.getDate())}`;
}

/** Local midnight starting a `YYYY-MM-DD` day, `offset` days later (Date rolls past a month's end; a DST day is 23 or 25 hours). */
export function startOfDay(day: string, offset = 0): Date {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return new Date(year, month - 1, date + offset);
}

/** `YYYY-MM-DD` or `DD.MM.YYYY` as `YYYY-MM-DD` when it is a day that exists, else undefined. */
export function givenDay(text: string): string | undefined {
  const dotted = /^(\d{2})\.(\d{2})\.(\d{4})$/.exec(text);
  const day = dotted === null ? text : `${dotted[3]}-${dotted[2]}-${dotted[1]}`;
  return /^\d{4}-\d{2}-\d{2}$/.test(day) && localDay(startOfDay(day)) === day ? day : undefined;
}

/** `--date`: `YYYY-MM-DD` or `DD.MM.YYYY` (a day that exists), `today` or `yesterday`, as a local day. */
export function dayOption(text: string, now: Date = new Date()): string {
  if (text === 'today') return localDay(now);
  if (text === 'yesterday') return localDay(new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1));
  const day = givenDay(text);
  if (day !== undefined) return day;
  throw new UsageError(t().sheet.notADay('--date', text), { hint: t().sheet.dayHint });
}
