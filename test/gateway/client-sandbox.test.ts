import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayClient, type GatewayClientOptions } from '../../src/gateway/client.js';
import { md5Hex } from '../../src/protocol/password.js';
import { generateTransactionId, isLongId } from '../../src/protocol/transaction-id.js';
import { sandboxCredentials } from '../../src/sandbox/catalogue.js';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/server.js';

let sandbox: RunningSandbox;
const clients: GatewayClient[] = [];

function client(options: Partial<GatewayClientOptions> = {}): GatewayClient {
  const made = new GatewayClient({
    baseUrl: sandbox.baseUrl,
    credentials: { agentId: sandboxCredentials.agentId, wirePassword: sandboxCredentials.password },
    timeoutMs: 5000,
    dateFormat: 'local',
    ...options,
  });
  clients.push(made);
  return made;
}

beforeAll(async () => {
  sandbox = await startSandbox({ recordRequests: true });
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await sandbox.close();
});

const lastForm = () => sandbox.received.at(-1)!;

describe('GatewayClient against the sandbox', () => {
  it('accountCheck lists the vouchers of a dynamic service, exactly', async () => {
    const result = await client().accountCheck({ service: '102', account: 'player-42', amount: '0', currency: 'USD' });
    expect(result.answer.status).toBe('10');
    expect(result.answer.type).toBe('AccountCheck');
    expect(result.answer.transactionId).toBe(result.transactionId);
    expect(isLongId(result.transactionId)).toBe(true);
    expect(result.vouchers?.map((v) => [v.position, v.invoiceId, v.orderAmount])).toEqual([
      [1, '7010', '10.630'],
      [2, '7025', '26.575'],
      [3, '7050', '53.150'],
    ]);
    const form = lastForm();
    expect(form.get('RequestType')).toBe('AccountCheck');
    expect(form.get('TransactionID')).toBe(result.transactionId);
    expect(form.get('RequestDate')).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it('a dynamic payment sends OrderAmount 10.630 as Amount 10.630, then Status agrees', async () => {
    const c = client();
    const { vouchers } = await c.accountCheck({ service: '102', account: 'player-42', amount: '0', currency: 'USD' });
    const voucher = vouchers!.find((v) => v.invoiceId === '7010')!;
    const transactionId = generateTransactionId();
    const paid = await c.payment({
      service: '102',
      account: 'player-42',
      amount: voucher.orderAmount,
      currency: 'USD',
      transactionId,
      invoiceId: '7010',
    });
    const form = lastForm();
    expect(form.get('RequestType')).toBe('Payment');
    expect(form.get('Amount')).toBe('10.630');
    expect(form.get('Extra[0].Name')).toBe('InvoiceId');
    expect(form.get('Extra[0].Value')).toBe('7010');
    expect(paid).toMatchObject({
      status: '10',
      transactionId,
      amount: '10.630',
      exchangeRate: '0.921',
      serviceCurrency: 'EUR',
      account: 'player-42',
    });
    expect(BigInt(paid.requestId!)).toBeGreaterThanOrEqual(9007199254740993n);

    const status = await c.status(transactionId);
    expect(status).toMatchObject({
      status: '10',
      type: 'Status',
      transactionId,
      requestId: paid.requestId,
      amount: '10.630',
    });
    expect([...lastForm().keys()]).toEqual(['AgentID', 'AgentPassword', 'RequestType', 'TransactionID', 'RequestDate']);
  });

  it('a static payment sends no Extra fields', async () => {
    const transactionId = generateTransactionId();
    const paid = await client().payment({
      service: '201',
      account: '7011234567',
      amount: '150.50',
      currency: 'KZT',
      transactionId,
    });
    expect(paid.status).toBe('10');
    expect([...lastForm().keys()].some((key) => key.startsWith('Extra'))).toBe(false);
    expect(lastForm().get('Amount')).toBe('150.50');
  });

  it('a repeated TransactionID is the same payment: same RequestID, nothing new stored', async () => {
    const c = client();
    const transactionId = generateTransactionId();
    const before = sandbox.store.size;
    const input = {
      service: '101',
      account: '7011234567',
      amount: '499.00',
      currency: 'KZT',
      transactionId,
      invoiceId: '5001',
    };
    const first = await c.payment(input);
    const second = await c.payment(input);
    expect(second.requestId).toBe(first.requestId);
    expect(second.status).toBe('10');
    expect(sandbox.store.size).toBe(before + 1);
    expect(sandbox.store.all().filter((t) => t.transactionId === transactionId)).toHaveLength(1);
  });

  it('an MD5 password is accepted', async () => {
    const c = client({ credentials: { agentId: '1001', wirePassword: md5Hex(sandboxCredentials.password) } });
    const result = await c.accountCheck({ service: '101', account: '7011234567', amount: '0', currency: 'KZT' });
    expect(result.answer.status).toBe('10');
    expect(lastForm().get('AgentPassword')).toBe('f86b4a1de5997aa1ca228f3c9a4dbcdc');
  });

  it('ISO dates are sent when asked for', async () => {
    await client({ dateFormat: 'iso' }).status('1');
    expect(lastForm().get('RequestDate')).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });
});
