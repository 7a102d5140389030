import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterEach, describe, expect, it } from 'vitest';
import { LosslessNumber, stringifyLosslessJson } from '../../src/protocol/lossless.js';
import { sandboxCredentials } from '../../src/sandbox/catalogue.js';
import { answerRequest } from '../../src/sandbox/gateway-logic.js';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { TransactionStore } from '../../src/sandbox/state.js';
import { binPath, isolatedEnv, jsonLines, runCli } from '../helpers/cli.js';
import { answer, type FakeGateway, startFakeGateway } from '../helpers/fake-gateway.js';
import { sandboxCodeEnv, sandboxWithEnv } from '../helpers/gateway-env.js';
import { formsOfType, startSpecServer } from '../helpers/spec-server.js';

let sandbox: RunningSandbox | undefined;
let child: ChildProcess | undefined;
let gateway: FakeGateway | undefined;
afterEach(async () => {
  await sandbox?.close();
  await gateway?.close();
  child?.kill('SIGTERM');
  sandbox = undefined;
  gateway = undefined;
  child = undefined;
});

/** The arguments `npm run conformance` gives agentpay, read from package.json so the two cannot drift. */
function conformanceArgs(): string[] {
  const script = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts
    .conformance!;
  const command = script.split('&&').at(-1)!.trim().split(/\s+/);
  expect(command.slice(0, 2)).toEqual(['node', 'bin/agentpay.js']);
  return command.slice(2);
}

const conformanceVars = () => {
  const args = conformanceArgs();
  return args.flatMap((arg, i) => (args[i - 1] === '--var' ? ['--var', arg] : []));
};

interface JunitCase {
  name: string;
  failure?: { message: string };
  error?: { message: string };
}

function parseJunit(xml: string) {
  expect(XMLValidator.validate(xml)).toBe(true);
  const parsed = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    isArray: (name) => name === 'testcase',
  }).parse(xml) as {
    testsuites: {
      tests: string;
      failures: string;
      errors: string;
      skipped: string;
      testsuite: { name: string; testcase: JunitCase[] };
    };
  };
  return parsed.testsuites;
}

const caseLines = (stdout: string) => jsonLines(stdout).filter((line) => line.type === 'case');

describe('agentpay scenario: the conformance suite', () => {
  it('`npm run conformance` passes against the sandbox and prints and writes a JUnit report', async () => {
    const report = join(mkdtempSync(join(tmpdir(), 'agentpay-report-')), 'out', 'conformance.xml');
    const args = conformanceArgs().map((arg) => (arg === 'junit:reports/conformance.xml' ? `junit:${report}` : arg));
    expect(args).toContain('--sandbox');
    expect(args).toContain('junit:-');
    const result = await runCli(args, { env: isolatedEnv() });
    expect(result.stderr).not.toContain('✗');
    expect(result.code).toBe(0);
    const printed = parseJunit(result.stdout);
    expect(printed).toMatchObject({ tests: '9', failures: '0', errors: '0', skipped: '0' });
    expect(printed.testsuite.name).toBe('agentpay gateway conformance');
    expect(printed.testsuite.testcase.map((c) => c.name)).toContain('the TransactinID echo');
    expect(readFileSync(report, 'utf8')).toBe(result.stdout);
    // The live lines went to stderr, since the report took stdout.
    expect(result.stderr).toMatch(/✓ 2 repeat-pay of first {2}\d+ ms/);
    expect(result.stderr).toContain('9 cases: 9 passed, 0 failed, 0 errors, 0 skipped');
  });

  const brokenRules = [
    ['idempotency', 'a repeated TransactionID returns the same RequestID and creates nothing new'],
    ['amount-check', 'a payment with a different amount is refused'],
  ] as const;

  it.each(brokenRules)('a sandbox that breaks %s fails exactly the case for that rule', async (rule, failingCase) => {
    const started = await sandboxWithEnv({ behaviour: { breaks: [rule] } });
    sandbox = started.sandbox;
    const report = join(started.env.HOME!, 'junit.xml');
    const result = await runCli(
      ['scenario', 'examples/conformance.yaml', ...conformanceVars(), '--json', '--report', `junit:${report}`],
      { env: started.env },
    );
    expect(result.code).toBe(1);
    const cases = caseLines(result.stdout);
    expect(cases).toHaveLength(9);
    expect(cases.filter((c) => c.outcome !== 'passed').map((c) => [c.case, c.outcome])).toEqual([
      [failingCase, 'failed'],
    ]);
    const junit = parseJunit(readFileSync(report, 'utf8'));
    expect(junit).toMatchObject({ tests: '9', failures: '1', errors: '0' });
    expect(junit.testsuite.testcase.filter((c) => c.failure).map((c) => c.name)).toEqual([failingCase]);
    // Under --json stderr is JSON lines too (notes, then the error last).
    const stderrLines = jsonLines(result.stderr);
    expect(stderrLines.at(-1)).toEqual({
      error: { exitCode: 1, type: 'AgentpayError', message: '1 of 9 cases did not pass' },
    });
    expect(stderrLines.slice(0, -1).every((line) => typeof line.note === 'string')).toBe(true);
  });

  it('a sandbox started with `agentpay sandbox --break echo` fails exactly the echo case, naming case, step, expected and actual', async () => {
    const env = isolatedEnv();
    child = spawn(process.execPath, [binPath, 'sandbox', '--port', '0', '--json', '--break', 'echo'], {
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const [banner] = await createInterface({ input: child.stdout! })
      [Symbol.asyncIterator]()
      .next()
      .then((r) => [r.value as string]);
    const { baseUrl, breaks, codes } = JSON.parse(banner!) as {
      baseUrl: string;
      breaks: string[];
      codes: Record<string, string[]>;
    };
    expect(breaks).toEqual(['echo']);
    expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    // Its code table, as the banner gives it, for a client that reaches it by URL.
    const table = [
      '--pending-codes',
      codes.pendingCodes!.join(','),
      '--not-found-codes',
      codes.notFoundCodes!.join(','),
      '--failed-codes',
      codes.failedCodes!.join(','),
    ];
    const result = await runCli(
      [
        '--base-url',
        baseUrl,
        '--agent-id',
        sandboxCredentials.agentId,
        ...table,
        'scenario',
        'examples/conformance.yaml',
        ...conformanceVars(),
      ],
      {
        env: { ...env, AGENTPAY_PASSWORD: sandboxCredentials.password },
      },
    );
    expect(result.code).toBe(1);
    const failed = [...result.stdout.matchAll(/^ {2}✗ (.*)$/gm)].map((m) => m[1]);
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatch(
      /^case "the TransactinID echo", step 1 \(check\): envelope\.TransactinID: expected "\d{19}", actual missing$/,
    );
    expect(result.stdout).toContain('9 cases: 8 passed, 1 failed, 0 errors, 0 skipped');
  });
});

/**
 * The sandbox's logic behind a gateway that writes TransactionContent.Amount as a double
 * would: 1500 for 1500.00, 499 for 499.00. Spec 2.3 types it as a number, so that is allowed.
 */
async function gatewayWritingAmountsAsDoubles(): Promise<FakeGateway> {
  const store = new TransactionStore();
  return startFakeGateway((form, _request, response) => {
    const envelope = answerRequest(form, store, { pendingPolls: 0, breaks: [] });
    const content = envelope.TransactionContent as Record<string, unknown> | undefined;
    if (content?.Amount instanceof LosslessNumber) {
      content.Amount = new LosslessNumber(content.Amount.value.replace(/\.(\d*?)0+$/, '.$1').replace(/\.$/, ''));
    }
    answer(response, 200, stringifyLosslessJson(envelope));
  });
}

describe('agentpay scenario: amounts compared as decimals', () => {
  it('the conformance suite passes against a gateway that reports 1500 for the 1500.00 it was sent', async () => {
    gateway = await gatewayWritingAmountsAsDoubles();
    const env = isolatedEnv({
      AGENTPAY_BASE_URL: gateway.baseUrl,
      AGENTPAY_AGENT_ID: sandboxCredentials.agentId,
      AGENTPAY_PASSWORD: sandboxCredentials.password,
      ...sandboxCodeEnv,
    });
    const result = await runCli(['scenario', 'examples/conformance.yaml', ...conformanceVars(), '--json'], { env });
    const steps = jsonLines(result.stdout).filter((line) => line.type === 'step');
    // The gateway did write the short form, and the Amount sent was the exact one.
    const staticPay = steps.find(
      (line) => line.case === 'a static payment with its denomination succeeds' && line.kind === 'pay',
    );
    expect(staticPay?.record).toMatchObject({ amount: '1500', request: { Amount: '1500.00' } });
    expect(steps.some((line) => (line.record as { amount?: string } | undefined)?.amount === '499')).toBe(true);
    expect(caseLines(result.stdout).filter((c) => c.outcome !== 'passed')).toEqual([]);
    expect(result.code).toBe(0);
  });
});

describe('agentpay scenario: refusals before anything is sent', () => {
  it('exits 2 on a missing var or a bad file, and sends nothing', async () => {
    const started = await sandboxWithEnv();
    sandbox = started.sandbox;
    const missing = await runCli(['scenario', 'examples/conformance.yaml', '--var', 'service=101'], {
      env: started.env,
    });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(
      'needs --var account=<value> --var currency=<value> --var static_service=<value> --var static_amount=<value>',
    );
    const bad = await runCli(['scenario', 'examples/smoke.yaml', 'package.json', '--report', 'xml:out'], {
      env: started.env,
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--report takes junit:<path>');
    expect(started.sandbox.received).toHaveLength(0);
  });
});

describe('agentpay scenario: SIGTERM while a payment step is out', () => {
  it('the payment is unknown (its TransactionID and reconcile named), no later step starts, the report is written: exit 143', async () => {
    const server = await startSpecServer({ hold: ['Payment'] });
    try {
      const env = isolatedEnv({
        AGENTPAY_BASE_URL: server.baseUrl,
        AGENTPAY_AGENT_ID: '7',
        AGENTPAY_PASSWORD: 'secret',
      });
      const file = join(env.HOME!, 'held.yaml');
      writeFileSync(
        file,
        'name: held\ncases:\n  - name: pay then look up\n    steps:\n      - pay: { service: "201", account: a-1, currency: KZT, amount: "150.50" }\n      - status:\n',
      );
      const report = join(env.HOME!, 'junit.xml');
      child = spawn(process.execPath, [binPath, 'scenario', file, '--report', `junit:${report}`], {
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const closed = new Promise<number | null>((resolve) => child!.once('close', resolve));
      const deadline = Date.now() + 10_000;
      while (formsOfType(server.received, 'Payment').length === 0 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 20));
      const id = formsOfType(server.received, 'Payment')[0]?.get('TransactionID');
      expect(id).toMatch(/^\d+$/);
      child.kill('SIGTERM');
      expect(await closed).toBe(143);
      expect(stderr).toContain(`the outcome of payment ${id} is unknown: interrupted before the answer arrived`);
      expect(stderr).toContain('agentpay reconcile');
      expect(stderr).toContain('agentpay: interrupted: the scenario stopped after SIGTERM');
      expect(formsOfType(server.received, 'Status')).toHaveLength(0);
      expect(readFileSync(report, 'utf8')).toContain('<testcase');
    } finally {
      await server.close();
    }
  });
});
