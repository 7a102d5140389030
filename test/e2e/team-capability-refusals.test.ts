import { describe, expect, it } from 'vitest';
import { isolatedEnv, runCli } from '../helpers/cli.js';

// What a ledger file cannot do (approvals, shifts, a team ledger's administration), said in one
// line: what it needs, in the user's language, exit 2, nothing written.
const approvalWords = 'needs the team ledger on PostgreSQL (--ledger postgres://';
const shiftWords = 'shifts are kept by the team ledger on PostgreSQL (--ledger postgres://';
const adminWords = 'is for a PostgreSQL ledger (--ledger postgres://';

const refusals: [readonly string[], string][] = [
  [['approvals'], approvalWords],
  [['approve', '1234'], approvalWords],
  [['decline', '1234', '--reason', 'no'], approvalWords],
  [['pay', '--approved', '1234'], approvalWords],
  [['shift', 'open'], shiftWords],
  [['shift', 'x'], shiftWords],
  [['shift', 'close'], shiftWords],
  [['shift', 'verify'], shiftWords],
  [['report', '--shift', '1'], shiftWords],
  [['ledger', 'operators'], adminWords],
  [['ledger', 'policy'], adminWords],
  [['ledger', 'migrate'], adminWords],
];

const lines = (text: string) => text.trimEnd().split('\n');

describe('a ledger file asked for what only a team ledger can do', { timeout: 60_000 }, () => {
  it.each(refusals)('%j says what it needs in one line, exit 2', async (args, words) => {
    const result = await runCli(args, { env: isolatedEnv() });
    expect([result.code, lines(result.stderr)]).toEqual([2, [expect.stringContaining(words)]]);
    expect(result.stdout).toBe('');
  });

  it('says it in Russian, and names play money under --sandbox, in one line', async () => {
    const russian = await runCli(['--lang', 'ru', 'approvals'], { env: isolatedEnv() });
    expect([russian.code, lines(russian.stderr)]).toEqual([2, [expect.stringContaining('требует общего журнала')]]);
    const play = await runCli(['--sandbox', 'shift', 'x'], { env: isolatedEnv() });
    expect([play.code, lines(play.stderr)]).toEqual([2, [expect.stringContaining('--sandbox is play money')]]);
  });
});
