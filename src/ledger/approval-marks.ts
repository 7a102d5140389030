import type { IntentRecord } from './records.js';

/**
 * Who asked for a payment and who approved it, as its attempt records them: the marks
 * `requested-by:<role>` and `approved-by:<role>` among the guards lifted, written by the team
 * ledger's database when `pay --approved` takes an approval (postgres/approvals-schema.ts), and
 * refused there on an attempt no supervisor approved.
 */
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
