import { GatewayRefusedError } from '../../errors.js';
import { checkOptions, typedAmountNotation } from '../../options/purchase.js';
import { successStatus } from '../../protocol/codes.js';
import { foreignExchangeOf } from '../../protocol/exchange-rate.js';
import { stringifyLosslessJson } from '../../protocol/lossless.js';
import { accountCheckLine } from '../../purchase/account-check.js';
import { shownText } from '../../render/sanitize.js';
import { t } from '../../run-scope.js';
import type { CommandContext } from '../context.js';

/** The pay command for what was checked, currency included: the gateway refuses another one. */
const payCommand = (purchase: { service: string; account: string; currency: string }) =>
  `agentpay pay --service ${purchase.service} --account ${purchase.account} --currency ${purchase.currency}`;

/** `agentpay check`: AccountCheck, and the voucher list (spec 4.1). */
export async function runCheck(rawOptions: unknown, context: CommandContext): Promise<void> {
  const purchase = checkOptions(rawOptions, typedAmountNotation());
  const { out } = context;
  const said = t();
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
      throw new GatewayRefusedError(
        said.purchase.checkRefused(answer.message || said.purchase.noMessage, answer.status),
        answer.status,
        {
          hint: said.purchase.checkRefusedHint,
        },
      );
    }
    if (out.json) return;
    const currency = answer.currency ?? purchase.currency;
    // The gateway may echo the service and account back: shown as a person reads them (shownText).
    const subject = said.check.subject(
      shownText(answer.service ?? purchase.service),
      shownText(answer.account ?? purchase.account),
    );
    // Heads the list: a rate other than 1 or another crediting currency is seen before anything is paid.
    const exchange = foreignExchangeOf(answer, purchase.currency);
    if (exchange)
      out.note(said.check.exchangeRate((await import('../../render/purchase.js')).exchangeText(exchange, said)));
    if (vouchers === null) {
      out.note(said.check.staticService(subject, payCommand(purchase)));
      return;
    }
    // An empty list is not a static service (vouchers.ts): the check succeeded, with nothing to buy now.
    if (vouchers.length === 0) {
      out.note(said.check.emptyList(subject));
      return;
    }
    const { renderVoucherTable } = await import('../../render/vouchers.js');
    out.note(out.errorStyle.dim(said.check.count(vouchers.length, subject)));
    out.data(renderVoucherTable(vouchers, { currency, columns: out.tableWidth, style: out.style, said }));
    out.note(out.errorStyle.dim(said.check.payOne(payCommand(purchase))));
  } finally {
    await session.close();
  }
}
