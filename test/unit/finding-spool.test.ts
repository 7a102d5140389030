import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { FindingSpool } from '../../src/commands/reconcile/finding-spool.js';
import type { Finding } from '../../src/registry/compare.js';

const finding = (n: number): Finding => ({
  list: 'only-in-ledger',
  transactionId: `${9_000_000_000_000_000_000n + BigInt(n)}`,
  date: '2026-11-21',
  account: n % 2 === 0 ? `счёт "${n}"\t😀` : `acct-${n}`,
  registryAmount: null,
  ledgerAmount: `${n}.50`,
  registryState: null,
  ledgerState: 'success',
});

const spoolFiles = () => readdirSync(tmpdir()).filter((name) => name.startsWith('agentpay-findings-'));

async function listed(spool: FindingSpool): Promise<Finding[]> {
  const all: Finding[] = [];
  for await (const one of spool.findings()) all.push(one);
  return all;
}

describe('a list of findings kept for later', () => {
  it('gives back what it was given, in order and exactly, past what it holds in memory; its file goes with remove()', async () => {
    const before = spoolFiles();
    const spool = new FindingSpool(3);
    const given = Array.from({ length: 10 }, (_, n) => finding(n));
    given.forEach((one) => spool.add(one));
    expect(spoolFiles().length).toBe(before.length + 1);
    expect(await listed(spool)).toEqual(given);
    spool.remove();
    expect(spoolFiles()).toEqual(before);
  });

  it('makes no file while it holds them all', async () => {
    const before = spoolFiles();
    const spool = new FindingSpool(3);
    [finding(1), finding(2)].forEach((one) => spool.add(one));
    expect(spoolFiles()).toEqual(before);
    expect(await listed(spool)).toEqual([finding(1), finding(2)]);
    spool.remove();
  });
});
