import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { runBuyFlow } from '../../src/commands/buy/flow.js';
import type { BuyDependencies, BuyOptions } from '../../src/commands/buy/types.js';
import type { CommandContext } from '../../src/commands/context.js';
import { writeReceiptFile } from '../../src/commands/ledger-receipt.js';
import { GatewayClient } from '../../src/gateway/client.js';
import { noInterrupts } from '../../src/interrupts.js';
import { openLedger } from '../../src/ledger/open-ledger.js';
import type { Output } from '../../src/output.js';
import { sandboxCodeTable } from '../../src/protocol/sandbox-codes.js';
import { executePayment } from '../../src/purchase/execute-payment.js';
import { sandboxCredentials } from '../../src/sandbox/catalogue.js';
import { type SandboxOptions, startSandbox } from '../../src/sandbox/server.js';
import { deskSettings } from '../../src/settings/desk-settings.js';
import { resolveSettings } from '../../src/settings/resolve.js';
import { type AskedQuestion, capturedOutput, type ScriptedAnswer, scriptedPrompter } from './scripted-prompter.js';
import { formsOfType, type SpecServerOptions, startSpecServer } from './spec-server.js';

/*
 * The buy flow with its questions answered by a script, against a real sandbox (or a
 * purpose-built spec server) on 127.0.0.1. What counts is what the gateway received.
 * Shared by the test/unit/buy-*.test.ts files.
 */
export const txnId = '4242000000000000001';
const cleanups: (() => Promise<void>)[] = [];

/** Closes the gateways and clients the last test started (after each test). */
export async function closeBuyServers(): Promise<void> {
  for (const cleanup of cleanups.splice(0)) await cleanup();
}

export async function sandbox(options: SandboxOptions = {}) {
  const running = await startSandbox({ recordRequests: true, ...options });
  cleanups.push(running.close);
  return running;
}

export async function specServer(options: SpecServerOptions) {
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

export function startBuy(
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
    firstDelayMs: deskSettings.settleDelay.fallback(),
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
    const ledger = openLedger(resolved.ledger.value, {
      operator: resolved.operator.value,
      env: resolved.env,
      stateDirectory: join(home, 'state', 'agentpay'),
      byDefault: false,
      note: (message) => out.warn(message),
    });
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

export const buy = (...args: Parameters<typeof startBuy>) => startBuy(...args).done;

export const payments = (received: readonly URLSearchParams[]) => formsOfType(received, 'Payment');
export const gameCoins = { service: '101', account: '7011234567', currency: 'KZT' };
