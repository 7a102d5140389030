import { appendFileSync, mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recentPayments } from '../../src/ledger/file/look-back.js';
import { RecentView } from '../../src/ledger/file/recent-view.js';
import { lineOf } from '../../src/ledger/record-format.js';
import type { IntentRecord, OutcomeRecord } from '../../src/ledger/records.js';
import { unknownView } from '../../src/protocol/transaction-view.js';
import { seededRandom } from '../helpers/seeded-random.js';

// The incremental view a process keeps across its claims against the look-back's reading of
// the whole window, after every append: they must weigh the same payments with the same states.

const owner = { gateway: 'https://gateway.test', agentId: '5120' };
const states = ['success', 'failed', 'pending', 'unknown'] as const;

function intentAt(
  transactionId: string,
  account: string,
  at: Date,
  operator: string,
  gateway = owner.gateway,
): IntentRecord {
  return {
    kind: 'intent',
    gateway,
    agentId: owner.agentId,
    transactionId,
    service: '301',
    account,
    amount: '350.00',
    currency: 'KZT',
    invoiceId: '77001',
    at: at.toISOString(),
    operator,
  };
}

function outcomeOf(transactionId: string, state: (typeof states)[number], at: Date): OutcomeRecord {
  const view = { ...unknownView({ transactionId }, 'Payment', `answer ${state}`), state };
  return { kind: 'outcome', ...owner, transactionId, at: at.toISOString(), source: 'payment', view };
}

describe('RecentView: the look-back kept up to date', () => {
  it.each([1, 2, 3, 4, 5, 6])('agrees with a fresh look-back after every append (seed %i)', async (seed) => {
    const random = seededRandom(seed);
    const journal = join(mkdtempSync(join(tmpdir(), 'agentpay-recent-view-')), 'journal.jsonl');
    const now = Date.now();
    const ids: string[] = [];
    // Every attempt of a transaction is to its first account (the replay guard sees to it).
    const accountOf = new Map<string, string>();
    const lines: string[] = [];
    // Older payments, some outside the window.
    for (let i = 0; i < 40; i++) {
      const id = String(1_000 + i);
      ids.push(id);
      accountOf.set(id, `acc-${i % 7}`);
      lines.push(
        lineOf(intentAt(id, `acc-${i % 7}`, new Date(now - 20 * 60_000 + i * 20_000), i % 2 ? 'anna' : 'boris')),
      );
    }
    writeFileSync(journal, `${lines.join('\n')}\n`);
    const view = new RecentView(journal, owner);
    const since = new Date(now - 10 * 60_000);
    for (let round = 0; round < 30; round++) {
      const query = {
        since,
        accounts: [`acc-${Math.floor(random() * 7)}`, `acc-${Math.floor(random() * 7)}`],
        operator: random() < 0.3 ? 'anna' : undefined,
      };
      expect(await view.payments(query)).toEqual(await recentPayments(journal, { ...owner, ...query }));
      const appended: string[] = [];
      for (let n = Math.floor(random() * 5); n >= 0; n--) {
        const pick = random();
        const at = new Date(now + round * 1000 + n);
        if (pick < 0.35) {
          const id = String(5_000 + round * 10 + n);
          ids.push(id);
          accountOf.set(id, `acc-${Math.floor(random() * 7)}`);
          appended.push(
            lineOf(
              intentAt(
                id,
                accountOf.get(id)!,
                at,
                random() < 0.5 ? 'anna' : 'boris',
                random() < 0.1 ? 'https://other.test/' : owner.gateway,
              ),
            ),
          );
        } else if (pick < 0.45) {
          // A retry: the same purchase, a new attempt.
          const id = ids[Math.floor(random() * ids.length)]!;
          appended.push(lineOf(intentAt(id, accountOf.get(id)!, at, 'anna')));
        } else {
          appended.push(
            lineOf(
              outcomeOf(ids[Math.floor(random() * ids.length)]!, states[Math.floor(random() * states.length)]!, at),
            ),
          );
        }
      }
      appendFileSync(journal, `${appended.join('\n')}\n`);
    }
  });

  it('starts again from the end when the journal is renamed away (a compaction) or a reach goes further back', async () => {
    const journal = join(mkdtempSync(join(tmpdir(), 'agentpay-recent-view-')), 'journal.jsonl');
    const now = Date.now();
    writeFileSync(journal, `${lineOf(intentAt('1', 'acc', new Date(now - 60_000), 'anna'))}\n`);
    const view = new RecentView(journal, owner);
    const query = { since: new Date(now - 120_000), accounts: ['acc'], operator: undefined };
    expect(await view.payments(query)).toHaveLength(1);
    renameSync(journal, `${journal}.cut`);
    writeFileSync(journal, `${lineOf(intentAt('2', 'acc', new Date(now), 'anna'))}\n`);
    expect((await view.payments(query)).map((payment) => payment.intent.transactionId)).toEqual(['2']);
    appendFileSync(journal, `${lineOf(intentAt('0', 'acc', new Date(now - 3_600_000), 'anna'))}\n`);
    const further = { ...query, since: new Date(now - 7_200_000) };
    expect(await view.payments(further)).toEqual(await recentPayments(journal, { ...owner, ...further }));
  });

  it("passes over this process's own intents it was told of, and keeps another's", async () => {
    const journal = join(mkdtempSync(join(tmpdir(), 'agentpay-recent-view-')), 'journal.jsonl');
    const now = Date.now();
    writeFileSync(journal, `${lineOf(intentAt('1', 'acc', new Date(now - 60_000), 'anna'))}\n`);
    const view = new RecentView(journal, owner);
    const query = { since: new Date(now - 120_000), accounts: ['acc'], operator: undefined };
    await view.payments(query);
    const mine = intentAt('2', 'acc', new Date(now), 'anna');
    view.passOver([mine]);
    appendFileSync(journal, `${lineOf(mine)}\n${lineOf(intentAt('3', 'acc', new Date(now + 1), 'anna'))}\n`);
    expect((await view.payments(query)).map((payment) => payment.intent.transactionId)).toEqual(['1', '3']);
  });
});
