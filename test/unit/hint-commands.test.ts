import { Writable } from 'node:stream';
import { type Command, CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli.js';
import { retryPayCommand, shellWord } from '../../src/commands/retry-command.js';
import { en } from '../../src/i18n/en.js';
import { ru } from '../../src/i18n/ru.js';

/**
 * Every command a message or hint names (`agentpay status 42`, `agentpay pay --approved <txn>`)
 * exists as printed: its command and subcommand, and each flag on it or on the program, checked
 * against the real commander program. And the retry `pay` and `buy` print for a payment whose
 * outcome is unknown parses back, through a shell's quoting, to the purchase's exact values.
 */
const io = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: {} };

/** Stands for any argument a catalogue's function takes: text "7", a number 7, a list, a record. */
const anything: unknown = new Proxy(() => anything, {
  get: (_target, key) => (key === Symbol.toPrimitive ? () => '7' : key === 'length' ? 1 : anything),
  apply: () => anything,
});

/** Every text of a catalogue, each function called with `anything` for each of its parameters. */
function textsOf(node: unknown, path: string, out: Map<string, string>): Map<string, string> {
  if (typeof node === 'string') out.set(path, node);
  else if (typeof node === 'function') {
    try {
      const text = (node as (...args: unknown[]) => unknown)(...Array(Math.max(node.length, 2)).fill(anything));
      if (typeof text === 'string') out.set(path, text);
    } catch {
      // A text built from what `anything` cannot stand for (a Date, an error) names no command.
    }
  } else if (node !== null && typeof node === 'object')
    for (const [key, value] of Object.entries(node)) textsOf(value, `${path}.${key}`, out);
  return out;
}

/** The commands a text names: in code marks, or bare up to the end of the clause. */
function commandsIn(text: string): { words: string[]; marked: boolean }[] {
  const marked = [...text.matchAll(/`agentpay ([^`]*)`/g)].map((match) => ({ words: split(match[1]!), marked: true }));
  // Bare, where a command follows ("run agentpay reconcile", "look it up with: agentpay status 42", "| agentpay …").
  const bare = [...text.replaceAll(/`[^`]*`/g, '').matchAll(/(?:^|run |with:? |: |\| )agentpay ([^;,()\n]*)/g)].map(
    (match) => ({
      words: split(match[1]!),
      marked: false,
    }),
  );
  return [...marked, ...bare];
}

/** Words as a shell splits them, for shellWord's quoting (single quotes), up to a redirection or a pipe. */
function split(line: string): string[] {
  const words: string[] = [];
  for (const match of line.matchAll(/(?:'[^']*'|\\'|[^\s'])+/g)) {
    if (['>', '|', '<'].includes(match[0])) break;
    words.push(match[0].replaceAll(/'([^']*)'|\\(')/g, (_all, quoted: string | undefined, quote) => quoted ?? quote));
  }
  return words;
}

/** Where commander's own messages go: nowhere (the error it throws says the same). */
const sink = new Writable({ write: (_chunk, _encoding, done) => done() }) as unknown as NodeJS.WriteStream;
const quietIo = { ...io, stdout: sink, stderr: sink };

/** The real program for `words`, every action replaced so that nothing runs: what it parsed. */
async function parsed(words: readonly string[]): Promise<{ opts: Record<string, unknown> } | { problem: string }> {
  const program = buildProgram(quietIo);
  let opts: Record<string, unknown> = {};
  const quiet = (command: Command): void => {
    command.action((...args: unknown[]) => {
      opts = (args.at(-1) as Command).optsWithGlobals();
    });
    for (const sub of command.commands) quiet(sub);
  };
  for (const command of program.commands) quiet(command);
  try {
    await program.parseAsync([...words], { from: 'user' });
    return { opts };
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    return { problem: error.message };
  }
}

/** What commander finds wrong with a named command: an unknown option, a value or a required option missing. */
async function problemOf(words: readonly string[]): Promise<string | undefined> {
  const result = await parsed(words);
  return 'problem' in result ? result.problem : undefined;
}

describe('every command a message names parses as printed', () => {
  const names = new Set(buildProgram(io).commands.map((command) => command.name()));
  it.each([
    ['en', en],
    ['ru', ru],
  ])('in the %s catalogue', async (_language, catalogue) => {
    const texts = textsOf(catalogue, '', new Map());
    const problems: string[] = [];
    let named = 0;
    for (const [path, text] of texts) {
      for (const { words, marked } of commandsIn(text)) {
        // Bare "agentpay" in prose ("another agentpay is writing") names no command.
        if (!marked && !names.has(words[0] ?? '')) continue;
        named++;
        const problem = await problemOf(words);
        if (problem !== undefined) problems.push(`${path}: agentpay ${words.join(' ')}: ${problem}`);
      }
    }
    expect(problems).toEqual([]);
    expect(named).toBeGreaterThan(40);
  });

  it('catches a flag the named command lacks (as buy lacks --txn-id), and a required one left out', async () => {
    expect(await problemOf(split('buy --service 101 --txn-id 7'))).toMatch(/unknown option '--txn-id'/);
    expect(await problemOf(split('pay --invoice-id 7'))).toMatch(/--service/);
    expect(await problemOf(split('shift x'))).toBeUndefined();
  });
});

describe('the retry of a payment whose outcome is unknown', () => {
  async function parsedPay(words: string[]): Promise<Record<string, unknown>> {
    const result = await parsed(words);
    if ('problem' in result) throw new Error(result.problem);
    return result.opts;
  }

  it('parses back to the purchase, its TransactionID and the global options given, through the shell', async () => {
    const input = {
      service: '101',
      account: "O'Brien & sons $HOME",
      currency: 'KZT',
      transactionId: '1796000000000000001',
      amount: '2497.00',
      invoiceId: '5002',
    };
    const flags = { ledger: '/srv/desk books/ledger.sqlite', sandbox: true, color: false, lang: 'ru' };
    const { command, masked } = retryPayCommand(flags, input, ['--receipt', 'receipt 1.txt', '--over-limit']);
    expect(masked).toBe(false);
    expect(
      command.startsWith("agentpay --ledger '/srv/desk books/ledger.sqlite' --sandbox --no-color --lang ru pay "),
    ).toBe(true);
    const [agentpay, ...words] = split(command);
    expect(agentpay).toBe('agentpay');
    expect(await parsedPay(words)).toMatchObject({
      ...flags,
      service: '101',
      account: input.account,
      currency: 'KZT',
      invoiceId: '5002',
      amount: '2497.00',
      txnId: '1796000000000000001',
      receipt: 'receipt 1.txt',
      overLimit: true,
    });
  });

  it('a static purchase has no --invoice-id; a word needing no quotes has none', async () => {
    const input = { service: '201', account: '7011234567', currency: 'KZT', transactionId: '42', amount: '150.00' };
    expect(retryPayCommand({}, { ...input, invoiceId: undefined }).command).toBe(
      'agentpay pay --service 201 --account 7011234567 --currency KZT --amount 150.00 --txn-id 42',
    );
    expect(shellWord("it's")).toBe(`'it'\\''s'`);
  });
});
