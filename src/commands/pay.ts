import { z } from 'zod';
import { generateTransactionId, parseTransactionId } from '../protocol/transaction-id.js';
import { formToObject, maskForm } from '../protocol/form.js';
import type { CommandContext } from './context.js';
import { executePayment } from './execute-payment.js';
import { dryRunLines, paymentInputOf, resolvePurchase } from './payment-flow.js';
import { invoiceIdOption, optionalAmount, parseOptions, purchaseOptionsSchema } from './purchase-options.js';

export const payOptionsSchema = purchaseOptionsSchema
  .extend({
    amount: optionalAmount,
    invoiceId: invoiceIdOption,
    txnId: z
      .string()
      .optional()
      .transform((value) => (value === undefined ? undefined : parseTransactionId(value, '--txn-id'))),
    dryRun: z.boolean().default(false),
  })
  .refine((o) => o.invoiceId !== undefined || o.amount !== undefined, {
    message: 'give --invoice-id <id> for a dynamic voucher, or --amount <decimal> for a static one',
  });

/** `agentpay pay`: one Payment, dynamic (spec 4.2) or static (spec 4.3). */
export async function runPay(rawOptions: unknown, context: CommandContext): Promise<void> {
  const options = parseOptions(payOptionsSchema, rawOptions);
  const { out } = context;
  const session = await context.openGateway();
  try {
    const { client } = session;
    const { amount } = await resolvePurchase(client, options);
    const input = paymentInputOf(options, amount, options.txnId ?? generateTransactionId());

    if (options.dryRun) {
      const form = maskForm(client.paymentForm(input));
      if (out.json) out.data(JSON.stringify({ dryRun: true, endpoint: client.endpoint, form: formToObject(form) }));
      else {
        out.note(out.errorStyle.dim('dry run: this Payment would be sent; nothing was.'));
        out.data(dryRunLines(client.endpoint, form).join('\n'));
      }
      return;
    }

    const { view, error } = await executePayment(context, session, input, { checkReplay: options.txnId !== undefined });
    if (out.json) {
      const { transactionJson } = await import('../render/transaction.js');
      out.data(transactionJson(view));
    } else {
      const { renderReceipt } = await import('../render/transaction.js');
      out.data(renderReceipt(view, out.style));
    }
    if (error) throw error;
  } finally {
    await session.close();
  }
}
