import { createServer } from 'node:http';
import { answer, envelopeText } from './fake-gateway.js';
import { listenOnLoopback, onForm } from './loopback.js';

/**
 * An independent gateway that follows the spec with a code table of its own, none of the
 * sandbox's: 10 success (spec 7), 0 in progress, 2 "no such transaction", 115 a refusal.
 * It keeps its payments (one per TransactionID, spec 3 rule 2), and a test decides when each
 * one is done: `complete(id)` makes later Status answers 10.
 */
export const foreignCodes = { success: 10, inProgress: 0, notFound: 2, refused: 115 } as const;

/** How the gateway answers a new Payment. */
export type ForeignPaymentBehaviour =
  /** Answers "in progress"; Status says so too until completed. */
  | 'in-progress'
  /** Takes the payment, then cuts the connection; Status says "not found" until it catches up (completed). */
  | 'lagging'
  /** Answers with its refusal code, which nobody has classified; Status repeats it until completed. */
  | 'refused';

export interface ForeignGateway {
  baseUrl: string;
  received: URLSearchParams[];
  /** From now on Status for this TransactionID answers 10. */
  complete(transactionId: string): void;
  close(): Promise<void>;
}

interface Payment {
  status: number;
  message: string;
  form: URLSearchParams;
}

export async function startForeignGateway(behaviour: ForeignPaymentBehaviour): Promise<ForeignGateway> {
  const received: URLSearchParams[] = [];
  const payments = new Map<string, Payment>();
  const completed = new Set<string>();
  const content = (form: URLSearchParams) =>
    JSON.stringify({
      Service: form.get('Service'),
      account: form.get('Account'),
      Amount: form.get('Amount'),
      Currency: form.get('Currency'),
      ExchangeRate: '1',
    });
  const server = createServer((request, response) => {
    onForm(request, (form) => {
      received.push(form);
      const id = form.get('TransactionID') ?? '';
      if (form.get('RequestType') === 'Payment') {
        const known = payments.get(id);
        if (known)
          return answer(
            response,
            200,
            envelopeText(form, {
              status: completed.has(id) ? 10 : known.status,
              message: known.message,
              content: content(known.form),
            }),
          );
        const made: Payment =
          behaviour === 'refused'
            ? { status: foreignCodes.refused, message: 'Ошибка: отказ провайдера', form }
            : { status: foreignCodes.inProgress, message: 'Платёж в обработке', form };
        payments.set(id, made);
        if (behaviour === 'lagging') return void request.socket.destroy();
        return answer(
          response,
          200,
          envelopeText(form, { status: made.status, message: made.message, content: content(form) }),
        );
      }
      // Status
      const known = payments.get(id);
      if (completed.has(id) && known)
        return answer(
          response,
          200,
          envelopeText(form, { status: 10, message: 'Успех', content: content(known.form) }),
        );
      if (!known || behaviour === 'lagging')
        return answer(
          response,
          200,
          envelopeText(form, { status: foreignCodes.notFound, message: 'Транзакция не найдена' }),
        );
      answer(
        response,
        200,
        envelopeText(form, { status: known.status, message: known.message, content: content(known.form) }),
      );
    });
  });
  const listener = await listenOnLoopback(server);
  return {
    baseUrl: `http://127.0.0.1:${listener.port}`,
    received,
    complete: (id) => void completed.add(id),
    close: listener.close,
  };
}
