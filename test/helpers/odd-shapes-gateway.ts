import { createServer } from 'node:http';
import { answer, envelopeText } from './fake-gateway.js';
import { windows1251 } from './legacy-charsets.js';
import { listenOnLoopback } from './loopback.js';

/**
 * A gateway that answers in its own shapes, as real providers do (docs/replay.md): every
 * answer in windows-1251 with a Russian Message, a voucher whose InvoiceId is a string and
 * whose OrderAmount is a bare number, RequestIDs past 2^53, and its own code for "no such
 * transaction" (2). It keeps each payment by TransactionID (spec 3, rules 1 and 2) and every
 * request's body exactly as it arrived.
 */
export const oddShapes = {
  service: '3101',
  account: 'игрок-7',
  invoiceId: '7001',
  orderAmount: '1500.50',
  notFoundCode: '2',
  checkMessage: 'Проверка пройдена: счёт найден',
  payMessage: 'Платёж принят',
  statusMessage: 'Платёж проведён',
} as const;

export interface OddShapesGateway {
  baseUrl: string;
  /** Every request body, as bytes arrived, decoded as the UTF-8 a form is. */
  bodies: string[];
  close(): Promise<void>;
}

const contentType = 'application/json; charset=windows-1251';

function content(form: URLSearchParams, extras: string): string {
  return (
    `{"Service":${JSON.stringify(form.get('Service'))},"account":${JSON.stringify(form.get('Account'))},` +
    `"Amount":${form.get('Amount')},"Currency":"KZT","ExchangeRate":1${extras}}`
  );
}

export async function startOddShapesGateway(): Promise<OddShapesGateway> {
  const bodies: string[] = [];
  const payments = new Map<string, { requestId: string; form: URLSearchParams }>();
  const voucher = JSON.stringify(
    `{"InvoiceId":"${oddShapes.invoiceId}","OrderAmount":${oddShapes.orderAmount},"InvoiceName":"Пакет Золото"}`,
  );
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      bodies.push(body);
      const form = new URLSearchParams(body);
      const id = form.get('TransactionID') ?? '0';
      const send = (text: string) => answer(response, 200, windows1251(text), contentType);
      const type = form.get('RequestType');
      if (type === 'AccountCheck') {
        const extras = `,"Extras":[{"FieldName":"Invoice-1","FieldValue":${voucher}}]`;
        const message = oddShapes.checkMessage;
        return send(envelopeText(form, { requestId: '0', message, content: content(form, extras) }));
      }
      if (type === 'Payment') {
        let payment = payments.get(id);
        if (payment === undefined) {
          payment = { requestId: String(9007199254740993n + BigInt(payments.size)), form };
          payments.set(id, payment);
        }
        const { requestId } = payment;
        const paid = content(payment.form, ',"ServiceCurrency":"KZT"');
        return send(envelopeText(form, { requestId, message: oddShapes.payMessage, content: paid }));
      }
      const payment = payments.get(id);
      if (payment === undefined)
        return send(envelopeText(form, { requestId: '0', status: 2, message: 'Транзакция не найдена' }));
      const done = content(payment.form, ',"ServiceCurrency":"KZT"');
      const { requestId } = payment;
      return send(envelopeText(form, { requestId, message: oddShapes.statusMessage, content: done }));
    });
  });
  const { port, close } = await listenOnLoopback(server);
  return { baseUrl: `http://127.0.0.1:${port}`, bodies, close };
}
