import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { addOptions } from '../../src/options/commander.js';
import { type OptionDefinitions, parseOptions } from '../../src/options/definition.js';
import { thrown } from '../helpers/thrown.js';

/** An option defined once (options/definition.ts): commander's option and the value's reading come from one definition. */
describe('option definitions', () => {
  const from = { flag: '--from <path>', help: { en: 'read from here', ru: 'читать отсюда' } };
  const options = {
    from,
    name: { flag: '--name <text>', help: { en: 'the name', ru: 'имя' }, required: { unless: [from] } },
    tag: { flag: '--tag <tag>', help: { en: 'a tag', ru: 'метка' }, repeatable: true },
    dryRun: { flag: '--dry-run', help: { en: 'send nothing', ru: 'ничего не отправлять' } },
    size: {
      flag: '--size <n>',
      help: { en: 'how many', ru: 'сколько' },
      parse: (raw: unknown) => (raw === undefined ? 4 : Number(raw)),
    },
  } as const satisfies OptionDefinitions;

  it('reads each value by its kind, or by its own parser with its default', () => {
    expect(parseOptions({}, options)).toEqual({ from: undefined, name: undefined, tag: [], dryRun: false, size: 4 });
    expect(parseOptions({ name: 'x', tag: ['a', 'b'], dryRun: true, size: '8' }, options)).toEqual({
      from: undefined,
      name: 'x',
      tag: ['a', 'b'],
      dryRun: true,
      size: 8,
    });
    expect(thrown(() => parseOptions({ dryRun: 'yes' }, options)).message).toMatch(/--dry-run/);
  });

  it('builds the help in the language asked for, with the required note in it', () => {
    const help = (language: 'en' | 'ru') =>
      addOptions(new Command('x'), language, options).options.map((option) => option.description);
    expect(help('en')).toEqual([
      'read from here',
      'the name (required without --from)',
      'a tag',
      'send nothing',
      'how many',
    ]);
    expect(help('ru')).toEqual([
      'читать отсюда',
      'имя (обязательно без --from)',
      'метка',
      'ничего не отправлять',
      'сколько',
    ]);
  });

  it('builds a global setting as it builds a command option: its sources in the help, commander checks required', () => {
    const setting = {
      flag: '--base-url <url>',
      env: ['AGENTPAY_BASE_URL'],
      defaultText: '`none`',
      help: { en: 'gateway base URL', ru: 'базовый URL шлюза' },
    };
    const program = (language: 'en' | 'ru') =>
      addOptions(new Command('x'), language, { baseUrl: setting, dryRun: { ...options.dryRun, required: true } });
    expect(program('en').options.map((option) => option.description)[0]).toBe(
      'gateway base URL (env AGENTPAY_BASE_URL; default "none")',
    );
    expect(program('ru').options.map((option) => option.description)[0]).toBe(
      'базовый URL шлюза (переменная AGENTPAY_BASE_URL; по умолчанию none)',
    );
    expect(program('en').options.map((option) => option.mandatory)).toEqual([false, true]);
  });

  it('refuses a definition named other than its attribute, which parseOptions would never find', () => {
    expect(() =>
      addOptions(new Command('x'), 'en', { txnid: { flag: '--txn-id <id>', help: { en: 'id', ru: 'id' } } }),
    ).toThrow(/--txn-id <id> is defined as txnid, not txnId/);
  });
});
