import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli.js';
import { en } from '../../src/i18n/en.js';
import { languageOfLocale } from '../../src/i18n/language.js';
import { plural } from '../../src/i18n/plural.js';
import { ru } from '../../src/i18n/ru.js';
import { parseAmount } from '../../src/protocol/money.js';
import { InvalidFieldError } from '../../src/protocol/problems.js';
import { languageOfCommandLine } from '../../src/settings/language.js';

/** An empty home whose config file, if `profiles` is given, holds them. */
function homeWith(profiles?: Record<string, Record<string, unknown>>): Record<string, string> {
  const home = mkdtempSync(join(tmpdir(), 'agentpay-lang-'));
  const env = { HOME: home, XDG_CONFIG_HOME: join(home, 'config') };
  if (profiles !== undefined) {
    mkdirSync(join(env.XDG_CONFIG_HOME, 'agentpay'), { recursive: true });
    writeFileSync(join(env.XDG_CONFIG_HOME, 'agentpay', 'config.json'), JSON.stringify({ profiles }));
  }
  return env;
}

describe('the language: --lang > AGENTPAY_LANG > profile lang > LC_ALL/LC_MESSAGES/LANG > English', () => {
  it('reads the locale by its language part, the first variable set winning; English for anything else', () => {
    expect(languageOfLocale({ LANG: 'ru_RU.UTF-8' })).toBe('ru');
    expect(languageOfLocale({ LC_MESSAGES: 'ru_UA', LANG: 'en_US.UTF-8' })).toBe('ru');
    expect(languageOfLocale({ LC_ALL: 'C', LANG: 'ru_RU.UTF-8' })).toBe('en');
    expect(languageOfLocale({ LC_ALL: '', LANG: 'ru' })).toBe('ru');
    expect(languageOfLocale({ LANG: 'de_DE.UTF-8' })).toBe('en');
    expect(languageOfLocale({ LANG: 'POSIX' })).toBe('en');
    expect(languageOfLocale({})).toBe('en');
  });

  it('takes each level over the ones below it, and an explicit English over a Russian locale', () => {
    const ruProfile = homeWith({ default: { lang: 'ru' }, desk: { lang: 'en' } });
    expect(languageOfCommandLine([], { ...homeWith(), LANG: 'ru_RU.UTF-8' })).toBe('ru');
    expect(languageOfCommandLine([], homeWith())).toBe('en');
    expect(languageOfCommandLine([], ruProfile)).toBe('ru');
    expect(languageOfCommandLine(['--profile', 'desk'], { ...ruProfile, LANG: 'ru_RU.UTF-8' })).toBe('en');
    expect(languageOfCommandLine([], { ...ruProfile, AGENTPAY_PROFILE: 'desk' })).toBe('en');
    expect(languageOfCommandLine([], { ...ruProfile, AGENTPAY_LANG: 'en' })).toBe('en');
    expect(languageOfCommandLine(['--lang', 'ru'], { ...ruProfile, AGENTPAY_LANG: 'en' })).toBe('ru');
    expect(
      languageOfCommandLine(['--lang=en', 'check'], { ...homeWith(), AGENTPAY_LANG: 'ru', LANG: 'ru_RU.UTF-8' }),
    ).toBe('en');
  });

  it('speaks English under --json, and when a setting cannot be read (resolveSettings reports it)', () => {
    expect(languageOfCommandLine(['--lang', 'ru', '--json', 'check'], homeWith())).toBe('en');
    expect(languageOfCommandLine([], { ...homeWith(), AGENTPAY_LANG: 'de', LANG: 'ru_RU.UTF-8' })).toBe('en');
    expect(languageOfCommandLine(['--', '--lang', 'ru'], homeWith())).toBe('en');
  });
});

describe('Russian plurals and amounts', () => {
  it('counts vouchers as Russian does, through Intl.PluralRules', () => {
    const counted = [1, 2, 4, 5, 11, 12, 21, 22, 25, 101, 111].map((count) => ru.check.count(count, 's'));
    expect(counted).toEqual([
      '1 ваучер: s',
      '2 ваучера: s',
      '4 ваучера: s',
      '5 ваучеров: s',
      '11 ваучеров: s',
      '12 ваучеров: s',
      '21 ваучер: s',
      '22 ваучера: s',
      '25 ваучеров: s',
      '101 ваучер: s',
      '111 ваучеров: s',
    ]);
    expect(en.check.count(1, 's')).toBe('1 voucher for s');
    expect(en.check.count(2, 's')).toBe('2 vouchers for s');
    expect(plural('ru', 3, { one: 'раз', few: 'раза', many: 'раз', other: 'раза' })).toBe('3 раза');
  });

  it('shows an amount with a decimal comma and grouped thousands, every digit kept; English as sent', () => {
    expect(ru.amount('1500.00')).toBe('1500,00');
    expect(ru.amount('12345.670')).toBe('12\u00a0345,670');
    expect(ru.amount('9223372036854775807')).toBe('9\u00a0223\u00a0372\u00a0036\u00a0854\u00a0775\u00a0807');
    expect(ru.amount('0.5')).toBe('0,5');
    expect(ru.amount('not an amount')).toBe('not an amount');
    expect(en.amount('12345.670')).toBe('12345.670');
    expect(ru.localTime({ year: '2026', month: '03', day: '04', time: '18:05:06', offset: '+03:00' })).toBe(
      '04.03.2026 18:05:06 +03:00',
    );
  });

  it('agrees each noun with its verb and case, and words what set a limit', () => {
    expect(ru.receipt.heading('payment', 'success')).toBe('Платёж прошёл');
    expect(ru.receipt.heading('transaction', 'success')).toBe('Транзакция прошла');
    expect(ru.receipt.heading('transaction', 'failed')).toBe('Транзакция отклонена');
    expect(en.receipt.heading('transaction', 'failed')).toBe('Transaction failed');
    const payment = {
      id: '1795',
      amount: '10.00',
      currency: 'KZT',
      account: '77',
      service: '101',
      when: '1 мин назад',
      operator: undefined,
      state: 'success',
    };
    expect(ru.bulk.cell.duplicate(ru.desk.duplicate(payment, 'object'))).toMatch(
      /^повторяет транзакцию 1795, 10,00 KZT/,
    );
    expect(ru.desk.duplicate(payment)).toMatch(/^транзакция 1795/);
    expect(ru.desk.setBy({ profile: 'desk' })).toBe('профиль «desk»');
    expect(en.desk.setBy({ profile: 'desk' })).toBe('profile "desk"');
    expect(ru.number('470.15')).toBe('470,15');
  });

  it('puts a counted verb in the form its count wants, and writes counts as amounts are grouped', () => {
    const nbsp = '\u00a0';
    expect(ru.reconcile.leftOpen(2, '99', 'x')).toMatch(/^2 транзакции остались открытыми/);
    expect(ru.reconcile.leftOpen(1, '99', 'x')).toBe('1 транзакция осталась открытой на ResponseStatus 99: x');
    expect(ru.reconcile.leftOpen(5, '99', 'x')).toMatch(/^5 транзакций осталось открытыми/);
    expect(ru.batch.lookedUp(12345, 1)).toBe(`проверено: 12${nbsp}345, не id: 1 строка`);
    expect(ru.bulk.planSummary(1, 'x', 1)).toMatch(
      /^пробный запуск: был бы отправлен 1 платёж \(x\); уже завершено и пропущено: 1;/,
    );
    expect(ru.bulk.cell.tooLong(21)).toBe('длиннее 21 символа');
    expect(ru.scenario.seconds(1234)).toBe('1,23 с');
  });

  it('says a refused field in Russian from its problem, the value as typed', () => {
    let error: unknown;
    try {
      parseAmount('1500,00');
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(InvalidFieldError);
    expect(ru.options.field(error as InvalidFieldError)).toBe(
      '--amount "1500,00" с запятой: пишите через точку, как 1500.00',
    );
    expect(en.options.field(error as InvalidFieldError)).toBe(
      '--amount "1500,00" uses a comma: use a dot, as in 1500.00',
    );
  });
});

describe('the Russian help covers what the program defines', () => {
  // The help in each language is typed in each definition (options/definition.ts, settings/table.ts), so
  // a missing translation fails tsc; this checks that the languages build the same program.
  it('builds every command with the same options in each language, each said in that language', () => {
    const io = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: {} };
    const commandsOf = (program: Command): Command[] =>
      program.commands.flatMap((command) => [command, ...commandsOf(command)]);
    const everyCommand = (program: Command): Command[] => [program, ...commandsOf(program)];
    const english = everyCommand(buildProgram(io));
    const russian = everyCommand(buildProgram(io, { t: ru }));
    expect(russian.map((command) => command.name())).toEqual(english.map((command) => command.name()));
    for (const [index, command] of russian.entries()) {
      const flags = (of: Command) => of.options.map((option) => option.flags);
      expect({ name: command.name(), flags: flags(command) }).toEqual({
        name: command.name(),
        flags: flags(english[index]!),
      });
      const shown = command.options.filter((option) => !option.hidden);
      const notRussian = [command.description(), ...shown.map((option) => option.description)].filter(
        (text) => !/[а-яё]/i.test(text),
      );
      expect({ name: command.name(), notRussian }).toEqual({ name: command.name(), notRussian: [] });
    }
  });
});
