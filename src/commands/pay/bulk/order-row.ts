import type { BulkOrder } from '../../../ledger/bulk-run.js';
import { defaultCurrency } from '../../../options/purchase.js';
import { fromDecimalComma } from '../../../protocol/decimal-comma.js';
import {
  amountMaxDigits,
  isAmountWithinBounds,
  isServiceId,
  serviceIdMaxDigits,
} from '../../../protocol/field-bounds.js';
import { isPlainDecimal, isZeroDecimal, parseCurrency } from '../../../protocol/money.js';
import { InvalidFieldError } from '../../../protocol/problems.js';
import type { BadRow } from '../../../render/bulk.js';
import { t } from '../../../run-scope.js';
import { cellTextProblem, type OrderColumn, orderColumns } from './order-cells.js';

// The orders of `pay --from-file` (docs/commands.md), each row checked before anything is sent and known by its
// first line; a voucher by InvoiceId (spec 4.2) or position (`Invoice-<n>`, spec 2.4), and/or an amount.
export type OrderRow = BulkOrder;

// One row's cells by column checked into an order, or its problems; with `decimalComma`, `1 500,00` is 1500.00.
export function orderOf(
  line: number,
  cells: Partial<Record<OrderColumn, string>>,
  problems: BadRow[],
  decimalComma: boolean,
): OrderRow | undefined {
  const before = problems.length;
  const bad = (column: OrderColumn | undefined, message: string) => problems.push({ line, column, message });
  // A cell too long, or holding a control character, is not read on: its rule would quote it, or pass it on.
  for (const column of orderColumns) {
    const problem = cells[column] === undefined ? undefined : cellTextProblem(column, cells[column]);
    if (problem !== undefined) bad(column, problem);
  }
  if (problems.length > before) return undefined;
  const required = (column: 'service' | 'account') => {
    const value = cells[column];
    if (value === undefined || value.trim() === '') bad(column, t().bulk.cell.empty);
    else if (value !== value.trim()) bad(column, t().bulk.cell.spaces(value));
    return value ?? '';
  };
  const service = required('service');
  if (problems.length === before && !isServiceId(service))
    bad('service', t().bulk.cell.service(service, serviceIdMaxDigits));
  const account = required('account');
  let currency = defaultCurrency;
  if (cells.currency !== undefined && cells.currency !== '') {
    try {
      currency = parseCurrency(cells.currency);
    } catch (error) {
      if (!(error instanceof InvalidFieldError)) throw error;
      bad('currency', t().bulk.cell.currency(cells.currency));
    }
  }
  const invoiceId = cells['invoice-id'] || undefined;
  if (invoiceId !== undefined && !/^\d{1,19}$/.test(invoiceId)) bad('invoice-id', t().bulk.cell.invoiceId(invoiceId));
  const position = cells.invoice || undefined;
  if (position !== undefined && !/^[1-9]\d{0,5}$/.test(position)) bad('invoice', t().bulk.cell.position(position));
  if (invoiceId !== undefined && position !== undefined) bad('invoice', t().bulk.cell.invoiceBoth);
  const written = cells.amount || undefined;
  const amount = written !== undefined && decimalComma ? fromDecimalComma(written) : written;
  if (amount !== undefined && !isPlainDecimal(amount)) bad('amount', t().bulk.cell.amount(written ?? amount));
  else if (amount !== undefined && !isAmountWithinBounds(amount))
    bad('amount', t().bulk.cell.amountDigits(amount, amountMaxDigits.whole, amountMaxDigits.fraction));
  if (invoiceId === undefined && position === undefined && amount === undefined)
    bad(undefined, t().bulk.cell.nothingToPay);
  else if (invoiceId === undefined && position === undefined && amount !== undefined && isZeroDecimal(amount))
    bad('amount', t().bulk.cell.zeroAmount);
  const key = cells.key || undefined;
  if (problems.length > before) return undefined;
  return {
    line,
    key,
    service,
    account,
    currency,
    invoiceId,
    invoicePosition: position === undefined ? undefined : Number(position),
    amount,
  };
}
