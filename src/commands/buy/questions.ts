import { type EmptyVoucherListError, type GatewayRefusedError, UsageError } from '../../errors.js';
import {
  defaultCurrency,
  type PurchaseOptions,
  purchaseTextProblem,
  typedAmountNotation,
} from '../../options/purchase.js';
import type { PromptChoice } from '../../prompts.js';
import { isZeroDecimal, parseAmount, parseCurrency } from '../../protocol/money.js';
import { InvalidFieldError } from '../../protocol/problems.js';
import type { PurchaseChoice } from '../../purchase/voucher-choice.js';
import { truncate } from '../../render/purchase.js';
import { shownText } from '../../render/sanitize.js';
import { t } from '../../run-scope.js';
import type { BuyScope } from './types.js';

/** The questions of `buy`: what the flags did not give, and what to change after a refusal. */

const otherService = '\0other';

function fieldProblem(check: () => unknown): string | undefined {
  try {
    check();
    return undefined;
  } catch (error) {
    if (error instanceof InvalidFieldError) return t().options.field(error);
    throw error;
  }
}

/** A service or account typed: not blank, and no control character (as --service and --account). */
const notEmpty = (what: 'service' | 'account') => (value: string) =>
  value.trim() === '' ? t().buy.mustNotBeEmpty(what) : purchaseTextProblem(what, value.trim());

/** Service, account and currency: from the flags, or asked. */
export async function askPurchase(scope: BuyScope): Promise<PurchaseOptions> {
  const service = scope.options.service ?? (await askService(scope));
  const account = scope.options.account ?? (await askAccount(scope));
  const currency = scope.options.currency ?? (await askCurrency(scope, service));
  return { service, account, currency };
}

async function askService({ deps, columns }: BuyScope): Promise<string> {
  const { prompter, catalogue } = deps;
  const said = t().buy;
  if (catalogue && catalogue.services.length > 0) {
    const width = columns - 4;
    const idWidth = Math.max(...catalogue.services.map((s) => s.id.length));
    const choices: PromptChoice[] = catalogue.services.map((s) => {
      // A profile's entry may leave out the name, the kind or both; its name is the desk's own text.
      const name = s.name === undefined ? '' : `  ${shownText(s.name)}`;
      const about = [s.kind && said.kinds[s.kind], s.currency].filter(Boolean).join(', ');
      return { value: s.id, label: truncate(`${s.id.padEnd(idWidth)}${name}${about ? ` (${about})` : ''}`, width) };
    });
    choices.push({ value: otherService, label: said.anotherService });
    const picked = await prompter.select({ message: said.service, choices });
    if (picked !== otherService) return picked;
  }
  return (await prompter.input({ message: said.serviceId, validate: notEmpty('service') })).trim();
}

async function askAccount({ deps }: BuyScope): Promise<string> {
  const account = await deps.prompter.input({
    message: t().buy.account,
    initial: deps.catalogue?.defaultAccount,
    validate: notEmpty('account'),
  });
  return account.trim();
}

async function askCurrency(scope: BuyScope, service: string): Promise<string> {
  const currency = await scope.deps.prompter.input({
    message: t().buy.currency,
    initial: scope.offerOf(service)?.currency ?? defaultCurrency,
    validate: (value) => fieldProblem(() => parseCurrency(value.trim())),
  });
  return parseCurrency(currency.trim());
}

/** After a refused check (or an empty voucher list): show why, and let the person change what was refused. */
export async function askAgain(
  scope: BuyScope,
  purchase: PurchaseOptions,
  refusal: GatewayRefusedError | EmptyVoucherListError,
): Promise<PurchaseOptions> {
  const { out, deps } = scope;
  const said = t().buy;
  out.note(`${out.errorStyle.failure('✗')} ${shownText(refusal.message)}`);
  const next = await deps.prompter.select({
    message: said.whatNow,
    choices: [
      { value: 'account', label: said.tryAccount },
      { value: 'service', label: said.tryService },
      { value: 'currency', label: said.tryCurrency },
      { value: 'quit', label: said.quit },
    ],
  });
  switch (next) {
    case 'account':
      return { ...purchase, account: await askAccount(scope) };
    case 'service': {
      const service = await askService(scope);
      return { ...purchase, service, currency: await askCurrency(scope, service) };
    }
    case 'currency':
      return { ...purchase, currency: await askCurrency(scope, purchase.service) };
    default:
      throw refusal;
  }
}

/** A static service (spec 4.3): the amount from --amount, or asked; one of the profile's amounts when it lists them. */
export async function askStaticAmount(scope: BuyScope, purchase: PurchaseOptions): Promise<PurchaseChoice> {
  const { out, deps } = scope;
  const said = t().buy;
  out.note(said.staticService(purchase.service));
  const listed = scope.offerOf(purchase.service)?.amounts ?? [];
  if (listed.length > 0) return { kind: 'amount', amount: await pickListedAmount(scope, purchase, listed) };
  if (scope.options.amount !== undefined) return { kind: 'amount', amount: scope.options.amount };
  // Typed in the language's notation (`1500,50` in Russian); the amount sent is the plain decimal it means.
  const typedAmount = (value: string) => parseAmount(value, 'the amount', typedAmountNotation());
  const typed = await deps.prompter.input({
    message: said.amount(purchase.currency),
    initial: scope.offerOf(purchase.service)?.denomination,
    validate: (value) =>
      fieldProblem(() => typedAmount(value)) ?? (isZeroDecimal(typedAmount(value)) ? said.moreThanZero : undefined),
  });
  return { kind: 'amount', amount: typedAmount(typed) };
}

// A static service's listed amounts: a pick, or --amount as written (`1500` is not `1500.00`, sent byte for
// byte). A desk that lists its denominations sells no other.
async function pickListedAmount(
  { options, deps }: BuyScope,
  purchase: PurchaseOptions,
  listed: readonly string[],
): Promise<string> {
  const said = t().buy;
  if (options.amount !== undefined) {
    if (listed.includes(options.amount)) return options.amount;
    throw new UsageError(said.amountNotListed(options.amount, purchase.service), {
      hint: said.amountNotListedHint(listed.join(', ')),
    });
  }
  return deps.prompter.select({
    message: said.amount(purchase.currency),
    choices: listed.map((amount) => ({ value: amount, label: `${amount} ${purchase.currency}` })),
  });
}
