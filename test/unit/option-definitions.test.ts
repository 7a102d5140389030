import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { addOptions } from '../../src/commands/option.js';
import { type OptionDefinitions, parseOptions } from '../../src/options/definition.js';
import { thrown } from '../helpers/thrown.js';

/** An option defined once (options/definition.ts): commander's option and the value's reading come from one definition. */
describe('option definitions', () => {
  const from = { flags: '--from <path>', help: { en: 'read from here', ru: 'читать отсюда' } };
  const options = {
    from,
    name: { flags: '--name <text>', help: { en: 'the name', ru: 'имя' }, required: { unless: from } },
    tag: { flags: '--tag <tag>', help: { en: 'a tag', ru: 'метка' }, repeatable: true },
    dryRun: { flags: '--dry-run', help: { en: 'send nothing', ru: 'ничего не отправлять' } },
    size: {
      flags: '--size <n>',
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

  it('refuses a definition named other than its attribute, which parseOptions would never find', () => {
    expect(() =>
      addOptions(new Command('x'), 'en', { txnid: { flags: '--txn-id <id>', help: { en: 'id', ru: 'id' } } }),
    ).toThrow(/--txn-id <id> is defined as txnid, not txnId/);
  });
});
