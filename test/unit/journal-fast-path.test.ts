import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { allEntries, findIntent, openEntries } from '../../src/ledger/file/entries.js';
import { OwnLineScanner, recordOf } from '../../src/ledger/file/line-format.js';
import { journalPayments } from '../../src/ledger/file/payments.js';
import type { JournalEntry, LedgerFilter } from '../../src/ledger/ledger.js';
import { lineOf, readRecord } from '../../src/ledger/record-format.js';
import { type IntentRecord, isFinalState, type JournalRecord, type OutcomeRecord, ownerKey } from '../../src/ledger/records.js';
import { linesOf } from '../../src/text-lines.js';
import { gathered } from '../helpers/gathered.js';
import { seededRandom } from '../helpers/seeded-random.js';
import { thrown } from '../helpers/thrown.js';

/*
 * The journal is read fast (own lines recognised by the pattern compiled from the format
 * table and scanned as byte text, readRecord only for other lines, records read whole only
 * when kept). These tests hold it to the plain way: every line through readline, JSON.parse
 * and readRecord, with the same ledger rules and the same warnings.
 */

const random = seededRandom;

async function* referenceRecords(path: string, warn: (message: string) => void): AsyncGenerator<JournalRecord> {
  // Lines end at "\n", "\r\n" or a lone "\r", as readline (crlfDelay Infinity) split them up
  // to Node 22; Node 24's readline also splits at U+2028 and U+2029, which JSON strings may hold.
  let lineNumber = 0;
  for (const line of readFileSync(path, 'utf8').split(/\r\n|\r|\n/)) {
    lineNumber++;
    if (line === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      warn(`journal ${path} line ${lineNumber} is damaged (a crash mid-write?): not JSON; skipped`);
      continue;
    }
    try {
      yield readRecord(value);
    } catch (error) {
      warn(`journal ${path} line ${lineNumber} is damaged (a crash mid-write?): ${(error as Error).message}; skipped`);
    }
  }
}

const wanted = (intent: IntentRecord, filter: LedgerFilter) => filter.since === undefined || Date.parse(intent.at) >= filter.since.getTime();

async function referenceOpen(path: string, filter: LedgerFilter, warn: (message: string) => void): Promise<JournalEntry[]> {
  const open = new Map<string, JournalEntry>();
  const closed = new Set<string>();
  for await (const record of referenceRecords(path, warn)) {
    const key = ownerKey(record);
    if (record.kind === 'intent') {
      // A later intent reopens a closed transaction: a new attempt at the same purchase.
      if (closed.delete(key) || !open.has(key)) {
        if (wanted(record, filter)) open.set(key, { intent: record, outcome: undefined });
        else closed.add(key);
      }
      continue;
    }
    const entry = open.get(key);
    if (isFinalState(record.view.state)) {
      open.delete(key);
      closed.add(key);
    } else if (entry) entry.outcome = record;
  }
  return [...open.values()];
}

async function referenceAll(path: string, filter: LedgerFilter, warn: (message: string) => void): Promise<JournalEntry[]> {
  const entries = new Map<string, JournalEntry>();
  for await (const record of referenceRecords(path, warn)) {
    const key = ownerKey(record);
    const entry = entries.get(key);
    if (record.kind === 'intent') {
      if (!entry && wanted(record, filter)) entries.set(key, { intent: record, outcome: undefined });
      // A retry after a failure is open until its own answer; a success stands whatever follows.
      else if (entry?.outcome?.view.state === 'failed') entry.outcome = undefined;
    } else if (entry && entry.outcome?.view.state !== 'success' && (entry.outcome === undefined || !isFinalState(entry.outcome.view.state) || isFinalState(record.view.state))) {
      entry.outcome = record;
    }
  }
  return [...entries.values()];
}

const owners = [
  { gateway: 'sandbox', agentId: '1001' },
  { gateway: 'https://gateway.example', agentId: '1001' },
  { gateway: 'https://gateway.example', agentId: '77' },
  // Keys are "<gateway> <agentId> <id>": these owners make equal keys, and so do
  // "1001 7" with id 7 and "1001" with id "7 7".
  { gateway: 'http://host/a b', agentId: '1' },
  { gateway: 'http://host/a', agentId: 'b 1' },
  { gateway: 'sandbox', agentId: '1001 7' },
  { gateway: 'https://шлюз.example/путь', agentId: '5' },
];
const texts = ['', 'plain', 'Успех', 'say "hi"', 'back\\slash', 'tab\there', 'line\nbreak', 'emoji 🙂', 'sep\u2028arator', 'nul\u0000', 'del\u007f', 'c1\u0085'];
const states = ['success', 'failed', 'pending', 'unknown'] as const;

function generateJournal(seed: number): string {
  const next = random(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const ids = ['1', '2', '7', '42', '1795289214527958198', '9223372036854775807', '7 7', '2 3'];
  const lines: string[] = [];
  for (let i = 0; i < 120; i++) {
    const owner = pick(owners);
    const transactionId = pick(ids);
    const at = new Date(Date.UTC(2026, 10, 1 + Math.floor(next() * 30))).toISOString();
    const roll = next();
    let record: JournalRecord;
    if (roll < 0.4) {
      record = {
        kind: 'intent',
        transactionId,
        ...owner,
        service: pick(['101', '201']),
        account: pick(texts),
        amount: '499.00',
        currency: 'KZT',
        invoiceId: next() < 0.5 ? null : '5001',
        at,
      };
    } else {
      const state = pick(states);
      const view = {
        transactionId,
        requestId: next() < 0.3 ? null : '9007199254740993',
        type: pick([null, 'Payment', 'Status']),
        status: state === 'success' ? '10' : null,
        state,
        message: pick(texts),
        service: pick([null, '101']),
        account: pick([null, ...texts]),
        amount: pick([null, '10.630']),
        currency: pick([null, 'KZT']),
        exchangeRate: null,
        serviceCurrency: pick([null, 'EUR']),
        // A view may carry warnings (amount-check.ts): none, one, two, or an empty list from another writer.
        ...pick([{}, {}, { warnings: [pick(texts)] }, { warnings: [pick(texts), pick(texts)] }, { warnings: [] }]),
      };
      record = { kind: 'outcome', transactionId, ...owner, at, source: pick(['payment', 'settle', 'reconcile'] as const), view } satisfies OutcomeRecord;
    }
    const own = lineOf(record);
    const form = next();
    let line: string;
    if (form < 0.6)
      line = own; // as agentpay writes it
    else if (form < 0.68)
      line = JSON.stringify(record, null, next() < 0.5 ? 0 : 1).replace(/\n/g, ' '); // other key order or spacing
    else if (form < 0.74)
      line = JSON.stringify({ extra: true, ...record }); // unknown keys: stripped
    else if (form < 0.8)
      line = own.slice(0, Math.floor(next() * own.length)); // torn
    else if (form < 0.84)
      line = own.replace('"state":"', '"state":"x'); // not a state
    else if (form < 0.88)
      line = own.replace(/"amount":"[^"]*"/, '"amount":499'); // a number where text belongs
    else if (form < 0.9) line = own.replace('"invoiceId":null', '"invoiceId":false');
    else if (form < 0.92)
      line = `  ${own}`; // leading blanks: still JSON
    else if (form < 0.94)
      line = own.replace(',"at":', ',"at":"x","at":'); // a duplicate key: JSON.parse keeps the last
    else if (form < 0.96) line = '';
    else line = `\ufeff${own}`;
    lines.push(line);
  }
  const breaks = ['\n', '\n', '\n', '\r\n', '\r'];
  return lines.map((line) => line + pick(breaks)).join('') + (next() < 0.5 ? '{"kind":"intent","transactionId":"9"' : '');
}

/** The result with its key order, which history's JSON output shows. */
const exact = (value: unknown) => JSON.stringify(value);

describe('reading the journal fast', () => {
  it('agrees with readline + JSON.parse + readRecord on generated journals, damaged lines and warnings included', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agentpay-fast-journal-'));
    let kept = 0;
    for (let seed = 1; seed <= 32; seed++) {
      const path = join(dir, `journal-${seed}.jsonl`);
      writeFileSync(path, generateJournal(seed));
      for (const filter of [{}, { since: new Date(Date.UTC(2026, 10, 15)) }]) {
        const fast: string[] = [];
        const reference: string[] = [];
        const open = await openEntries(path, filter, (m) => fast.push(m));
        expect(exact(open), `seed ${seed}`).toBe(exact(await referenceOpen(path, filter, (m) => reference.push(m))));
        expect(fast).toEqual(reference);
        const all = await gathered(allEntries(path, filter, () => {}));
        const expectedAll = await referenceAll(path, filter, () => {});
        expect(exact(all), `seed ${seed}`).toBe(exact(expectedAll));
        // reconcile --registry's one pass: the same transactions, light, cut to an owner and an end.
        const until = new Date(Date.UTC(2026, 10, 25));
        for (const owner of [undefined, owners[0]!, owners[3]!]) {
          const query = { since: filter.since ?? new Date(0), until, ...owner };
          const payments = (await gathered(journalPayments(path, query, () => {}))).flat();
          const expected = expectedAll
            .filter(({ intent }) => Date.parse(intent.at) < until.getTime() && (owner === undefined || (intent.gateway === owner.gateway && intent.agentId === owner.agentId)))
            .map(({ intent, outcome }) => ({
              transactionId: intent.transactionId,
              account: intent.account,
              amount: intent.amount,
              at: intent.at,
              state: outcome?.view.state ?? 'unknown',
            }));
          expect(payments, `seed ${seed}`).toEqual(expected);
        }
        kept += open.length + all.length;
      }
      const everything = await referenceAll(path, {}, () => {});
      for (const owner of owners) {
        for (const transactionId of ['1', '7', '7 7', '2 3']) {
          const expected = everything.find((entry) => ownerKey(entry.intent) === ownerKey({ ...owner, transactionId }))?.intent;
          expect(exact(await findIntent(path, { ...owner, transactionId }, () => {}))).toBe(exact(expected));
        }
      }
    }
    expect(kept).toBeGreaterThan(1000);
  });

  it('reads an outcome with warnings on the fast path, keeping them after the other fields', () => {
    const view = {
      transactionId: '7',
      requestId: '9007199254740993',
      type: 'Payment',
      status: '10',
      state: 'success' as const,
      message: 'Успех',
      service: '101',
      account: 'a',
      amount: '24970',
      currency: 'KZT',
      exchangeRate: '1',
      serviceCurrency: 'KZT',
      warnings: ['the gateway reports Amount 24970, not 2497.00'],
    };
    const record: OutcomeRecord = { kind: 'outcome', transactionId: '7', gateway: 'sandbox', agentId: '1001', at: '2026-11-21T00:00:00.000Z', source: 'payment', view };
    const line = lineOf(record);
    expect(line).toMatch(/"serviceCurrency":"KZT","warnings":\["the gateway reports Amount 24970, not 2497\.00"\]\}\}$/);
    const scanned = new OwnLineScanner().scan(Buffer.from(line, 'utf8').toString('latin1'));
    expect(typeof scanned?.content).toBe('string');
    expect(exact(recordOf(scanned!))).toBe(exact(readRecord(JSON.parse(line))));
    expect(recordOf(scanned!)).toStrictEqual(record);
    const { warnings: _none, ...withoutWarnings } = view;
    expect(lineOf({ ...record, view: withoutWarnings })).not.toContain('warnings');
  });

  it.each([
    ['[1]', 'the line: expected an object, got a list'],
    ['{"kind":"payment"}', 'kind: expected "intent" or "outcome", got "payment"'],
    ['{"kind":"intent","transactionId":7}', 'transactionId: expected a string, got the number 7'],
    [
      '{"kind":"intent","transactionId":"7","gateway":"g","agentId":"1","service":"1","account":"a","amount":"1.00","currency":"KZT","invoiceId":false,"at":"t"}',
      'invoiceId: expected a string or null, got a boolean',
    ],
    ['{"kind":"outcome","transactionId":"7","gateway":"g","agentId":"1","at":"t","source":"payment","view":null}', 'view: expected an object, got null'],
    [
      '{"kind":"outcome","transactionId":"7","gateway":"g","agentId":"1","at":"t","source":"later","view":{}}',
      'source: expected "payment" or "settle" or "reconcile", got "later"',
    ],
    [
      '{"kind":"outcome","transactionId":"7","gateway":"g","agentId":"1","at":"t","source":"payment","view":{"transactionId":"7","requestId":null,"type":null,"status":null,"state":"done"}}',
      'view.state: expected "success" or "pending" or "failed" or "unknown", got "done"',
    ],
  ])('a line that is not a record is refused with where and what was expected: %s', async (line, reason) => {
    expect(thrown(() => readRecord(JSON.parse(line))).message).toBe(reason);
    const dir = mkdtempSync(join(tmpdir(), 'agentpay-journal-line-'));
    const path = join(dir, 'journal.jsonl');
    writeFileSync(path, `${line}\n`);
    const warnings: string[] = [];
    expect(await gathered(allEntries(path, {}, (m) => warnings.push(m)))).toEqual([]);
    expect(warnings).toEqual([`journal ${path} line 1 is damaged (a crash mid-write?): ${reason}; skipped`]);
  });

  it('splits lines as readline does, also when "\\r\\n" or a character falls across two chunks', async () => {
    const next = random(7);
    for (let round = 0; round < 300; round++) {
      let text = '';
      while (text.length < 60) text += ['a', 'b', 'é', '🙂', '\n', '\r', '\r\n', ''][Math.floor(next() * 8)];
      const bytes = Buffer.from(text, 'utf8');
      const chunks: Buffer[] = [];
      for (let at = 0; at < bytes.length; ) {
        const size = 1 + Math.floor(next() * 8);
        chunks.push(bytes.subarray(at, at + size));
        at += size;
      }
      const expected: string[] = [];
      for await (const line of createInterface({ input: Readable.from(chunks), crlfDelay: Infinity })) expected.push(line);
      const lines: string[] = [];
      for await (const batch of linesOf(Readable.from(chunks), 'utf8')) lines.push(...batch);
      expect(lines, JSON.stringify(text)).toEqual(expected);
    }
  });
});
