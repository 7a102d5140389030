import {
  GatewayProtocolError,
  GatewayUnreachableError,
  PaymentOutcomeUnknownError,
  ReplayMissError,
} from '../errors.js';
import type { RecordedExchange } from '../protocol/cassette.js';
import { type GatewayAnswer, parseEnvelope, redactedAnswer } from '../protocol/envelope.js';
import {
  buildAccountCheckForm,
  buildPaymentForm,
  buildStatusForm,
  type Credentials,
  type FormField,
  type PaymentRequest,
  type PurchaseInput,
} from '../protocol/form.js';
import { MalformedAnswerError } from '../protocol/problems.js';
import type { ReplayMisses } from '../protocol/replay-miss.js';
import { formatRequestDate, type RequestDateFormat } from '../protocol/request-date.js';
import { generateTransactionId, namesNoTransaction } from '../protocol/transaction-id.js';
import { parseVoucherList, redactedVoucherList, type VoucherList } from '../protocol/vouchers.js';
import { redactSecrets } from '../run-scope.js';
import { ExchangeErrors } from './exchange-errors.js';
import { ExchangeFailure } from './exchange-failure.js';
import type { HttpAnswer, Transport } from './http.js';
import { BodyTooLargeError, maxAnswerBytes } from './read-answer.js';
import { type ExchangeEvent, type Operation, sendForm } from './send-form.js';
import { HttpTransport } from './transport.js';

export type { ExchangeEvent } from './send-form.js';

export interface GatewayClientOptions {
  baseUrl: string;
  credentials: Credentials;
  timeoutMs: number;
  dateFormat: RequestDateFormat;
  /** Secrets to blank out of anything traced or put in an error, in every spelling (see
   * secrets.ts); the wire password by default. The run's registered secrets are blanked too. */
  secrets?: readonly string[];
  /** Answers larger than this are refused as not understood (default maxAnswerBytes). */
  maxBodyBytes?: number;
  /** How requests travel, for hints when the gateway cannot be reached ("through proxy …"). */
  routeDescription?: string;
  /** How requests travel; a direct HttpTransport of its own when unset. */
  transport?: Transport;
  /** Cuts every AccountCheck and Status in flight short (Ctrl+C, SIGTERM): they change nothing.
   * A Payment is stopped only by the signal its caller gives (execute-payment.ts). */
  stop?: AbortSignal;
  onExchange?: (event: ExchangeEvent) => void;
  /** --record: each answered exchange, as sent and as it arrived (recorder.ts); never fails one. */
  recorder?: { record(exchange: RecordedExchange): void };
  /** --replay: asks the replay in this process whether it refused a request, which is then a ReplayMissError. */
  replayMisses?: ReplayMisses;
  now?: () => Date;
}

export type { PurchaseInput } from '../protocol/form.js';

export interface AccountCheckResult {
  transactionId: string;
  answer: GatewayAnswer;
  /** null: no voucher list at all (a static service); []: none for this account now. */
  vouchers: VoucherList;
}

export type PaymentInput = Omit<PaymentRequest, 'requestDate'>;

/** The gateway client: builds the forms of spec 4, sends them, and returns parsed answers
 * or throws a typed error. It never prints and never exits. */
export class GatewayClient {
  readonly endpoint: string;
  private readonly options: GatewayClientOptions;
  private readonly transport: Transport;
  private readonly ownsTransport: boolean;
  private readonly errors: ExchangeErrors;
  /** Blanks this client's secrets (and the run's) in every spelling: secrets.ts. */
  private readonly redactor = (text: string) => this.redact(text);

  constructor(options: GatewayClientOptions) {
    this.options = options;
    this.endpoint = `${options.baseUrl.replace(/\/+$/, '')}/home/index`;
    this.ownsTransport = options.transport === undefined;
    this.transport = options.transport ?? new HttpTransport({ timeoutMs: options.timeoutMs });
    this.errors = new ExchangeErrors({
      endpoint: this.endpoint,
      routeDescription: options.routeDescription,
      redact: this.redactor,
    });
  }

  /** The same gateway and connection pool with other credentials: for a scenario step that
   * checks the gateway refuses them. `secrets` are blanked out of traces as well. */
  withCredentials(credentials: Credentials, secrets: readonly string[]): GatewayClient {
    return new GatewayClient({
      ...this.options,
      credentials,
      secrets: [...(this.options.secrets ?? [this.options.credentials.wirePassword]), ...secrets],
      transport: this.transport,
    });
  }

  private requestDate(): string {
    return formatRequestDate(this.options.now?.() ?? new Date(), this.options.dateFormat);
  }

  /** spec 4.1. AccountCheck needs a TransactionID of its own; a fresh one is used. */
  async accountCheck(input: PurchaseInput): Promise<AccountCheckResult> {
    const transactionId = generateTransactionId();
    const form = buildAccountCheckForm(this.options.credentials, {
      ...input,
      transactionId,
      requestDate: this.requestDate(),
    });
    const answer = await this.exchangeReadOnly('AccountCheck', form, transactionId);
    try {
      return { transactionId, answer, vouchers: redactedVoucherList(parseVoucherList(answer.extras), this.redactor) };
    } catch (error) {
      throw this.errors.notUnderstood(error, undefined);
    }
  }

  /** spec 4.4 */
  async status(transactionId: string): Promise<GatewayAnswer> {
    const form = buildStatusForm(this.options.credentials, { transactionId, requestDate: this.requestDate() });
    return this.exchangeReadOnly('Status', form, transactionId);
  }

  /** The exact form a Payment would send, for --dry-run (mask it before showing). */
  paymentForm(input: PaymentInput): FormField[] {
    return buildPaymentForm(this.options.credentials, { ...input, requestDate: this.requestDate() });
  }

  /** spec 4.2 / 4.3. Any failure after the request may have left is a
   * PaymentOutcomeUnknownError, never a failure: the payment may have been made. */
  async payment(input: PaymentInput, signal?: AbortSignal): Promise<GatewayAnswer> {
    const form = this.paymentForm(input);
    let http: HttpAnswer;
    try {
      http = await this.send('Payment', form, signal);
    } catch (error) {
      if (error instanceof ExchangeFailure && error.kind === 'notSent') {
        throw this.errors.unreachable(error, { noPaymentSent: true });
      }
      // Anything else (a time-out, a cut connection, an answer over the size limit) may
      // have followed a committed payment.
      const fault =
        error instanceof BodyTooLargeError
          ? this.errors.tooLarge(error)
          : this.errors.brokenExchange(error, { noPaymentSent: false });
      throw new PaymentOutcomeUnknownError(input.transactionId, fault, {
        cause: error,
        bodySample: this.errors.sampleOf(error),
      });
    }
    this.refuseReplayMiss('Payment', input.transactionId, http);
    if (http.statusCode >= 500) {
      throw new PaymentOutcomeUnknownError(
        input.transactionId,
        { kind: 'unavailable', status: http.statusCode },
        { bodySample: this.errors.sample(http.body) },
      );
    }
    try {
      return this.understood(await parseEnvelope(http.body), 'Payment', input.transactionId);
    } catch (error) {
      throw new PaymentOutcomeUnknownError(input.transactionId, this.errors.notUnderstoodFault(error, http), {
        cause: error,
        bodySample: this.errors.sample(http.body),
      });
    }
  }

  async close(): Promise<void> {
    if (this.ownsTransport) await this.transport.close();
  }

  private async exchangeReadOnly(
    operation: Operation,
    form: FormField[],
    transactionId: string,
  ): Promise<GatewayAnswer> {
    let http: HttpAnswer;
    try {
      http = await this.send(operation, form, this.options.stop);
    } catch (error) {
      if (error instanceof BodyTooLargeError)
        throw new GatewayProtocolError(this.errors.tooLarge(error), {
          cause: error,
          bodySample: this.errors.sample(error.bodySample),
        });
      throw this.errors.unreachable(error, { noPaymentSent: false });
    }
    this.refuseReplayMiss(operation, transactionId, http);
    if (http.statusCode >= 500) {
      // An error page from the gateway or a proxy in front of it: down for now, not broken.
      throw new GatewayUnreachableError(
        { kind: 'unavailable', status: http.statusCode },
        { bodySample: this.errors.sample(http.body) },
      );
    }
    try {
      return this.understood(await parseEnvelope(http.body), operation, transactionId);
    } catch (error) {
      throw this.errors.notUnderstood(error, http);
    }
  }

  /** The replay's refusal (HTTP 404) of a request it has no recording for: nothing was made, said so at once. */
  private refuseReplayMiss(operation: Operation, transactionId: string, http: HttpAnswer): void {
    if (http.statusCode !== 404 || this.options.replayMisses === undefined) return;
    const miss = this.options.replayMisses(operation, transactionId);
    if (miss !== undefined) throw new ReplayMissError(miss);
  }

  /** An answer as the rest of the program gets it: about our transaction, and with every secret
   * the gateway echoed blanked (redactedAnswer), here once, so nothing kept or shown holds one. */
  private understood(answer: GatewayAnswer, operation: Operation, transactionId: string): GatewayAnswer {
    checkType(answer, operation);
    return redactedAnswer(this.checkEcho(answer, transactionId), this.redactor);
  }

  /** spec 2.2: TransactinID echoes ours; an answer about another transaction is not ours to
   * trust. An echo of 0, null or none (error envelopes of some gateways) names no transaction:
   * the answer stands, and the echo is dropped so that nothing takes 0 for our TransactionID. */
  private checkEcho(answer: GatewayAnswer, transactionId: string): GatewayAnswer {
    if (answer.transactionId !== undefined && namesNoTransaction(answer.transactionId))
      return { ...answer, transactionId: undefined };
    if (answer.transactionId !== undefined && answer.transactionId !== transactionId) {
      throw new MalformedAnswerError(`the answer is about transaction ${answer.transactionId}, not ${transactionId}`);
    }
    return answer;
  }

  private send(operation: Operation, form: FormField[], signal?: AbortSignal): Promise<HttpAnswer> {
    const { timeoutMs, maxBodyBytes = maxAnswerBytes, onExchange, recorder } = this.options;
    const route = {
      transport: this.transport,
      endpoint: this.endpoint,
      timeoutMs,
      maxBodyBytes,
      redact: this.redactor,
    };
    return sendForm({ ...route, onExchange, recorder }, operation, form, signal);
  }

  private redact(text: string): string {
    return redactSecrets(text, this.options.secrets ?? [this.options.credentials.wirePassword]);
  }
}

// spec 2.2: ResponseType echoes the operation ("Pay" is the tables' name for Payment). One naming another of
// them answers another request (a gateway that read RequestType otherwise): for a payment, it proves nothing.
// Any other word is a gateway's own spelling and passes.
const operationNames = new Map<string, Operation>([
  ['accountcheck', 'AccountCheck'],
  ['payment', 'Payment'],
  ['pay', 'Payment'],
  ['status', 'Status'],
]);

function checkType(answer: GatewayAnswer, operation: Operation): void {
  const named = answer.type === undefined ? undefined : operationNames.get(answer.type.trim().toLowerCase());
  if (named !== undefined && named !== operation)
    throw new MalformedAnswerError(
      `its ResponseType ${JSON.stringify(answer.type)} answers ${named}, not ${operation}`,
    );
}
