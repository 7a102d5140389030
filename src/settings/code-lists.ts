import type { CodeList, CodeTable } from '../protocol/codes.js';

/**
 * The settings that hold a gateway's code table (protocol/codes.ts), by list: their names in
 * the settings table, and the hints that tell a person which one classifies a code.
 */
export const codeListSettings = {
  pending: { key: 'pendingCodes', flag: '--pending-codes', env: 'AGENTPAY_PENDING_CODES', meaning: 'in progress' },
  notFound: { key: 'notFoundCodes', flag: '--not-found-codes', env: 'AGENTPAY_NOT_FOUND_CODES', meaning: 'no such transaction' },
  failed: { key: 'failedCodes', flag: '--failed-codes', env: 'AGENTPAY_FAILED_CODES', meaning: 'a final refusal' },
} as const satisfies Record<CodeList, { key: string; flag: string; env: string; meaning: string }>;

export const codeLists = Object.keys(codeListSettings) as CodeList[];

/** The environment variables that give a client this table (the sandbox's banner, tests, trials). */
export function codeTableEnvironment(table: CodeTable): Record<string, string> {
  return Object.fromEntries(codeLists.map((list) => [codeListSettings[list].env, [...table[list]].join(',')]));
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
