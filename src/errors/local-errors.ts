import type { StorageAction } from '../i18n/en.js';
import { t } from '../run-scope.js';
import { AgentpayError } from './agentpay-error.js';
import { ExitCode } from './exit-codes.js';

/** A file agentpay keeps on this machine (the journal) cannot be read or written: a full disk, a
 * read-only file system, permissions, a directory in its place. Not the gateway's doing: never exit 1. */
export class LocalStorageError extends AgentpayError {
  override name = 'LocalStorageError';
  /** What could not be done: "write the journal", "read the journal". */
  readonly what: StorageAction;
  readonly path: string;
  /** The errno code (EROFS, ENOSPC, ...), or undefined when the system gave none. */
  readonly code: string | undefined;
  /** What the failure meant, as its message states it ("no payment was sent"). */
  readonly consequence: string | undefined;
  constructor(
    what: StorageAction,
    path: string,
    cause: unknown,
    options: { consequence?: string; hint?: string } = {},
  ) {
    const code = errnoCodeOf(cause);
    const reason = code ?? (cause instanceof Error ? cause.message : String(cause));
    super(
      `${t().errors.localStorage(what, path, reason)}${options.consequence ? `; ${options.consequence}` : ''}`,
      ExitCode.localStorage,
      { cause, hint: options.hint ?? localStorageHint(code) },
    );
    this.what = what;
    this.path = path;
    this.code = code;
    this.consequence = options.consequence;
  }
}

/** The errno code of a failed system call (EROFS, ENOSPC, ...), if `error` is one. */
export function errnoCodeOf(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' && /^E[A-Z0-9]+$/.test(code) ? code : undefined;
}

/** The hint for a system call's failure, by its errno code; a quota is a full disk, EPERM is EACCES. */
const hintOfCode = {
  EROFS: 'EROFS',
  ENOSPC: 'ENOSPC',
  EDQUOT: 'ENOSPC',
  EACCES: 'EACCES',
  EPERM: 'EACCES',
  EISDIR: 'EISDIR',
} as const;

function localStorageHint(code: string | undefined): string {
  const key =
    code !== undefined && Object.hasOwn(hintOfCode, code) ? hintOfCode[code as keyof typeof hintOfCode] : 'other';
  return t().errors.localStorageHints[key];
}

/** The team ledger (a PostgreSQL database) cannot be reached, or refused what was asked of it:
 * a payment whose intent it cannot take is never sent (exit 4, as for an unreachable gateway). */
export class LedgerUnreachableError extends AgentpayError {
  override name = 'LedgerUnreachableError';
  readonly ledger: string;
  readonly reason: string;
  /** What it meant for the payment at hand, when the message says so ("no payment was sent"). */
  readonly consequence: string | undefined;
  constructor(ledger: string, reason: string, options: { consequence?: string; hint?: string; cause?: unknown } = {}) {
    super(
      `${t().errors.ledgerUnreachable(ledger, reason)}${options.consequence ? `; ${options.consequence}` : ''}`,
      ExitCode.unreachable,
      { cause: options.cause, hint: options.hint ?? t().errors.ledgerUnreachableHint },
    );
    this.ledger = ledger;
    this.reason = reason;
    this.consequence = options.consequence;
  }

  /** The same failure, saying what it meant for the payment at hand. */
  withConsequence(consequence: string): LedgerUnreachableError {
    return new LedgerUnreachableError(this.ledger, this.reason, {
      consequence,
      cause: this.cause,
      ...(this.hint ? { hint: this.hint } : {}),
    });
  }
}
