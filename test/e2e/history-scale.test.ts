import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { JournalRecord } from '../../src/ledger/records.js';
import { binPath, isolatedEnv } from '../helpers/cli.js';
import { intent, outcome } from '../helpers/journal-lines.js';
import { defaultLedger, seedLedger } from '../helpers/ledger-file.js';

/**
 * history streams a ledger of many pages (250 transactions each) into a reader that takes its
 * lines slowly: every line, in order. Its memory is the bench's (docs/performance.md, the history row).
 */
const transactions = 10_000;

/** The ledger's transactions, each with one outcome: success, or unknown one in a thousand. */
function* paidRecords(): Generator<JournalRecord> {
  for (let i = 0; i < transactions; i++) {
    const id = `${1795289214527958198n + BigInt(i)}`;
    yield intent(id);
    yield outcome(id, i % 1000 === 0 ? 'unknown' : 'success');
  }
}

describe('history at scale', () => {
  it(`streams ${transactions.toLocaleString('en')} transactions as JSON lines to a slow reader, every one in order`, async () => {
    const env = isolatedEnv();
    await seedLedger(defaultLedger(env), [...paidRecords()]);
    const child = spawn(process.execPath, [binPath, '--json', 'history'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let lines = 0;
    let last = '';
    let unknown = 0;
    // A reader that stops now and then, as `less` or a script does: history waits for it.
    child.stdout.on('data', (chunk: Buffer) => {
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
      unknown += chunk.toString().split('"state":"unknown"').length - 1;
      last = (last + chunk.toString()).slice(-400);
      if (lines % 2048 < 64) {
        child.stdout.pause();
        setTimeout(() => child.stdout.resume(), 20);
      }
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(code, stderr).toBe(0);
    expect(lines).toBe(transactions);
    expect(unknown).toBe(transactions / 1000);
    expect(last).toContain(`"transactionId":"${1795289214527958198n + BigInt(transactions - 1)}"`);
  }, 60_000);
});
