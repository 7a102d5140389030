import type { IntentRecord } from './records.js';

/** Who asked for a payment and who approved it: the marks `requested-by:` and `approved-by:` among
 * its guards lifted, which only the database writes, when `pay --approved` takes an approval. */
export interface ApprovalMarks {
  requestedBy: string;
  approvedBy: string;
}

export function approvalMarksOf(intent: Pick<IntentRecord, 'overrides'>): ApprovalMarks | undefined {
  const mark = (prefix: string) =>
    intent.overrides?.find((override) => override.startsWith(prefix))?.slice(prefix.length);
  const requestedBy = mark('requested-by:');
  const approvedBy = mark('approved-by:');
  return requestedBy === undefined || approvedBy === undefined ? undefined : { requestedBy, approvedBy };
}
