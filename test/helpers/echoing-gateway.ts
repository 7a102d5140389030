import { md5Hex } from '../../src/protocol/password.js';
import { answer, envelopeText, type FakeGateway, startFakeGateway } from './fake-gateway.js';

/**
 * A gateway that knows the agent's password and echoes it back in every spelling a writer may
 * give it (docs/security.md), in its Message and in every voucher's InvoiceName; otherwise it
 * follows the spec: code 10 for every AccountCheck, Payment and Status, vouchers 5001 and 5002.
 */

/** Every character as `\uXXXX`, hex in lower or upper case: what some JSON writers do. */
const allEscaped = (text: string, upper: boolean) =>
  [...text]
    .flatMap((character) => [...Array(character.length).keys()].map((index) => character.charCodeAt(index)))
    .map(
      (unit) => `\\u${upper ? unit.toString(16).padStart(4, '0').toUpperCase() : unit.toString(16).padStart(4, '0')}`,
    )
    .join('');

/**
 * The password as the text of a JSON string in each spelling, written raw into the answer's
 * JSON: some read back as the password itself (the JSON escapes), some as its MD5, URL or form
 * encoding, or a JSON echo of the form.
 */
export function echoedSpellings(password: string): string[] {
  const json = JSON.stringify(password).slice(1, -1);
  const hex = (character: string, upper: boolean) => {
    const code = character.charCodeAt(0).toString(16).padStart(4, '0');
    return `\\u${upper ? code.toUpperCase() : code}`;
  };
  return [
    json,
    md5Hex(password),
    md5Hex(password).toUpperCase(),
    encodeURIComponent(password),
    new URLSearchParams([['', password]]).toString().slice(1),
    // PHP's json_encode: `/` as `\/`, all but ASCII as `\u00f6`; and `#` as `\u0023`, `ö` as `\u00F6`.
    json.replaceAll('/', '\\/').replace(/[\u007f-\uffff]/g, (character) => hex(character, false)),
    json.replaceAll('#', '\\u0023').replace(/[\u007f-\uffff]/g, (character) => hex(character, true)),
    allEscaped(password, false),
    allEscaped(password, true),
    JSON.stringify(JSON.stringify({ AgentPassword: password })).slice(1, -1),
  ];
}

/**
 * What a file or an output must not hold: each spelling as written into the answer and as it
 * reads once parsed, and each escaped once more, as a JSON document inside a JSON string is.
 */
export function storedSpellings(password: string): string[] {
  const written = echoedSpellings(password);
  const parsed = written.map((spelling) => JSON.parse(`"${spelling}"`) as string);
  const once = [...written, ...parsed];
  return [...new Set([...once, ...once.map((spelling) => JSON.stringify(spelling).slice(1, -1))])];
}

/** The Message of every answer, the password in every spelling, raw JSON string text. */
export const echoedMessage = (password: string) => `wrong password? ${echoedSpellings(password).join(' | ')}.`;

const vouchers = [
  { invoiceId: '5001', orderAmount: '100.00' },
  { invoiceId: '5002', orderAmount: '250.50' },
];

/** A voucher's FieldValue: a JSON document (written raw, so its InvoiceName keeps the escapes), in a string. */
function fieldValue(voucher: (typeof vouchers)[number], password: string): string {
  const name = `Coins ${voucher.invoiceId} ${echoedSpellings(password).join(' | ')}`;
  return JSON.stringify(
    `{"InvoiceId":${voucher.invoiceId},"OrderAmount":"${voucher.orderAmount}","InvoiceName":"${name}"}`,
  );
}

export async function startEchoingGateway(password: string): Promise<FakeGateway> {
  const payments = new Map<string, URLSearchParams>();
  return startFakeGateway((form, _request, response) => {
    const type = form.get('RequestType');
    const id = form.get('TransactionID') ?? '';
    if (type === 'Payment') payments.set(id, form);
    const paid = type === 'Status' ? payments.get(id) : form;
    const extras = vouchers.map(
      (voucher, index) => `{"FieldName":"Invoice-${index + 1}","FieldValue":${fieldValue(voucher, password)}}`,
    );
    const content =
      `{"Service":${JSON.stringify(paid?.get('Service') ?? '101')},"account":${JSON.stringify(paid?.get('Account') ?? '')},` +
      `"Amount":${JSON.stringify(paid?.get('Amount') ?? '100.00')},"Currency":"KZT"` +
      (type === 'AccountCheck' ? `,"Extras":[${extras.join(',')}]}` : ',"ServiceCurrency":"KZT","ExchangeRate":"1"}');
    // The Message written raw, so that its escapes reach the client as the gateway spelled them.
    const body = envelopeText(form, { content }).replace(
      /"Message":"[^"]*"/,
      () => `"Message":"${echoedMessage(password)}"`,
    );
    answer(response, 200, body);
  });
}
