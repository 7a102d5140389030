/**
 * What a ResponseStatus means. spec 7 names one code, 10 (success); every gateway picks its
 * own codes for "in progress", "no such transaction" and its final refusals. A code nobody
 * told us about proves nothing: for a payment it is "unknown", never "failed", because the
 * money may have moved (spec 1: use Status to learn the final state).
 */
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

/** The setting that holds each list, for hints ("add 33 to failedCodes"). */
export const codeListSettings = {
  pending: { key: 'pendingCodes', flag: '--pending-codes', env: 'AGENTPAY_PENDING_CODES', meaning: 'in progress' },
  notFound: { key: 'notFoundCodes', flag: '--not-found-codes', env: 'AGENTPAY_NOT_FOUND_CODES', meaning: 'no such transaction' },
  failed: { key: 'failedCodes', flag: '--failed-codes', env: 'AGENTPAY_FAILED_CODES', meaning: 'a final refusal' },
} as const;

export type CodeList = keyof typeof codeListSettings;

/** The environment variables that give a client this table (the sandbox's banner, tests, trials). */
export function codeTableEnvironment(table: CodeTable): Record<string, string> {
  return Object.fromEntries((Object.keys(codeListSettings) as CodeList[]).map((list) => [codeListSettings[list].env, [...table[list]].join(',')]));
}

export const emptyCodeTable: CodeTable = { pending: new Set(), notFound: new Set(), failed: new Set() };

/** Success is spec's 10; anything else is what the table says, or unclassified. */
export function classifyCode(status: string, table: CodeTable): CodeClass {
  if (status === successStatus) return 'success';
  if (table.failed.has(status)) return 'failed';
  if (table.pending.has(status)) return 'pending';
  if (table.notFound.has(status)) return 'notFound';
  return 'unclassified';
}

/**
 * The hint for a code the table does not hold: which setting classifies it, flag and profile
 * key alike, so a person can copy either.
 */
export function classifyHint(status: string): string {
  const lists = (['failed', 'pending', 'notFound'] as const).map((list) => codeListSettings[list]);
  return (
    `classify ResponseStatus ${status} once the gateway's operator says what it means: ` +
    `${lists.map((setting) => `${setting.flag} ${status} (${setting.meaning})`).join(', ')}; ` +
    `profile keys ${lists.map((setting) => setting.key).join(', ')}`
  );
}
