import { lineOf } from '../../src/ledger/record-format.js';
import type { JournalRecord, OutcomeRecord } from '../../src/ledger/records.js';
import { seededRandom } from './seeded-random.js';

/** Journals of every kind of line: own lines, others' spellings, damaged and torn lines, owners whose keys collide. */
export const owners = [
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
const texts = [
  '',
  'plain',
  'Успех',
  'say "hi"',
  'back\\slash',
  'tab\there',
  'line\nbreak',
  'emoji 🙂',
  'sep\u2028arator',
  'nul\u0000',
  'del\u007f',
  'c1\u0085',
];
const states = ['success', 'failed', 'pending', 'unknown'] as const;

export function generateJournal(seed: number): string {
  const next = seededRandom(seed);
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
      record = {
        kind: 'outcome',
        transactionId,
        ...owner,
        at,
        source: pick(['payment', 'settle', 'reconcile'] as const),
        view,
      } satisfies OutcomeRecord;
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
  return (
    lines.map((line) => line + pick(breaks)).join('') + (next() < 0.5 ? '{"kind":"intent","transactionId":"9"' : '')
  );
}
