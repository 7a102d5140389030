import { describe, expect, it } from 'vitest';
import { checkEnvelope } from '../../src/protocol/envelope-schema.js';
import { acceptEnvelope, parseEnvelope } from '../../src/protocol/envelope.js';
import { parseLosslessJson } from '../../src/protocol/lossless.js';
import { seededRandom } from '../helpers/seeded-random.js';

/*
 * Gateway answers are taken without loading zod when they are plainly well-formed
 * (acceptEnvelope); the zod schema stays the definition. Here
 * generated documents, well-formed and not, go both ways: whatever the fast way accepts, the
 * schema accepts too, with the same values.
 */

const random = seededRandom;

/** JSON text for a value drawn from `kinds`; numbers are written as literal digits. */
function valueText(next: () => number, kinds: readonly string[], depth = 0): string | undefined {
  const kind = kinds[Math.floor(next() * kinds.length)];
  switch (kind) {
    case 'absent':
      return undefined;
    case 'null':
      return 'null';
    case 'string':
      return JSON.stringify(['', '10', 'Успех', '-3', '9007199254740993', 'x"y', '7\\n'][Math.floor(next() * 7)]);
    case 'number':
      return ['10', '-3', '9007199254740993', '10.630', '1e400', '0'][Math.floor(next() * 6)];
    case 'boolean':
      return next() < 0.5 ? 'true' : 'false';
    case 'array':
      return depth > 1 ? '[]' : `[${valueText(next, ['string', 'number', 'null'], depth + 1) ?? '1'}]`;
    default:
      return depth > 1 ? '{}' : `{"k":${valueText(next, ['string', 'number'], depth + 1) ?? '1'}}`;
  }
}

function objectText(next: () => number, fields: Record<string, readonly string[]>, extra: readonly string[] = []): string {
  const members: string[] = [];
  for (const [key, kinds] of Object.entries(fields)) {
    const value = valueText(next, kinds);
    if (value !== undefined) members.push(`${JSON.stringify(key)}:${value}`);
  }
  for (const key of extra) if (next() < 0.15) members.push(`${JSON.stringify(key)}:${valueText(next, ['string', 'object', 'number']) ?? '1'}`);
  for (let i = members.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [members[i], members[j]] = [members[j]!, members[i]!];
  }
  return `{${members.join(',')}}`;
}

const validText = ['absent', 'string', 'number', 'null'];
const anyValue = ['absent', 'string', 'number', 'null', 'boolean', 'object', 'array'];

function envelopeBody(next: () => number): string {
  // Most answers are well-formed but for a field or two; some are anything at all.
  const mostlyText = next() < 0.5 ? validText : next() < 0.7 ? [...validText, ...validText, ...validText, 'boolean', 'object'] : anyValue;
  const item = () => objectText(next, { FieldName: mostlyText, FieldValue: ['string', 'string', 'string', 'number', 'absent'] }, ['Other', '__proto__']);
  const extras = next() < 0.2 ? 'null' : next() < 0.1 ? '{}' : `[${Array.from({ length: Math.floor(next() * 3) }, item).join(',')}]`;
  const contentFields = { Service: mostlyText, account: mostlyText, Account: mostlyText, Amount: mostlyText, Currency: mostlyText, ExchangeRate: mostlyText, ServiceCurrency: mostlyText };
  const content = next() < 0.08 ? valueText(next, ['null', 'number', 'string', 'array']) : objectText(next, contentFields, ['Extra', '__proto__']).replace(/}$/, `${next() < 0.7 ? `,"Extras":${extras}` : ''}}`).replace('{,', '{');
  const status = ['absent', 'string', 'number', 'number', 'number', 'number', 'number', 'null', 'boolean'];
  const envelope = objectText(
    next,
    { TransactinID: mostlyText, TransactionID: mostlyText, RequestID: mostlyText, ResponseType: mostlyText, ResponseStatus: status, Message: mostlyText, ExchangeRate: mostlyText, ServiceCurrency: mostlyText },
    ['Unknown', '__proto__'],
  );
  return next() < 0.05 ? (valueText(next, ['array', 'string', 'null', 'number']) ?? '1') : envelope.replace(/}$/, `${content === undefined ? '' : `,"TransactionContent":${content}`}}`).replace('{,', '{');
}

const envelopeKeys = ['TransactinID', 'TransactionID', 'RequestID', 'ResponseType', 'ResponseStatus', 'Message', 'ExchangeRate', 'ServiceCurrency'];
const contentKeys = ['Service', 'account', 'Account', 'Amount', 'Currency', 'ExchangeRate', 'ServiceCurrency', 'Extras'];

/** The fields of an envelope that an answer is made of (its other keys are kept in `raw` only). */
function readFields(envelope: Record<string, unknown>) {
  const pick = (from: Record<string, unknown>, keys: string[]) => Object.fromEntries(keys.filter((key) => key in from).map((key) => [key, from[key]]));
  const content = envelope.TransactionContent as Record<string, unknown> | null | undefined;
  return { ...pick(envelope, envelopeKeys), ...('TransactionContent' in envelope ? { TransactionContent: content && pick(content, contentKeys) } : {}) };
}

describe('gateway answers without zod', () => {
  it('acceptEnvelope takes only what the envelope schema takes, with the same fields', () => {
    const next = random(11);
    const counts = { both: 0, schemaOnly: 0, neither: 0, fields: 0 };
    for (let round = 0; round < 8000; round++) {
      const body = envelopeBody(next);
      const raw = parseLosslessJson(body);
      const fast = acceptEnvelope(raw);
      let schema: Record<string, unknown> | undefined;
      try {
        schema = checkEnvelope(raw);
      } catch {
        schema = undefined;
      }
      if (fast !== undefined) {
        expect(schema, body).toBeDefined();
        counts.fields += Object.keys(readFields(fast)).length;
        expect(readFields(fast), body).toStrictEqual(readFields(schema!));
        counts.both++;
      } else if (schema !== undefined) counts.schemaOnly++;
      else counts.neither++;
    }
    // The generated answers exercise all three outcomes.
    expect(counts.both).toBeGreaterThan(500);
    expect(counts.fields / counts.both).toBeGreaterThan(4);
    expect(counts.schemaOnly).toBeGreaterThan(50);
    expect(counts.neither).toBeGreaterThan(1000);
  });

  it('what the fast way refuses, the schema explains', async () => {
    await expect(parseEnvelope('{"ResponseStatus":"x"}')).rejects.toThrow('the answer is not the gateway envelope (ResponseStatus: ResponseStatus must be an integer)');
    await expect(parseEnvelope('{"ResponseStatus":10,"TransactionContent":[]}')).rejects.toThrow('(TransactionContent:');
    await expect(parseEnvelope('[1]')).rejects.toThrow('the answer is not the gateway envelope (the body:');
    // The schema takes a number as TransactionContent (an object to zod); so does the parser.
    await expect(parseEnvelope('{"ResponseStatus":10,"TransactionContent":5}')).resolves.toMatchObject({ status: '10', extras: null });
  });

  it('reads a typical answer exactly, Longs and amounts as written', async () => {
    const answer = await parseEnvelope(
      '{"TransactinID":1795289214527958198,"RequestID":9007199254740993,"ResponseType":"Status","ResponseStatus":10,"Message":"Успех",' +
        '"TransactionContent":{"Service":"102","account":"player-42","Amount":10.630,"Currency":"USD","ExchangeRate":0.921,"ServiceCurrency":"EUR",' +
        '"Extras":[{"FieldName":"Invoice-1","FieldValue":"{\\"InvoiceId\\":7010}","Note":1}]}}',
    );
    expect(answer).toMatchObject({
      transactionId: '1795289214527958198', requestId: '9007199254740993', type: 'Status', status: '10', message: 'Успех', service: '102',
      account: 'player-42', amount: '10.630', currency: 'USD', exchangeRate: '0.921', serviceCurrency: 'EUR',
    });
    expect(answer.extras).toStrictEqual([expect.objectContaining({ FieldName: 'Invoice-1', FieldValue: '{"InvoiceId":7010}' })]);
  });
});

