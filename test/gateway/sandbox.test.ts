import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayClient } from '../../src/gateway/client.js';
import { md5Hex } from '../../src/protocol/password.js';
import { generateTransactionId } from '../../src/protocol/transaction-id.js';
import { sandboxCredentials } from '../../src/sandbox/catalogue.js';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/server.js';
import { SandboxStateError, type StoredTransaction, TransactionStore } from '../../src/sandbox/state.js';
import { stateFileBytes } from '../helpers/sandbox-state.js';

let sandbox: RunningSandbox;

/** Posts a raw form, so the sandbox can be asked what the client would never send. */
async function post(
  fields: Record<string, string>,
): Promise<{ statusCode: number; contentType: string | null; text: string }> {
  const response = await fetch(`${sandbox.baseUrl}/home/index`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
  return {
    statusCode: response.status,
    contentType: response.headers.get('content-type'),
    text: await response.text(),
  };
}

const base = () => ({
  AgentID: sandboxCredentials.agentId,
  AgentPassword: sandboxCredentials.password,
  RequestDate: '2025-01-02 03:04:05',
  TransactionID: generateTransactionId(),
});
const purchase = (fields: Record<string, string>) => ({
  ...base(),
  Service: '101',
  Amount: '0',
  Currency: 'KZT',
  Account: '7011234567',
  ...fields,
});

/** ResponseStatus of the answer, read from the raw text (no lossy parse involved). */
const statusOf = (text: string) => /"ResponseStatus":(-?\d+)/.exec(text)?.[1];

beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => {
  await sandbox.close();
});

describe('the sandbox gateway', () => {
  it('answers the spec envelope: TransactinID spelled so, lower-case account, FieldValue a JSON string', async () => {
    const fields = purchase({ RequestType: 'AccountCheck' });
    const { statusCode, contentType, text } = await post(fields);
    expect(statusCode).toBe(200);
    expect(contentType).toMatch(/^application\/json/);
    expect(text).toContain(`"TransactinID":${fields.TransactionID}`);
    expect(text).not.toContain('"TransactionID"');
    expect(text).toContain('"account":"7011234567"');
    const parsed = JSON.parse(text) as { TransactionContent: { Extras: { FieldName: string; FieldValue: unknown }[] } };
    const first = parsed.TransactionContent.Extras[0]!;
    expect(first.FieldName).toBe('Invoice-1');
    expect(typeof first.FieldValue).toBe('string');
    expect(JSON.parse(first.FieldValue as string)).toEqual({
      InvoiceId: 5001,
      OrderAmount: '499.00',
      InvoiceName: '100 GameCoins',
    });
    expect(statusOf(text)).toBe('10');
  });

  it('the USD service bills three-decimal amounts at an exchange rate', async () => {
    const { text } = await post(purchase({ RequestType: 'AccountCheck', Service: '102', Currency: 'USD' }));
    expect(text).toContain('"ExchangeRate":0.921');
    expect(text).toContain('\\"OrderAmount\\":\\"10.630\\"');
  });

  it('refuses a wrong password (20), accepts the MD5 one in either case', async () => {
    expect(statusOf((await post(purchase({ RequestType: 'AccountCheck', AgentPassword: 'wrong' }))).text)).toBe('20');
    expect(statusOf((await post(purchase({ RequestType: 'AccountCheck', AgentID: '1002' }))).text)).toBe('20');
    const digest = md5Hex(sandboxCredentials.password);
    expect(statusOf((await post(purchase({ RequestType: 'AccountCheck', AgentPassword: digest }))).text)).toBe('10');
    expect(
      statusOf((await post(purchase({ RequestType: 'AccountCheck', AgentPassword: digest.toUpperCase() }))).text),
    ).toBe('10');
  });

  it.each<[string, Record<string, string>, string]>([
    ['refused account 0000000000 at AccountCheck', { RequestType: 'AccountCheck', Account: '0000000000' }, '22'],
    [
      'refused account 0000000000 at Payment',
      {
        RequestType: 'Payment',
        Account: '0000000000',
        Amount: '499.00',
        'Extra[0].Name': 'InvoiceId',
        'Extra[0].Value': '5001',
      },
      '22',
    ],
    [
      'an amount that is not the OrderAmount',
      { RequestType: 'Payment', Amount: '2497', 'Extra[0].Name': 'InvoiceId', 'Extra[0].Value': '5002' },
      '23',
    ],
    ['an amount that is not the fixed denomination', { RequestType: 'Payment', Service: '202', Amount: '1500' }, '23'],
    ['a zero static amount', { RequestType: 'Payment', Service: '201', Amount: '0.00' }, '23'],
    [
      'an unknown invoice',
      { RequestType: 'Payment', Amount: '499.00', 'Extra[0].Name': 'InvoiceId', 'Extra[0].Value': '9999' },
      '24',
    ],
    ['an unknown service', { RequestType: 'AccountCheck', Service: '999' }, '21'],
    ['the wrong currency', { RequestType: 'AccountCheck', Service: '102', Currency: 'KZT' }, '27'],
    ['an unknown RequestType', { RequestType: 'Pay' }, '28'],
    ['a TransactionID that is not a Long', { RequestType: 'AccountCheck', TransactionID: '9223372036854775808' }, '26'],
  ])('%s is refused with its documented code', async (_name, fields, code) => {
    expect(statusOf((await post(purchase(fields))).text)).toBe(code);
  });

  it('accepts the exact amounts', async () => {
    const dynamic = await post(
      purchase({
        RequestType: 'Payment',
        Service: '102',
        Currency: 'USD',
        Amount: '10.630',
        'Extra[0].Name': 'InvoiceId',
        'Extra[0].Value': '7010',
      }),
    );
    expect(statusOf(dynamic.text)).toBe('10');
    expect(dynamic.text).toContain('"Amount":10.630');
    expect(statusOf((await post(purchase({ RequestType: 'Payment', Service: '202', Amount: '1500.00' }))).text)).toBe(
      '10',
    );
  });

  it('Status of an unknown TransactionID is 25; of a refused payment, its code', async () => {
    expect(statusOf((await post({ ...base(), RequestType: 'Status' })).text)).toBe('25');
    const refused = purchase({
      RequestType: 'Payment',
      Amount: '1',
      'Extra[0].Name': 'InvoiceId',
      'Extra[0].Value': '5001',
    });
    expect(statusOf((await post(refused)).text)).toBe('23');
    expect(
      statusOf((await post({ ...base(), TransactionID: refused.TransactionID, RequestType: 'Status' })).text),
    ).toBe('23');
  });

  it('a refused request naming no valid purchase is not recorded', async () => {
    const fields = purchase({ RequestType: 'Payment', AgentPassword: 'wrong', Amount: '499.00' });
    await post(fields);
    expect(sandbox.store.find(sandboxCredentials.agentId, fields.TransactionID)).toBeUndefined();
  });

  it('answers anything but POST /home/index with 404', async () => {
    const response = await fetch(`${sandbox.baseUrl}/home/other`, { method: 'POST', body: '' });
    expect(response.status).toBe(404);
    await response.text();
  });
});

describe('pending payments (behaviour pendingPolls)', () => {
  it('a payment stays in progress (11) for n Status polls, then succeeds', async () => {
    const pending = await startSandbox({ behaviour: { pendingPolls: 2 } });
    const client = new GatewayClient({
      baseUrl: pending.baseUrl,
      credentials: { agentId: sandboxCredentials.agentId, wirePassword: sandboxCredentials.password },
      timeoutMs: 5000,
      dateFormat: 'local',
    });
    try {
      const transactionId = generateTransactionId();
      const paid = await client.payment({ service: '201', account: 'a', amount: '5', currency: 'KZT', transactionId });
      expect(paid.status).toBe('11');
      const polls = [];
      for (let i = 0; i < 4; i++) polls.push((await client.status(transactionId)).status);
      expect(polls).toEqual(['11', '11', '10', '10']);
      // A repeated Payment reports the settled state and creates nothing.
      expect(
        (await client.payment({ service: '201', account: 'a', amount: '5', currency: 'KZT', transactionId })).status,
      ).toBe('10');
      expect(pending.store.size).toBe(1);
    } finally {
      await client.close();
      await pending.close();
    }
  });
});

describe('TransactionStore on a file', () => {
  const record = (transactionId: string, requestId: string): StoredTransaction => ({
    agentId: '1001',
    transactionId,
    requestId,
    service: '201',
    account: 'a',
    amount: '5',
    currency: 'KZT',
    invoiceId: null,
    status: 10,
    message: 'ok',
    exchangeRate: '1',
    serviceCurrency: 'KZT',
    createdAt: new Date(0).toISOString(),
    pendingPollsLeft: 0,
  });

  const newStatePath = () => join(mkdtempSync(join(tmpdir(), 'agentpay-state-')), 'sandbox-state.sqlite');

  it('two stores on one path agree, as two processes would', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'agentpay-state-')), 'nested', 'sandbox-state.sqlite');
    const a = new TransactionStore(path);
    const b = new TransactionStore(path);
    const first = a.createOnce('1001', '1', (requestId) => record('1', requestId));
    expect(first.created).toBe(true);
    expect(first.transaction.requestId).toBe('9007199254740993');
    // B has never written, yet sees A's transaction, and cannot create it a second time.
    expect(b.find('1001', '1')?.requestId).toBe('9007199254740993');
    const again = b.createOnce('1001', '1', (requestId) => record('1', requestId));
    expect(again.created).toBe(false);
    expect(again.transaction.requestId).toBe('9007199254740993');
    // RequestIDs keep counting across both.
    expect(b.createOnce('1001', '2', (requestId) => record('2', requestId)).transaction.requestId).toBe(
      '9007199254740994',
    );
    expect(a.find('1001', '2')?.requestId).toBe('9007199254740994');
    // An update by one is seen by the other.
    a.update({ ...record('2', '9007199254740994'), status: 23 });
    expect(b.find('1001', '2')?.status).toBe(23);
    expect(a.size).toBe(2);
    expect(b.size).toBe(2);
    expect(
      new TransactionStore(path)
        .all()
        .map((t) => t.transactionId)
        .sort(),
    ).toEqual(['1', '2']);
    expect(stateFileBytes(path)).toContain('9007199254740994');
    expect(stateFileBytes(path)).not.toContain('sandbox-demo-password');
  });

  it('keeps each transaction as stored, across a reopening; the same id of another agent is another one', () => {
    const path = newStatePath();
    const store = new TransactionStore(path);
    const withInvoice = { ...record('4000000000000001', '0'), amount: '1500.10', invoiceId: '5002', status: 23 };
    store.createOnce('1001', '4000000000000001', (requestId) => ({ ...withInvoice, requestId }));
    store.createOnce('1002', '4000000000000001', (requestId) => ({
      ...record('4000000000000001', requestId),
      agentId: '1002',
    }));
    store.close();
    const reopened = new TransactionStore(path);
    expect(reopened.find('1001', '4000000000000001')).toEqual({ ...withInvoice, requestId: '9007199254740993' });
    expect(reopened.find('1002', '4000000000000001')).toMatchObject({ agentId: '1002', requestId: '9007199254740994' });
    expect(reopened.find('1003', '4000000000000001')).toBeUndefined();
    // A replaced transaction (--break idempotency) gets a new RequestID, after every one handed out.
    const replaced = reopened.createAgain((requestId) => ({ ...withInvoice, requestId }));
    expect(replaced.transaction.requestId).toBe('9007199254740995');
    expect(reopened.find('1001', '4000000000000001')?.requestId).toBe('9007199254740995');
    expect(reopened.all().map((t) => [t.agentId, t.requestId])).toEqual([
      ['1001', '9007199254740995'],
      ['1002', '9007199254740994'],
    ]);
    reopened.close();
  });

  it('is private to its owner: the file, its -wal and its -shm are mode 0600', () => {
    const path = newStatePath();
    const store = new TransactionStore(path);
    store.createOnce('1001', '1', (requestId) => record('1', requestId));
    for (const file of [path, `${path}-wal`, `${path}-shm`]) expect(statSync(file).mode & 0o777, file).toBe(0o600);
    store.close();
  });

  it('refuses a file that is no SQLite database (an old JSON Lines state) and leaves it as it was', () => {
    const path = newStatePath();
    const old = `${JSON.stringify(record('1', '9007199254740993'))}\n`;
    writeFileSync(path, old);
    expect(() => new TransactionStore(path)).toThrow(SandboxStateError);
    expect(() => new TransactionStore(path)).toThrow(`cannot open the sandbox state ${path}`);
    expect(readFileSync(path, 'utf8')).toBe(old);
  });

  it('two sandboxes on one state file agree over HTTP', async () => {
    const path = newStatePath();
    const one = await startSandbox({ statePath: path });
    const two = await startSandbox({ statePath: path });
    const clientOf = (baseUrl: string) =>
      new GatewayClient({
        baseUrl,
        credentials: { agentId: '1001', wirePassword: sandboxCredentials.password },
        timeoutMs: 5000,
        dateFormat: 'local',
      });
    const c1 = clientOf(one.baseUrl);
    const c2 = clientOf(two.baseUrl);
    try {
      const transactionId = generateTransactionId();
      const paid = await c1.payment({
        service: '101',
        account: 'a',
        amount: '499.00',
        currency: 'KZT',
        transactionId,
        invoiceId: '5001',
      });
      const seen = await c2.status(transactionId);
      expect(seen).toMatchObject({ status: '10', requestId: paid.requestId, amount: '499.00' });
      const repeated = await c2.payment({
        service: '101',
        account: 'a',
        amount: '499.00',
        currency: 'KZT',
        transactionId,
        invoiceId: '5001',
      });
      expect(repeated.requestId).toBe(paid.requestId);
      expect(two.store.size).toBe(1);
    } finally {
      await Promise.all([c1.close(), c2.close()]);
      await Promise.all([one.close(), two.close()]);
    }
  });
});
