import type { TransactionState } from '../../protocol/transaction-view.js';
import type { HeldTransaction, Intent, JournalEntry, RecordedBy } from '../ledger.js';
import { readRecord } from '../record-format.js';
import { attemptReopens, type IntentRecord, type OutcomeRecord, replacesOutcome } from '../records.js';

// The ledger's rows as the journal's records, and records as statement parameters: both backends answer with
// the same records, by the same rules (ledger/records.ts).

export type Row = Record<string, unknown>;

/** An outcome on its way into the ledger, with the id that makes writing it twice a no-op. */
export interface WaitingOutcome {
  recordId: string;
  operator: string;
  host: string;
  record: OutcomeRecord;
  /** The attempt it answers (its record's seq), when known. */
  answers?: string | undefined;
}

/** A query whose failure is the ledger's (exit 4), saying what it means for the payment: sent in the connection's turn, or now in a turn held already. */
export type Query = (text: string, values: unknown[], consequence?: string) => Promise<Row[]>;

export const text = (value: unknown) => String(value);
/** A timestamptz as ISO text (the driver gives a Date). */
export const iso = (value: unknown) => (value instanceof Date ? value.toISOString() : String(value));

export function intentOfRow(row: Row, at: unknown = row.at): IntentRecord {
  const by = { operator: row.record_operator ?? row.operator, host: row.record_host ?? row.host };
  return {
    kind: 'intent',
    transactionId: text(row.transaction_id),
    gateway: text(row.gateway),
    agentId: text(row.agent_id),
    service: text(row.service),
    account: text(row.account),
    amount: text(row.amount),
    currency: text(row.currency),
    invoiceId: row.invoice_id === null ? null : text(row.invoice_id),
    ...(typeof row.voucher === 'string' ? { voucher: row.voucher } : {}),
    ...(typeof by.operator === 'string' ? { operator: by.operator } : {}),
    ...(typeof by.host === 'string' ? { host: by.host } : {}),
    ...(Array.isArray(row.overrides) && row.overrides.length > 0 ? { overrides: row.overrides.map(text) } : {}),
    at: iso(at),
  };
}

/** The parameters of insertIntent ($1..$11, $13, $14; $12 is the record id): an intent as recorded at `at` by `by`. */
export function intentValues(intent: Intent, at: string, by: RecordedBy): unknown[] {
  const { gateway, agentId, transactionId, service, account, amount, currency, invoiceId } = intent;
  return [
    gateway,
    agentId,
    transactionId,
    service,
    account,
    amount,
    currency,
    invoiceId,
    at,
    by.operator,
    by.host,
    undefined,
    intent.voucher ?? null,
    intent.overrides ?? null,
  ];
}

/** An outcome as the journal has it; the view checked and in the journal's key order (readRecord). */
export function outcomeOfRow(intent: IntentRecord, at: unknown, source: unknown, view: unknown): OutcomeRecord {
  const { transactionId, gateway, agentId } = intent;
  return readRecord({ kind: 'outcome', transactionId, gateway, agentId, at: iso(at), source, view }) as OutcomeRecord;
}

/** Outcomes as the parallel arrays sql.insertOutcomes takes. */
export function outcomeColumns(outcomes: readonly WaitingOutcome[]): unknown[][] {
  const column = <T>(pick: (outcome: WaitingOutcome) => T) => outcomes.map(pick);
  return [
    column((o) => o.recordId),
    column((o) => o.record.gateway),
    column((o) => o.record.agentId),
    column((o) => o.record.transactionId),
    column((o) => o.record.at),
    column((o) => o.record.source),
    column((o) => o.record.view.state),
    // PostgreSQL text cannot hold NUL: a gateway Message with one keeps the rest, NUL as U+FFFD.
    column((o) =>
      JSON.stringify(o.record.view, (_key, value: unknown) =>
        typeof value === 'string' ? value.replaceAll('\u0000', '\uFFFD') : value,
      ),
    ),
    column((o) => o.operator),
    column((o) => o.host),
    column((o) => o.answers ?? null),
  ];
}

/** A transaction's records from its first attempt at or after `since` (history --since), as the journal reads them. */
export function inWindow(records: readonly Row[], since: Date | undefined): readonly Row[] {
  if (since === undefined) return records;
  const first = records.findIndex(
    (record) => record.kind === 'attempt' && new Date(iso(record.at)).getTime() >= since.getTime(),
  );
  return first === -1 ? [] : records.slice(first);
}

// The latest word on a transaction (ledger/records.ts replacesOutcome): a success stands; an outcome answering
// an attempt older than the latest is stale (a retry went out since) and changes nothing but a success.
export function latestOutcome(intent: IntentRecord, records: readonly Row[]): OutcomeRecord | undefined {
  let latest: { row: Row; state: TransactionState } | undefined;
  let latestAttempt = 0n;
  for (const record of records) {
    if (record.kind === 'attempt') {
      latestAttempt = BigInt(text(record.seq));
      if (attemptReopens(latest?.state)) latest = undefined;
      continue;
    }
    // The state alone decides; the one outcome kept is read whole (readRecord) at the end.
    const state = (record.view as { state: TransactionState }).state;
    const stale = record.answers_attempt !== null && BigInt(text(record.answers_attempt)) < latestAttempt;
    if (stale && state !== 'success') continue;
    if (replacesOutcome(latest?.state, state)) latest = { row: record, state };
  }
  return latest === undefined ? undefined : outcomeOfRow(intent, latest.row.at, latest.row.source, latest.row.view);
}

/** Records, in their order, by the seq of their transaction. */
export function recordsByTransaction(records: readonly Row[]): Map<string, Row[]> {
  const bySeq = new Map<string, Row[]>();
  for (const record of records) {
    const key = text(record.transaction_seq);
    const list = bySeq.get(key);
    if (list) list.push(record);
    else bySeq.set(key, [record]);
  }
  return bySeq;
}

/** Transactions (rows) with their latest attempt's intent and latest word, from their records in order. */
export function latestWordOf(rows: Row[], records: Row[]): HeldTransaction[] {
  const bySeq = recordsByTransaction(records);
  return rows.map((row) => {
    const own = bySeq.get(text(row.seq)) ?? [];
    // The latest attempt: who made it, when, and the guards lifted for it.
    const attempt = own.filter((record) => record.kind === 'attempt').at(-1);
    const intent =
      attempt === undefined
        ? intentOfRow(row)
        : intentOfRow(
            { ...row, record_operator: attempt.operator, record_host: attempt.host, overrides: attempt.overrides },
            attempt.at,
          );
    return {
      intent,
      outcome: latestOutcome(intent, own),
      attempt: attempt === undefined ? undefined : text(attempt.seq),
    };
  });
}

/** The rows of sql.claimOpen: each open transaction's latest attempt and the word on it so far. */
export function claimedEntriesOf(rows: Row[]): JournalEntry[] {
  return rows.map((row) => {
    const intent = intentOfRow(row, row.attempted_at);
    return {
      intent,
      outcome:
        row.outcome_view === null
          ? undefined
          : outcomeOfRow(intent, row.outcome_at, row.outcome_source, row.outcome_view),
    };
  });
}
