import { randomUUID } from 'node:crypto';
import { LedgerUnreachableError, noPaymentSent } from '../../errors.js';
import { t } from '../../run-scope.js';
import { type Claim, groupedByOwner, lookBackOfClaims } from '../claim-queue.js';
import type { Intent, IntentResult, RecentPayment, RecordedBy } from '../ledger.js';
import { differingParameters } from '../records.js';
import { recentPaymentsOf } from '../sql/reads.js';
import { intentOfRow, intentValues, type Query, text } from '../sql/rows.js';
import type { LedgerConnection } from './connect.js';
import * as sql from './queries.js';

/** Intents recorded in the team ledger: the TransactionID taken in one statement; claims weighed
 * and recorded in one transaction under advisory locks, so two terminals never both pass a rule.
 * Everything here runs in a turn of the connection held already. */

/** What recording an intent needs of the ledger it is recorded in. */
export interface IntentRecorder {
  connection: LedgerConnection;
  /** The ledger as errors name it. */
  shown: string;
  /** Who made the records: the operator role once the ledger has learnt it is one. */
  by: RecordedBy;
  /** A query sent now, in the turn held already. */
  queryNow: Query;
}

/** How long a claim waits for another terminal's lock on the same account. */
const claimLockTimeoutMs = 30_000;

/** PostgreSQL's lock_not_available: lock_timeout ran out. */
const lockTimedOut = (error: unknown) => (error as { cause?: { code?: unknown } } | undefined)?.cause?.code === '55P03';

/** The TransactionID checked and taken in one statement: two terminals cannot both take it; a
 * taken one is a retry of the same purchase, or a conflict. One written by a transaction not
 * yet committed is found by the next look. In a turn held already. */
export async function insertOrRetry(
  ledger: IntentRecorder,
  intent: Intent,
  at: string,
  notSent: string,
): Promise<IntentResult> {
  const { queryNow, by } = ledger;
  const values = intentValues(intent, at, by);
  for (let look = 0; look < 3; look++) {
    values[11] = randomUUID();
    const [made] = await queryNow(sql.insertIntent, values, notSent);
    if (made !== undefined) return { kind: 'new', attempt: text(made.attempt_seq) };
    const [row] = await queryNow(sql.selectIntent, [intent.gateway, intent.agentId, intent.transactionId], notSent);
    if (row === undefined) continue;
    const earlier = intentOfRow(row);
    if (differingParameters(earlier, intent).length > 0) return { kind: 'conflict', earlier };
    const [attempt] = await queryNow(
      sql.insertAttempt,
      [randomUUID(), row.seq, at, by.operator, by.host, intent.overrides ?? null],
      notSent,
    );
    return { kind: 'retry', attempt: attempt === undefined ? undefined : text(attempt.attempt_seq) };
  }
  throw new LedgerUnreachableError(
    ledger.shown,
    `transaction ${intent.transactionId} is being recorded by another terminal right now`,
    { consequence: notSent },
  );
}

/** A batch of claims in one transaction: advisory locks on its accounts (and operator) make other
 * terminals wait for the commit; one look-back weighs each claim with those accepted before it. */
export async function settleClaims(ledger: IntentRecorder, batch: readonly Claim[]): Promise<void> {
  const { queryNow } = ledger;
  const notSent = noPaymentSent();
  const answered: [Claim, IntentResult][] = [];
  // READ COMMITTED whatever the database's default: each statement then sees what the claim
  // it waited for committed. Under REPEATABLE READ the snapshot would be older than the lock.
  await queryNow('BEGIN ISOLATION LEVEL READ COMMITTED', [], notSent);
  try {
    // A terminal stopped between its BEGIN and COMMIT holds the account's lock: wait so long, no longer.
    await queryNow(`SET LOCAL lock_timeout = '${claimLockTimeoutMs}ms'`, [], notSent);
    await queryNow(sql.lockPurchases, [lockKeysOf(batch)], notSent).catch((error: unknown) => {
      throw lockTimedOut(error)
        ? new LedgerUnreachableError(ledger.shown, t().lock.purchaseBusy, { cause: error, consequence: notSent })
        : error;
    });
    // The database's clock, once the locks are held: the desk's terminals agree on it, and a
    // claim recorded after another's is later than it. The rules' reach moves with it.
    const [clock] = await queryNow('SELECT clock_timestamp() AS now', [], notSent);
    const at = clock?.now instanceof Date ? clock.now : new Date();
    const skewMs = at.getTime() - Date.now();
    for (const group of groupedByOwner(batch)) {
      const reach = lookBackOfClaims(group);
      const owner = { gateway: group[0]!.intent.gateway, agentId: group[0]!.intent.agentId };
      const recent =
        reach === undefined
          ? []
          : await recentPaymentsOf(
              { query: queryNow, sql: sql.reads },
              { ...owner, ...reach, since: new Date(reach.since.getTime() + skewMs) },
            );
      for (const claim of group) {
        const result = await settleClaim(ledger, claim, recent, at, notSent);
        if (result !== undefined) answered.push([claim, result]);
      }
    }
    await queryNow('COMMIT', [], notSent);
  } catch (error) {
    await ledger.connection.client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
  for (const [claim, result] of answered) claim.resolve(result);
}

/** One claim inside the batch's transaction, under a savepoint of its own: a claim the rules
 * refuse, or whose insert fails, is answered alone (undefined) and the others go on. */
async function settleClaim(
  ledger: IntentRecorder,
  claim: Claim,
  recent: RecentPayment[],
  at: Date,
  notSent: string,
): Promise<IntentResult | undefined> {
  const { queryNow } = ledger;
  await queryNow('SAVEPOINT claim', [], notSent);
  try {
    const { intent: asked, options } = claim;
    const earlier = options.checkReplay
      ? await queryNow(sql.selectIntent, [asked.gateway, asked.agentId, asked.transactionId], notSent)
      : [];
    // The same purchase again (the safe retry) passes the desk's rules: it can never pay twice.
    const lifted = earlier.length === 0 && options.guard !== undefined ? options.guard.decide(recent, at) : [];
    const overrides = [...new Set([...(asked.overrides ?? []), ...lifted])];
    const intent = { ...asked, ...(overrides.length > 0 ? { overrides } : {}) };
    const result = await insertOrRetry(ledger, intent, at.toISOString(), notSent);
    if (result.kind === 'new')
      recent.push({ intent: { kind: 'intent', ...intent, ...ledger.by, at: at.toISOString() }, state: undefined });
    await queryNow('RELEASE SAVEPOINT claim', [], notSent);
    return result;
  } catch (error) {
    if (ledger.connection.lost.error !== undefined) throw error;
    await queryNow('ROLLBACK TO SAVEPOINT claim', [], notSent);
    claim.reject(error);
    return undefined;
  }
}

/** What a batch of claims locks (sql.lockPurchases): each purchase's account, and the operator
 * when a daily limit weighs their payments; the TransactionID of a replay. Any two claims that
 * could weigh each other share a key. */
function lockKeysOf(claims: readonly Claim[]): string[] {
  const keys = new Set<string>();
  for (const { intent, options } of claims) {
    const owner = `${intent.gateway}\n${intent.agentId}`;
    keys.add(`account\n${owner}\n${intent.account}`);
    keys.add(`transaction\n${owner}\n${intent.transactionId}`);
    if (options.guard?.operator !== undefined) keys.add(`operator\n${owner}\n${options.guard.operator}`);
  }
  return [...keys];
}
