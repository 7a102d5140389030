import { describe, expect, it } from 'vitest';
import {
  type Cassette,
  type CassetteError,
  cassetteFileName,
  cassetteOf,
  parseCassette,
} from '../../src/protocol/cassette.js';
import { redactSecrets } from '../../src/run-scope.js';
import { Replay } from '../../src/sandbox/replay.js';
import { utf16be, windows1251 } from '../helpers/legacy-charsets.js';

const password = 'hunter2-secret';
const redact = (text: string) => redactSecrets(text, [password]);

/** A cassette as --record writes it: the request's fields, and a body in the given bytes. */
function recorded(fields: Record<string, string>, bytes: Buffer, contentType = 'application/json'): Cassette {
  return cassetteOf(
    { form: Object.entries(fields), status: 200, contentType, bytes, text: bytes.toString('latin1') },
    redact,
  );
}

const form = (fields: Record<string, string>) => new URLSearchParams(fields);

describe('cassetteOf', () => {
  it('leaves AgentPassword out and keeps the bytes as they came, in base64', () => {
    const bytes = windows1251('{"Message":"Успех"}');
    const cassette = cassetteOf(
      {
        form: [
          ['AgentID', '1'],
          ['AgentPassword', password],
          ['RequestType', 'Status'],
        ],
        status: 200,
        contentType: 'application/json; charset=windows-1251',
        bytes,
        text: '{"Message":"Успех"}',
      },
      redact,
    );
    expect(cassette.request).toEqual({ AgentID: '1', RequestType: 'Status' });
    expect(Buffer.from(cassette.answer.body, 'base64')).toEqual(bytes);
    expect(cassette.answer.headers).toEqual({ 'content-type': 'application/json; charset=windows-1251' });
    expect(cassette.answer.redacted).toBeUndefined();
  });

  it('an answer that repeats the password is kept with *** in its place, as UTF-8', () => {
    const text = `{"Message":"bad password ${password}"}`;
    const cassette = cassetteOf(
      { form: [], status: 200, contentType: 'text/plain', bytes: Buffer.from(text), text },
      redact,
    );
    expect(cassette.answer.redacted).toBe(true);
    expect(Buffer.from(cassette.answer.body, 'base64').toString('utf8')).toBe('{"Message":"bad password ***"}');
    expect(cassette.answer.headers).toEqual({ 'content-type': 'application/json; charset=utf-8' });
    expect(JSON.stringify(cassette)).not.toContain(password);
  });
});

describe('cassetteOf, an echo in JSON that escapes all but ASCII', () => {
  it.each([
    ['\\u00e4 and \\/ (PHP json_encode)', 'P\\u00e4\\/ss'],
    ['\\u00E4', 'P\\u00E4/ss'],
    ['\\u00e4 (Python json.dumps)', 'P\\u00e4/ss'],
  ])('keeps no password spelled with %s', (_, echoed) => {
    const secret = 'Pä/ss';
    const text = `{"Message":"wrong password ${echoed}"}`;
    const cassette = cassetteOf(
      { form: [], status: 200, contentType: 'application/json', bytes: Buffer.from(text), text },
      (said) => redactSecrets(said, [secret]),
    );
    expect(cassette.answer.redacted).toBe(true);
    expect(Buffer.from(cassette.answer.body, 'base64').toString('utf8')).toBe('{"Message":"wrong password ***"}');
  });
});

describe('cassetteFileName', () => {
  it('numbers, then the RequestType and the Service, each safe in a file name', () => {
    expect(cassetteFileName(7, { RequestType: 'Payment', Service: '101' })).toBe('0007-Payment-101.json');
    expect(cassetteFileName(12, { RequestType: 'Status' })).toBe('0012-Status.json');
    expect(cassetteFileName(1, { RequestType: 'AccountCheck', Service: '../x y' })).toBe(
      '0001-AccountCheck-___x_y.json',
    );
  });
});

describe('parseCassette', () => {
  it.each([
    ['[]', 'f.json: expected an object'],
    ['{"format":"other"}', 'f.json: format: expected "agentpay-cassette/1"'],
    [
      '{"format":"agentpay-cassette/1","request":{"RequestType":"Status"},"answer":{"status":200,"headers":{},"body":"%%"}}',
      'f.json: answer.body: expected base64',
    ],
    [
      '{"format":"agentpay-cassette/1","request":{"RequestType":1},"answer":{}}',
      'f.json: request: expected an object of text fields',
    ],
    [
      // A header no HTTP answer can carry: served, it became the replay's HTTP 500.
      '{"format":"agentpay-cassette/1","request":{"RequestType":"Status"},"answer":{"status":200,"headers":{"content-type":"text/plain\\r\\nX-Evil: 1"},"body":""}}',
      'f.json: answer.headers.content-type: expected text an HTTP header can carry',
    ],
    [
      // 1xx is never a final answer: served, the client waited for one until its time-out.
      '{"format":"agentpay-cassette/1","request":{"RequestType":"Status"},"answer":{"status":100,"headers":{},"body":""}}',
      'f.json: answer.status: expected the HTTP status code of a final answer (200 to 599)',
    ],
  ])('refuses %s', (text, message) => {
    expect(() => parseCassette(text, 'f.json')).toThrow(message);
  });

  const refusal = (text: string) => {
    try {
      parseCassette(text, 'f.json');
    } catch (error) {
      return error as CassetteError;
    }
    throw new Error('parsed');
  };

  it('never quotes a file that is not JSON: it may be anything (a password file a name was linked to)', () => {
    const error = refusal('root:$6$Xq1secretsalt$hashhashhash:19000:0:99999:7:::\n');
    expect(error.message).toBe('f.json: not JSON: expected a cassette, a JSON object');
    expect(error.cutShort).toBe(false);
  });

  it.each([
    ['empty', ''],
    ['ending inside an object', '{\n  "format": "agentpay-cassette/1",\n  "request": {\n    "Reque'],
    ['ending inside a string', '{"format": "agentpay-cas'],
    ['ending after an inner object', '{"format":"agentpay-cassette/1","request":{"RequestType":"Status"}'],
  ])('tells a file cut short while written (%s) from one that is no cassette', (_, text) => {
    expect(refusal(text)).toMatchObject({ message: 'f.json: empty, or its JSON ends early', cutShort: true });
  });

  it.each([
    ['closing what it never opened', '{"a":1}}'],
    ['text, not JSON', 'hello'],
    ['with more after its JSON', '{"a":1} x'],
  ])('a file %s is no cassette, not one cut short', (_, text) => {
    expect(refusal(text)).toMatchObject({
      message: 'f.json: not JSON: expected a cassette, a JSON object',
      cutShort: false,
    });
  });
});

describe('Replay', () => {
  const check = { RequestType: 'AccountCheck', Service: '101', Account: 'a', Currency: 'KZT', TransactionID: '111' };
  const payment = { ...check, RequestType: 'Payment', Amount: '10.00', 'Extra[0].Name': 'InvoiceId' };
  const pay = { ...payment, 'Extra[0].Value': '5', TransactionID: '222' };
  const echo = (id: string, status: number) => Buffer.from(`{"TransactinID":${id},"ResponseStatus":${status}}`);
  const replayOf = (cassettes: Cassette[]) => new Replay(cassettes, false, { directory: 'cassettes' });

  it('matches without TransactionID or RequestDate and echoes the new TransactionID', () => {
    const replay = replayOf([recorded(check, echo('111', 10))]);
    const answer = replay.answer(form({ ...check, TransactionID: '999', RequestDate: 'now' }));
    expect(answer?.bytes.toString()).toBe('{"TransactinID":999,"ResponseStatus":10}');
    expect(replay.answer(form({ ...check, Account: 'b' }))).toBeUndefined();
    // Another currency's voucher list is not this one: a gateway refuses a service's wrong currency.
    expect(replay.answer(form({ ...check, Currency: 'USD' }))).toBeUndefined();
  });

  it('a payment is told by its InvoiceId, Amount and Currency; its Status by the payment it stands for', () => {
    const replay = replayOf([
      recorded(pay, echo('222', 11)),
      recorded({ RequestType: 'Status', TransactionID: '222' }, echo('222', 11)),
      recorded({ RequestType: 'Status', TransactionID: '222' }, echo('222', 10)),
    ]);
    expect(replay.answer(form({ ...pay, 'Extra[0].Value': '6', TransactionID: '7' }))).toBeUndefined();
    expect(replay.answer(form({ ...pay, Amount: '10.0', TransactionID: '7' }))).toBeUndefined();
    // The same figure in another currency is another payment: never answered with this one's success.
    expect(replay.answer(form({ ...pay, Currency: 'USD', TransactionID: '7' }))).toBeUndefined();
    expect(replay.answer(form({ ...pay, TransactionID: '7' }))?.bytes.toString()).toContain('"TransactinID":7,');
    const status = () => replay.answer(form({ RequestType: 'Status', TransactionID: '7' }))?.bytes.toString();
    // The recorded polls in order, then the last again.
    expect([status(), status(), status()]).toEqual([
      '{"TransactinID":7,"ResponseStatus":11}',
      '{"TransactinID":7,"ResponseStatus":10}',
      '{"TransactinID":7,"ResponseStatus":10}',
    ]);
    expect(replay.answer(form({ RequestType: 'Status', TransactionID: '8' }))).toBeUndefined();
  });

  it("a recorded TransactionID sent with a Payment nothing answered: its Status is not the recorded payment's", () => {
    const replay = replayOf([
      recorded(pay, echo('222', 10)),
      recorded({ RequestType: 'Status', TransactionID: '222' }, echo('222', 10)),
    ]);
    // The recorded id, reused for another amount: that payment was never recorded, nor is its Status.
    expect(replay.answer(form({ ...pay, Amount: '999.00' }))).toBeUndefined();
    expect(replay.answer(form({ RequestType: 'Status', TransactionID: '222' }))).toBeUndefined();
  });

  it('rewrites the id in a UTF-16 answer too, and only where it stands whole', () => {
    const text = '{"TransactinID":111,"RequestID":51110,"Message":"111"}';
    const replay = replayOf([recorded(check, utf16be(text), 'application/json; charset=utf-16be')]);
    const answer = replay.answer(form({ ...check, TransactionID: '42' }));
    expect(answer?.bytes).toEqual(utf16be('{"TransactinID":42,"RequestID":51110,"Message":"42"}'));
  });

  it('names what was asked when nothing was recorded', () => {
    expect(replayOf([]).refusal(form({ ...pay }))).toBe(
      'No recording of Payment with Service=101, Account=a, InvoiceId=5, Amount=10.00, Currency=KZT: record it with --record, or replay with --replay-fallback\n',
    );
  });
});
