import { z } from 'zod';
import { CancelledError, EmptyVoucherListError, GatewayRefusedError, TransactionPendingError, UsageError } from '../errors.js';
import type { GatewayClient, PaymentInput } from '../gateway/client.js';
import type { Output } from '../output.js';
import type { CodeTable } from '../protocol/codes.js';
import { foreignExchangeOf, type ForeignExchange } from '../protocol/exchange-rate.js';
import { parseAmount, parseCurrency } from '../protocol/money.js';
import { InvalidFieldError } from '../protocol/problems.js';
import { generateTransactionId } from '../protocol/transaction-id.js';
import type { TransactionView } from '../protocol/transaction-view.js';
import type { Voucher, VoucherList } from '../protocol/vouchers.js';
import type { Prompter, PromptChoice } from '../prompts.js';
import { renderPurchaseSummary, truncate, voucherChoiceLabels } from '../render/purchase.js';
import { renderReceipt } from '../render/transaction.js';
import { renderVoucherTable } from '../render/vouchers.js';
import { startSpinner } from '../spinner.js';
import type { CommandContext } from './context.js';
import { executePayment } from './execute-payment.js';
import {
  checkPurchase,
  emptyVoucherListError,
  errorOfView,
  paymentInputOf,
  resolvePurchase,
  voucherOf,
  type PaymentOutcome,
  type PurchaseRequest,
} from './payment-flow.js';
import { optionalAmount, parseOptions } from './purchase-options.js';
import { lookUpStatus } from './status.js';

/**
 * `agentpay buy`: the interactive top-up for a person at a terminal. Asks for what the flags
 * did not give, checks the account (spec 4.1), lets the person pick a voucher, shows exactly
 * what will be sent, and pays only after a yes, through the same functions as `pay`.
 */
const optionalText = (flag: string) =>
  z
    .string()
    .optional()
    .refine((value) => value === undefined || value.trim() !== '', `${flag} must not be empty`);

const buyOptionsSchema = z.object({
  service: optionalText('--service'),
  account: optionalText('--account'),
  currency: z
    .string()
    .optional()
    .transform((value) => (value === undefined ? undefined : parseCurrency(value))),
  amount: optionalAmount,
});
/** The flags; any of them may be missing (then it is asked). */
export type BuyOptions = Partial<z.infer<typeof buyOptionsSchema>>;

/** A service the person can pick from a list (the sandbox's catalogue). */
export interface ServiceOffer {
  id: string;
  name: string;
  kind: 'dynamic' | 'static';
  currency: string;
  /** A static service's fixed amount, offered as the default. */
  denomination?: string | undefined;
}

export interface ServiceCatalogue {
  services: readonly ServiceOffer[];
  /** Offered as the default account. */
  defaultAccount: string;
}

export interface BuyDependencies {
  client: GatewayClient;
  /**
   * Pays and settles, journaled: `pay`'s own executePayment. It stops settling at once when
   * `signal` aborts and reports the payment as unknown, never as not made.
   */
  pay: (input: PaymentInput, signal: AbortSignal) => Promise<PaymentOutcome>;
  prompter: Prompter;
  out: Output;
  /** The gateway's code table: what is final, in progress or not found. */
  codes: CodeTable;
  /** Under --sandbox: services to choose from instead of typing an id. */
  catalogue?: ServiceCatalogue | undefined;
  /** Aborted on Ctrl+C outside a prompt (a prompt turns Ctrl+C into a CancelledError itself). */
  signal: AbortSignal;
  newTransactionId?: () => string;
}

/** More vouchers than this and typing filters the list. */
const filterThreshold = 7;
const otherService = '\0other';

/** Thrown by untilInterrupted; each caller turns it into what Ctrl+C means at that point. */
class Interrupted extends Error {}

/**
 * Waits for `work` unless the person presses Ctrl+C first. The work is left to finish on its
 * own (its failure handled here); the command then closes the connection under it.
 */
function untilInterrupted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Interrupted());
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

function fieldProblem(check: () => unknown): string | undefined {
  try {
    check();
    return undefined;
  } catch (error) {
    if (error instanceof InvalidFieldError) return error.message;
    throw error;
  }
}

const notEmpty = (what: string) => (value: string) => (value.trim() === '' ? `${what} must not be empty` : undefined);

interface Purchase {
  service: string;
  account: string;
  currency: string;
}

/** What the account check said: the vouchers (null for a static service), their currency, any exchange. */
interface Checked {
  vouchers: VoucherList;
  currency: string;
  exchange: ForeignExchange | undefined;
}

/** What the person chose: the request as `pay` would build it, and the exact amount. */
interface Choice {
  request: PurchaseRequest;
  amount: string;
  voucher: Voucher | undefined;
}

class BuyFlow {
  private readonly deps: BuyDependencies;
  private readonly options: BuyOptions;

  constructor(options: BuyOptions, deps: BuyDependencies) {
    this.options = options;
    this.deps = deps;
  }

  private get out(): Output {
    return this.deps.out;
  }

  private get columns(): number {
    return this.out.stderr.columns || this.out.columns;
  }

  private offerOf(service: string): ServiceOffer | undefined {
    return this.deps.catalogue?.services.find((offer) => offer.id === service);
  }

  async run(): Promise<void> {
    let purchase = await this.askPurchase();
    let checked: Checked;
    for (;;) {
      try {
        checked = await this.check(purchase);
        // Nothing for this account now is not a static service: ask again, never for a free amount.
        if (checked.vouchers?.length === 0) throw emptyVoucherListError(purchase);
        break;
      } catch (error) {
        if (!(error instanceof GatewayRefusedError) && !(error instanceof EmptyVoucherListError)) throw error;
        purchase = await this.askAgain(purchase, error);
      }
    }

    const { request, amount, voucher } =
      checked.vouchers !== null ? await this.pickVoucher(purchase, checked.vouchers, checked.currency) : await this.askStaticAmount(purchase);
    const transactionId = (this.deps.newTransactionId ?? generateTransactionId)();
    const input = paymentInputOf(request, amount, transactionId);

    this.out.note('');
    this.out.note(
      renderPurchaseSummary(
        {
          service: input.service,
          serviceName: this.offerOf(input.service)?.name,
          account: input.account,
          voucher,
          amount: input.amount,
          currency: input.currency,
          transactionId,
          exchange: checked.exchange,
        },
        this.out.errorStyle,
        this.columns,
      ),
    );
    const go = await this.deps.prompter.confirm({ message: `Pay ${input.amount} ${input.currency} now?`, initial: false });
    if (!go) throw new CancelledError('cancelled: nothing was paid');
    if (this.deps.signal.aborted) throw new CancelledError();

    // From here on the payment may be out: Ctrl+C never means "nothing happened".
    const spinner = startSpinner(this.out.stderr, `Paying ${input.amount} ${input.currency}, TransactionID ${transactionId}…`, this.out.errorStyle);
    let outcome;
    try {
      outcome = await this.deps.pay(input, this.deps.signal);
    } finally {
      spinner.stop();
    }
    this.out.data(renderReceipt(outcome.view, this.out.style));
    if (outcome.view.state === 'pending') {
      await this.follow(outcome.view);
      return;
    }
    if (outcome.error) throw outcome.error;
  }

  /** Service, account and currency: from the flags, or asked. */
  private async askPurchase(): Promise<Purchase> {
    const service = this.options.service ?? (await this.askService());
    const account = this.options.account ?? (await this.askAccount());
    const currency = this.options.currency ?? (await this.askCurrency(service));
    return { service, account, currency };
  }

  private async askService(): Promise<string> {
    const { prompter, catalogue } = this.deps;
    if (catalogue && catalogue.services.length > 0) {
      const width = this.columns - 4;
      const idWidth = Math.max(...catalogue.services.map((s) => s.id.length));
      const choices: PromptChoice[] = catalogue.services.map((s) => ({
        value: s.id,
        label: truncate(`${s.id.padEnd(idWidth)}  ${s.name} (${s.kind}, ${s.currency})`, width),
      }));
      choices.push({ value: otherService, label: 'another service id…' });
      const picked = await prompter.select({ message: 'Service', choices });
      if (picked !== otherService) return picked;
    }
    return (await prompter.input({ message: 'Service id', validate: notEmpty('the service id') })).trim();
  }

  private async askAccount(): Promise<string> {
    const account = await this.deps.prompter.input({
      message: 'Customer account',
      initial: this.deps.catalogue?.defaultAccount,
      validate: notEmpty('the account'),
    });
    return account.trim();
  }

  private async askCurrency(service: string): Promise<string> {
    const currency = await this.deps.prompter.input({
      message: 'Currency',
      initial: this.offerOf(service)?.currency ?? 'KZT',
      validate: (value) => fieldProblem(() => parseCurrency(value.trim())),
    });
    return parseCurrency(currency.trim());
  }

  /** AccountCheck with a spinner; a refusal comes back as a GatewayRefusedError. */
  private async check(purchase: Purchase): Promise<Checked> {
    if (this.deps.signal.aborted) throw new CancelledError();
    const { out } = this;
    const subject = `service ${purchase.service}, account ${purchase.account}`;
    const spinner = startSpinner(out.stderr, `Checking ${subject}…`, out.errorStyle);
    try {
      const { answer, vouchers } = await untilInterrupted(checkPurchase(this.deps.client, purchase), this.deps.signal);
      spinner.stop();
      return { vouchers, currency: answer.currency ?? purchase.currency, exchange: foreignExchangeOf(answer, purchase.currency) };
    } catch (error) {
      spinner.stop();
      // Nothing has been paid yet: Ctrl+C here is a plain cancel.
      if (error instanceof Interrupted) throw new CancelledError();
      throw error;
    }
  }

  /** After a refused check (or an empty voucher list): show why, and let the person change what was refused. */
  private async askAgain(purchase: Purchase, refusal: GatewayRefusedError | EmptyVoucherListError): Promise<Purchase> {
    const { out, deps } = this;
    out.note(`${out.errorStyle.failure('✗')} ${refusal.message}`);
    const next = await deps.prompter.select({
      message: 'What now?',
      choices: [
        { value: 'account', label: 'try another account' },
        { value: 'service', label: 'try another service' },
        { value: 'currency', label: 'try another currency' },
        { value: 'quit', label: 'quit' },
      ],
    });
    switch (next) {
      case 'account':
        return { ...purchase, account: await this.askAccount() };
      case 'service': {
        const service = await this.askService();
        return { ...purchase, service, currency: await this.askCurrency(service) };
      }
      case 'currency':
        return { ...purchase, currency: await this.askCurrency(purchase.service) };
      default:
        throw refusal;
    }
  }

  private async pickVoucher(purchase: Purchase, vouchers: Voucher[], currency: string): Promise<Choice> {
    const { out, deps, options } = this;
    const subject = `service ${purchase.service}, account ${purchase.account}`;
    out.note(out.errorStyle.dim(`${vouchers.length} voucher${vouchers.length === 1 ? '' : 's'} for ${subject}`));
    out.note(renderVoucherTable(vouchers, { currency, columns: this.columns, style: out.errorStyle }));
    const filter = vouchers.length > filterThreshold;
    out.note(out.errorStyle.dim(`↑/↓ to move${filter ? ', type to filter' : ''}, Enter to choose, Esc to cancel`));

    let initial: string | undefined;
    if (options.amount !== undefined) {
      const index = vouchers.findIndex((v) => v.orderAmount === options.amount);
      if (index >= 0) initial = String(index);
      else out.warn(`no voucher costs exactly ${options.amount}; pick one`);
    }
    const labels = voucherChoiceLabels(vouchers, currency, this.columns - 4);
    const picked = await deps.prompter.select({
      message: 'Voucher',
      choices: vouchers.map((_, index) => ({ value: String(index), label: labels[index] ?? '' })),
      initial,
      filter,
      limit: Math.min(vouchers.length, 10),
    });
    const chosen = vouchers[Number(picked)];
    if (!chosen) throw new UsageError(`no such voucher: ${picked}`);
    const request = { ...purchase, invoiceId: chosen.invoiceId };
    return { request, ...voucherOf(vouchers, request) };
  }

  /** A static service (spec 4.3): the amount from --amount, or asked. */
  private async askStaticAmount(purchase: Purchase): Promise<Choice> {
    const { out, deps } = this;
    out.note(`No voucher list for service ${purchase.service}: a static service, paid with an amount.`);
    const amount =
      this.options.amount ??
      (await deps.prompter.input({
        message: `Amount (${purchase.currency})`,
        initial: this.offerOf(purchase.service)?.denomination,
        validate: (value) => fieldProblem(() => parseAmount(value, 'the amount')) ?? (/^0(\.0+)?$/.test(value) ? 'the amount must be more than zero' : undefined),
      }));
    const request: PurchaseRequest = { ...purchase, amount };
    return { request, ...(await resolvePurchase(deps.client, request)) };
  }

  /** A pending payment: Status until final, or until Ctrl+C (the payment stands either way). */
  private async follow(pending: TransactionView): Promise<void> {
    const { out, deps } = this;
    const id = pending.transactionId;
    const lookItUp = `look it up with: agentpay status ${id}`;
    out.note(out.errorStyle.dim(`Following it until it is final; Ctrl+C stops following (the payment stands).`));
    const spinner = startSpinner(out.stderr, `Waiting for transaction ${id}…`, out.errorStyle);
    let result;
    try {
      result = await untilInterrupted(lookUpStatus(deps.client, id, deps.codes, Number.POSITIVE_INFINITY, { signal: deps.signal, pollWhile: 'pending' }), deps.signal);
    } catch (error) {
      if (error instanceof Interrupted) {
        throw new TransactionPendingError(`stopped following transaction ${id} (still in progress)`, { hint: lookItUp });
      }
      throw error;
    } finally {
      spinner.stop();
    }
    if (result.error) {
      throw new TransactionPendingError(`could not follow transaction ${id}: ${result.error.message}`, { hint: lookItUp });
    }
    out.data(renderReceipt(result.view, out.style));
    const error = errorOfView(result.view, deps.codes);
    if (error) throw error;
  }
}

export function runBuyFlow(options: BuyOptions, deps: BuyDependencies): Promise<void> {
  return new BuyFlow(options, deps).run();
}

/** `CI` set to anything but "" / "0" / "false" means no person is there to answer. */
function isCi(env: NodeJS.ProcessEnv): boolean {
  const value = env.CI;
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}

/** buy only ever asks; without a person at a terminal it refuses before anything is sent. */
function refuseWithoutTerminal(out: Output): void {
  const scripts = 'scripts use `agentpay check` to list the vouchers, then `agentpay pay --invoice-id <id>` (or --amount)';
  if (out.json) throw new UsageError('buy is interactive and has no --json output', { hint: scripts });
  const missing = !out.stdin.isTTY ? 'stdin is not a terminal' : !out.stdout.isTTY ? 'stdout is not a terminal' : isCi(out.env) ? 'CI is set' : undefined;
  if (missing) throw new UsageError(`buy is interactive and needs a person at a terminal (${missing}); nothing was sent`, { hint: scripts });
}

export async function sandboxCatalogue(): Promise<ServiceCatalogue> {
  const { sandboxServices, sandboxAccounts } = await import('../sandbox/catalogue.js');
  return {
    services: sandboxServices.map((s) => ({
      id: s.id,
      name: s.name,
      kind: s.kind,
      currency: s.currency,
      denomination: s.kind === 'static' ? s.denomination : undefined,
    })),
    defaultAccount: sandboxAccounts[0].account,
  };
}

export async function runBuy(rawOptions: unknown, context: CommandContext): Promise<void> {
  const { out, settings } = context;
  refuseWithoutTerminal(out);
  const options = parseOptions(buyOptionsSchema, rawOptions);
  const catalogue = settings.sandbox ? await sandboxCatalogue() : undefined;
  const { terminalPrompter } = await import('../prompts.js');
  // Outside a prompt the terminal turns Ctrl+C into SIGINT; the flow decides what it means.
  const interrupt = new AbortController();
  const onInterrupt = () => interrupt.abort();
  process.on('SIGINT', onInterrupt);
  let session: Awaited<ReturnType<CommandContext['openGateway']>> | undefined;
  try {
    session = await context.openGateway();
    const paying = session;
    await runBuyFlow(options, {
      client: session.client,
      pay: (input, signal) => {
        // SIGTERM (a service manager stopping it) is heard once the payment may be out: it ends
        // as Ctrl+C does, with the TransactionID and how to look it up. Before, nothing was sent.
        process.on('SIGTERM', onInterrupt);
        return executePayment(context, paying, input, { checkReplay: false, signal });
      },
      prompter: terminalPrompter({ stdin: out.stdin, stderr: out.stderr, color: out.errorStyle.enabled }),
      out,
      codes: settings.codes.table,
      catalogue,
      signal: interrupt.signal,
    });
  } finally {
    process.off('SIGINT', onInterrupt);
    process.off('SIGTERM', onInterrupt);
    await session?.close({ abort: interrupt.signal.aborted });
  }
}
