import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readResults } from '../../src/commands/pay/bulk/results-read.js';
import { readOrders } from '../../src/commands/pay/bulk/rows.js';

/**
 * A results file read back as a stream (results-read.ts): the last line of a row wins, a line
 * cut short by a kill is passed over, TransactionIDs come back exactly (beyond 2^53, and one not
 * written as agentpay writes them), and a row whose order changed, or whose line the file no
 * longer has, is named.
 */
const folder = mkdtempSync(join(tmpdir(), 'agentpay-results-'));
const header =
  'line,key,service,account,currency,invoice-id,invoice,amount,transaction-id,paid-amount,paid-invoice-id,voucher,state,status,message';

async function read(results: string, orders = 'key,service,account,amount\nK1,202,a-1,10.00\nK2,202,a-2,20.00\n') {
  const [ordersPath, resultsPath] = [join(folder, 'orders.csv'), join(folder, 'orders.results.csv')];
  writeFileSync(ordersPath, orders);
  writeFileSync(resultsPath, results);
  const { rows } = await readOrders(ordersPath, undefined, () => process.stdin);
  return (await readResults(resultsPath, rows))!;
}

describe('reading an earlier run back', () => {
  it('keeps the last line of each row, exact ids, and passes over a line cut short', async () => {
    const { prior, changed } = await read(
      [
        header,
        '2,K1,202,a-1,KZT,,,10.00,18446744073709551615,10.00,,,planned,,',
        '3,K2,202,a-2,KZT,,,20.00,00042,20.00,,,planned,,',
        '2,K1,202,a-1,KZT,,,10.00,18446744073709551615,10.00,,,success,10,"Paid, thanks"',
        '3,K2,202,a-2,KZT,,,20.00,00042,20.00,,,succ',
      ].join('\n'),
    );
    expect(changed).toEqual([]);
    expect(prior.size).toBe(2);
    expect(prior.get(0)).toMatchObject({
      transactionId: '18446744073709551615',
      state: 'success',
      status: '10',
      message: 'Paid, thanks',
      account: 'a-1',
    });
    expect(prior.get(1)).toMatchObject({ transactionId: '00042', state: 'planned', status: undefined });
    expect([prior.transactionIdOf(0), prior.transactionIdOf(1), prior.transactionIdOf(2)]).toEqual([
      '18446744073709551615',
      '00042',
      undefined,
    ]);
    expect([prior.stateOf(0), prior.stateOf(1), prior.stateOf(2)]).toEqual(['success', 'planned', undefined]);
  });

  it('names a row whose order changed, and a line the file no longer has', async () => {
    const { changed } = await read(
      [
        header,
        '2,K1,202,a-1,KZT,,,10.00,1,10.00,,,planned,,',
        '3,K2,202,a-9,KZT,,,20.00,2,20.00,,,planned,,',
        '99999999999,K3,202,a-3,KZT,,,30.00,3,30.00,,,planned,,',
        '',
      ].join('\n'),
    );
    expect(changed).toEqual([
      { line: 3, changes: [{ column: 'account', was: 'a-9', now: 'a-2' }] },
      { line: 99999999999, changes: [] },
    ]);
  });
});
