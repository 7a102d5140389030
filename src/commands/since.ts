import { UsageError } from '../errors.js';

const units: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * `--since`: a date (`2026-11-21`, local midnight), a date and time (ISO 8601), or an age
 * such as `30m`, `12h`, `7d`. `flag` names the option in the message (report's `--until` reads the same).
 */
export function parseSince(text: string | undefined, now: Date = new Date(), flag = '--since'): Date | undefined {
  if (text === undefined) return undefined;
  const age = /^(\d{1,6})([mhd])$/.exec(text);
  if (age) return new Date(now.getTime() - Number(age[1]) * units[age[2]!]!);
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (day) return new Date(Number(day[1]), Number(day[2]) - 1, Number(day[3]));
  const parsed = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(parsed)) {
    throw new UsageError(`${flag} ${JSON.stringify(text)} is not a date`, { hint: 'give 2026-11-21, 2026-11-21T08:00:00Z, or an age such as 30m, 12h, 7d' });
  }
  return new Date(parsed);
}
