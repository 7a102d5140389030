import { DeskRuleRefusedError } from '../../desk-rule-error.js';
import { type AgentpayError, UsageError } from '../../errors.js';
import { t } from '../../run-scope.js';

/** The refusals the database's own rules raise where an intent is written (desk-rules-schema.ts),
 * worded for a person (exit 7, nothing sent; a currency no threshold can weigh: exit 2). The
 * server's error stays the cause: its SQLSTATE is what approvals.ts reads for its own refusals. */

/** The SQLSTATE of a server's error, or of the one behind a ledger error. */
export function sqlStateOf(error: unknown): string | undefined {
  const own = (error as { code?: unknown } | undefined)?.code;
  if (typeof own === 'string') return own;
  const code = (error as { cause?: { code?: unknown } } | undefined)?.cause?.code;
  return typeof code === 'string' ? code : undefined;
}

/** What the database's function put in DETAIL: the threshold, or the role (desk-rules-schema.ts). */
const detailOf = (error: unknown) => String((error as { detail?: unknown }).detail ?? '');

/** The database's refusal of an intent as the error a person sees; undefined for any other error. */
export function intentRefusalOf(error: unknown): AgentpayError | undefined {
  switch (sqlStateOf(error)) {
    case 'APTHR':
      return new DeskRuleRefusedError('approval', t().approvals.neededByLedger(detailOf(error)), {
        cause: error,
        hint: t().approvals.neededHint,
      });
    case 'APREQ':
      return new DeskRuleRefusedError('approval', t().approvals.heldByRequest, {
        cause: error,
        hint: t().approvals.reasonHint,
      });
    case 'APCUR':
      return new UsageError(t().approvals.notACurrencyCode, { cause: error });
    case 'APSHF':
      return new DeskRuleRefusedError('shift', t().shifts.outsideByLedger(detailOf(error)), {
        cause: error,
        hint: t().shifts.noShiftHint,
      });
    default:
      return undefined;
  }
}
