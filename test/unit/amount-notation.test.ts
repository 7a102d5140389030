import { describe, expect, it } from 'vitest';
import { en } from '../../src/i18n/en.js';
import { ru } from '../../src/i18n/ru.js';
import { parseAmount } from '../../src/protocol/money.js';
import { InvalidFieldError } from '../../src/protocol/problems.js';
import { thrown } from '../helpers/thrown.js';

/** An amount as a person types it, in the comma notation of Russian (docs/commands.md "Amounts"). */
describe('parseAmount in the comma notation', () => {
  it.each([
    ['1500,50', '1500.50'],
    ['1500,5', '1500.5'],
    ['0,01', '0.01'],
    ['1234,567', '1234.567'],
    ['1 500,50', '1500.50'],
    ['1\u00a0500,50', '1500.50'],
    ['12 345 678,90', '12345678.90'],
    ['1 500', '1500'],
    ['1500.50', '1500.50'],
    ['1500', '1500'],
    ['99999999999999999999,99', '99999999999999999999.99'],
  ])('%j is the plain decimal %j, as text', (typed, sent) => {
    expect(parseAmount(typed, '--amount', 'comma')).toBe(sent);
  });

  it.each([
    ['1,500', 'ambiguousGrouping', 'could be a thousands comma or a decimal one: write 1500 or 1.500'],
    ['999,000', 'ambiguousGrouping', 'write 999000 or 999.000'],
    ['1.500,00', 'bothSeparators', 'has both a point and a comma'],
    ['1,500.00', 'bothSeparators', 'has both a point and a comma'],
    ['1 50,00', 'badGrouping', 'groups its digits unevenly'],
    ['15 00', 'badGrouping', 'groups its digits unevenly'],
    ['1,500,000', 'notPlainDecimal', 'not a plain decimal'],
    ['01500,50', 'leadingZero', 'leading zero'],
    ['-1500,50', 'negative', 'is negative'],
    [' 1500,50', 'spaces', 'spaces around it'],
    ['1500,', 'notPlainDecimal', 'not a plain decimal'],
    ['', 'empty', 'is empty'],
  ])('%j is refused (%s): %s', (typed, kind, message) => {
    const error = thrown(() => parseAmount(typed, '--amount', 'comma'));
    expect(error).toBeInstanceOf(InvalidFieldError);
    expect((error as InvalidFieldError).problem).toEqual({ kind, value: typed });
    expect((error as Error).message).toContain(message);
  });

  it('the point notation (English) keeps refusing a comma, and names 1,500 as possibly thousands', () => {
    expect((thrown(() => parseAmount('1,50')) as InvalidFieldError).problem?.kind).toBe('comma');
    expect((thrown(() => parseAmount('1 500,50')) as InvalidFieldError).problem?.kind).toBe('notPlainDecimal');
    expect((thrown(() => parseAmount('1,500')) as Error).message).toBe(
      '--amount "1,500" could be a thousands comma or a decimal one: write 1500 or 1.500',
    );
  });

  it('each language says which notation its people type, and Russian gives the reasons in Russian', () => {
    expect(en.amountNotation).toBe('point');
    expect(ru.amountNotation).toBe('comma');
    const said = (typed: string, field = '--amount') =>
      ru.options.field(thrown(() => parseAmount(typed, field, 'comma')) as InvalidFieldError);
    expect(said('1,500')).toBe(
      '--amount "1,500": запятая здесь может отделять и тысячи, и дробную часть; напишите 1500 или 1.500',
    );
    expect(said('1.500,00', 'the amount')).toBe(
      'сумма "1.500,00": в сумме и точка, и запятая; оставьте один десятичный разделитель, как в 1500,50',
    );
    expect(said('1 50,00')).toContain('цифры сгруппированы неровно');
  });
});
