import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { md5Hex } from '../../src/protocol/password.js';
import { sandboxCredentials } from '../../src/sandbox/catalogue.js';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { type CliResult, isolatedEnv, jsonLines, runCli } from '../helpers/cli.js';
import { sandboxWithEnv } from '../helpers/gateway-env.js';
import { defaultLedger, ledgerRecords, sandboxLedger } from '../helpers/ledger-file.js';
import { storedTexts } from '../helpers/ledger-text.js';
import { answerWith, type Responder, type ScriptedServer, startScriptedServer } from '../helpers/misbehaving-server.js';
import { embeddedStateOf, stateFileBytes, storedTransactions } from '../helpers/sandbox-state.js';

/** Every spelling a password could leak in: as typed, MD5, form- and URI-encoded, JSON-escaped. */
function spellings(password: string): string[] {
  const md5 = md5Hex(password);
  return [
    ...new Set([
      password,
      md5,
      md5.toUpperCase(),
      new URLSearchParams({ p: password }).toString().slice(2),
      encodeURIComponent(password),
      JSON.stringify(password).slice(1, -1),
    ]),
  ];
}

function expectNoSecret(texts: readonly string[], password: string): void {
  const all = texts.join('\n');
  for (const secret of spellings(password))
    expect(all.includes(secret), `${JSON.stringify(secret)} leaked`).toBe(false);
}

const outputs = (results: readonly CliResult[]) => results.flatMap((r) => [r.stdout, r.stderr]);

describe('the password and its MD5 appear nowhere', () => {
  let sandbox: RunningSandbox;
  let env: Record<string, string>;
  let statePath: string;
  beforeAll(async () => {
    const home = isolatedEnv();
    statePath = join(home.HOME!, 'gateway-state.sqlite');
    ({ sandbox, env } = await sandboxWithEnv({ statePath }));
    env = { ...env, AGENTPAY_SETTLE_DELAY: '20', AGENTPAY_SETTLE_ATTEMPTS: '1', AGENTPAY_TIMEOUT: '2000' };
  });
  afterAll(() => sandbox.close());

  it('in stdout, stderr, --verbose traces, --dry-run, errors, stack traces, both ledgers and the sandbox state', async () => {
    const password = sandboxCredentials.password;
    const results: CliResult[] = [];
    const run = async (args: string[], code: number, extra: Record<string, string> = {}) => {
      const result = await runCli(args, { env: { ...env, ...extra } });
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(code);
      results.push(result);
      return result;
    };
    await run(['-v', 'check', '--service', '101', '--account', 'a'], 0);
    const paid = await run(['-v', '--json', 'pay', '--service', '101', '--account', 'a', '--invoice-id', '5002'], 0);
    await run(['-v', 'pay', '--service', '201', '--account', 'a', '--amount', '5', '--dry-run'], 0);
    await run(['-v', '--json', 'pay', '--service', '201', '--account', 'a', '--amount', '5', '--dry-run'], 0);
    await run(['-v', '--password-format', 'md5', 'pay', '--service', '201', '--account', 'md5', '--amount', '5'], 0);
    await run(['-v', 'status', String(jsonLines(paid.stdout)[0]!.transactionId)], 0);
    await run(['-v', '--json', 'status', '1'], 3);
    await run(['-v', '--password-format', 'md5', 'status', '1'], 3);
    await run(['-v', 'pay', '--service', '201', '--account', '0000000000', '--amount', '5'], 1);
    await run(['-v', 'doctor'], 0);
    await run(['--json', 'doctor'], 0);
    sandbox.faults.garbage = 'html500';
    await run(['-v', 'pay', '--service', '201', '--account', 'a', '--amount', '6'], 3);
    sandbox.faults.garbage = 'badjson';
    await run(['-v', '--json', 'status', '1'], 5);
    await run(['-v', 'reconcile', '--grace', '0'], 5);
    sandbox.faults.garbage = undefined;
    await run(['-v', 'reconcile', '--grace', '0'], 0);
    await run(['history'], 0);
    // Unreachable (nothing listens on port 9), and the embedded sandbox with its state file.
    await run(['-v', 'pay', '--service', '201', '--account', 'a', '--amount', '5'], 4, {
      AGENTPAY_BASE_URL: 'http://127.0.0.1:9',
    });
    await run(['-v', '--sandbox', 'pay', '--service', '201', '--account', 'a', '--amount', '5'], 0);
    await run(['-v', '--sandbox', 'status', '1'], 3);

    // The password did go out (or this test would prove nothing), in both formats.
    const sent = sandbox.received.map((form) => form.get('AgentPassword'));
    expect(sent).toContain(password);
    expect(sent).toContain(md5Hex(password));
    // Both ledgers hold what was paid (or this would prove nothing), and no cell nor page the password.
    expect(await ledgerRecords(defaultLedger(env))).not.toEqual([]);
    expect(await ledgerRecords(sandboxLedger(env))).not.toEqual([]);
    const ledgers = [...storedTexts(defaultLedger(env)), ...storedTexts(sandboxLedger(env))].map(({ value }) => value);
    const embeddedState = stateFileBytes(embeddedStateOf(env));
    expect(storedTransactions(statePath)).not.toEqual([]);
    expect(storedTransactions(embeddedStateOf(env))).toHaveLength(1);
    expectNoSecret([...outputs(results), ...ledgers, stateFileBytes(statePath), embeddedState], password);
    // And --verbose did trace the exchanges, with the password masked.
    expect(results[0]!.stderr).toContain('"AgentPassword":"***"');
  });
});

describe('a gateway that echoes the password back', () => {
  const password = 's3cret &=+ wörd"/%x';
  let server: ScriptedServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const echoForm: (status: number, type: string) => Responder = (status, type) => (_form, response, request) => {
    void request;
    const form = server!.received.at(-1)!;
    answerWith(
      status,
      type,
      `<html>bad request: ${form.toString()} / ${form.get('AgentPassword')} / ${JSON.stringify(Object.fromEntries(form))}</html>`,
    )(form, response, request);
  };

  it.each([
    { name: 'an HTTP 500 page', respond: () => echoForm(500, 'text/html'), code: 4 },
    { name: 'a 200 that is not JSON', respond: () => echoForm(200, 'text/html'), code: 5 },
  ])('in $name, in every spelling, plain and md5', async ({ respond, code }) => {
    server = await startScriptedServer((form, response, request) => respond()(form, response, request));
    const results: CliResult[] = [];
    for (const format of ['plain', 'md5']) {
      const env = isolatedEnv({
        AGENTPAY_BASE_URL: server.baseUrl,
        AGENTPAY_AGENT_ID: '7',
        AGENTPAY_PASSWORD: password,
        AGENTPAY_PASSWORD_FORMAT: format,
      });
      for (const args of [
        ['-v', 'status', '42'],
        ['-v', '--json', 'status', '42'],
      ]) {
        const result = await runCli(args, { env });
        expect(result.code).toBe(code);
        results.push(result);
      }
    }
    expect(server.received.map((form) => form.get('AgentPassword'))).toEqual([
      password,
      password,
      md5Hex(password),
      md5Hex(password),
    ]);
    expect(results[0]!.stderr).toContain('first bytes of the answer: "<html>bad request: ');
    expectNoSecret(outputs(results), password);
  });

  it('in the Message of an envelope, shown on a receipt', async () => {
    server = await startScriptedServer((form, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          TransactinID: form.get('TransactionID'),
          ResponseType: 'Status',
          ResponseStatus: 20,
          Message: `wrong password ${form.get('AgentPassword')}`,
        }),
      );
    });
    const env = isolatedEnv({ AGENTPAY_BASE_URL: server.baseUrl, AGENTPAY_AGENT_ID: '7', AGENTPAY_PASSWORD: password });
    const results = [await runCli(['status', '42'], { env }), await runCli(['--json', 'status', '42'], { env })];
    // Code 20 from a gateway whose table is not configured: not classified, so not final.
    expect(results.map((r) => r.code)).toEqual([3, 3]);
    expect(results[1]!.stdout).toContain('"message":"wrong password ***"');
    expectNoSecret(outputs(results), password);
  });
});
