import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { md5Hex } from '../../src/protocol/password.js';
import { sandboxCredentials } from '../../src/sandbox/catalogue.js';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { type CliResult, isolatedEnv, jsonLines, runCli } from '../helpers/cli.js';
import { paymentsReceived, sandboxWithEnv } from '../helpers/gateway-env.js';
import { answerWith, type Responder, type ScriptedServer, sandboxResponder, startScriptedServer } from '../helpers/misbehaving-server.js';
import { selfSignedCertificate } from '../helpers/tls.js';

/** Every spelling a password could leak in: as typed, MD5, form- and URI-encoded, JSON-escaped. */
function spellings(password: string): string[] {
  const md5 = md5Hex(password);
  return [
    ...new Set([password, md5, md5.toUpperCase(), new URLSearchParams({ p: password }).toString().slice(2), encodeURIComponent(password), JSON.stringify(password).slice(1, -1)]),
  ];
}

function expectNoSecret(texts: readonly string[], password: string): void {
  const all = texts.join('\n');
  for (const secret of spellings(password)) expect(all.includes(secret), `${JSON.stringify(secret)} leaked`).toBe(false);
}

const outputs = (results: readonly CliResult[]) => results.flatMap((r) => [r.stdout, r.stderr]);
const readIfThere = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8') : '');

describe('the password and its MD5 appear nowhere', () => {
  let sandbox: RunningSandbox;
  let env: Record<string, string>;
  let statePath: string;
  beforeAll(async () => {
    const home = isolatedEnv();
    statePath = join(home.HOME!, 'gateway-state.jsonl');
    ({ sandbox, env } = await sandboxWithEnv({ statePath }));
    env = { ...env, AGENTPAY_SETTLE_DELAY: '20', AGENTPAY_SETTLE_ATTEMPTS: '1', AGENTPAY_TIMEOUT: '2000' };
  });
  afterAll(() => sandbox.close());

  it('in stdout, stderr, --verbose traces, --dry-run, errors, stack traces, the journal and the sandbox state', async () => {
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
    await run(['-v', 'pay', '--service', '201', '--account', 'a', '--amount', '5'], 4, { AGENTPAY_BASE_URL: 'http://127.0.0.1:9' });
    await run(['-v', '--sandbox', 'pay', '--service', '201', '--account', 'a', '--amount', '5'], 0);
    await run(['-v', '--sandbox', 'status', '1'], 3);

    // The password did go out (or this test would prove nothing), in both formats.
    const sent = sandbox.received.map((form) => form.get('AgentPassword'));
    expect(sent).toContain(password);
    expect(sent).toContain(md5Hex(password));
    const journal = readFileSync(join(env.XDG_STATE_HOME!, 'agentpay', 'journal.jsonl'), 'utf8');
    const embeddedState = readFileSync(join(env.XDG_STATE_HOME!, 'agentpay', 'sandbox-state.jsonl'), 'utf8');
    expect(journal).not.toBe('');
    expect(readIfThere(statePath)).not.toBe('');
    expect(embeddedState).not.toBe('');
    expectNoSecret([...outputs(results), journal, readIfThere(statePath), embeddedState], password);
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
    answerWith(status, type, `<html>bad request: ${form.toString()} / ${form.get('AgentPassword')} / ${JSON.stringify(Object.fromEntries(form))}</html>`)(form, response, request);
  };

  it.each([
    { name: 'an HTTP 500 page', respond: () => echoForm(500, 'text/html'), code: 4 },
    { name: 'a 200 that is not JSON', respond: () => echoForm(200, 'text/html'), code: 5 },
  ])('in $name, in every spelling, plain and md5', async ({ respond, code }) => {
    server = await startScriptedServer((form, response, request) => respond()(form, response, request));
    const results: CliResult[] = [];
    for (const format of ['plain', 'md5']) {
      const env = isolatedEnv({ AGENTPAY_BASE_URL: server.baseUrl, AGENTPAY_AGENT_ID: '7', AGENTPAY_PASSWORD: password, AGENTPAY_PASSWORD_FORMAT: format });
      for (const args of [
        ['-v', 'status', '42'],
        ['-v', '--json', 'status', '42'],
      ]) {
        const result = await runCli(args, { env });
        expect(result.code).toBe(code);
        results.push(result);
      }
    }
    expect(server.received.map((form) => form.get('AgentPassword'))).toEqual([password, password, md5Hex(password), md5Hex(password)]);
    expect(results[0]!.stderr).toContain('first bytes of the answer: "<html>bad request: ');
    expectNoSecret(outputs(results), password);
  });

  it('in the Message of an envelope, shown on a receipt', async () => {
    server = await startScriptedServer((form, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ TransactinID: form.get('TransactionID'), ResponseType: 'Status', ResponseStatus: 20, Message: `wrong password ${form.get('AgentPassword')}` }));
    });
    const env = isolatedEnv({ AGENTPAY_BASE_URL: server.baseUrl, AGENTPAY_AGENT_ID: '7', AGENTPAY_PASSWORD: password });
    const results = [await runCli(['status', '42'], { env }), await runCli(['--json', 'status', '42'], { env })];
    // Code 20 from a gateway whose table is not configured: not classified, so not final.
    expect(results.map((r) => r.code)).toEqual([3, 3]);
    expect(results[1]!.stdout).toContain('"message":"wrong password ***"');
    expectNoSecret(outputs(results), password);
  });
});

describe('config and password files', () => {
  const configFile = (env: Record<string, string>, profile: Record<string, unknown>, mode: number) => {
    const dir = join(env.XDG_CONFIG_HOME!, 'agentpay');
    mkdirSync(dir, { recursive: true });
    const path = join(dir, 'config.json');
    writeFileSync(path, JSON.stringify({ profiles: { default: profile } }));
    chmodSync(path, mode);
    return path;
  };

  it('a config file holding a password that others can read draws a chmod 600 warning', async () => {
    const env = isolatedEnv();
    const path = configFile(env, { password: 'in-the-config-file', agentId: '1' }, 0o644);
    const open = await runCli(['history'], { env });
    expect(open.code).toBe(0);
    expect(open.stderr).toContain(`warning: the config file ${path} holds a password and can be read by group or others (mode 0644); run: chmod 600 ${path}`);
    chmodSync(path, 0o640);
    expect((await runCli(['history'], { env })).stderr).toContain('chmod 600');
    chmodSync(path, 0o600);
    const closed = await runCli(['history'], { env });
    expect(closed.code).toBe(0);
    expect(closed.stderr).not.toContain('warning');
  });

  it('a config file that is not JSON is refused without quoting it', async () => {
    const env = isolatedEnv();
    const dir = join(env.XDG_CONFIG_HOME!, 'agentpay');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'config.json'), '{"profiles": {"default": {\n  "password": hunter2-in-broken-json}}}', { mode: 0o600 });
    const result = await runCli(['--sandbox', 'status', '1'], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('is not valid JSON');
    expect(result.stderr).not.toContain('hunter2');
  });

  describe('--password-file', () => {
    let sandbox: RunningSandbox;
    let env: Record<string, string>;
    beforeAll(async () => {
      ({ sandbox, env } = await sandboxWithEnv());
      delete env.AGENTPAY_PASSWORD;
    });
    afterAll(() => sandbox.close());
    const passwordFile = (mode: number) => {
      const path = join(env.HOME!, `password-${mode.toString(8)}`);
      writeFileSync(path, `${sandboxCredentials.password}\n`);
      chmodSync(path, mode);
      return path;
    };
    const pay = ['pay', '--service', '201', '--account', 'a', '--amount', '5'];

    it('refuses a world-readable file: exit 2, chmod 600, nothing sent', async () => {
      const path = passwordFile(0o644);
      const before = sandbox.received.length;
      const result = await runCli(['--password-file', path, ...pay], { env });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`the password file ${path} (--password-file) can be read by anyone (mode 0644)`);
      expect(result.stderr).toContain(`chmod 600 ${path}`);
      expect(result.stderr).toContain('--insecure-password-file');
      expect(sandbox.received.length).toBe(before);
      // AGENTPAY_PASSWORD_FILE is held to the same rule.
      const fromEnv = await runCli(pay, { env: { ...env, AGENTPAY_PASSWORD_FILE: path } });
      expect(fromEnv.code).toBe(2);
      expect(fromEnv.stderr).toContain('(AGENTPAY_PASSWORD_FILE) can be read by anyone');
      expect(sandbox.received.length).toBe(before);
    });

    it('takes a file its group may read, with a chmod 600 warning', async () => {
      const path = passwordFile(0o640);
      const before = paymentsReceived(sandbox).length;
      const result = await runCli(['--password-file', path, ...pay], { env });
      expect(result.code).toBe(0);
      expect(result.stderr).toContain(`warning: the password file ${path} (--password-file) can be read by its group (mode 0640); run: chmod 600 ${path}`);
      expect(paymentsReceived(sandbox).length).toBe(before + 1);
      const quiet = await runCli(['--password-file', passwordFile(0o600), ...pay, '--allow-duplicate'], { env });
      expect(quiet.code).toBe(0);
      expect(quiet.stderr).not.toContain('warning');
    });

    it('takes it with --insecure-password-file, and a 0600 file as it is', async () => {
      const before = paymentsReceived(sandbox).length;
      expect((await runCli(['--password-file', passwordFile(0o644), '--insecure-password-file', ...pay, '--allow-duplicate'], { env })).code).toBe(0);
      expect((await runCli(['--password-file', passwordFile(0o600), ...pay, '--allow-duplicate'], { env })).code).toBe(0);
      expect(paymentsReceived(sandbox).length).toBe(before + 2);
    });
  });
});

describe('TLS is verified', () => {
  let server: ScriptedServer;
  let certPath: string;
  let env: Record<string, string>;
  beforeAll(async () => {
    const certificate = selfSignedCertificate();
    certPath = certificate.certPath;
    server = await startScriptedServer(sandboxResponder(), certificate);
    env = isolatedEnv({ AGENTPAY_BASE_URL: server.baseUrl, AGENTPAY_AGENT_ID: sandboxCredentials.agentId, AGENTPAY_PASSWORD: sandboxCredentials.password });
  });
  afterAll(() => server.close());
  const pay = ['pay', '--service', '201', '--account', 'tls', '--amount', '5', '--json'];

  it.each([
    { name: 'by default', extra: {} },
    { name: 'even with NODE_TLS_REJECT_UNAUTHORIZED=0', extra: { NODE_TLS_REJECT_UNAUTHORIZED: '0' } },
  ])('a self-signed certificate is refused $name: exit 4, nothing sent', async ({ extra }) => {
    const result = await runCli(pay, { env: { ...env, ...extra } });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('the TLS certificate is not trusted (DEPTH_ZERO_SELF_SIGNED_CERT); nothing was sent');
    expect(result.stderr).toContain('--ca-file <pem>');
    expect(server.received).toHaveLength(0);
  });

  it('with --ca-file (or AGENTPAY_CA_FILE) naming its certificate, it works', async () => {
    const result = await runCli(['--ca-file', certPath, ...pay], { env });
    expect(result.code).toBe(0);
    expect(jsonLines(result.stdout)[0]).toMatchObject({ state: 'success', account: 'tls' });
    const viaEnv = await runCli(['--json', 'doctor'], { env: { ...env, AGENTPAY_CA_FILE: certPath } });
    expect(viaEnv.code).toBe(0);
    expect(JSON.parse(viaEnv.stdout)).toMatchObject({ settings: { caFile: { value: certPath, source: 'env', origin: 'AGENTPAY_CA_FILE' } }, gateway: { ok: true } });
  });

  it('a --ca-file without a certificate is a usage error', async () => {
    const path = join(env.HOME!, 'not-a-cert.pem');
    writeFileSync(path, 'hello');
    const result = await runCli(['--ca-file', path, ...pay], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`the CA file ${path} (--ca-file) holds no PEM certificate`);
  });
});
