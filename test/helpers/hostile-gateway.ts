import { answer, envelopeText, type FakeGateway, startFakeGateway } from './fake-gateway.js';

/**
 * A gateway whose texts try to take over the terminal of whoever reads them (docs/security.md
 * "What a person is shown"): its Message and every voucher name carry a window title, a clear
 * screen, a colour, a right-to-left override, C1 controls and a bell. Otherwise it follows the
 * spec: code 10 for every AccountCheck, Payment and Status; 115, a refusal, for account
 * `refuse`; and a Status for TransactionID 666 answered with raw control bytes that are not JSON.
 */

/** Each kind of sequence, as the gateway sends it (after JSON decoding), and as a person must see it. */
export const hostileSequences = [
  { kind: 'window title (OSC ... BEL)', sent: '\u001b]0;PWNED\u0007', shown: '\\x1b]0;PWNED\\x07' },
  { kind: 'clear screen', sent: '\u001b[2J\u001b[H', shown: '\\x1b[2J\\x1b[H' },
  { kind: 'colour', sent: '\u001b[31mred\u001b[0m', shown: '\\x1b[31mred\\x1b[0m' },
  { kind: 'right-to-left override', sent: '\u202e0001 TZK\u202c', shown: '\\u202e0001 TZK\\u202c' },
  { kind: 'C1 CSI and OSC', sent: '\u009b2J\u009d0;t\u009c', shown: '\\x9b2J\\x9d0;t\\x9c' },
  { kind: 'bell', sent: 'ding\u0007', shown: 'ding\\x07' },
] as const;

/** The Message of every answer: Cyrillic, then every sequence. */
export const hostileMessage = `Платёж принят ${hostileSequences.map(({ sent }) => sent).join(' ')}`;

/** One voucher per sequence, InvoiceId 5001 on, 100.00 each: its name carries it. */
export const hostileVouchers = hostileSequences.map(({ sent }, index) => ({
  invoiceId: String(5001 + index),
  orderAmount: '100.00',
  name: `Coins ${index + 1} ${sent}`,
}));

/** The refusal code account `refuse` draws; classify it with AGENTPAY_FAILED_CODES. */
export const hostileRefusal = '115';

/** A Status for this TransactionID draws an answer of raw bytes: the terminal's controls, not JSON. */
export const rawAnswerId = '666';
const rawAnswer = `<html>\u001b]0;PWNED\u0007\u001b[2J\u001b[31m\u202e\u009b2J</html>`;

export async function startHostileGateway(): Promise<FakeGateway> {
  const accounts = new Map<string, URLSearchParams>();
  return startFakeGateway((form, _request, response) => {
    const type = form.get('RequestType');
    const id = form.get('TransactionID') ?? '';
    if (type === 'Status' && id === rawAnswerId) return answer(response, 200, rawAnswer);
    if (type === 'Payment') accounts.set(id, form);
    const paid = type === 'Status' ? accounts.get(id) : form;
    const content = {
      Service: paid?.get('Service') ?? '101',
      account: paid?.get('Account') ?? '',
      Amount: paid?.get('Amount') ?? '100.00',
      Currency: paid?.get('Currency') ?? 'KZT',
      ExchangeRate: '1',
      ...(type === 'AccountCheck'
        ? {
            Extras: hostileVouchers.map((v, index) => ({
              FieldName: `Invoice-${index + 1}`,
              FieldValue: JSON.stringify({
                InvoiceId: Number(v.invoiceId),
                OrderAmount: v.orderAmount,
                InvoiceName: v.name,
              }),
            })),
          }
        : { ServiceCurrency: 'KZT' }),
    };
    const status = type === 'Payment' && form.get('Account') === 'refuse' ? Number(hostileRefusal) : 10;
    answer(response, 200, envelopeText(form, { status, message: hostileMessage, content: JSON.stringify(content) }));
  });
}
