import { UsageError } from '../../errors.js';
import type { PurchaseOptions } from '../../options/purchase.js';
import { compareDecimals } from '../../protocol/money.js';
import type { Voucher } from '../../protocol/vouchers.js';
import type { PurchaseChoice } from '../../purchase/voucher-choice.js';
import { voucherChoiceLabels } from '../../render/purchase.js';
import { renderVoucherTable } from '../../render/vouchers.js';
import { t } from '../../run-scope.js';
import type { BuyScope } from './types.js';

/** More vouchers than this and typing filters the list. */
const filterThreshold = 7;

/** The voucher list on stderr, then a pick; --amount starts the list on the voucher that costs exactly that. */
export async function pickVoucher(
  scope: BuyScope,
  purchase: PurchaseOptions,
  vouchers: Voucher[],
  currency: string,
): Promise<PurchaseChoice> {
  const { out, deps, options, columns } = scope;
  const said = t();
  const subject = said.check.subject(purchase.service, purchase.account);
  out.note(out.errorStyle.dim(said.check.count(vouchers.length, subject)));
  out.note(renderVoucherTable(vouchers, { currency, columns, style: out.errorStyle, said }));
  const filter = vouchers.length > filterThreshold;
  out.note(out.errorStyle.dim(said.buy.keys(filter)));

  let initial: string | undefined;
  if (options.amount !== undefined) {
    const index = vouchers.findIndex((v) => v.orderAmount === options.amount);
    if (index >= 0) initial = String(index);
    else out.warn(said.buy.noVoucherCosts(options.amount));
  }
  // Vouchers over the desk's limit for one payment stay in the list, marked (docs/desk-safety.md).
  const limit = scope.deps.maxAmount?.(currency);
  const over = (voucher: Voucher) => limit !== undefined && compareDecimals(voucher.orderAmount, limit) > 0;
  const mark = `  (${said.buy.overLimitMark})`;
  const labels = voucherChoiceLabels(vouchers, currency, columns - 4 - mark.length, said).map((label, index) =>
    over(vouchers[index]!) ? `${label}${mark}` : label,
  );
  const picked = await deps.prompter.select({
    message: said.buy.voucher,
    choices: labels.map((label, index) => ({ value: String(index), label })),
    initial,
    filter,
    limit: Math.min(vouchers.length, 10),
  });
  const chosen = vouchers[Number(picked)];
  if (!chosen) throw new UsageError(said.buy.noSuchVoucher(picked));
  // The picked voucher itself, whole: two vouchers sharing an InvoiceId cannot be swapped.
  return { kind: 'voucher', voucher: chosen };
}
