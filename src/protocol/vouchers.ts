import { z } from 'zod';
import type { ExtraItem } from './envelope.js';
import { exactText } from './exact-text.js';
import { parseLosslessJson } from './lossless.js';
import { isPlainDecimal } from './money.js';
import { MalformedAnswerError } from './problems.js';

/** spec 2.4: the parsed FieldValue of an Extras item. */
const voucherValueSchema = z.looseObject({
  InvoiceId: exactText.refine((s) => /^\d+$/.test(s), 'InvoiceId must be an integer'),
  OrderAmount: exactText.refine(isPlainDecimal, 'OrderAmount must be a plain decimal'),
  InvoiceName: exactText.nullish(),
});

export interface Voucher {
  position: number;
  fieldName: string;
  invoiceId: string;
  /** Exactly as the gateway wrote it: it goes back byte for byte as Amount (spec 4.2). */
  orderAmount: string;
  name: string;
}

/**
 * What an AccountCheck says about vouchers: null when its answer has no Extras at all, a
 * static service paid with an amount (spec 4.3); otherwise the list (spec 4.1). An empty list
 * is a dynamic service with nothing for this account now: never a static one, so nothing
 * falls back to paying a free amount.
 */
export type VoucherList = Voucher[] | null;

/** `Invoice-<n>` where n is the position number (spec 2.4). */
function positionOf(fieldName: string, index: number): number {
  const match = /^Invoice-(\d+)$/.exec(fieldName);
  return match?.[1] ? Number(match[1]) : index + 1;
}

export function parseVoucherList(extras: readonly ExtraItem[] | null): VoucherList {
  if (extras === null) return null;
  return extras.map((item, index) => {
    const fieldName = item.FieldName ?? `Invoice-${index + 1}`;
    let value: unknown;
    try {
      value = parseLosslessJson(item.FieldValue);
    } catch (error) {
      throw new MalformedAnswerError(`voucher ${fieldName}: FieldValue is not a JSON document`, { cause: error });
    }
    const parsed = voucherValueSchema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new MalformedAnswerError(`voucher ${fieldName}: ${issue?.path.join('.') || 'FieldValue'}: ${issue?.message ?? 'invalid'}`);
    }
    return {
      position: positionOf(fieldName, index),
      fieldName,
      invoiceId: parsed.data.InvoiceId,
      orderAmount: parsed.data.OrderAmount,
      name: parsed.data.InvoiceName ?? '',
    };
  });
}
