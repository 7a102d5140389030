import { UsageError } from '../../errors.js';
import { dayOption, startOfDay } from '../../local-day.js';
import { t } from '../../run-scope.js';
import { parseSince } from '../since.js';

/** The payments a report covers: intents at or after `from` (every one when null) and before `until`. */
export interface ReportRange {
  from: Date | null;
  until: Date;
  /** The local day, when the range is one (`--date`, or the default: yesterday). */
  day?: string;
}

/** `--date 2026-11-22` (or today, yesterday): that local day, midnight to midnight (23 or 25 hours across a DST change). */
function parseDay(text: string, now: Date): ReportRange {
  const day = dayOption(text, now);
  return { from: startOfDay(day), until: startOfDay(day, 1), day };
}

// The report's range: `--date` (a local day), `--since`/`--until` (as history reads them, until defaults to now),
// or yesterday.
export function reportRange(
  options: { date?: string | undefined; since?: string | undefined; until?: string | undefined },
  now: Date = new Date(),
): ReportRange {
  const { date, since, until } = options;
  if (date !== undefined) {
    if (since !== undefined || until !== undefined) throw new UsageError(t().commands.dateOrRange);
    return parseDay(date, now);
  }
  if (since === undefined && until === undefined) return parseDay('yesterday', now);
  const range = { from: parseSince(since, now) ?? null, until: parseSince(until, now, '--until') ?? now };
  if (range.from !== null && range.from.getTime() >= range.until.getTime()) {
    throw new UsageError(t().commands.emptyRange(String(since), until), { hint: t().commands.emptyRangeHint });
  }
  return range;
}
