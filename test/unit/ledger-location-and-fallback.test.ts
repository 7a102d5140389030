import { mkdtempSync, readdirSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import {
  countWaiting,
  deliverWaiting,
  fallbackOf,
  keepWaiting,
  type WaitingOutcome,
} from '../../src/ledger/postgres/fallback.js';
import type { OutcomeRecord } from '../../src/ledger/records.js';
import { parseLedgerLocation } from '../../src/ledger-location.js';
import { unknownView } from '../../src/protocol/transaction-view.js';
import { redactSecrets } from '../../src/run-scope.js';
import { inRun } from '../helpers/in-run.js';

describe('the ledger setting', () => {
  it('is a SQLite file unless it is a postgres:// URL', () => {
    expect(parseLedgerLocation('/var/lib/agentpay/ledger.sqlite', 'flag')).toEqual({
      kind: 'file',
      path: '/var/lib/agentpay/ledger.sqlite',
      shown: '/var/lib/agentpay/ledger.sqlite',
    });
    expect(parseLedgerLocation('postgresql://db.example/ledger', 'flag')).toMatchObject({
      kind: 'postgres',
      shown: 'postgresql://db.example/ledger',
    });
  });

  it('names a postgres ledger with its password as *** and keeps that password out of every message', async () => {
    await inRun('en', async () => {
      const location = parseLedgerLocation(
        'postgres://desk:p%40ss-w0rd-7731@db.example:5433/ledger?sslmode=require',
        'env AGENTPAY_LEDGER',
      );
      expect(location.shown).toBe('postgres://desk:***@db.example:5433/ledger?sslmode=require');
      expect(redactSecrets('connecting with p@ss-w0rd-7731 and p%40ss-w0rd-7731')).toBe('connecting with *** and ***');
      const asParameter = parseLedgerLocation(
        'postgres://db.example/ledger?user=desk&password=other-secret-9921',
        'flag',
      );
      expect(asParameter.shown).toBe('postgres://db.example/ledger?user=desk&password=***');
      expect(redactSecrets('other-secret-9921')).toBe('***');
    });
  });

  it('refuses another scheme or nothing, naming the source', () => {
    expect(() => parseLedgerLocation('mysql://root:pw@db/ledger', 'profile')).toThrow(UsageError);
    expect(() => parseLedgerLocation('mysql://root:pw@db/ledger', 'profile')).toThrow(
      /mysql:\/\/\*\*\*@db\/ledger.*\(profile\) is neither a file path nor a postgres:\/\/ URL/,
    );
    expect(() => parseLedgerLocation('  ', 'flag')).toThrow(/ledger \(flag\) is empty/);
    // A mistyped scheme: the password (a / in it too) never shows.
    expect(() => parseLedgerLocation('postgress://desk:se/cret-4471@db/ledger', 'flag')).toThrow(
      '"postgress://***@db/ledger"',
    );
  });
});

const outcome = (transactionId: string): WaitingOutcome => {
  const view = {
    ...unknownView(
      { transactionId, service: '201', account: 'a', amount: '1.00', currency: 'KZT' },
      'Payment',
      'answer',
    ),
    state: 'success' as const,
  };
  const record: OutcomeRecord = {
    kind: 'outcome',
    transactionId,
    gateway: 'sandbox',
    agentId: '1001',
    at: '2026-11-23T10:00:00.000Z',
    source: 'payment',
    view,
  };
  return {
    recordId: `00000000-0000-4000-8000-00000000000${transactionId.slice(-1)}`,
    operator: 'ann',
    host: 'desk-1',
    record,
  };
};

describe('the fallback for outcomes the team ledger could not take', () => {
  const fallback = () =>
    fallbackOf(mkdtempSync(join(tmpdir(), 'agentpay-fallback-')), 'postgres://desk:***@db.example/ledger');

  it('keeps outcomes until a delivery takes them, then removes them', async () => {
    const where = fallback();
    keepWaiting(where, [outcome('101')]);
    keepWaiting(where, [outcome('102'), outcome('103')]);
    expect(countWaiting(where)).toBe(3);
    const delivered: string[] = [];
    expect(
      await deliverWaiting(
        where,
        async (outcomes) => void delivered.push(...outcomes.map((o) => o.record.transactionId)),
      ),
    ).toBe(3);
    expect(delivered).toEqual(['101', '102', '103']);
    expect(countWaiting(where)).toBe(0);
    expect(readdirSync(where.directory)).toEqual([]);
  });

  it('leaves them for the next command when a delivery fails, and takes up a file an earlier delivery left', async () => {
    const where = fallback();
    keepWaiting(where, [outcome('201')]);
    await expect(
      deliverWaiting(where, () => Promise.reject(new Error('the database went away again'))),
    ).rejects.toThrow('went away again');
    expect(countWaiting(where)).toBe(1);
    // An outcome kept after the failed delivery renamed the file away goes to a new file: both are delivered.
    keepWaiting(where, [outcome('202')]);
    expect(readdirSync(where.directory)).toHaveLength(2);
    const delivered: string[] = [];
    await deliverWaiting(
      where,
      async (outcomes) => void delivered.push(...outcomes.map((o) => o.record.transactionId)),
    );
    expect(delivered.sort()).toEqual(['201', '202']);
  });

  it('an outcome appended after a delivery took the file goes to a new one, and both are counted', async () => {
    const where = fallback();
    keepWaiting(where, [outcome('301')]);
    // A delivery takes the file the moment after an append: the next append starts a new file.
    renameSync(
      join(where.directory, `${where.stem}.jsonl`),
      join(where.directory, `${where.stem}.99-taken.delivering`),
    );
    keepWaiting(where, [outcome('302')]);
    expect(countWaiting(where)).toBe(2);
  });
});
