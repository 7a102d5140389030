import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isDecimalNumber, parseAmount, parseCurrency, sameDecimal } from '../../src/protocol/money.js';
import { md5Hex, passwordOnWire } from '../../src/protocol/password.js';
import { InvalidFieldError } from '../../src/protocol/problems.js';
import { formatRequestDate } from '../../src/protocol/request-date.js';
import {
  generateTransactionId,
  isLongId,
  namesNoTransaction,
  parseTransactionId,
} from '../../src/protocol/transaction-id.js';
import { thrown } from '../helpers/thrown.js';

describe('parseAmount', () => {
  it.each(['0', '10', '10.630', '2497.00', '0.5', '9990.00'])('accepts %j and returns it unchanged', (text) => {
    expect(parseAmount(text)).toBe(text);
  });

  it.each([
    ['1e3', /not a plain decimal/],
    ['-5', /negative/],
    ['abc', /not a plain decimal/],
    ['10,00', /use a dot, as in 10\.00/],
    ['', /empty/],
    ['   ', /empty/],
    ['0x10', /not a plain decimal/],
    ['Infinity', /not a plain decimal/],
    ['NaN', /not a plain decimal/],
    ['1.2.3', /not a plain decimal/],
    [' 1', /spaces/],
    ['1 ', /spaces/],
    ['01', /leading zero/],
    ['.5', /not a plain decimal/],
    ['5.', /not a plain decimal/],
    ['+5', /not a plain decimal/],
  ])('refuses %j with a message that says why', (text, why) => {
    const error = thrown(() => parseAmount(text));
    expect(error).toBeInstanceOf(InvalidFieldError);
    expect(error.message).toMatch(/^--amount /);
    expect(error.message).toMatch(why);
  });

  it('names the field it was given', () => {
    expect(thrown(() => parseAmount('x', 'OrderAmount')).message).toMatch(/^OrderAmount /);
  });
});

describe('sameDecimal: the same number, compared as text (spec 2.3: a reported Amount is a number)', () => {
  it.each([
    ['1500', '1500.00'],
    ['1500.00', '1500'],
    ['10.63', '10.630'],
    ['0', '0.00'],
    ['0', '-0.0'],
    ['01500', '1500'],
    ['+5', '5.0'],
    ['-2.50', '-2.5'],
    ['1.5e3', '1500.00'],
    ['1500', '15E2'],
    ['0.0015', '1.5e-3'],
    ['.5', '0.50'],
    ['123456789012345678901234567890.10', '123456789012345678901234567890.1'],
    ['9007199254740993', '9007199254740993.0'],
    ['1e400', '1E+400'],
  ])('%j is %j', (a, b) => {
    expect(sameDecimal(a, b)).toBe(true);
  });

  it.each([
    ['24970', '2497.00'],
    ['2497.01', '2497.00'],
    ['-5', '5'],
    ['1500', '150'],
    ['10.63', '10.603'],
    // A double would call these equal.
    ['9007199254740993', '9007199254740992'],
    ['0.1', '0.10000000000000001'],
    ['1e400', '1e401'],
    ['1500', ''],
    ['1500', 'abc'],
    ['1,500', '1500'],
    [' 1500', '1500'],
    ['0x10', '16'],
    ['Infinity', 'Infinity'],
    ['.', '.'],
  ])('%j is not %j', (a, b) => {
    expect(sameDecimal(a, b)).toBe(false);
  });

  it('isDecimalNumber takes what sameDecimal can compare', () => {
    expect(['1500', '-0.5', '1.5e3', '.5', '5.'].map(isDecimalNumber)).toEqual([true, true, true, true, true]);
    expect(['', '.', 'e3', '1e', '1..2', 'NaN', '1 500'].map(isDecimalNumber)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});

describe('parseCurrency', () => {
  it('accepts three letters, upper-cased', () => {
    expect(parseCurrency('kzt')).toBe('KZT');
    expect(parseCurrency('USD')).toBe('USD');
  });
  it.each(['KZ', 'KZTT', '398', ''])('refuses %j', (text) => {
    expect(thrown(() => parseCurrency(text))).toBeInstanceOf(InvalidFieldError);
  });
});

describe('transaction ids (a signed 64-bit Long)', () => {
  it.each(['0', '1', '42', '9223372036854775807', '1795289214527958198'])('%j is a Long id', (text) => {
    expect(isLongId(text)).toBe(true);
    expect(parseTransactionId(text)).toBe(text);
  });

  it.each([
    ['9223372036854775808', /too large/],
    ['99999999999999999999', /too large/],
    ['-1', /is not valid: a TransactionID is digits only/],
    ['1.5', /is not valid: a TransactionID is digits only/],
    ['abc', /is not valid: a TransactionID is digits only/],
    ['', /is not valid: a TransactionID is digits only/],
    ['007', /is not valid: a TransactionID is digits only/],
    [' 1', /is not valid: a TransactionID is digits only/],
    ['1e5', /is not valid: a TransactionID is digits only/],
  ])('%j is refused', (text, why) => {
    expect(isLongId(text)).toBe(false);
    const error = thrown(() => parseTransactionId(text, '--txn-id'));
    expect(error).toBeInstanceOf(InvalidFieldError);
    expect(error.message).toMatch(/^--txn-id /);
    expect(error.message).toMatch(why);
  });

  it('generates decimal ids that fit a Long', () => {
    for (let i = 0; i < 100; i++) {
      const id = generateTransactionId();
      expect(id).toMatch(/^[1-9]\d*$/);
      expect(isLongId(id)).toBe(true);
      expect(BigInt(id)).toBeLessThanOrEqual(9223372036854775807n);
    }
  });

  it('generated ids strictly increase, even within one millisecond or when the clock steps back', () => {
    let previous = BigInt(generateTransactionId());
    const frozen = Date.now();
    for (let i = 0; i < 5000; i++) {
      // Half the calls see a frozen clock, some a clock that went back a second.
      const now = i % 3 === 0 ? undefined : i % 3 === 1 ? frozen : frozen - 1000;
      const next = BigInt(generateTransactionId(now));
      expect(next > previous).toBe(true);
      previous = next;
    }
  });

  it('a big batch holds no duplicate', () => {
    const ids = Array.from({ length: 50_000 }, () => generateTransactionId());
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('stays a Long until the year 2262', () => {
    const id = generateTransactionId(Date.UTC(2262, 0, 1));
    expect(isLongId(id)).toBe(true);
  });
});

describe('an echoed TransactinID that names no transaction (error envelopes, spec 2.2)', () => {
  it.each(['0', '00', '-0', '0.0', '', ' '])('%j names none', (echo) => {
    expect(namesNoTransaction(echo)).toBe(true);
  });

  it.each(['1', '10', '4242', '0.5', '1795289214527958198', 'abc', '.'])('%j names one', (echo) => {
    expect(namesNoTransaction(echo)).toBe(false);
  });
});

describe('RequestDate', () => {
  it('local is YYYY-MM-DD HH:mm:ss in local time, zero-padded', () => {
    expect(formatRequestDate(new Date(2025, 0, 2, 3, 4, 5, 678), 'local')).toBe('2025-01-02 03:04:05');
    expect(formatRequestDate(new Date(2025, 11, 31, 23, 59, 59), 'local')).toBe('2025-12-31 23:59:59');
    expect(formatRequestDate(new Date(), 'local')).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it('local is written again for each new second, forward or back, and kept within one', () => {
    const seconds = [
      [new Date(2025, 5, 1, 12, 0, 0, 1), '2025-06-01 12:00:00'],
      [new Date(2025, 5, 1, 12, 0, 0, 999), '2025-06-01 12:00:00'],
      [new Date(2025, 5, 1, 12, 0, 1, 0), '2025-06-01 12:00:01'],
      [new Date(2025, 5, 1, 11, 59, 59, 500), '2025-06-01 11:59:59'],
      [new Date(1969, 11, 31, 23, 59, 59, 900), '1969-12-31 23:59:59'],
      [new Date(2025, 5, 1, 12, 0, 1, 0), '2025-06-01 12:00:01'],
    ] as const;
    for (const [date, text] of seconds) expect(formatRequestDate(date, 'local')).toBe(text);
  });

  it('iso is UTC ISO 8601', () => {
    expect(formatRequestDate(new Date(Date.UTC(2025, 0, 2, 3, 4, 5)), 'iso')).toBe('2025-01-02T03:04:05.000Z');
  });
});

describe('password formats (spec 5)', () => {
  it('md5 is the lower-case hex MD5 of the UTF-8 password', () => {
    expect(md5Hex('sandbox-demo-password')).toBe('f86b4a1de5997aa1ca228f3c9a4dbcdc');
    expect(md5Hex('пароль')).toBe(createHash('md5').update(Buffer.from('пароль', 'utf8')).digest('hex'));
    expect(md5Hex('пароль')).toBe('e242f36f4f95f12966da8fa2efd59992');
  });

  it('plain sends the password as is, md5 its digest', () => {
    expect(passwordOnWire('sandbox-demo-password', 'plain')).toBe('sandbox-demo-password');
    expect(passwordOnWire('sandbox-demo-password', 'md5')).toBe('f86b4a1de5997aa1ca228f3c9a4dbcdc');
  });
});
