import { describe, expect, it } from 'vitest';
import {
  buildAccountCheckForm,
  buildPaymentForm,
  buildStatusForm,
  encodeForm,
  type FormField,
  formToObject,
  maskForm,
} from '../../src/protocol/form.js';

const credentials = { agentId: '1001', wirePassword: 's3cret' };
const purchase = {
  service: '101',
  account: '7011234567',
  amount: '2497.00',
  currency: 'KZT',
  transactionId: '1795289214527958198',
  requestDate: '2025-01-02 03:04:05',
};

const names = (fields: readonly FormField[]) => fields.map(([name]) => name);

describe('request forms (spec 4)', () => {
  it('AccountCheck carries the fields of spec 4.1 in its order', () => {
    const form = buildAccountCheckForm(credentials, purchase);
    expect(names(form)).toEqual([
      'AgentID',
      'AgentPassword',
      'RequestType',
      'Service',
      'Amount',
      'Currency',
      'RequestDate',
      'TransactionID',
      'Account',
    ]);
    expect(formToObject(form)).toEqual({
      AgentID: '1001',
      AgentPassword: 's3cret',
      RequestType: 'AccountCheck',
      Service: '101',
      Amount: '2497.00',
      Currency: 'KZT',
      RequestDate: '2025-01-02 03:04:05',
      TransactionID: '1795289214527958198',
      Account: '7011234567',
    });
  });

  it('a dynamic Payment (spec 4.2) is RequestType Payment with Extra[0] = InvoiceId last', () => {
    const form = buildPaymentForm(credentials, { ...purchase, invoiceId: '5002' });
    expect(names(form)).toEqual([
      'AgentID',
      'AgentPassword',
      'RequestType',
      'Service',
      'Amount',
      'Currency',
      'RequestDate',
      'TransactionID',
      'Account',
      'Extra[0].Name',
      'Extra[0].Value',
    ]);
    const fields = formToObject(form);
    expect(fields.RequestType).toBe('Payment');
    expect(fields['Extra[0].Name']).toBe('InvoiceId');
    expect(fields['Extra[0].Value']).toBe('5002');
    expect(fields.Amount).toBe('2497.00');
  });

  it('a static Payment (spec 4.3) has no Extra fields at all', () => {
    for (const request of [purchase, { ...purchase, invoiceId: undefined }]) {
      const form = buildPaymentForm(credentials, request);
      expect(names(form)).toEqual([
        'AgentID',
        'AgentPassword',
        'RequestType',
        'Service',
        'Amount',
        'Currency',
        'RequestDate',
        'TransactionID',
        'Account',
      ]);
      expect(names(form).some((name) => name.startsWith('Extra'))).toBe(false);
      expect(formToObject(form).RequestType).toBe('Payment');
    }
  });

  it('Status (spec 4.4) sends no Service, Amount, Currency or Account', () => {
    const form = buildStatusForm(credentials, { transactionId: '42', requestDate: '2025-01-02 03:04:05' });
    expect(form).toEqual([
      ['AgentID', '1001'],
      ['AgentPassword', 's3cret'],
      ['RequestType', 'Status'],
      ['TransactionID', '42'],
      ['RequestDate', '2025-01-02 03:04:05'],
    ]);
  });
});

describe('encodeForm', () => {
  it('writes exactly what URLSearchParams writes', () => {
    let state = 5;
    const next = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const pieces = [
      'a',
      'Z',
      '0',
      ' ',
      '*',
      '-',
      '.',
      '_',
      '!',
      "'",
      '(',
      ')',
      '~',
      '&',
      '=',
      '+',
      '%',
      '/',
      ':',
      '?',
      '#',
      '[',
      ']',
      '"',
      '\\',
      '\n',
      '\u0000',
      'é',
      'Успех',
      '🙂',
      '\ud800',
      '\udc00',
      '2026-11-21 20:00:00',
      '10.630',
    ];
    for (let round = 0; round < 5000; round++) {
      const text = () =>
        Array.from({ length: Math.floor(next() * 6) }, () => pieces[Math.floor(next() * pieces.length)]).join('');
      const fields: FormField[] = Array.from({ length: 1 + Math.floor(next() * 4) }, () => [text(), text()]);
      expect(encodeForm(fields), JSON.stringify(fields)).toBe(
        new URLSearchParams(fields.map(([n, v]): [string, string] => [n, v])).toString(),
      );
    }
  });

  const hostile = [
    'a&b=c',
    '1+1 = 2',
    'x&AgentID=666',
    'Иван Петров',
    'пароль&RequestType=Status',
    '🎮 coins 💰',
    '%41%26',
    '  leading and trailing  ',
    'new\nline',
    '',
  ];

  it.each(hostile)('a value like %j comes back whole and splits into no other field', (value) => {
    const fields: FormField[] = [
      ['AgentID', '1001'],
      ['AgentPassword', value],
      ['Account', value],
      ['RequestType', 'Payment'],
    ];
    const body = encodeForm(fields);
    const decoded = new URLSearchParams(body);
    expect([...decoded.keys()]).toEqual(['AgentID', 'AgentPassword', 'Account', 'RequestType']);
    expect(decoded.get('AgentPassword')).toBe(value);
    expect(decoded.get('Account')).toBe(value);
    expect(decoded.getAll('AgentID')).toEqual(['1001']);
    expect(decoded.getAll('RequestType')).toEqual(['Payment']);
  });

  it('escapes the separators and non-ASCII on the wire', () => {
    const body = encodeForm([['Account', 'a&b=c+d e Ж']]);
    expect(body).toBe('Account=a%26b%3Dc%2Bd+e+%D0%96');
    expect(body).not.toMatch(/[^\x21-\x7e]/);
  });

  it('keeps bracketed names decodable and the field order as given', () => {
    const form = buildPaymentForm(credentials, { ...purchase, invoiceId: '5002' });
    const decoded = [...new URLSearchParams(encodeForm(form)).entries()];
    expect(decoded).toEqual(form.map(([name, value]) => [name, value]));
  });
});

describe('maskForm', () => {
  it('replaces AgentPassword with *** and nothing else, without touching the input', () => {
    const form = buildPaymentForm(credentials, { ...purchase, invoiceId: '5002' });
    const masked = maskForm(form);
    expect(formToObject(masked).AgentPassword).toBe('***');
    expect(JSON.stringify(masked)).not.toContain('s3cret');
    expect(masked.filter(([name]) => name !== 'AgentPassword')).toEqual(
      form.filter(([name]) => name !== 'AgentPassword'),
    );
    expect(formToObject(form).AgentPassword).toBe('s3cret');
  });
});
