import { createServer, type ServerResponse } from 'node:http';
import { answer, envelopeText } from './fake-gateway.js';
import { listenOnLoopback, onForm } from './loopback.js';

/**
 * A gateway of its own (not the sandbox: its own voucher, InvoiceId 77001 for OrderAmount
 * 350.00, Russian names) that holds every AccountCheck answer until a number of them have
 * arrived, then answers them all at once: the processes that asked leave their checks at the
 * same instant, so whatever each does next (the desk's rules, the intent) happens side by side.
 * It keeps one payment per TransactionID (spec 3 rule 2) and answers 10 to each.
 */
export interface BarrierGateway {
  baseUrl: string;
  /** Every Payment form received, a repeat of a TransactionID too. */
  payments: URLSearchParams[];
  /** The TransactionIDs paid, once each: what the agent's balance was charged for. */
  paid(): Map<string, URLSearchParams>;
  /** From now on, AccountCheck answers wait until `count` of them have arrived (0: answered at once; Infinity: until released). */
  holdChecks(count: number): void;
  /** How many AccountCheck answers are held now. */
  heldChecks(): number;
  /** Answers the held AccountChecks now. */
  releaseChecks(): void;
  close(): Promise<void>;
}

export const barrierVoucher = { invoiceId: '77001', orderAmount: '350.00', name: 'Звёзды 350' } as const;

/** Held answers go anyway after this: a test whose processes never all arrive fails on its counts, not by hanging. */
const holdLimitMs = 10_000;

export async function startBarrierGateway(): Promise<BarrierGateway> {
  const payments: URLSearchParams[] = [];
  const paid = new Map<string, URLSearchParams>();
  let waitFor = 0;
  let held: (() => void)[] = [];
  let timer: NodeJS.Timeout | undefined;
  const releaseAll = () => {
    clearTimeout(timer);
    timer = undefined;
    const release = held;
    held = [];
    for (const send of release) send();
  };
  const content = (form: URLSearchParams, extras?: string) =>
    `{"Service":${JSON.stringify(form.get('Service'))},"account":${JSON.stringify(form.get('Account'))},"Amount":${JSON.stringify(form.get('Amount'))},` +
    `"Currency":${JSON.stringify(form.get('Currency'))},"ExchangeRate":"1"${extras === undefined ? '' : `,"Extras":${extras}`}}`;
  const voucherList = JSON.stringify([
    {
      FieldName: 'Invoice-1',
      FieldValue: JSON.stringify({
        InvoiceId: Number(barrierVoucher.invoiceId),
        OrderAmount: barrierVoucher.orderAmount,
        InvoiceName: barrierVoucher.name,
      }),
    },
  ]);
  const onCheck = (form: URLSearchParams, response: ServerResponse) => {
    const send = () => answer(response, 200, envelopeText(form, { content: content(form, voucherList) }));
    if (waitFor === 0) return send();
    held.push(send);
    timer ??= setTimeout(releaseAll, holdLimitMs);
    if (held.length >= waitFor) releaseAll();
  };
  const server = createServer((request, response) => {
    onForm(request, (form) => {
      const id = form.get('TransactionID') ?? '';
      const type = form.get('RequestType');
      if (type === 'AccountCheck') return onCheck(form, response);
      if (type === 'Payment') {
        payments.push(form);
        if (!paid.has(id)) paid.set(id, form);
      } else if (!paid.has(id))
        return answer(response, 200, envelopeText(form, { status: 2, message: 'Транзакция не найдена' }));
      answer(response, 200, envelopeText(form, { message: 'Успех', content: content(paid.get(id)!) }));
    });
  });
  const listener = await listenOnLoopback(server);
  return {
    baseUrl: `http://127.0.0.1:${listener.port}`,
    payments,
    paid: () => paid,
    holdChecks: (count) => {
      waitFor = count;
    },
    heldChecks: () => held.length,
    releaseChecks: releaseAll,
    close: () => {
      releaseAll();
      return listener.close();
    },
  };
}
