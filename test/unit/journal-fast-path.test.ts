import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { allEntries, findIntent, openEntries } from '../../src/ledger/file/entries.js';
import { OwnLineScanner, recordOf } from '../../src/ledger/file/line-format.js';
import { journalPayments } from '../../src/ledger/file/payments.js';
import { lineOf, readRecord } from '../../src/ledger/record-format.js';
import { type OutcomeRecord, ownerKey } from '../../src/ledger/records.js';
import { linesOf } from '../../src/text-lines.js';
import { gathered } from '../helpers/gathered.js';
import { generateJournal, owners } from '../helpers/generated-journal.js';
import { referenceAll, referenceOpen } from '../helpers/reference-journal.js';
import { seededRandom } from '../helpers/seeded-random.js';
import { thrown } from '../helpers/thrown.js';

/*
 * The journal is read fast (own lines recognised by the pattern compiled from the format
 * table and scanned as byte text, readRecord only for other lines, records read whole only
 * when kept). These tests hold it to the plain way (helpers/reference-journal.ts): every line
 * through readline, JSON.parse and readRecord, with the same ledger rules and the same warnings,
 * on generated journals (helpers/generated-journal.ts) and on cases made by hand.
 */

const random = seededRandom;

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
            .filter(
              ({ intent }) =>
                Date.parse(intent.at) < until.getTime() &&
                (owner === undefined || (intent.gateway === owner.gateway && intent.agentId === owner.agentId)),
            )
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
          const expected = everything.find(
            (entry) => ownerKey(entry.intent) === ownerKey({ ...owner, transactionId }),
          )?.intent;
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
    const record: OutcomeRecord = {
      kind: 'outcome',
      transactionId: '7',
      gateway: 'sandbox',
      agentId: '1001',
      at: '2026-11-21T00:00:00.000Z',
      source: 'payment',
      view,
    };
    const line = lineOf(record);
    expect(line).toMatch(
      /"serviceCurrency":"KZT","warnings":\["the gateway reports Amount 24970, not 2497\.00"\]\}\}$/,
    );
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
    [
      '{"kind":"outcome","transactionId":"7","gateway":"g","agentId":"1","at":"t","source":"payment","view":null}',
      'view: expected an object, got null',
    ],
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
      for await (const line of createInterface({ input: Readable.from(chunks), crlfDelay: Infinity }))
        expected.push(line);
      const lines: string[] = [];
      for await (const batch of linesOf(Readable.from(chunks), 'utf8')) lines.push(...batch);
      expect(lines, JSON.stringify(text)).toEqual(expected);
    }
  });
});
