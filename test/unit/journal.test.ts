import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allEntries, findIntent, openEntries } from '../../src/ledger/file/entries.js';
import { JournalWriter } from '../../src/ledger/file/writer.js';
import { lineOf } from '../../src/ledger/record-format.js';
import type { IntentRecord, OutcomeRecord } from '../../src/ledger/records.js';
import { unknownView } from '../../src/protocol/transaction-view.js';
import { gathered } from '../helpers/gathered.js';

const owner = { gateway: 'sandbox', agentId: '1001' };

function intent(transactionId: string, at = '2026-11-21T10:00:00.000Z'): IntentRecord {
  return {
    kind: 'intent',
    ...owner,
    transactionId,
    service: '101',
    account: 'a',
    amount: '499.00',
    currency: 'KZT',
    invoiceId: '5001',
    at,
  };
}

function outcome(transactionId: string, state: 'success' | 'failed' | 'pending' | 'unknown'): OutcomeRecord {
  const view = { ...unknownView({ transactionId }, 'Status', state), state };
  return { kind: 'outcome', ...owner, transactionId, at: '2026-11-21T10:00:01.000Z', source: 'reconcile', view };
}

function journalPath(): string {
  return join(mkdtempSync(join(tmpdir(), 'agentpay-journal-')), 'nested', 'journal.jsonl');
}

describe('journal', () => {
  it('keeps open only the transactions without a final outcome', async () => {
    const path = journalPath();
    const writer = new JournalWriter(path);
    for (const record of [
      intent('1'),
      intent('2'),
      outcome('1', 'unknown'),
      intent('3'),
      outcome('2', 'success'),
      outcome('3', 'pending'),
    ]) {
      writer.append(record);
    }
    writer.close();
    const open = await openEntries(path, {}, () => {});
    expect(open.map((e) => [e.intent.transactionId, e.outcome?.view.state])).toEqual([
      ['1', 'unknown'],
      ['3', 'pending'],
    ]);
  });

  it('never lets a late non-final outcome overwrite a final one', async () => {
    const path = journalPath();
    const writer = new JournalWriter(path);
    for (const record of [intent('7'), outcome('7', 'success'), outcome('7', 'unknown')]) writer.append(record);
    writer.close();
    expect((await gathered(allEntries(path, {}, () => {})))[0]?.outcome?.view.state).toBe('success');
    expect(await openEntries(path, {}, () => {})).toEqual([]);
  });

  it('a later intent for a closed transaction (the safe retry) is open until its own outcome', async () => {
    const path = journalPath();
    const writer = new JournalWriter(path);
    // 8: the first attempt was not sent (failed), the retry's answer was lost.
    // 9: the retry of a paid payment, killed before its answer: open, so reconcile asks; its success stands.
    const records = [
      intent('8'),
      outcome('8', 'failed'),
      intent('8'),
      outcome('8', 'unknown'),
      intent('9'),
      outcome('9', 'success'),
      intent('9'),
    ];
    for (const record of records) writer.append(record);
    writer.close();
    const open = await openEntries(path, {}, () => {});
    expect(open.map((e) => [e.intent.transactionId, e.outcome?.view.state])).toEqual([
      ['8', 'unknown'],
      ['9', undefined],
    ]);
    const all = await gathered(allEntries(path, {}, () => {}));
    expect(all.map((e) => [e.intent.transactionId, e.outcome?.view.state])).toEqual([
      ['8', 'unknown'],
      ['9', 'success'],
    ]);
  });

  it('a success stands: a "not sent" or "never made" written after it (a retry elsewhere, a reconcile that asked early) does not replace it', async () => {
    const path = journalPath();
    const writer = new JournalWriter(path);
    for (const record of [
      intent('10'),
      outcome('10', 'success'),
      outcome('10', 'failed'),
      intent('11'),
      outcome('11', 'failed'),
      outcome('11', 'success'),
    ])
      writer.append(record);
    writer.close();
    const all = await gathered(allEntries(path, {}, () => {}));
    expect(all.map((e) => [e.intent.transactionId, e.outcome?.view.state])).toEqual([
      ['10', 'success'],
      ['11', 'success'],
    ]);
  });

  it('filters by --since on the intent time', async () => {
    const path = journalPath();
    const writer = new JournalWriter(path);
    writer.append(intent('1', '2026-11-01T00:00:00.000Z'));
    writer.append(intent('2', '2026-11-20T00:00:00.000Z'));
    writer.close();
    const entries = await gathered(allEntries(path, { since: new Date('2026-11-10T00:00:00Z') }, () => {}));
    expect(entries.map((e) => e.intent.transactionId)).toEqual(['2']);
  });

  it('skips a torn last line with a warning, and the next append starts on its own line', async () => {
    const path = journalPath();
    const writer = new JournalWriter(path);
    writer.append(intent('1'));
    writer.close();
    appendFileSync(path, '{"kind":"intent","transactionId":"2","gat');
    const warnings: string[] = [];
    expect((await gathered(allEntries(path, {}, (m) => warnings.push(m)))).length).toBe(1);
    expect(warnings).toEqual([expect.stringContaining('line 2 is damaged')]);

    const next = new JournalWriter(path);
    next.append(intent('3'));
    next.close();
    const ids = (await gathered(allEntries(path, {}, () => {}))).map((e) => e.intent.transactionId);
    expect(ids).toEqual(['1', '3']);
    expect(readFileSync(path, 'utf8').split('\n')).toHaveLength(4);
  });

  it('history takes an outcome far after its intent (read at its offset), across "\\r\\n" breaks too', async () => {
    const path = journalPath();
    mkdirSync(dirname(path), { recursive: true });
    const filler = Array.from({ length: 5000 }, (_, i) => [
      lineOf(intent(`f${i}`)),
      lineOf(outcome(`f${i}`, 'success')),
    ]).flat();
    const lines = [
      lineOf(intent('1')),
      lineOf(outcome('1', 'unknown')),
      ...filler,
      lineOf(outcome('1', 'success')),
      lineOf(intent('2')),
    ];
    writeFileSync(path, `${lines.join('\r\n')}\n`);
    const all = await gathered(allEntries(path, {}, () => {}));
    expect(all).toHaveLength(5002);
    expect(all[0]).toEqual({ intent: intent('1'), outcome: outcome('1', 'success') });
    expect(all.at(-1)).toEqual({ intent: intent('2'), outcome: undefined });
  });

  it('filters by latest state and gateway for history, and names the gateways of the rows shown and of all', async () => {
    const path = journalPath();
    const writer = new JournalWriter(path);
    const other = (record: IntentRecord | OutcomeRecord) => ({ ...record, gateway: 'https://gw.example' });
    for (const record of [
      intent('1'),
      outcome('1', 'success'),
      other(intent('2')),
      intent('3'),
      outcome('3', 'failed'),
    ])
      writer.append(record);
    writer.close();
    const unknown = await allEntries(path, { state: 'unknown' }, () => {});
    expect([unknown.gateways, unknown.allGateways]).toEqual([
      ['https://gw.example'],
      ['sandbox', 'https://gw.example'],
    ]);
    expect((await gathered(unknown)).map((e) => e.intent.transactionId)).toEqual(['2']);
    const sandbox = await allEntries(path, { gateway: 'sandbox' }, () => {});
    expect((await gathered(sandbox)).map((e) => [e.intent.transactionId, e.outcome?.view.state])).toEqual([
      ['1', 'success'],
      ['3', 'failed'],
    ]);
    const none = await allEntries(path, { gateway: 'sandbox', state: 'pending' }, () => {});
    expect([none.gateways, await gathered(none)]).toEqual([[], []]);
  });

  it('reads a missing journal as empty', async () => {
    expect(await gathered(allEntries(journalPath(), {}, () => {}))).toEqual([]);
  });

  it('finds the first intent for the replay guard, per gateway and agent', async () => {
    const path = journalPath();
    const writer = new JournalWriter(path);
    writer.append(intent('42'));
    writer.close();
    expect((await findIntent(path, { ...owner, transactionId: '42' }, () => {}))?.amount).toBe('499.00');
    expect(
      await findIntent(path, { gateway: 'https://other', agentId: '1001', transactionId: '42' }, () => {}),
    ).toBeUndefined();
  });
});
