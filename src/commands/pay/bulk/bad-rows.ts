import { UsageError } from '../../../errors.js';
import { type BadRow, badRowsText } from '../../../render/bulk.js';
import { t } from '../../../run-scope.js';

/** A file refused whole for its bad rows (exit 2): how many rows were bad, for the run's metrics. */
export class BadRowsError extends UsageError {
  constructor(
    message: string,
    hint: string,
    readonly rows: number,
  ) {
    super(message, { hint });
  }
}

/** Exit 2 with each bad row on a line of its own, in the order of the file: nothing was sent. */
export function refuseBadRows(path: string, problems: readonly BadRow[], hint = t().bulk.badRowsHint): void {
  if (problems.length === 0) return;
  const rows = new Set(problems.map((problem) => problem.line)).size;
  throw new BadRowsError(badRowsText(path === '-' ? 'stdin' : path, problems, t()), hint, rows);
}
