// What a ResponseStatus means: spec 7 names only 10 (success); each gateway picks its own other codes. An
// unlisted code proves nothing: for a payment it is "unknown", never "failed" (spec 1: ask Status).
export const successStatus = '10';

/** One gateway's codes, each list from its own setting (README "Connecting to a real gateway"). */
export interface CodeTable {
  /** In progress: the gateway will decide later. */
  pending: ReadonlySet<string>;
  /** Status: the gateway does not know the TransactionID (yet). */
  notFound: ReadonlySet<string>;
  /** Final refusals: the payment was not made and never will be. */
  failed: ReadonlySet<string>;
}

export type CodeClass = 'success' | 'pending' | 'notFound' | 'failed' | 'unclassified';

/** The three lists of a code table. */
export type CodeList = keyof CodeTable;

export const emptyCodeTable: CodeTable = { pending: new Set(), notFound: new Set(), failed: new Set() };

/** Success is spec's 10; anything else is what the table says, or unclassified. */
export function classifyCode(status: string, table: CodeTable): CodeClass {
  if (status === successStatus) return 'success';
  if (table.failed.has(status)) return 'failed';
  if (table.pending.has(status)) return 'pending';
  if (table.notFound.has(status)) return 'notFound';
  return 'unclassified';
}
