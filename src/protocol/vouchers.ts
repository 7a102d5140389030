import type { ExtraItem } from './envelope.js';
import { exactTextAt, memberOf, objectAt, optionalTextAt, ShapeError } from './json-shape.js';
import { parseLosslessJson } from './lossless.js';
import { isPlainDecimal } from './money.js';
import { MalformedAnswerError } from './problems.js';

export interface Voucher {
  position: number;
  fieldName: string;
  invoiceId: string;
  /** Exactly as the gateway wrote it: it goes back byte for byte as Amount (spec 4.2). */
  orderAmount: string;
  name: string;
}

// An AccountCheck's vouchers: null when there are no Extras, a static service (spec 4.3); else the list (spec
// 4.1). An empty list is a dynamic service with nothing for this account, never a static one.
export type VoucherList = Voucher[] | null;

/** `Invoice-<n>` where n is the position number (spec 2.4). */
function positionOf(fieldName: string, index: number): number {
  const match = /^Invoice-(\d+)$/.exec(fieldName);
  return match?.[1] ? Number(match[1]) : index + 1;
}

// spec 2.4: the parsed FieldValue of an Extras item, its one definition (hand-written like the envelope's).
// InvoiceId and OrderAmount stay the exact text the gateway wrote: OrderAmount goes back byte for byte.
function readVoucherValue(value: unknown): { invoiceId: string; orderAmount: string; name: string | undefined } {
  const object = objectAt(value, 'FieldValue');
  const invoiceIdValue = memberOf(object, 'InvoiceId');
  const invoiceId = exactTextAt(invoiceIdValue, 'InvoiceId', 'an integer');
  if (!/^\d+$/.test(invoiceId)) throw new ShapeError('InvoiceId', 'an integer', invoiceIdValue);
  const orderAmountValue = memberOf(object, 'OrderAmount');
  const orderAmount = exactTextAt(orderAmountValue, 'OrderAmount', 'a plain decimal');
  if (!isPlainDecimal(orderAmount)) throw new ShapeError('OrderAmount', 'a plain decimal', orderAmountValue);
  return { invoiceId, orderAmount, name: optionalTextAt(memberOf(object, 'InvoiceName'), 'InvoiceName') };
}

// Vouchers read before, by Extras item: a gateway sends one list to every account of a service. A voucher
// is a pure function of its item and position, so one read serves all (frozen, and at most this many).
const readBefore = new Map<string, Readonly<Voucher>>();
const readBeforeLimit = 256;

/** The voucher list of an answer's Extras (null: none at all, see VoucherList). */
export function parseVoucherList(extras: readonly ExtraItem[] | null): VoucherList {
  if (extras === null) return null;
  return extras.map((item, index) => {
    const itemKey = JSON.stringify([index, item.FieldName ?? null, item.FieldValue]);
    const known = readBefore.get(itemKey);
    if (known !== undefined) return known;
    const voucher = Object.freeze(readVoucher(item, index));
    if (readBefore.size < readBeforeLimit) readBefore.set(itemKey, voucher);
    return voucher;
  });
}

function readVoucher(item: ExtraItem, index: number): Voucher {
  const fieldName = item.FieldName ?? `Invoice-${index + 1}`;
  let value: unknown;
  try {
    value = parseLosslessJson(item.FieldValue);
  } catch (error) {
    throw new MalformedAnswerError(`voucher ${fieldName}: FieldValue is not a JSON document`, { cause: error });
  }
  let read;
  try {
    read = readVoucherValue(value);
  } catch (error) {
    if (!(error instanceof ShapeError)) throw error;
    throw new MalformedAnswerError(`voucher ${fieldName}: ${error.message}`, { cause: error });
  }
  return {
    position: positionOf(fieldName, index),
    fieldName,
    invoiceId: read.invoiceId,
    orderAmount: read.orderAmount,
    name: read.name ?? '',
  };
}

// The list with each voucher's name and field name passed through `redact`; InvoiceId and OrderAmount are
// never touched, and a voucher with nothing to blank stays the same object.
export function redactedVoucherList(list: VoucherList, redact: (text: string) => string): VoucherList {
  if (list === null) return null;
  return list.map((voucher) => {
    const name = redact(voucher.name);
    const fieldName = redact(voucher.fieldName);
    return name === voucher.name && fieldName === voucher.fieldName
      ? voucher
      : Object.freeze({ ...voucher, name, fieldName });
  });
}
