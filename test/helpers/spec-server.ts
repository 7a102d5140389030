import { createServer, type ServerResponse } from 'node:http';
import { windows1251 } from './legacy-charsets.js';
import { listenOnLoopback, onForm } from './loopback.js';

/**
 * A small gateway that follows the spec and nothing more, for what the sandbox cannot do:
 * any voucher list (a long one), and requests it never answers (to press Ctrl+C while one
 * is out). Listens on 127.0.0.1 only; records every form it receives.
 */
export interface SpecVoucher {
  invoiceId: string;
  orderAmount: string;
  name: string;
}

export interface SpecServerOptions {
  /** The AccountCheck list; empty makes a static service. */
  vouchers?: readonly SpecVoucher[];
  /** Never answer these RequestTypes (the connection stays open until close()). */
  hold?: readonly ('AccountCheck' | 'Payment' | 'Status')[];
  /** Accounts whose AccountCheck gets `Extras: []`: a dynamic service with nothing for them now. */
  emptyListFor?: readonly string[];
  /** The ExchangeRate of every answer (default "1"). */
  exchangeRate?: string;
  /** ServiceCurrency, the crediting currency, in every answer's content (left out by default). */
  serviceCurrency?: string;
  /**
   * Services whose AccountCheck is refused as a real gateway refuses it for a static service
   * (unlike the sandbox, which answers 10 without a list): ResponseStatus 115, `Service has no
   * voucher list`. Their Payments are taken as any other.
   */
  staticRefusedCheck?: readonly string[];
  /**
   * Answer as an older Russian gateway does: every Message in Russian, the body in windows-1251
   * and `charset=windows-1251` in its Content-Type (UTF-8 JSON by default).
   */
  windows1251?: boolean;
  /** The Message of the Payment answer to these accounts (`Success` to the others), in UTF-8 JSON. */
  paymentMessages?: Readonly<Record<string, string>>;
}

/** What the gateway says when it refuses the AccountCheck of a static service. */
export const noVoucherListRefusal = { status: 115, message: 'Service has no voucher list' } as const;

/** The Messages of a gateway that answers in Russian (`windows1251`). */
export const russianMessages = { success: 'Операция выполнена', noVoucherList: 'Услуга без списка ваучеров' } as const;

export interface SpecServer {
  baseUrl: string;
  received: URLSearchParams[];
  close(): Promise<void>;
}

function envelope(form: URLSearchParams, extra: Record<string, unknown>): Record<string, unknown> {
  return {
    // spec 2.2: spelled without the second "o".
    TransactinID: form.get('TransactionID'),
    RequestID: '9007199254740995',
    ResponseType: form.get('RequestType'),
    ResponseStatus: 10,
    Message: 'Success',
    ...extra,
  };
}

/** The answer's body and Content-Type: UTF-8 JSON, or in Russian and windows-1251. */
function answer(response: ServerResponse, body: Record<string, unknown>, options: SpecServerOptions): void {
  if (!options.windows1251) {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
    return;
  }
  const message =
    body.ResponseStatus === noVoucherListRefusal.status ? russianMessages.noVoucherList : russianMessages.success;
  response.writeHead(200, { 'content-type': 'application/json; charset=windows-1251' });
  response.end(windows1251(JSON.stringify({ ...body, Message: message })));
}

export async function startSpecServer(options: SpecServerOptions = {}): Promise<SpecServer> {
  const received: URLSearchParams[] = [];
  const held: ServerResponse[] = [];
  const server = createServer((request, response) => {
    onForm(request, (form) => {
      received.push(form);
      const type = form.get('RequestType') ?? '';
      if ((options.hold as readonly string[] | undefined)?.includes(type)) {
        held.push(response);
        return;
      }
      const content: Record<string, unknown> = {
        Service: form.get('Service'),
        account: form.get('Account'),
        Amount: form.get('Amount'),
        Currency: form.get('Currency'),
        ExchangeRate: options.exchangeRate ?? '1',
        ...(options.serviceCurrency === undefined ? {} : { ServiceCurrency: options.serviceCurrency }),
      };
      if (type === 'AccountCheck' && options.staticRefusedCheck?.includes(form.get('Service') ?? '')) {
        const refusal = { ResponseStatus: noVoucherListRefusal.status, Message: noVoucherListRefusal.message };
        answer(response, envelope(form, refusal), options);
        return;
      }
      if (type === 'AccountCheck' && options.emptyListFor?.includes(form.get('Account') ?? '')) content.Extras = [];
      else if (type === 'AccountCheck' && options.vouchers && options.vouchers.length > 0) {
        content.Extras = options.vouchers.map((v, index) => ({
          FieldName: `Invoice-${index + 1}`,
          FieldValue: JSON.stringify({
            InvoiceId: Number(v.invoiceId),
            OrderAmount: v.orderAmount,
            InvoiceName: v.name,
          }),
        }));
      }
      const message = type === 'Payment' ? options.paymentMessages?.[form.get('Account') ?? ''] : undefined;
      const said = message === undefined ? {} : { Message: message };
      answer(response, envelope(form, { ...said, TransactionContent: content }), options);
    });
  });
  const listener = await listenOnLoopback(server);
  return {
    baseUrl: `http://127.0.0.1:${listener.port}`,
    received,
    close: () => {
      for (const response of held) response.destroy();
      return listener.close();
    },
  };
}

export function formsOfType(received: readonly URLSearchParams[], type: string): URLSearchParams[] {
  return received.filter((form) => form.get('RequestType') === type);
}
