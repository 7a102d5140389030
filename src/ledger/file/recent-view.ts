import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { errnoCodeOf, LocalStorageError } from '../../errors.js';
import type { TransactionState } from '../../protocol/transaction-view.js';
import type { LookBackQuery, RecentPayment } from '../ledger.js';
import { type IntentRecord, replacesOutcome } from '../records.js';
import { intentTime, OwnLineScanner, recordOf } from './line-format.js';
import { recentPayments } from './look-back.js';
import { recordOn } from './reader.js';

/**
 * The recent payments of one gateway and agent, kept up to date as the journal grows: what the
 * desk's rules weigh at each intent a process writes (file-ledger.ts claims). The first reading
 * is look-back.ts's, from the journal's end back over the window, for every account; each later
 * one reads only the bytes appended since, forward. A bulk run of n rows so reads its window
 * once, not n times. The journal renamed away (a compaction), or a reach further back than the
 * first reading's, starts it again from the end.
 *
 * The same rules as look-back.ts: a payment is its latest attempt, its state the answers after
 * that attempt (records.ts replacesOutcome); each appended line is taken once, in file order.
 */
export class RecentView {
  private view: View | undefined;
  /**
   * This process's own intents, written but not yet read on: passed over when read, so that a
   * bulk run's view does not grow by a payment a row (recent-view's keeper says which to keep).
   */
  private readonly own = new Set<string>();

  /** Intents this process wrote that its view need not keep (file-ledger.ts: no rule adds them up). */
  passOver(records: readonly { gateway: string; agentId: string; transactionId: string; at: string }[]): void {
    for (const record of records) this.own.add(`${record.transactionId}\n${record.at}`);
  }

  constructor(
    private readonly journal: string,
    private readonly owner: { gateway: string; agentId: string },
  ) {}

  /** The payments since `since` to these accounts, or made by `operator` when given, oldest first. */
  async payments(query: Pick<LookBackQuery, 'since' | 'accounts' | 'operator'>): Promise<RecentPayment[]> {
    const since = query.since.getTime();
    const identity = this.identityNow();
    if (
      this.view === undefined ||
      identity === undefined ||
      !sameFile(this.view.identity, identity) ||
      since < this.view.since ||
      identity.size < this.view.offset
    ) {
      this.view = await this.readBack(query.since, identity);
    } else {
      this.readOn(this.view, identity.size);
    }
    const view = this.view;
    prune(view, since);
    const found = new Set<Payment>();
    for (const account of query.accounts) for (const payment of view.byAccount.get(account) ?? []) found.add(payment);
    // An operator's daily limit weighs their payments to any account: all of them are looked at then.
    if (query.operator !== undefined)
      for (const payment of view.payments.values()) if (payment.intent.operator === query.operator) found.add(payment);
    return [...found]
      .filter(({ intent }) => Date.parse(intent.at) >= since)
      .map(({ intent, state }) => ({ intent, state }))
      .sort((a, b) => Date.parse(a.intent.at) - Date.parse(b.intent.at));
  }

  /** The journal's size and identity now; undefined while it does not exist. */
  private identityNow(): Identity | undefined {
    let fd: number;
    try {
      fd = openSync(this.journal, 'r');
    } catch (error) {
      if (errnoCodeOf(error) === 'ENOENT') return undefined;
      throw new LocalStorageError('read the journal', this.journal, error);
    }
    try {
      const { dev, ino, size } = fstatSync(fd);
      return { dev, ino, size };
    } finally {
      closeSync(fd);
    }
  }

  /**
   * The whole window, from the end back. Its lines up to `identity.size` are in it; lines
   * appended while it read may be read again forward, which changes nothing (an attempt read
   * again is the same latest attempt, an answer read again the same word).
   */
  private async readBack(since: Date, identity: Identity | undefined): Promise<View> {
    const found = await recentPayments(this.journal, { ...this.owner, since, accounts: [], operator: undefined }, true);
    const view: View = {
      identity: identity ?? { dev: -1, ino: -1, size: 0 },
      offset: identity?.size ?? 0,
      since: since.getTime(),
      payments: new Map(),
      byAccount: new Map(),
      interned: new Map(),
      prunedAt: 0,
    };
    for (const payment of found) remember(view, payment.intent, payment.state);
    return view;
  }

  /** The lines appended since the last reading, forward: attempts reset their payment's answers, answers apply in order. */
  private readOn(view: View, size: number): void {
    if (size <= view.offset) return;
    const fd = openSync(this.journal, 'r');
    let bytes: Buffer;
    try {
      bytes = Buffer.allocUnsafe(size - view.offset);
      let read = 0;
      while (read < bytes.length) {
        const got = readSync(fd, bytes, read, bytes.length - read, view.offset + read);
        if (got === 0) break;
        read += got;
      }
      bytes = bytes.subarray(0, read);
    } finally {
      closeSync(fd);
    }
    // Only whole lines: a line still being written is read next time.
    const end = bytes.lastIndexOf(0x0a) + 1;
    const scanner = new OwnLineScanner();
    for (let start = 0; start < end; ) {
      const newline = bytes.indexOf(0x0a, start);
      const stop = newline > start && bytes[newline - 1] === 0x0d ? newline - 1 : newline;
      if (stop > start) this.take(view, bytes.toString('latin1', start, stop), scanner);
      start = newline + 1;
    }
    view.offset += end;
  }

  private isOwners(record: { gateway: string; agentId: string }): boolean {
    return record.gateway === this.owner.gateway && record.agentId === this.owner.agentId;
  }

  private take(view: View, line: string, scanner: OwnLineScanner): void {
    const scanned = recordOn(line, scanner);
    if (typeof scanned === 'string') return;
    // Lines are read whole only when they concern a payment kept: most of a bulk run's are its own.
    if (scanned.kind === 'outcome') {
      const payment = view.payments.get(scanned.id);
      if (payment === undefined || !replacesOutcome(payment.state, scanned.state) || !this.isOwners(recordOf(scanned)))
        return;
      payment.state = scanned.state;
      return;
    }
    const at = intentTime(scanned);
    if (Date.parse(at) < view.since || this.own.delete(`${scanned.id}\n${at}`)) return;
    const intent = recordOf(scanned);
    if (!this.isOwners(intent)) return;
    // A new attempt: its answers are the ones after it (look-back.ts AnswersAfter).
    remember(view, intent, undefined);
  }
}

interface Identity {
  dev: number;
  ino: number;
  size: number;
}

interface Payment {
  intent: IntentRecord;
  state: TransactionState | undefined;
}

interface View {
  identity: Identity;
  /** Read up to here. */
  offset: number;
  /** The reach of the reading back: a query reaching further needs another. */
  since: number;
  /** By TransactionID. */
  payments: Map<string, Payment>;
  /** The same payments by account: a claim weighs its account's, not all of them. */
  byAccount: Map<string, Payment[]>;
  /** The texts many payments share (service, amount, currency, operator...), held once. */
  interned: Map<string, string>;
  /** When payments older than the window were last let go. */
  prunedAt: number;
}

/**
 * A payment's latest attempt, as light as the rules need it: the fields they weigh and show,
 * the texts many share held once; a bulk run of many rows keeps one of these a row it wrote.
 */
function remember(view: View, record: IntentRecord, state: TransactionState | undefined): void {
  const shared = (text: string) => {
    const held = view.interned.get(text);
    if (held !== undefined) return held;
    view.interned.set(text, text);
    return text;
  };
  const { transactionId, account, at } = record;
  const intent: IntentRecord = {
    kind: 'intent',
    transactionId,
    gateway: shared(record.gateway),
    agentId: shared(record.agentId),
    service: shared(record.service),
    account,
    amount: shared(record.amount),
    currency: shared(record.currency),
    invoiceId: record.invoiceId === null ? null : shared(record.invoiceId),
    at,
    ...(record.operator === undefined ? {} : { operator: shared(record.operator) }),
  };
  const key = keyOf(record);
  const known = view.payments.get(key);
  if (known !== undefined) {
    // Every attempt of a transaction is to the same account (the replay guard): its place stays.
    known.intent = intent;
    known.state = state;
    return;
  }
  const payment: Payment = { intent, state };
  view.payments.set(key, payment);
  const list = view.byAccount.get(account);
  if (list === undefined) view.byAccount.set(account, [payment]);
  else list.push(payment);
}

/** Lets go of the payments whose latest attempt the window has left behind, now and then (a run may outlast its window). */
function prune(view: View, since: number): void {
  if (view.payments.size < 4_096 || since - view.prunedAt < 60_000) return;
  view.prunedAt = since;
  for (const [key, payment] of view.payments) if (Date.parse(payment.intent.at) < since) view.payments.delete(key);
  for (const [account, list] of view.byAccount) {
    const kept = list.filter((payment) => Date.parse(payment.intent.at) >= since);
    if (kept.length === 0) view.byAccount.delete(account);
    else if (kept.length < list.length) view.byAccount.set(account, kept);
  }
}

const sameFile = (a: Identity, b: Identity) => a.dev === b.dev && a.ino === b.ino;

/** A payment's key: its TransactionID (a view holds one gateway and agent's). */
const keyOf = (record: { transactionId: string }) => record.transactionId;
