// The transactions journal-appender.mjs writes, made from a seed, so a test can make them again.
// Each is a list of records: an intent, and what followed it. The last word of each, and
// whether it stays open, follow the journal's rules (docs/reliability.md).
import { seededRandom } from '../../scripts/seeded-random.mjs';

const owner = { gateway: 'https://appender.example', agentId: '4242' };

export const appenderOwner = owner;

const view = (transactionId, state) => ({
  transactionId,
  requestId: null,
  type: 'Status',
  status: state === 'success' ? '10' : state === 'failed' ? '21' : state === 'pending' ? '11' : null,
  state,
  message: state,
  service: null,
  account: null,
  amount: null,
  currency: null,
  exchangeRate: null,
  serviceCurrency: null,
});

/** Spread over three days, so that the archive has a file per day. */
const at = (day, second) => new Date(Date.UTC(2026, 10, 19 + day, 8, 0, 0) + second * 1000).toISOString();

/** An outcome of an appender's transaction, as reconcile would write it. */
export const appenderOutcome = (transactionId, state, at) => ({
  kind: 'outcome',
  transactionId,
  ...owner,
  at,
  source: 'reconcile',
  view: view(transactionId, state),
});

export function appenderTransactions(seed, firstId, count) {
  const random = seededRandom(seed);
  const transactions = [];
  for (let i = 0; i < count; i++) {
    const transactionId = String(firstId + i);
    const day = Math.floor(random() * 3);
    const intent = {
      kind: 'intent',
      transactionId,
      ...owner,
      service: '101',
      account: `a${i}`,
      amount: '10.00',
      currency: 'KZT',
      invoiceId: null,
      at: at(day, i * 2),
    };
    const outcome = (state, second) => ({
      kind: 'outcome',
      transactionId,
      ...owner,
      at: at(day, i * 2 + second),
      source: 'reconcile',
      view: view(transactionId, state),
    });
    const roll = random();
    if (roll < 0.5) transactions.push([intent, outcome('success', 1)]);
    else if (roll < 0.65) transactions.push([intent, outcome('pending', 1), outcome('failed', 1)]);
    else if (roll < 0.8) transactions.push([intent, outcome('pending', 1)]);
    else if (roll < 0.9) transactions.push([intent]);
    // The safe retry: an attempt not sent (failed), then the same purchase again, open or settled.
    else
      transactions.push([
        intent,
        outcome('failed', 1),
        { ...intent, at: at(day, i * 2 + 1) },
        ...(random() < 0.5 ? [outcome('success', 1)] : []),
      ]);
  }
  return transactions;
}

const isFinal = (state) => state === 'success' || state === 'failed';

/** What the readers should make of a transaction: its last word (unknown without one), and whether it is open. */
export function expectedOf(records) {
  let state;
  let open = false;
  for (const record of records) {
    if (record.kind === 'intent') {
      // A new attempt after a final word starts without one; an intent while open is the same attempt.
      if (isFinal(state)) state = undefined;
      open = true;
    } else {
      // A final word is never replaced by a later non-final one.
      if (!isFinal(state) || isFinal(record.view.state)) state = record.view.state;
      if (isFinal(record.view.state)) open = false;
    }
  }
  return { state: state ?? 'unknown', open };
}
