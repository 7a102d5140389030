import { UsageError } from '../errors.js';
import { givenDay, startOfDay } from '../local-day.js';
import { t } from '../run-scope.js';

const units: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `--since`: a date (`2026-11-21` or `21.11.2026`, local midnight; a day that exists), a date and time (ISO 8601), or
 * an age such as `30m`, `12h`, `7d`. `flag` names the option in the message (report's `--until` reads the same). */
export function parseSince(text: string | undefined, now: Date = new Date(), flag = '--since'): Date | undefined {
  if (text === undefined) return undefined;
  const age = /^(\d{1,6})([mhd])$/.exec(text);
  if (age) return new Date(now.getTime() - Number(age[1]) * units[age[2]!]!);
  const day = givenDay(text);
  if (day !== undefined) return startOfDay(day);
  const parsed = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(parsed)) throw new UsageError(t().sheet.notADate(flag, text), { hint: t().sheet.dateHint });
  return new Date(parsed);
}
