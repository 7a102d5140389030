import { describe, expect, it } from 'vitest';
import { type GatewayAnswer, redactedAnswer } from '../../src/protocol/envelope.js';
import { md5Hex } from '../../src/protocol/password.js';
import { redactedVoucherList } from '../../src/protocol/vouchers.js';
import { redactSecrets } from '../../src/run-scope.js';
import { echoedSpellings } from '../helpers/echoing-gateway.js';

const password = 'Ech#o wörd&"/+%x9';
const redact = (text: string) => redactSecrets(text, [password]);

describe('a secret is blanked in every spelling', () => {
  // Each as written in an answer's JSON text, and as it reads once that JSON is parsed; the last
  // is a JSON echo of the form.
  const written = echoedSpellings(password);
  const parsed = written.map((spelling) => JSON.parse(`"${spelling}"`) as string);
  const formEcho = [written.at(-1)!, parsed.at(-1)!];

  it.each([...written, ...parsed].filter((spelling) => !formEcho.includes(spelling)))('%s', (spelling) => {
    expect(redact(`before ${spelling}. after`)).toBe('before ***. after');
  });

  it('in a JSON echo of the form, as written and as parsed', () => {
    expect(formEcho.map(redact)).toEqual(['{\\"AgentPassword\\":\\"***\\"}', '{"AgentPassword":"***"}']);
  });

  it('escaped twice and three times (a JSON document in a JSON string, and one more), mixed case MD5 too', () => {
    const escaped = (text: string) => JSON.stringify(text).slice(1, -1);
    const twice = escaped(escaped(password));
    const thrice = escaped(twice);
    const nestedEscapes = escaped(written[7]!);
    const mixedCase = md5Hex(password).replace(/[a-f]/, (digit) => digit.toUpperCase());
    for (const spelling of [twice, thrice, nestedEscapes, mixedCase])
      expect(redact(`{"m":"${spelling}"}`), spelling).toBe('{"m":"***"}');
  });

  it('a password beyond U+FFFF: as typed, as a surrogate pair, and percent-encoded', () => {
    const emoji = 'key-\u{1f511}-9';
    for (const spelling of [emoji, 'key-\\ud83d\\uDD11-9', encodeURIComponent(emoji)])
      expect(redactSecrets(`[${spelling}]`, [emoji]), spelling).toBe('[***]');
  });

  it('a password of 32 hex digits: itself in either case, and its own MD5 (what --password-format md5 sends)', () => {
    const hexPassword = '0123456789abcdef0123456789ABCDEF';
    const echoed = `echo ${hexPassword.toLowerCase()} / ${md5Hex(hexPassword)} / ${md5Hex(hexPassword).toUpperCase()}`;
    expect(redactSecrets(echoed, [hexPassword])).toBe('echo *** / *** / ***');
  });

  it('of 8 characters or more, wherever it stands, even inside a word', () => {
    expect(redactSecrets('xx-correct-horse-7xx', ['correct-horse-7'])).toBe('xx-***xx');
  });

  it('shorter, not inside a longer word or number, nor in the amounts and ids that hold it', () => {
    const line = '{"transactionId":"912345","amount":"12345.00","rate":"3.12345","message":"a12345 12345b"}';
    expect(redactSecrets(line, ['12345'])).toBe(line);
    expect(redactSecrets('pw 12345, "12345" and 12345.', ['12345'])).toBe('pw ***, "***" and ***.');
  });

  it('shorter, after an escape or an encoded character: that starts a token', () => {
    expect(redactSecrets('line\\nsec-42 and x=%20sec-42', ['sec-42'])).toBe('line\\n*** and x=%20***');
  });

  it('a secret shorter than 4 characters is left as typed (too common a word), its MD5 blanked', () => {
    expect(redactSecrets(`pw is pw, ${md5Hex('pw')}`, ['pw'])).toBe('pw is pw, ***');
  });
});

describe('what the gateway client keeps of an answer', () => {
  const answer: GatewayAnswer = {
    transactionId: '9007199254740993',
    requestId: '42',
    type: 'Payment',
    status: '10',
    message: `wrong password ${password}`,
    service: '101',
    account: `player ${password}`,
    amount: '100.00',
    currency: 'KZT',
    exchangeRate: password,
    serviceCurrency: undefined,
    extras: null,
    raw: {},
  };

  it('has its texts blanked, and its numbers byte for byte', () => {
    expect(redactedAnswer(answer, redact)).toEqual({
      ...answer,
      message: 'wrong password ***',
      account: 'player ***',
      exchangeRate: '***',
    });
    const numbers = { ...answer, requestId: '12345', amount: '12345.00', message: 'ok' };
    expect(
      redactedAnswer(numbers, (text) => redactSecrets(text, ['12345'])),
      'the same answer, not a copy',
    ).toBe(numbers);
  });

  it('has each voucher name blanked; InvoiceId and OrderAmount untouched, a clean voucher the same object', () => {
    const clean = { position: 1, fieldName: 'Invoice-1', invoiceId: '5001', orderAmount: '100.00', name: 'Coins' };
    const echoed = { ...clean, position: 2, fieldName: 'Invoice-2', name: `Coins ${password}` };
    const list = redactedVoucherList([clean, echoed], redact);
    expect(list?.[0]).toBe(clean);
    expect(list?.[1]).toEqual({ ...echoed, name: 'Coins ***' });
    expect(redactedVoucherList(null, redact)).toBeNull();
  });
});
