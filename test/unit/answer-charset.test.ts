import { describe, expect, it } from 'vitest';
import { charsetOf, decodeAnswer } from '../../src/gateway/answer-charset.js';
import { paymentAcceptedKoi8r, utf16be, windows1251 } from '../helpers/legacy-charsets.js';

const message = 'Ошибка: счёт не найден';
const utf8 = (text: string) => Buffer.from(text, 'utf8');
const utf16le = (text: string) => Buffer.from(text, 'utf16le');
const bom = { utf8: [0xef, 0xbb, 0xbf], utf16le: [0xff, 0xfe], utf16be: [0xfe, 0xff] };
const withBom = (mark: number[], body: Buffer) => Buffer.concat([Buffer.from(mark), body]);

describe('charsetOf: the charset parameter of a Content-Type', () => {
  it.each([
    ['application/json; charset=windows-1251', 'windows-1251'],
    ['application/json;charset=KOI8-R', 'KOI8-R'],
    ['text/html; Charset = "utf-16" ', 'utf-16'],
    ['application/json; q=1; charset=cp1251; x=y', 'cp1251'],
    ['application/json; charset="a\\"b"', 'a"b'],
  ])('%s -> %s', (header, charset) => {
    expect(charsetOf(header)).toBe(charset);
  });

  it.each([undefined, 'application/json', 'application/json; charset=', 'application/json; xcharset=koi8-r'])(
    '%s has none',
    (header) => {
      expect(charsetOf(header)).toBeUndefined();
    },
  );
});

describe('decodeAnswer: the declared charset, else UTF-8; a byte order mark first', () => {
  it.each([
    ['windows-1251', windows1251(message)],
    ['cp1251', windows1251(message)],
    ['Windows-1251', windows1251(message)],
    ['utf-8', utf8(message)],
    ['utf-16', utf16le(message)],
    ['utf-16le', utf16le(message)],
    ['utf-16be', utf16be(message)],
  ])('charset=%s', (charset, bytes) => {
    expect(decodeAnswer(bytes, `application/json; charset=${charset}`)).toBe(message);
  });

  it('koi8-r', () => {
    expect(decodeAnswer(paymentAcceptedKoi8r.bytes, 'application/json; charset=koi8-r')).toBe(
      paymentAcceptedKoi8r.text,
    );
  });

  it('the bytes themselves: Ошибка in windows-1251 is CE F8 E8 E1 EA E0', () => {
    expect(
      decodeAnswer(Buffer.from([0xce, 0xf8, 0xe8, 0xe1, 0xea, 0xe0]), 'application/json; charset=windows-1251'),
    ).toBe('Ошибка');
  });

  it.each([
    ['no Content-Type', undefined],
    ['a Content-Type without charset', 'application/json'],
    ['an unknown label', 'application/json; charset=x-no-such-charset'],
    ['a label TextDecoder refuses (a "replacement" encoding)', 'application/json; charset=iso-2022-kr'],
  ])('%s is UTF-8', (_name, header) => {
    expect(decodeAnswer(utf8(message), header)).toBe(message);
  });

  it('a UTF-8 byte order mark is dropped, and wins over the declared charset', () => {
    expect(decodeAnswer(withBom(bom.utf8, utf8('{"a":1}')), undefined)).toBe('{"a":1}');
    expect(decodeAnswer(withBom(bom.utf8, utf8(message)), 'application/json; charset=windows-1251')).toBe(message);
  });

  it('a UTF-16 byte order mark names the byte order, whatever the header says', () => {
    expect(decodeAnswer(withBom(bom.utf16le, utf16le(message)), 'application/json; charset=windows-1251')).toBe(
      message,
    );
    expect(decodeAnswer(withBom(bom.utf16be, utf16be(message)), 'application/json')).toBe(message);
    expect(decodeAnswer(withBom(bom.utf16be, utf16be(message)), 'application/json; charset=utf-16le')).toBe(message);
  });

  it('windows-1251 bytes read as UTF-8 are not the message (the charset matters)', () => {
    expect(decodeAnswer(windows1251(message), 'application/json')).not.toBe(message);
  });
});
