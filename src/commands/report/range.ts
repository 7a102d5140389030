import { UsageError } from '../../errors.js';
import { parseSince } from '../since.js';

/** The payments a report covers: intents at or after `from` (every one when null) and before `until`. */
export interface ReportRange {
  from: Date | null;
  until: Date;
  /** The local day, when the range is one (`--date`, or the default: yesterday). */
  day?: string;
}

const pad = (value: number) => String(value).padStart(2, '0');

/** A local date as YYYY-MM-DD. */
const localDay = (date: Date): string => `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;

/** A local day, from its midnight to the next (23 or 25 hours across a DST change); Date rolls a day past the month's end over. */
function dayRange(year: number, monthIndex: number, day: number): ReportRange {
  const from = new Date(year, monthIndex, day);
  return { from, until: new Date(year, monthIndex, day + 1), day: localDay(from) };
}

/** `--date 2026-11-22` (or today, yesterday): that local day, checked to exist. */
function parseDay(text: string, now: Date): ReportRange {
  if (text === 'today' || text === 'yesterday') return dayRange(now.getFullYear(), now.getMonth(), now.getDate() - (text === 'yesterday' ? 1 : 0));
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  const range = match && dayRange(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  if (range === null || range.day !== text) {
    throw new UsageError(`--date ${JSON.stringify(text)} is not a day`, { hint: 'give a local date as YYYY-MM-DD, such as 2026-11-22, or today, yesterday' });
  }
  return range;
}

/**
 * The report's range from its options: `--date` (a local day), `--since` and `--until` (as
 * history's --since reads them; `--until` defaults to now), or by default yesterday (local).
 */
export function reportRange(options: { date?: string | undefined; since?: string | undefined; until?: string | undefined }, now: Date = new Date()): ReportRange {
  const { date, since, until } = options;
  if (date !== undefined) {
    if (since !== undefined || until !== undefined) throw new UsageError('--date is a whole day: give it, or --since and --until, not both');
    return parseDay(date, now);
  }
  if (since === undefined && until === undefined) return parseDay('yesterday', now);
  const range = { from: parseSince(since, now) ?? null, until: parseSince(until, now, '--until') ?? now };
  if (range.from !== null && range.from.getTime() >= range.until.getTime()) {
    throw new UsageError(`--since ${since} is not before --until ${until ?? '(now)'}: the range is empty`, { hint: 'give --since earlier than --until' });
  }
  return range;
}
