import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { type CsvColumn, csvRow } from '../../src/render/csv.js';
import { shownMessage, shownText, terminalSafeJson } from '../../src/render/sanitize.js';

/** Any character a terminal acts on instead of drawing, or draws as nothing: what no shown text may hold. */
const raw = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

describe('shownText: outside text as a person is shown it', () => {
  it.each([
    ['a window title (OSC, ended by BEL)', 'pay\u001b]0;PWNED\u0007 me', 'pay\\x1b]0;PWNED\\x07 me'],
    ['an OSC ended by ST', '\u001b]2;x\u001b\\', '\\x1b]2;x\\x1b\\'],
    ['a cleared screen', '\u001b[2J\u001b[H', '\\x1b[2J\\x1b[H'],
    ['a colour', '\u001b[31mred\u001b[0m', '\\x1b[31mred\\x1b[0m'],
    ['hidden text', '\u001b[8msecret', '\\x1b[8msecret'],
    ['a bell, NUL and backspace', 'a\u0007b\u0000c\u0008', 'a\\x07b\\x00c\\x08'],
    ['line breaks and a tab', 'one\ntwo\r\tthree', 'one\\ntwo\\r\\tthree'],
    ['DEL', 'x\u007f', 'x\\x7f'],
    ['C1 controls (CSI, OSC, NEL)', '\u009b2J\u009d0;t\u0085', '\\x9b2J\\x9d0;t\\x85'],
    ['a right-to-left override', 'pay \u202e01 ,0001', 'pay \\u202e01 ,0001'],
    ['bidi embeddings and pop', '\u202a\u202b\u202c\u202d', '\\u202a\\u202b\\u202c\\u202d'],
    ['bidi isolates', '\u2066\u2067\u2068\u2069', '\\u2066\\u2067\\u2068\\u2069'],
    ['LRM, RLM and the Arabic letter mark', '\u200e\u200f\u061c', '\\u200e\\u200f\\u061c'],
    ['a zero-width space in an account', '70\u200b12', '70\\u200b12'],
    ['zero-width non-joiner, joiner and word joiner', '\u200c\u200d\u2060', '\\u200c\\u200d\\u2060'],
    ['a byte order mark and a soft hyphen', '\ufeff7012\u00ad', '\\ufeff7012\\xad'],
    ['the line and paragraph separators', 'one\u2028two\u2029', 'one\\u2028two\\u2029'],
    ['a tag character (beyond U+FFFF)', 'ok\u{e0041}', 'ok\\u{e0041}'],
  ])('shows %s as escapes', (_, text, shown) => {
    expect(shownText(text)).toBe(shown);
    expect(shownText(text)).not.toMatch(raw);
  });

  it('returns clean text itself, Cyrillic, emoji, CJK and backslashes included', () => {
    for (const text of ['', 'Оплата принята', '100 GameCoins 🐉', '充值 5000', 'C:\\path\\x1b', 'Ünïcödé — «ok»']) {
      expect(shownText(text)).toBe(text);
    }
  });

  it('keeps the letters around an escape, Cyrillic included', () => {
    expect(shownText('Платёж\u001b[2Jпринят')).toBe('Платёж\\x1b[2Jпринят');
  });

  it('is idempotent: text shown once reads the same when shown again', () => {
    const hostile = 'a\u001b]0;t\u0007\u202e\u009b\n\\x1b';
    expect(shownText(shownText(hostile))).toBe(shownText(hostile));
    expect(shownMessage(shownText(hostile), false)).toBe(shownText(hostile));
  });
});

describe('shownMessage: a whole message at the output edge', () => {
  it('keeps line breaks and, on a colour stream, SGR colour; shows everything else', () => {
    const message = '\u001b[32m✓\u001b[39m paid\nnext \u001b]0;t\u0007 \u001b[2J \u202e \u009b';
    expect(shownMessage(message, true)).toBe('\u001b[32m✓\u001b[39m paid\nnext \\x1b]0;t\\x07 \\x1b[2J \\u202e \\x9b');
  });

  it('without colour shows SGR too (the Style wrote none)', () => {
    expect(shownMessage('\u001b[31mred\u001b[0m\nok', false)).toBe('\\x1b[31mred\\x1b[0m\nok');
  });

  it('shows a zero-width space and a tag even on a colour stream', () => {
    expect(shownMessage('\u001b[32m✓\u001b[39m 70\u200b12 \u{e0041}\u2028', true)).toBe(
      '\u001b[32m✓\u001b[39m 70\\u200b12 \\u{e0041}\\u2028',
    );
  });

  it('returns a clean message itself', () => {
    const message = 'results: orders.results.csv\nрезультаты';
    expect(shownMessage(message, false)).toBe(message);
  });
});

describe('data output keeps the exact text (--json is checked end to end: test/e2e/shown-text.test.ts)', () => {
  const hostile = 'Coins \u001b]0;PWNED\u0007\u001b[2J\u001b[31m\u202e\u009b2J\u0000';

  it('a CSV cell holds every control as it came, and reads back the same (RFC 4180 quoting untouched)', () => {
    const columns: CsvColumn<string>[] = [{ header: 'Voucher', kind: 'text', value: (cell) => cell }];
    for (const cell of [hostile, `${hostile}, "quoted"\r\nline`])
      expect(parse(csvRow(columns, cell))).toEqual([[cell]]);
  });
});

describe('terminalSafeJson', () => {
  it('writes DEL, C1 and bidi controls as \\u escapes: the same JSON, parsed to the same exact text', () => {
    const value = { message: 'abc\u007f\u009b31m\u202eRLO\u2066\u061c Ёжик', ok: true };
    const line = terminalSafeJson(JSON.stringify(value));
    expect(line).not.toMatch(/[\u007f-\u009f\u061c\u202a-\u202e\u2066-\u2069]/);
    expect(line).toContain('\\u202e');
    expect(JSON.parse(line)).toEqual(value);
  });

  it('writes zero-width characters, line separators and tags as \\u escapes, parsed back the same', () => {
    const value = { account: '70\u200b12\u2028\ufeff\u{e0041}' };
    const line = terminalSafeJson(JSON.stringify(value));
    expect(line).toBe('{"account":"70\\u200b12\\u2028\\ufeff\\udb40\\udc41"}');
    expect(JSON.parse(line)).toEqual(value);
  });

  it('returns a clean line as it is', () => {
    const line = JSON.stringify({ message: 'Успех', amount: '2497.00' });
    expect(terminalSafeJson(line)).toBe(line);
  });
});
