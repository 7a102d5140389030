import type { GatewayClient, PaymentInput } from '../../gateway/client.js';
import type { Output } from '../../output.js';
import type { Prompter } from '../../prompts.js';
import type { CodeTable } from '../../protocol/codes.js';
import type { TransactionView } from '../../protocol/transaction-view.js';
import type { DeskFindings, DeskPolicy } from '../../purchase/desk-guard.js';
import type { PurchaseNotes } from '../../purchase/execute-payment.js';
import type { LookUpBook } from '../../purchase/look-up-record.js';
import type { PaymentOutcome } from '../../purchase/outcome.js';
import type { LiveLine } from '../../render/live-line.js';

/** The flags; any of them may be missing (then it is asked). */
export interface BuyOptions {
  service?: string | undefined;
  account?: string | undefined;
  currency?: string | undefined;
  amount?: string | undefined;
  /** --over-limit: pay even over a limit (the ledger records it). */
  overLimit?: boolean | undefined;
  /** --request-approval: a purchase over the approval threshold is recorded for a supervisor, not paid. */
  requestApproval?: boolean | undefined;
}

/** A service the person can pick from a list (the sandbox's catalogue, or the profile's `services`). */
interface ServiceOffer {
  id: string;
  name: string | undefined;
  /** Undefined when nobody said (a profile's plain `"101": "GameCoins"`): the AccountCheck decides. */
  kind: 'dynamic' | 'static' | undefined;
  currency?: string | undefined;
  /** A static service's fixed amount, offered as the default. */
  denomination?: string | undefined;
  /** A static service's amounts as the profile lists them: buy offers these and takes no other. */
  amounts?: readonly string[] | undefined;
}

export interface ServiceCatalogue {
  services: readonly ServiceOffer[];
  /** Offered as the default account. */
  defaultAccount?: string | undefined;
  // 'profile': the desk's word on its services, so a refused AccountCheck of a static one means "no voucher
  // list" (docs/commands.md); 'sandbox': the sandbox checks static services, so refusals stay refusals.
  from: 'sandbox' | 'profile';
}

export interface BuyDependencies {
  client: GatewayClient;
  /** The desk's limits and earlier like payments for this purchase, from the ledger (purchase/desk-guard.ts). */
  deskFindings: (input: PaymentInput) => Promise<DeskFindings>;
  /** The desk's limit for one payment in a currency (maxAmount), to mark the vouchers over it in the list. */
  maxAmount?: ((currency: string) => string | undefined) | undefined;
  /** Pays and settles, journaled (executePayment); on `signal` it says unknown, never not made. */
  pay: (
    input: PaymentInput,
    signal: AbortSignal,
    purchase: { notes: PurchaseNotes; desk: DeskPolicy },
  ) => Promise<PaymentOutcome>;
  /** `--receipt <file>` once the outcome is known (again when pending turns final); view undefined on a throw. */
  writeReceipt?: ((input: PaymentInput, view: TransactionView | undefined) => Promise<void>) | undefined;
  /** Where following a pending payment records what it learned, as reconcile would (status does too). */
  lookUpBook?: LookUpBook | undefined;
  prompter: Prompter;
  out: Output;
  /** The gateway's code table: what is final, in progress or not found. */
  codes: CodeTable;
  /** Services to choose from instead of typing an id: the sandbox's, or the profile's `services`. */
  catalogue?: ServiceCatalogue | undefined;
  /** The live profile paid through, named again in the summary before the yes. */
  live?: LiveLine | undefined;
  /** Aborted on Ctrl+C outside a prompt (a prompt turns Ctrl+C into a CancelledError itself). */
  signal: AbortSignal;
  /** The first wait between Status polls of a pending payment (--settle-delay). */
  firstDelayMs: number;
  newTransactionId?: () => string;
}

/** One run of the flow: the flags, what it works with, and the width its lines fit. */
export interface BuyScope {
  options: BuyOptions;
  deps: BuyDependencies;
  out: Output;
  columns: number;
  offerOf(service: string): ServiceOffer | undefined;
  /** Whether the profile declares this service static (spec 4.3): its refused check is no list. */
  declaredStatic(service: string): boolean;
}

export function buyScope(options: BuyOptions, deps: BuyDependencies): BuyScope {
  const offerOf = (service: string) => deps.catalogue?.services.find((offer) => offer.id === service);
  return {
    options,
    deps,
    out: deps.out,
    columns: deps.out.stderr.columns || deps.out.columns,
    offerOf,
    declaredStatic: (service) => deps.catalogue?.from === 'profile' && offerOf(service)?.kind === 'static',
  };
}
