import type { Catalogue } from '../i18n/en.js';
import type { CodeList, CodeTable } from '../protocol/codes.js';
import { t } from '../run-scope.js';

/** The settings that hold a gateway's code table (protocol/codes.ts), by list: their names in
 * the settings table, and the hints that tell a person which one classifies a code. */
export const codeListSettings = {
  pending: { key: 'pendingCodes', flag: '--pending-codes', env: 'AGENTPAY_PENDING_CODES', meaning: 'in progress' },
  notFound: {
    key: 'notFoundCodes',
    flag: '--not-found-codes',
    env: 'AGENTPAY_NOT_FOUND_CODES',
    meaning: 'no such transaction',
  },
  failed: { key: 'failedCodes', flag: '--failed-codes', env: 'AGENTPAY_FAILED_CODES', meaning: 'a final refusal' },
} as const satisfies Record<CodeList, { key: string; flag: string; env: string; meaning: string }>;

export const codeLists = Object.keys(codeListSettings) as CodeList[];

/** The environment variables that give a client this table (the sandbox's banner, tests, trials). */
export function codeTableEnvironment(table: CodeTable): Record<string, string> {
  return Object.fromEntries(codeLists.map((list) => [codeListSettings[list].env, [...table[list]].join(',')]));
}

/** The hint for a code the table does not hold: which setting classifies it, flag and profile
 * key alike, so a person can copy either. */
export function classifyHint(status: string, said: Catalogue = t()): string {
  const lists = (['failed', 'pending', 'notFound'] as const).map((list) => [list, codeListSettings[list]] as const);
  const flags = lists
    .map(([list, setting]) => `${setting.flag} ${status} (${said.reconcile.meanings[list]})`)
    .join(', ');
  return said.reconcile.classifyHint(status, flags, lists.map(([, setting]) => setting.key).join(', '));
}
