import { GatewayRefusedError } from '../../errors.js';
import { checkOptions } from '../../options/purchase.js';
import { successStatus } from '../../protocol/codes.js';
import { foreignExchangeOf } from '../../protocol/exchange-rate.js';
import { stringifyLosslessJson } from '../../protocol/lossless.js';
import { accountCheckLine } from '../../purchase/account-check.js';
import type { CommandContext } from '../context.js';

/** The pay command for what was checked, currency included: the gateway refuses another one. */
const payCommand = (purchase: { service: string; account: string; currency: string }) =>
  `agentpay pay --service ${purchase.service} --account ${purchase.account} --currency ${purchase.currency}`;

/** `agentpay check`: AccountCheck, and the voucher list (spec 4.1). */
export async function runCheck(rawOptions: unknown, context: CommandContext): Promise<void> {
  const purchase = checkOptions(rawOptions);
  const { out } = context;
  const session = await context.openGateway();
  try {
    const result = await session.client.accountCheck(purchase);
    const { answer, vouchers } = result;
    if (out.json) {
      const line = accountCheckLine(result, purchase);
      // The gateway's answer as received; the lossless serialiser keeps every digit of its numbers.
      out.data(stringifyLosslessJson({ ...line, envelope: answer.raw }));
    }
    if (answer.status !== successStatus) {
      throw new GatewayRefusedError(`the gateway refused the account check: ${answer.message || 'no message'} (ResponseStatus ${answer.status})`, answer.status, {
        hint: 'check --service, --account and --currency; if the message is about the agent id or password, check them with `agentpay doctor`',
      });
    }
    if (out.json) return;
    const currency = answer.currency ?? purchase.currency;
    const subject = `service ${answer.service ?? purchase.service}, account ${answer.account ?? purchase.account}`;
    // Heads the list: a rate other than 1 or another crediting currency is seen before anything is paid.
    const exchange = foreignExchangeOf(answer, purchase.currency);
    if (exchange) out.note(`Exchange rate ${(await import('../../render/purchase.js')).exchangeText(exchange)}`);
    if (vouchers === null) {
      out.note(`No voucher list for ${subject}: a static service. Pay it with: ${payCommand(purchase)} --amount <amount>`);
      return;
    }
    // An empty list is not a static service (vouchers.ts): the check succeeded, with nothing to buy now.
    if (vouchers.length === 0) {
      out.note(`No vouchers available for ${subject} now: the gateway's voucher list is empty (not a static service). Try again later, or another account.`);
      return;
    }
    const { renderVoucherTable } = await import('../../render/vouchers.js');
    out.note(out.errorStyle.dim(`${vouchers.length} voucher${vouchers.length === 1 ? '' : 's'} for ${subject}`));
    out.data(renderVoucherTable(vouchers, { currency, columns: out.columns, style: out.style }));
    out.note(out.errorStyle.dim(`Pay one with: ${payCommand(purchase)} --invoice-id <InvoiceId>`));
  } finally {
    await session.close();
  }
}
