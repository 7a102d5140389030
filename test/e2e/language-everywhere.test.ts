import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli.js';
import { garbageKinds } from '../../src/sandbox/garbage.js';
import { sandboxBreaks } from '../../src/sandbox/gateway-logic.js';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { settingEntries } from '../../src/settings/table.js';
import { type CliResult, isolatedEnv, runCli, spawnAgentpay } from '../helpers/cli.js';
import { englishLeft } from '../helpers/english-words.js';
import { envFor, sandboxWithEnv } from '../helpers/gateway-env.js';
import { runInProcess } from '../helpers/in-process-run.js';

/**
 * `--lang ru` over what the other language tests leave out: the help of every command and
 * subcommand, scenario's screen, the sandbox's banner and fault lines, and the errors (with
 * their hints) of every command. Each screen is scanned for English words left; allowed,
 * besides what english-words.ts allows: the values a flag or a scenario file takes as typed
 * (choices, a record's paths and values), and error class names (a scenario's error.type).
 */
let sandbox: RunningSandbox;
let env: Record<string, string>;
/** Where this file's scenario, order and missing files are. */
const work = mkdtempSync(join(tmpdir(), 'agentpay-ru-'));
/** The Latin words of the path the run's temporary directory is in (tmp; dev, shm), which messages quote as given. */
const pathWords = dirname(tmpdir()).match(/[A-Za-z]+/g) ?? [];
beforeAll(async () => {
  ({ sandbox } = await sandboxWithEnv());
  env = envFor(sandbox, { AGENTPAY_OPERATOR: 'кассир' });
});
afterAll(async () => {
  await sandbox.close();
});

const ru = (args: string[]) => runCli(['--lang', 'ru', ...args], { env });
function expectRussian(result: CliResult, allowed: Iterable<string> = []): void {
  expect(englishLeft(`${result.stdout}\n${result.stderr}`, allowed), `${result.stdout}\n${result.stderr}`).toEqual([]);
}

/** The values flags take as typed, which help lists as choices and examples. */
const typedValues = [
  ...['table', 'json', 'csv', 'tsv', 'today', 'yesterday', 'tab', 'html', 'junit', 'JUnit'],
  ...['success', 'failed', 'pending', 'unknown', 'service', 'operator', 'currency', 'state'],
  ...garbageKinds,
  ...sandboxBreaks.flatMap((rule) => rule.split('-')),
  // File names the help gives: a shell's rc files.
  ...['bashrc', 'zshrc', 'compinit', 'source', 'config', 'completions'],
];

/** Every command and subcommand as typed (`ledger add-operator`), from the program itself: a new one is covered at once. */
const io = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: {} };
const commandLines = (command: Command, line: string[] = []): string[][] =>
  command.commands
    .filter((sub) => sub.name() !== 'help')
    .flatMap((sub) => [[...line, sub.name()], ...commandLines(sub, [...line, sub.name()])]);
const everyCommand = commandLines(buildProgram(io));
// Their names as typed are not English left: `add-operator` reads as add, operator.
const commandWords = [...new Set(everyCommand.flat().flatMap((name) => name.split('-')))];
typedValues.push(...commandWords);

/** The help of every command, made in-process (in-process-run.ts) once and read by the tests on help. */
let helps: Promise<{ command: string[]; help: CliResult }[]> | undefined;
const helpOfEveryCommand = () => {
  helps ??= (async () => {
    const all = [];
    for (const command of [[], ...everyCommand])
      all.push({ command, help: await runInProcess(['--lang', 'ru', ...command, '--help'], env) });
    return all;
  })();
  return helps;
};

/** Command lines that end in an error, each command's own. */
const erring = [
  ['report', '--date', 'вчера'],
  ['report', '--by', 'x'],
  ['report', '--date', 'today', '--since', '1d'],
  ['report', '--since', '1d', '--until', '2d'],
  ['receipt', '1795000000000000001'],
  ['receipt', '--width', '5', '1795000000000000001'],
  ['status'],
  ['status', '--wait', 'x', '1795000000000000001'],
  ['history', '--gateway', ''],
  ['history', '--bom'],
  ['history', '--format', 'xml'],
  ['scenario', join(work, 'none.yaml')],
  ['scenario', '--jobs', '0', join(work, 'none.yaml')],
  ['scenario', '--report', 'pdf:x', join(work, 'none.yaml')],
  ['reconcile', '--since', '1d', '--registry', 'x.tsv'],
  ['reconcile', '--grace', 'x'],
  ['ledger', 'import', work],
  ['ledger', 'import', join(work, 'none.jsonl')],
  ['ledger', 'migrate'],
  ['sandbox', '--port', '99999'],
  ['sandbox', '--break', 'nothing'],
  ['sandbox', '--latency', 'x'],
  ['sandbox', '--fail-rate', '2'],
  ['completion', 'tcsh'],
  ['receipt'],
  ['status', '--from-file', join(work, 'none.txt')],
  ['check', '--service', '101', '--account', '7011234567', '--ca-file', join(work, 'none.pem')],
  // Commander's suggestion among several flags, and a TransactionID the protocol core refuses.
  ['pay', '--acount', '7011234567'],
  ['status', '123abc'],
  ['receipt', '123abc'],
];
const erringCommands = [...new Set(erring.map(([command]) => command!))];

describe('agentpay --lang ru: help, scenario, the sandbox and errors', () => {
  it('the help of every command and subcommand', async () => {
    expect(everyCommand).toContainEqual(['ledger', 'migrate']);
    for (const { help } of await helpOfEveryCommand()) {
      expect(help.code).toBe(0);
      expect(help.stderr).toBe('');
      expect(help.stdout).toMatch(/^Использование: agentpay/);
      expectRussian(help, typedValues);
    }
  });

  it('the help made in-process is what the bin prints: the program, a command, a subcommand', async () => {
    const all = await helpOfEveryCommand();
    for (const command of [[], ['pay'], ['ledger', 'migrate']]) {
      const { help } = all.find((each) => each.command.join(' ') === command.join(' '))!;
      expect(await ru([...command, '--help']), command.join(' ')).toEqual(help);
    }
  });

  it('the values flags and arguments take are named in Russian in help: <список>, never <list>', async () => {
    // englishLeft passes over placeholders as typed; here each one's words are read, backticks included.
    for (const { command, help } of await helpOfEveryCommand()) {
      const named = [...help.stdout.matchAll(/<([^<>]+)>/g)].map(([, words]) => words).join(' ');
      expect(englishLeft(named.replace(/[|:]/g, ' '), typedValues), command.join(' ')).toEqual([]);
    }
  });

  it("commander's errors name a flag's value as help does: '--account <счёт>'", async () => {
    expect((await ru(['pay', '--service', '201'])).stderr).toContain("не задан обязательный флаг '--account <счёт>'");
    expect((await ru(['pay', '--amount'])).stderr).toContain("у флага '--amount <сумма>' нет значения");
    expect((await ru(['history', '--state', 'x'])).stderr).toContain("флага '--state <состояние>'");
  });

  it('scenario: step lines, failures, errors and the summary; its counts and times as Russian writes them', async () => {
    const file = join(work, 'смоук.yaml');
    writeFileSync(
      file,
      [
        'name: смоук',
        'cases:',
        '  - name: проходит',
        '    steps:',
        '      - check: { service: "101", account: "7011234567" }',
        '        expect: { state: success }',
        '      - pay: { service: "101", account: "7011234567", invoice: 1 }',
        '        expect: { state: { one-of: [success, pending] } }',
        '      - wait:',
        '        expect: { state: success }',
        '  - name: не сходится',
        '    steps:',
        '      - pay: { service: "202", account: "7011234567", amount: "1500.00", currency: KZT }',
        '        expect:',
        '          state: { not-equals: success }',
        '          amount: { decimal-equals: "1" }',
        '          message: { contains: "нет" }',
        '          requestId: { exists: false }',
        '          envelope.Extra: { exists: true }',
        '      - check: { service: "101", account: "7011234567" }',
        '  - name: ошибка',
        '    steps:',
        '      - pay: { service: "202", account: "7011234567", amount: "1,5" }',
        '      - repeat-pay:',
        '',
      ].join('\n'),
    );
    const result = await ru(['scenario', file]);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stdout).toMatch(/✓ 2 оплата ваучера №1: услуга 101, счёт 7011234567 {2}\d+ мс/);
    expect(result.stdout).toContain('state: ожидалось — что угодно, кроме "success", получено — "success"');
    expect(result.stdout).toContain('envelope.Extra: ожидалось — значение, получено — нет значения');
    expect(result.stdout).toContain('случай «не сходится», шаг 1 (pay): amount: ожидалось — десятичное число 1');
    expect(result.stdout).toMatch(
      /3 случая: пройдено — 1, не пройдено — 1, с ошибкой — 1, пропущено — 0 \(\d+,\d\d с\)/,
    );
    expect(result.stderr).toContain('не пройдено случаев: 2 из 3');
    // The file by its path; the steps, paths and values it names, and the error's class (what `error.type` matches).
    expectRussian(result, [
      ...pathWords,
      'yaml',
      'repeat',
      'state',
      'success',
      'amount',
      'message',
      'requestId',
      'envelope',
      'Extra',
      'UsageError',
    ]);
  });

  it('the sandbox: its banner, its accounts and the faults it was asked for', async () => {
    const args = ['--lang', 'ru', 'sandbox', '--port', '0', '--latency', '5', '--drop-after-commit', '2'];
    const child = spawnAgentpay([...args, '--fail-rate', '0.25', '--break', 'echo'], {
      env: isolatedEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      await new Promise<void>((resolve, reject) => {
        const ready = () => stdout.includes('Ctrl+C') && (stderr.match(/сбой:/g) ?? []).length === 3 && resolve();
        child.stdout.on('data', ready);
        child.stderr.on('data', ready);
        child.on('exit', () => reject(new Error(`exited early:\n${stdout}\n${stderr}`)));
      });
    } finally {
      child.kill('SIGINT');
    }
    expect(await exited).toBe(0);
    expect(stdout).toContain('всегда отказ (код 22)');
    expect(stderr).toContain('сбой: каждый ответ ждёт 5 мс');
    expect(stderr).toContain('ответы на следующие 2 Payment обрываются после проведения');
    expect(stderr).toContain('доля проведённых Payment, на которые приходит ответ HTTP 500: 0,25');
    expectRussian({ code: 0, stdout, stderr }, ['echo', 'plain', 'player']); // player-42: an account
  });

  it('pay --from-file: a row whose voucher cannot be had is named under its column in either language', async () => {
    const orders = join(work, 'orders.csv');
    writeFileSync(orders, 'service,account,invoice-id,amount\n101,7011234567,5002,2497\n101,7011234567,9999,\n');
    const russian = await ru(['pay', '--from-file', orders, '--dry-run']);
    expect(russian.code).toBe(2);
    expect(russian.stderr).toContain(
      'строка 2, столбец «amount»: 2497 не совпадает с OrderAmount ваучера с InvoiceId 5002, 2497.00\n' +
        '  строка 3, столбец «invoice-id»: ваучера с InvoiceId 9999 нет в списке ваучеров услуги 101\n',
    );
    expectRussian(russian);
    const english = await runCli(['--lang', 'en', 'pay', '--from-file', orders, '--dry-run'], { env });
    expect(english.stderr).toContain(
      'line 2, amount: 2497 is not the OrderAmount of invoice 5002, 2497.00\n' +
        '  line 3, invoice-id: invoice 9999 is not in the voucher list of service 101\n',
    );
  });

  // One test per command: each within its own time-out on a loaded machine.
  it.each(erringCommands)('errors and their hints, command by command: %s', async (command) => {
    for (const args of erring.filter(([name]) => name === command)) {
      const result = await ru(args);
      expect(result.code, args.join(' ')).not.toBe(0);
      expect(result.stderr).toMatch(/[А-Яа-яЁё]/);
      // As typed: the values and files given.
      expectRussian(result, [
        'pdf',
        'xml',
        'nothing',
        'none',
        'pem',
        ...pathWords,
        'yaml',
        'tcsh',
        'abc',
        ...typedValues,
      ]);
    }
  });

  // A payment proven not sent, said in Russian and recorded in English: language.test.ts (errors).

  it('settings given wrong: the value, where it came from and what to give, in Russian', async () => {
    const wrong: Record<string, [string, string]> = {
      AGENTPAY_TIMEOUT: ['abc', '"abc" (AGENTPAY_TIMEOUT): нужно целое число миллисекунд от 1 до 999999999'],
      AGENTPAY_BASE_URL: ['gw.example', 'базовый URL "gw.example" (AGENTPAY_BASE_URL) — не URL'],
      AGENTPAY_AGENT_ID: ['agent', 'id агента "agent" (AGENTPAY_AGENT_ID) должен состоять только из цифр'],
      AGENTPAY_PENDING_CODES: ['10', '(AGENTPAY_PENDING_CODES) не может включать 10: это успех'],
    };
    for (const [name, [value, said]] of Object.entries(wrong)) {
      const result = await runCli(['--lang', 'ru', 'check', '--service', '101', '--account', '7011234567'], {
        env: { ...env, [name]: value },
      });
      expect(result.code, name).toBe(2);
      expect(result.stderr).toContain(said);
      // The values as given; a setting's own name (timeout) is still English (docs/language.md).
      expectRussian(result, ['abc', 'gw', 'example', 'agent', 'pendingCodes', 'timeout']);
    }
  });

  it('a config file that is broken, of the wrong shape, or without the profile named, in Russian', async () => {
    const home = isolatedEnv();
    const configDirectory = join(home.XDG_CONFIG_HOME ?? '', 'agentpay');
    const config = join(configDirectory, 'config.json');
    mkdirSync(configDirectory, { recursive: true });
    const cases: [string, string[], string][] = [
      ['{"profiles": {', [], 'не корректный JSON'],
      [
        '{"profiles": {"default": {"timeout": true}}}',
        [],
        'profiles.default.timeout: ожидалось — текст или число, получено — логическое значение true',
      ],
      ['{"profiles": {"default": {"colour": 1}}}', [], 'ожидалось — известный ключ'],
      ['{"profiles": {"desk": {}}}', ['--profile', 'night'], 'профиля "night" нет в'],
    ];
    for (const [text, flags, said] of cases) {
      writeFileSync(config, text, { mode: 0o600 });
      const result = await runCli(['--lang', 'ru', ...flags, 'check', '--service', '101', '--account', '1'], {
        env: { ...home, AGENTPAY_AGENT_ID: '1', AGENTPAY_PASSWORD: 'x' },
      });
      expect([result.code, result.stderr], text).toEqual([2, expect.stringContaining(said)]);
      // The file's own keys (every profile key, as the known-key error lists them) and values as written.
      const keys = settingEntries.flatMap(([, { profile, alias }]) => [
        ...(profile ? [profile.key] : []),
        ...(alias ? [alias.profileKey] : []),
      ]);
      const asWritten = ['profiles', 'colour', 'night', 'desk', 'true', 'jq', 'docs', 'configuration'];
      expectRussian(result, [...typedValues, ...keys, ...asWritten]);
    }
  });
});
