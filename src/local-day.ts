import { UsageError } from './errors.js';

/**
 * Local days (this machine's time zone, `TZ`), as `YYYY-MM-DD`: what `--date` names for
 * `report` and `reconcile --registry`, and the days a registry's rows are compared on.
 */

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

/** `--date`: `YYYY-MM-DD` (a day that exists), `today` or `yesterday`, as a local day. */
export function dayOption(text: string, now: Date = new Date()): string {
  if (text === 'today') return localDay(now);
  if (text === 'yesterday') return localDay(new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1));
  if (/^\d{4}-\d{2}-\d{2}$/.test(text) && localDay(startOfDay(text)) === text) return text;
  throw new UsageError(`--date ${JSON.stringify(text)} is not a day`, { hint: 'give a local date as YYYY-MM-DD, such as 2026-11-22, or today, yesterday' });
}
