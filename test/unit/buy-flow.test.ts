import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runBuyFlow } from '../../src/commands/buy/flow.js';
import { profileCatalogue, sandboxCatalogue } from '../../src/commands/buy/run.js';
import type { BuyDependencies, BuyOptions } from '../../src/commands/buy/types.js';
import type { CommandContext } from '../../src/commands/context.js';
import { writeReceiptFile } from '../../src/commands/ledger-receipt.js';
import {
  CancelledError,
  EmptyVoucherListError,
  GatewayRefusedError,
  PaymentOutcomeUnknownError,
  TransactionPendingError,
  UsageError,
} from '../../src/errors.js';
import { GatewayClient } from '../../src/gateway/client.js';
import { useLanguage } from '../../src/i18n/current.js';
import { noInterrupts } from '../../src/interrupts.js';
import type { Intent } from '../../src/ledger/ledger.js';
import { openLedger } from '../../src/ledger/open-ledger.js';
import type { Output } from '../../src/output.js';
import { limitBreaches } from '../../src/purchase/desk-rules.js';
import { executePayment } from '../../src/purchase/execute-payment.js';
import { sandboxCredentials } from '../../src/sandbox/catalogue.js';
import { sandboxCodeTable } from '../../src/sandbox/codes.js';
import { type SandboxOptions, startSandbox } from '../../src/sandbox/server.js';
import { resolveSettings } from '../../src/settings/resolve.js';
import { serviceEntries } from '../../src/settings/services.js';
import {
  type AskedQuestion,
  capturedOutput,
  type ScriptedAnswer,
  scriptedPrompter,
} from '../helpers/scripted-prompter.js';
import { formsOfType, noVoucherListRefusal, type SpecServerOptions, startSpecServer } from '../helpers/spec-server.js';

/**
 * The buy flow with its questions answered by a script, against a real sandbox (or a
 * purpose-built spec server) on 127.0.0.1. What counts is what the gateway received.
 */
const txnId = '4242000000000000001';
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function sandbox(options: SandboxOptions = {}) {
  const running = await startSandbox({ recordRequests: true, ...options });
  cleanups.push(running.close);
  return running;
}

async function specServer(options: SpecServerOptions) {
  const server = await startSpecServer(options);
  cleanups.push(server.close);
  return server;
}

function clientFor(baseUrl: string): GatewayClient {
  const client = new GatewayClient({
    baseUrl,
    credentials: { agentId: sandboxCredentials.agentId, wirePassword: sandboxCredentials.password },
    timeoutMs: 5_000,
    dateFormat: 'local',
  });
  cleanups.push(() => client.close());
  return client;
}

interface BuyRun {
  error: unknown;
  asked: AskedQuestion[];
  stdout: string;
  stderr: string;
}

function startBuy(
  baseUrl: string,
  options: BuyOptions,
  script: ScriptedAnswer[],
  extra: Partial<BuyDependencies> & {
    onAsk?: (question: AskedQuestion, stderr: string) => void;
    columns?: number;
    receiptFile?: string;
  } = {},
): { done: Promise<BuyRun>; abort: () => void } {
  const { onAsk, columns, receiptFile, ...deps } = extra;
  const output = capturedOutput({ columns: columns ?? 80 });
  const prompter = scriptedPrompter(script, onAsk && ((question) => onAsk(question, output.stderr())));
  const controller = new AbortController();
  const client = clientFor(baseUrl);
  const done = runBuyFlow(options, {
    client,
    ...journaledPay(client, baseUrl, output.out, receiptFile),
    deskFindings: async () => ({ breaches: [], duplicates: [] }),
    prompter,
    out: output.out,
    codes: sandboxCodeTable,
    signal: controller.signal,
    newTransactionId: () => txnId,
    ...deps,
  }).then(
    () => undefined,
    (error: unknown) => error,
  );
  return {
    done: done.then(async (error) => {
      expect(prompter.remaining(), 'every scripted answer was used').toBe(0);
      return { error, asked: prompter.asked, stdout: output.stdout(), stderr: output.stderr() };
    }),
    abort: () => controller.abort(),
  };
}

/** pay's own journaled path, with the journal in a fresh temp dir; with `receiptFile`, buy's --receipt as run.ts wires it. */
function journaledPay(
  client: GatewayClient,
  baseUrl: string,
  out: Output,
  receiptFile?: string,
): Pick<BuyDependencies, 'pay' | 'writeReceipt'> {
  const home = mkdtempSync(join(tmpdir(), 'agentpay-buy-'));
  const settings = resolveSettings(
    { settleDelay: '20', sandbox: true },
    { XDG_STATE_HOME: join(home, 'state'), XDG_CONFIG_HOME: join(home, 'config') },
  );
  const session = { client, gateway: baseUrl, agentId: sandboxCredentials.agentId };
  const contextOf = async (): Promise<CommandContext> => {
    const resolved = await settings;
    const ledger = openLedger(resolved, out);
    return {
      settings: resolved,
      out,
      interrupts: noInterrupts,
      openGateway: () => Promise.reject(new Error('not used')),
      openLedger: () => ledger,
      close: async () => (await ledger).close(),
    };
  };
  return {
    pay: async (input, signal, { notes, desk }) =>
      executePayment(await contextOf(), session, input, { checkReplay: false, signal, notes, desk }),
    writeReceipt:
      receiptFile === undefined
        ? undefined
        : async (input, view) => {
            const context = await contextOf();
            await writeReceiptFile(context, receiptFile, session, input, view);
            await context.close();
          },
  };
}

const buy = (...args: Parameters<typeof startBuy>) => startBuy(...args).done;

const payments = (received: readonly URLSearchParams[]) => formsOfType(received, 'Payment');
const gameCoins = { service: '101', account: '7011234567', currency: 'KZT' };

describe('buy: the happy path', () => {
  it('pays the picked voucher with its exact OrderAmount and InvoiceId, after showing what will be sent', async () => {
    const gateway = await sandbox();
    let atConfirm: { stderr: string; payments: number } | undefined;
    const run = await buy(gateway.baseUrl, gameCoins, [{ select: /550 GameCoins/ }, { confirm: true }], {
      onAsk: (question, stderr) => {
        if (question.kind === 'confirm') atConfirm = { stderr, payments: payments(gateway.received).length };
      },
    });
    expect(run.error).toBeUndefined();
    // Flags gave service, account and currency: the first question is the voucher.
    expect(run.asked.map((q) => q.kind)).toEqual(['select', 'confirm']);
    expect(run.asked[1]).toMatchObject({ message: 'Pay 2497.00 KZT now?', initial: false });

    // The summary was on screen before the question, and nothing had been paid yet.
    expect(atConfirm?.payments).toBe(0);
    const summary = atConfirm?.stderr ?? '';
    expect(summary).toMatch(/Service\s+101\n/);
    expect(summary).toMatch(/Account\s+7011234567\n/);
    expect(summary).toMatch(/Voucher\s+550 GameCoins\n/);
    expect(summary).toMatch(/Amount\s+2497\.00 KZT/);
    expect(summary).toMatch(/InvoiceId\s+5002\n/);
    expect(summary).toMatch(new RegExp(`TransactionID\\s+${txnId}`));

    const [payment, ...more] = payments(gateway.received);
    expect(more).toHaveLength(0);
    expect(payment?.get('Service')).toBe('101');
    expect(payment?.get('Account')).toBe('7011234567');
    expect(payment?.get('Amount')).toBe('2497.00');
    expect(payment?.get('Currency')).toBe('KZT');
    expect(payment?.get('Extra[0].Name')).toBe('InvoiceId');
    expect(payment?.get('Extra[0].Value')).toBe('5002');
    expect(payment?.get('TransactionID')).toBe(txnId);

    expect(run.stdout).toContain('Payment succeeded');
    expect(run.stdout).toMatch(new RegExp(`TransactionID\\s+${txnId}`));
    expect(run.stdout).toMatch(/RequestID\s+9007199254740993/);
    expect(run.stdout).toMatch(/Amount\s+2497\.00 KZT/);
  });

  it('shows the vouchers in a table that fits 80 columns, long names wrapped inside it', async () => {
    const gateway = await sandbox();
    const run = await buy(gateway.baseUrl, gameCoins, [{ select: /550 GameCoins/ }, { confirm: true }]);
    const tableLines = run.stderr.split('\n').filter((line) => /^[+|]/.test(line));
    expect(tableLines.length).toBeGreaterThan(6);
    for (const line of tableLines) {
      expect(line.length).toBe(tableLines[0]!.length);
      expect(line.length).toBeLessThanOrEqual(80);
    }
    expect(tableLines.join('\n')).toContain('Legendary');
    expect(tableLines.join('\n')).toContain('season pass');
    // The picker's labels stay on one line each.
    const picker = run.asked[0];
    expect(picker?.kind).toBe('select');
    if (picker?.kind === 'select') {
      expect(picker.filter).toBe(false);
      for (const choice of picker.choices) expect(choice.label.length).toBeLessThanOrEqual(76);
      expect(picker.choices.map((c) => c.label.replace(/\s+/g, ' '))).toContain('#2 550 GameCoins 2497.00 KZT');
    }
  });

  it('asks for service, account and currency when not given (currency defaults to KZT)', async () => {
    const gateway = await sandbox();
    const run = await buy(gateway.baseUrl, {}, [
      { input: '101', expect: /Service/ },
      { input: '7011234567', expect: /account/ },
      { input: null, expect: /Currency/ },
      { select: /1200 GameCoins/ },
      { confirm: true },
    ]);
    expect(run.error).toBeUndefined();
    expect(run.asked[2]).toMatchObject({ kind: 'input', initial: 'KZT' });
    const [payment] = payments(gateway.received);
    expect(payment?.get('Amount')).toBe('4990.50');
    expect(payment?.get('Extra[0].Value')).toBe('5003');
    expect(payment?.get('Currency')).toBe('KZT');
  });

  it('under --sandbox offers the catalogue, with its account and the service currency as defaults', async () => {
    const gateway = await sandbox();
    const run = await buy(
      gateway.baseUrl,
      {},
      [
        { select: /Global gift card/ },
        { input: null },
        { input: null },
        { select: /Gift card 25 EUR/ },
        { confirm: true },
      ],
      {
        catalogue: await sandboxCatalogue(),
      },
    );
    expect(run.error).toBeUndefined();
    const services = run.asked[0];
    expect(services?.kind === 'select' && services.choices.map((c) => c.value)).toEqual([
      '101',
      '102',
      '201',
      '202',
      expect.any(String),
    ]);
    expect(run.asked[1]).toMatchObject({ initial: '7011234567' });
    expect(run.asked[2]).toMatchObject({ initial: 'USD' });
    const [payment] = payments(gateway.received);
    expect(payment?.get('Service')).toBe('102');
    expect(payment?.get('Currency')).toBe('USD');
    expect(payment?.get('Amount')).toBe('26.575');
    expect(payment?.get('Extra[0].Value')).toBe('7025');
    expect(run.stderr).toMatch(/Service\s+102 \(Global gift card \(USD\)\)/);
  });

  it('--amount starts the list on the voucher that costs exactly that, and warns when none does', async () => {
    const gateway = await sandbox();
    const exact = await buy(gateway.baseUrl, { ...gameCoins, amount: '4990.50' }, [
      { select: /1200 GameCoins/ },
      { confirm: false },
    ]);
    expect(exact.asked[0]).toMatchObject({ kind: 'select', initial: '2' });
    const loose = await buy(gateway.baseUrl, { ...gameCoins, amount: '4990.5' }, [
      { select: /1200 GameCoins/ },
      { confirm: false },
    ]);
    expect(loose.asked[0]).toMatchObject({ kind: 'select', initial: undefined });
    expect(loose.stderr).toContain('no voucher costs exactly 4990.5');
    expect(payments(gateway.received)).toHaveLength(0);
  });
});

describe('buy: a static service', () => {
  it('goes straight to the amount, checked by the amount rules, and pays it with no Extra fields', async () => {
    const gateway = await sandbox();
    const run = await buy(gateway.baseUrl, { service: '201', account: 'player-42', currency: 'KZT' }, [
      { input: '150.50', expect: /Amount/ },
      { confirm: true },
    ]);
    expect(run.error).toBeUndefined();
    expect(run.stderr).toContain('static service');
    const amountQuestion = run.asked[0];
    expect(amountQuestion?.kind).toBe('input');
    const validate = amountQuestion?.kind === 'input' ? amountQuestion.validate : undefined;
    expect(validate?.('2,5')).toMatch(/comma/);
    expect(validate?.('abc')).toMatch(/not a plain decimal/);
    expect(validate?.('1e3')).toMatch(/not a plain decimal/);
    expect(validate?.('-5')).toMatch(/negative/);
    expect(validate?.('0.00')).toMatch(/more than zero/);
    expect(validate?.('150.50')).toBeUndefined();
    expect(run.stderr).toMatch(/Voucher\s+static/);

    const [payment, ...more] = payments(gateway.received);
    expect(more).toHaveLength(0);
    expect(payment?.get('Amount')).toBe('150.50');
    expect(payment?.has('Extra[0].Name')).toBe(false);
    expect(run.stdout).toContain('Payment succeeded');
  });

  it('takes --amount without asking', async () => {
    const gateway = await sandbox();
    const run = await buy(
      gateway.baseUrl,
      { service: '202', account: 'player-42', currency: 'KZT', amount: '1500.00' },
      [{ confirm: true }],
    );
    expect(run.error).toBeUndefined();
    expect(payments(gateway.received)[0]?.get('Amount')).toBe('1500.00');
  });
});

describe('buy: cancelling before the confirmation sends nothing', () => {
  const steps: { step: string; script: ScriptedAnswer[] }[] = [
    { step: 'service', script: [{ cancel: 'input' }] },
    { step: 'account', script: [{ input: '101' }, { cancel: 'input' }] },
    { step: 'currency', script: [{ input: '101' }, { input: '7011234567' }, { cancel: 'input' }] },
    { step: 'voucher', script: [{ input: '101' }, { input: '7011234567' }, { input: null }, { cancel: 'select' }] },
    {
      step: 'confirmation',
      script: [{ input: '101' }, { input: '7011234567' }, { input: null }, { select: /550/ }, { cancel: 'confirm' }],
    },
  ];
  it.each(steps)(
    'Ctrl+C or Esc at the $step prompt: CancelledError (exit 130), no Payment',
    async ({ step, script }) => {
      const gateway = await sandbox();
      const run = await buy(gateway.baseUrl, {}, script);
      expect(run.error).toBeInstanceOf(CancelledError);
      expect((run.error as CancelledError).exitCode).toBe(130);
      expect(payments(gateway.received)).toHaveLength(0);
      // Cancelling at the voucher or the confirmation happens after the account check.
      const accountChecks = gateway.received.filter((form) => form.get('RequestType') === 'AccountCheck');
      expect(accountChecks).toHaveLength(['voucher', 'confirmation'].includes(step) ? 1 : 0);
    },
  );

  it('answering No (or Enter) at the confirmation pays nothing', async () => {
    const gateway = await sandbox();
    const run = await buy(gateway.baseUrl, gameCoins, [{ select: /550/ }, { confirm: false }]);
    expect(run.error).toBeInstanceOf(CancelledError);
    expect((run.error as Error).message).toContain('nothing was paid');
    expect(payments(gateway.received)).toHaveLength(0);
  });

  it('Ctrl+C while the account check is out: CancelledError, no Payment', async () => {
    const server = await specServer({ hold: ['AccountCheck'] });
    const run = startBuy(server.baseUrl, gameCoins, []);
    await vi.waitFor(() => expect(formsOfType(server.received, 'AccountCheck')).toHaveLength(1));
    run.abort();
    const { error } = await run.done;
    expect(error).toBeInstanceOf(CancelledError);
    expect(payments(server.received)).toHaveLength(0);
  });
});

describe('buy: a refused account check', () => {
  it('is shown plainly and offers another account, then goes on', async () => {
    const gateway = await sandbox();
    const run = await buy(gateway.baseUrl, { ...gameCoins, account: '0000000000' }, [
      { select: /another account/, expect: /What now/ },
      { input: '7011234567' },
      { select: /550/ },
      { confirm: true },
    ]);
    expect(run.error).toBeUndefined();
    expect(run.stderr).toMatch(/refused.*account 0000000000 is refused by the provider \(ResponseStatus 22\)/);
    expect(formsOfType(gateway.received, 'AccountCheck').map((f) => f.get('Account'))).toEqual([
      '0000000000',
      '7011234567',
    ]);
    const [payment, ...more] = payments(gateway.received);
    expect(more).toHaveLength(0);
    expect(payment?.get('Account')).toBe('7011234567');
  });

  it('offers another service after an unknown one (asking its currency again)', async () => {
    const gateway = await sandbox();
    const run = await buy(gateway.baseUrl, { ...gameCoins, service: '999' }, [
      { select: /another service/ },
      { input: '101' },
      { input: null, expect: /Currency/ },
      { select: /100 GameCoins/ },
      { confirm: true },
    ]);
    expect(run.error).toBeUndefined();
    expect(run.stderr).toMatch(/unknown service "999" \(ResponseStatus 21\)/);
    expect(payments(gateway.received)[0]?.get('Extra[0].Value')).toBe('5001');
  });

  it('quitting there ends with the refusal (exit 1) and no Payment', async () => {
    const gateway = await sandbox();
    const run = await buy(gateway.baseUrl, { ...gameCoins, account: '0000000000' }, [{ select: /quit/ }]);
    expect(run.error).toBeInstanceOf(GatewayRefusedError);
    expect((run.error as GatewayRefusedError).exitCode).toBe(1);
    expect(payments(gateway.received)).toHaveLength(0);
  });
});

describe('buy: an empty voucher list', () => {
  const vouchers = [{ invoiceId: '5002', orderAmount: '2497.00', name: '550 GameCoins' }];

  it('offers another account or service (the What-now menu), never the amount of a static service', async () => {
    const server = await specServer({ vouchers, emptyListFor: ['7011234567'] });
    const run = await buy(server.baseUrl, gameCoins, [
      { select: /another account/, expect: /What now/ },
      { input: 'player-42', expect: /account/ },
      { select: /550 GameCoins/, expect: /Voucher/ },
      { confirm: true },
    ]);
    expect(run.error).toBeUndefined();
    expect(run.stderr).toContain(
      '✗ the voucher list of service 101 is empty for account 7011234567 now; no payment was sent',
    );
    expect(run.stderr).not.toContain('static service');
    expect(run.asked.map((q) => q.message)).not.toContain('Amount (KZT)');
    expect(formsOfType(server.received, 'AccountCheck').map((f) => f.get('Account'))).toEqual([
      '7011234567',
      'player-42',
    ]);
    const [payment, ...more] = payments(server.received);
    expect(more).toHaveLength(0);
    expect(payment?.get('Account')).toBe('player-42');
    expect(payment?.get('Amount')).toBe('2497.00');
    expect(payment?.get('Extra[0].Value')).toBe('5002');
  });

  it('with --amount given still never pays a free amount; quitting ends with nothing sent (exit 2)', async () => {
    const server = await specServer({ vouchers, emptyListFor: ['7011234567'] });
    const run = await buy(server.baseUrl, { ...gameCoins, amount: '2497.00' }, [
      { select: /quit/, expect: /What now/ },
    ]);
    expect(run.error).toBeInstanceOf(EmptyVoucherListError);
    expect((run.error as EmptyVoucherListError).exitCode).toBe(2);
    expect(run.asked.map((q) => q.kind)).toEqual(['select']);
    expect(payments(server.received)).toHaveLength(0);
  });
});

describe('buy: foreign exchange is shown before the yes', () => {
  const summaryAtConfirm = () => {
    const seen: { stderr?: string } = {};
    return {
      seen,
      onAsk: (question: AskedQuestion, stderr: string) => void (question.kind === 'confirm' && (seen.stderr = stderr)),
    };
  };

  it('the sandbox gift card (USD at 0.921): the rate and the currency paid in, in the summary', async () => {
    const gateway = await sandbox();
    const { seen, onAsk } = summaryAtConfirm();
    const run = await buy(
      gateway.baseUrl,
      { service: '102', account: 'player-42', currency: 'USD' },
      [{ select: /Gift card 10 EUR/ }, { confirm: false }],
      { onAsk },
    );
    expect(run.error).toBeInstanceOf(CancelledError);
    // The sandbox's AccountCheck has no ServiceCurrency (spec 2.3 lists it for Payment and Status).
    expect(seen.stderr).toMatch(
      /Amount +10\.630 USD \(the OrderAmount, exactly\)\n +Exchange rate +0\.921: paid in USD, crediting currency not given\n/,
    );
    expect(payments(gateway.received)).toHaveLength(0);
  });

  it('a gateway that credits in another currency at 1.00: the crediting currency in the summary', async () => {
    const server = await specServer({
      vouchers: [{ invoiceId: '9001', orderAmount: '5000.00', name: 'Gift card 10 EUR' }],
      exchangeRate: '1.00',
      serviceCurrency: 'EUR',
    });
    const { seen, onAsk } = summaryAtConfirm();
    const run = await buy(server.baseUrl, gameCoins, [{ select: /Gift card/ }, { confirm: true }], { onAsk });
    expect(run.error).toBeUndefined();
    expect(seen.stderr).toContain('Exchange rate  1.00: paid in KZT, credited in EUR');
    expect(payments(server.received)).toHaveLength(1);
  });

  it('a rate written 1.0 in the same currency is no exchange: no line', async () => {
    const server = await specServer({
      vouchers: [{ invoiceId: '9001', orderAmount: '5000.00', name: 'Voucher' }],
      exchangeRate: '1.0',
      serviceCurrency: 'KZT',
    });
    const { seen, onAsk } = summaryAtConfirm();
    await buy(server.baseUrl, gameCoins, [{ select: /Voucher/ }, { confirm: false }], { onAsk });
    expect(seen.stderr).toContain('About to pay');
    expect(seen.stderr).not.toContain('Exchange rate');
  });
});

describe('buy: after the payment went out', () => {
  it('settles a pending payment with Status until it is final', async () => {
    const gateway = await sandbox({ behaviour: { pendingPolls: 1 } });
    const run = await buy(gateway.baseUrl, gameCoins, [{ select: /550/ }, { confirm: true }]);
    expect(run.error).toBeUndefined();
    expect(run.stderr).toMatch(/not final yet \(in progress, ResponseStatus 11/);
    expect(run.stdout).toContain('Payment succeeded');
    const statuses = formsOfType(gateway.received, 'Status');
    expect(statuses.length).toBeGreaterThanOrEqual(2);
    for (const status of statuses) expect(status.get('TransactionID')).toBe(txnId);
    expect(payments(gateway.received)).toHaveLength(1);
  });

  it('Ctrl+C while following: exit 3 with the TransactionID and how to look it up', async () => {
    const gateway = await sandbox({ behaviour: { pendingPolls: 1000 } });
    const run = startBuy(gateway.baseUrl, gameCoins, [{ select: /550/ }, { confirm: true }]);
    await vi.waitFor(() => expect(formsOfType(gateway.received, 'Status').length).toBeGreaterThanOrEqual(1));
    run.abort();
    const { error, stdout } = await run.done;
    expect(error).toBeInstanceOf(TransactionPendingError);
    expect((error as TransactionPendingError).exitCode).toBe(3);
    expect((error as TransactionPendingError).message).toContain(txnId);
    expect((error as TransactionPendingError).hint).toBe(`look it up with: agentpay status ${txnId}`);
    expect(stdout).toContain('Payment is in progress');
    expect(payments(gateway.received)).toHaveLength(1);
  });

  it('Ctrl+C while the Payment is out: outcome unknown, exit 3, never "nothing happened"', async () => {
    const server = await specServer({ hold: ['Payment'] });
    const run = startBuy(server.baseUrl, { service: '201', account: 'player-42', currency: 'KZT', amount: '10.00' }, [
      { confirm: true },
    ]);
    await vi.waitFor(() => expect(payments(server.received)).toHaveLength(1));
    run.abort();
    const { error } = await run.done;
    expect(error).toBeInstanceOf(PaymentOutcomeUnknownError);
    expect((error as PaymentOutcomeUnknownError).exitCode).toBe(3);
    expect((error as PaymentOutcomeUnknownError).transactionId).toBe(txnId);
    expect((error as PaymentOutcomeUnknownError).hint).toContain(`agentpay status ${txnId}`);
  });

  it('a refused payment shows its receipt and ends with exit 1', async () => {
    // The sandbox refuses a static amount that is not the service's fixed denomination.
    const gateway = await sandbox();
    const run = await buy(
      gateway.baseUrl,
      { service: '202', account: 'player-42', currency: 'KZT', amount: '1499.99' },
      [{ confirm: true }],
    );
    expect(run.error).toBeInstanceOf(GatewayRefusedError);
    expect(run.stdout).toContain('Payment failed');
    expect(run.stdout).toMatch(/ResponseStatus 23/);
  });
});

describe('buy --receipt <file>', () => {
  const receiptPath = () => join(mkdtempSync(join(tmpdir(), 'agentpay-receipt-')), 'receipt.txt');

  it("writes the receipt, plain, with the voucher's name as the ledger recorded it", async () => {
    const gateway = await sandbox();
    const file = receiptPath();
    const run = await buy(gateway.baseUrl, gameCoins, [{ select: /550 GameCoins/ }, { confirm: true }], {
      receiptFile: file,
    });
    expect(run.error).toBeUndefined();
    const receipt = readFileSync(file, 'utf8');
    expect(receipt).toMatch(/^✓ Payment succeeded\n/);
    expect(receipt).toMatch(new RegExp(`TransactionID\\s+${txnId}\n`));
    expect(receipt).toMatch(/Voucher\s+550 GameCoins\n/);
    expect(receipt).toMatch(/Amount\s+2497\.00 KZT\n/);
    expect(receipt).toMatch(/Time\s+\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} [+-]\d{2}:\d{2}\n/);
    expect(receipt).not.toMatch(/\u001b\[/);
  });

  it('a pending payment followed until final: the file ends with the final state', async () => {
    const gateway = await sandbox({ behaviour: { pendingPolls: 1 } });
    const file = receiptPath();
    const run = await buy(gateway.baseUrl, gameCoins, [{ select: /550/ }, { confirm: true }], { receiptFile: file });
    expect(run.error).toBeUndefined();
    expect(readFileSync(file, 'utf8')).toMatch(/^✓ Payment succeeded\n[\s\S]*State\s+success/);
  });

  it('a refused payment: the receipt says failed, and the exit stays 1', async () => {
    const gateway = await sandbox();
    const file = receiptPath();
    const run = await buy(
      gateway.baseUrl,
      { service: '202', account: 'player-42', currency: 'KZT', amount: '1499.99' },
      [{ confirm: true }],
      { receiptFile: file },
    );
    expect(run.error).toBeInstanceOf(GatewayRefusedError);
    expect(readFileSync(file, 'utf8')).toMatch(/^✗ Payment failed\n[\s\S]*State\s+failed \(ResponseStatus 23\)/);
  });

  it('a file that cannot be written: a warning, and the payment stands', async () => {
    const gateway = await sandbox();
    const file = join(receiptPath(), 'no-such-directory', 'receipt.txt');
    const run = await buy(gateway.baseUrl, gameCoins, [{ select: /550/ }, { confirm: true }], { receiptFile: file });
    expect(run.error).toBeUndefined();
    expect(run.stdout).toContain('Payment succeeded');
    expect(run.stderr).toContain(`cannot write the receipt to ${file} (ENOENT); the payment stands`);
    expect(payments(gateway.received)).toHaveLength(1);
  });
});

describe('buy: a long voucher list', () => {
  it('lets typing filter it, and keeps every label on one line', async () => {
    const vouchers = Array.from({ length: 12 }, (_, i) => ({
      invoiceId: String(9000 + i),
      orderAmount: `${(i + 1) * 100}.00`,
      name:
        i === 10
          ? 'Voucher eleven, with a name far too long to fit in any sensible table column at all'
          : `Voucher ${i + 1}`,
    }));
    const server = await specServer({ vouchers });
    const run = await buy(server.baseUrl, gameCoins, [{ select: /eleven/ }, { confirm: true }], { columns: 80 });
    const picker = run.asked[0];
    expect(picker?.kind === 'select' && picker.filter).toBe(true);
    if (picker?.kind === 'select')
      for (const choice of picker.choices) expect(choice.label.length).toBeLessThanOrEqual(76);
    const [payment] = payments(server.received);
    expect(payment?.get('Extra[0].Value')).toBe('9010');
    expect(payment?.get('Amount')).toBe('1100.00');
  });
});

describe('buy: a static service the profile declares, on a gateway that refuses its account check', () => {
  // Unlike the sandbox, this gateway answers the AccountCheck of 601 with a refusal (ResponseStatus 115).
  const gateway = () =>
    specServer({
      vouchers: [{ invoiceId: '5002', orderAmount: '2497.00', name: '550 GameCoins' }],
      staticRefusedCheck: ['601'],
    });
  const profile = (entry: unknown) =>
    profileCatalogue(serviceEntries({ '101': 'GameCoins', '601': entry } as Record<string, unknown>, 'profile'));
  const cinema = { name: 'Cinema voucher', kind: 'static', amounts: ['1500.00', '3000.00'] };
  const flags = { service: '601', account: '7011234567', currency: 'KZT' };

  it('with every flag given asks only the yes, and pays exactly 1500.00 with no Extra fields', async () => {
    const server = await gateway();
    const run = await buy(
      server.baseUrl,
      { ...flags, amount: '1500.00' },
      [{ confirm: true, expect: /Pay 1500\.00 KZT now/ }],
      { catalogue: profile(cinema) },
    );
    expect(run.error).toBeUndefined();
    expect(run.stderr).toContain(
      `refused the account check of service 601 (${noVoucherListRefusal.message}, ResponseStatus 115); the profile declares it static`,
    );
    expect(formsOfType(server.received, 'AccountCheck')).toHaveLength(1);
    const [payment, ...more] = payments(server.received);
    expect(more).toHaveLength(0);
    expect(payment?.get('Service')).toBe('601');
    expect(payment?.get('Account')).toBe('7011234567');
    expect(payment?.get('Amount')).toBe('1500.00');
    expect([...(payment?.keys() ?? [])].filter((key) => key.startsWith('Extra'))).toEqual([]);
    expect(run.stdout).toContain('Payment succeeded');
  });

  it("offers the profile's services, then its amounts, and pays the amount picked", async () => {
    const server = await gateway();
    const run = await buy(
      server.baseUrl,
      { account: '7011234567', currency: 'KZT' },
      [
        { select: /Cinema voucher/, expect: /Service/ },
        { select: '3000.00', expect: /Amount \(KZT\)/ },
        { confirm: true },
      ],
      {
        catalogue: profile(cinema),
      },
    );
    expect(run.error).toBeUndefined();
    const [services, amounts] = run.asked;
    expect(services?.kind === 'select' && services.choices.map((c) => c.label)).toEqual([
      '101  GameCoins',
      '601  Cinema voucher (static)',
      'another service id…',
    ]);
    expect(amounts?.kind === 'select' && amounts.choices.map((c) => c.value)).toEqual(['1500.00', '3000.00']);
    expect(payments(server.received).map((form) => form.get('Amount'))).toEqual(['3000.00']);
  });

  it('refuses an --amount not listed as written (1500 is not 1500.00): no Payment', async () => {
    const server = await gateway();
    const run = await buy(server.baseUrl, { ...flags, amount: '1500' }, [], { catalogue: profile(cinema) });
    expect(run.error).toBeInstanceOf(UsageError);
    expect((run.error as UsageError).message).toBe(
      '--amount 1500 is not one of the amounts the profile lists for service 601; nothing was paid',
    );
    expect((run.error as UsageError).hint).toBe('give one of them exactly as written: 1500.00, 3000.00');
    expect(payments(server.received)).toHaveLength(0);
  });

  it('in Russian: the warning and the refusal of an unlisted --amount', async () => {
    const server = await gateway();
    await useLanguage('ru');
    try {
      const run = await buy(server.baseUrl, { ...flags, amount: '1500' }, [], { catalogue: profile(cinema) });
      expect(run.stderr).toContain(
        `шлюз отказал в проверке счёта для услуги 601 (${noVoucherListRefusal.message}, ResponseStatus 115); в профиле она объявлена статической, поэтому оплачивается суммой`,
      );
      expect((run.error as UsageError).message).toBe(
        '--amount 1500 нет среди сумм, указанных в профиле для услуги 601; ничего не оплачено',
      );
      expect((run.error as UsageError).hint).toBe('укажите одну из них точно так, как она записана: 1500.00, 3000.00');
    } finally {
      await useLanguage('en');
    }
  });

  it('without listed amounts asks for one, checked by the amount rules', async () => {
    const server = await gateway();
    const run = await buy(server.baseUrl, flags, [{ input: '2000.50', expect: /Amount \(KZT\)/ }, { confirm: true }], {
      catalogue: profile({ kind: 'static' }),
    });
    expect(run.error).toBeUndefined();
    expect(payments(server.received).map((form) => form.get('Amount'))).toEqual(['2000.50']);
  });

  it('a service the profile does not declare static: the refusal stays a refusal, nothing paid', async () => {
    const server = await gateway();
    const run = await buy(server.baseUrl, { ...flags, amount: '1500.00' }, [{ select: /quit/, expect: /What now/ }], {
      catalogue: profile('Cinema voucher'),
    });
    expect(run.error).toBeInstanceOf(GatewayRefusedError);
    expect(run.stderr).toContain(noVoucherListRefusal.message);
    expect(payments(server.received)).toHaveLength(0);
  });

  it("declared static, yet the gateway's check lists vouchers: the gateway's list wins, paid by voucher", async () => {
    const server = await specServer({
      vouchers: [{ invoiceId: '5002', orderAmount: '2497.00', name: '550 GameCoins' }],
    });
    const run = await buy(server.baseUrl, flags, [{ select: /550 GameCoins/ }, { confirm: true }], {
      catalogue: profile(cinema),
    });
    expect(run.error).toBeUndefined();
    expect(payments(server.received)[0]?.get('Extra[0].Value')).toBe('5002');
  });
});

describe('buy: a voucher over the desk limit for one payment', () => {
  /** The desk's maxAmount of KZT 2500.00 as settings resolve it, and its breach as the desk rules find it. */
  async function limited() {
    const home = mkdtempSync(join(tmpdir(), 'agentpay-buy-limit-'));
    const settings = await resolveSettings(
      { sandbox: true, maxAmount: 'KZT=2500.00' },
      { XDG_STATE_HOME: join(home, 'state'), XDG_CONFIG_HOME: join(home, 'config') },
    );
    const limit = (currency: string) => settings.desk.limit('maxAmount', currency);
    return {
      maxAmount: (currency: string) => limit(currency)?.amount,
      deskFindings: async (input: { amount: string; currency?: string | undefined }) => {
        // Only the amount and currency matter to the limit for one payment; no earlier payments.
        const intent = {
          amount: input.amount,
          currency: input.currency ?? 'KZT',
          account: gameCoins.account,
          transactionId: txnId,
          at: new Date().toISOString(),
        };
        return {
          breaches: limitBreaches(settings.desk, intent as unknown as Intent, 'desk', [], new Date()),
          duplicates: [],
        };
      },
    };
  }

  it('is marked in the list, and choosing it says why in one line and returns to the list', async () => {
    const gateway = await sandbox();
    const run = await buy(
      gateway.baseUrl,
      gameCoins,
      [{ select: /1200 GameCoins/ }, { select: /550 GameCoins/ }, { confirm: true }],
      await limited(),
    );
    expect(run.error).toBeUndefined();
    const selects = run.asked.flatMap((question) => (question.kind === 'select' ? [question] : []));
    const labels = selects[0]!.choices.map((choice) => choice.label);
    expect(
      labels.filter((label) => label.endsWith('(over the limit)')).map((label) => label.split(/\s{2,}/)[1]),
    ).toEqual(['1200 GameCoins', expect.stringMatching(/^2500 GameCoins/)]);
    expect(labels.find((label) => label.includes('550 GameCoins'))).not.toContain('over the limit');
    expect(selects).toHaveLength(2);
    expect(run.stderr.split('\n').filter((line) => line.includes('--over-limit'))).toHaveLength(1);
    expect(run.stderr).toMatch(/pick another voucher, or run buy again with --over-limit/);
    expect(payments(gateway.received).map((form) => form.get('Amount'))).toEqual(['2497.00']);
  });

  it('in Russian too', async () => {
    await useLanguage('ru');
    try {
      const gateway = await sandbox();
      const run = await buy(
        gateway.baseUrl,
        gameCoins,
        [{ select: /1200 GameCoins/ }, { cancel: 'select' }],
        await limited(),
      );
      expect(run.error).toBeInstanceOf(CancelledError);
      const [first] = run.asked.flatMap((question) => (question.kind === 'select' ? [question] : []));
      expect(first!.choices.filter((choice) => choice.label.endsWith('(сверх лимита)'))).toHaveLength(2);
      expect(run.stderr).toMatch(/выберите другой ваучер или запустите buy снова с --over-limit/);
      expect(payments(gateway.received)).toEqual([]);
    } finally {
      await useLanguage('en');
    }
  });

  it('is paid as chosen with --over-limit', async () => {
    const gateway = await sandbox();
    const run = await buy(
      gateway.baseUrl,
      { ...gameCoins, overLimit: true },
      [{ select: /1200 GameCoins/ }, { confirm: true }],
      await limited(),
    );
    expect(run.error).toBeUndefined();
    expect(payments(gateway.received).map((form) => form.get('Amount'))).toEqual(['4990.50']);
  });
});
