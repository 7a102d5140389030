import { describe, expect, it } from 'vitest';
import { isolatedEnv, runCli } from '../helpers/cli.js';
import { answer, envelopeText, startFakeGateway } from '../helpers/fake-gateway.js';

/**
 * The retry an unknown payment's hint names, for a voucher the gateway took with that first
 * Payment and so lists no more: a gateway of its own (not the sandbox) whose list empties once
 * the voucher is sold, and whose first answer to the Payment is lost. The retry, as printed,
 * sends the same TransactionID again (the ledger holds the voucher) and pays nothing twice.
 */
const voucher = { invoiceId: '88001', orderAmount: '2497.00', name: 'Пакет 550' };

function soldVoucherGateway() {
  const sold = new Set<string>();
  return startFakeGateway((form, _request, response) => {
    const id = form.get('TransactionID') ?? '';
    const content = (extras?: string) =>
      `{"Service":"101","account":${JSON.stringify(form.get('Account'))},"Amount":${JSON.stringify(form.get('Amount'))},` +
      `"Currency":"KZT","ExchangeRate":"1"${extras === undefined ? '' : `,"Extras":${extras}`}}`;
    const type = form.get('RequestType');
    if (type === 'AccountCheck') {
      const listed = sold.size === 0 ? [voucher] : [];
      const extras = JSON.stringify(
        listed.map((v, i) => ({
          FieldName: `Invoice-${i + 1}`,
          FieldValue: JSON.stringify({
            InvoiceId: Number(v.invoiceId),
            OrderAmount: v.orderAmount,
            InvoiceName: v.name,
          }),
        })),
      );
      return answer(response, 200, envelopeText(form, { content: content(extras) }));
    }
    if (type === 'Payment' && !sold.has(id)) {
      sold.add(id);
      // Taken, but the answer never comes back whole.
      return answer(response, 502, 'Bad Gateway', 'text/plain');
    }
    if (type === 'Status' && sold.has(id)) return answer(response, 502, 'Bad Gateway', 'text/plain');
    answer(response, 200, envelopeText(form, { content: content() }));
  });
}

describe('the retry of a voucher payment whose answer was lost', () => {
  it('works as printed once the gateway lists the voucher no more, and pays it once', async () => {
    const gateway = await soldVoucherGateway();
    try {
      const env = {
        ...isolatedEnv({ AGENTPAY_BASE_URL: gateway.baseUrl, AGENTPAY_AGENT_ID: '1001', AGENTPAY_PASSWORD: 'pw' }),
        AGENTPAY_SETTLE_ATTEMPTS: '1',
        AGENTPAY_SETTLE_DELAY: '10',
      };
      const pay = ['pay', '--service', '101', '--account', '7011234567', '--currency', 'KZT'];
      const first = await runCli([...pay, '--invoice-id', voucher.invoiceId], { env });
      expect(first.code, first.stderr).toBe(3);
      const printed = /to try again without paying twice: `agentpay ([^`]+)`/.exec(first.stderr)?.[1];
      expect(printed).toMatch(/^pay --service 101 .* --invoice-id 88001 --amount 2497\.00 --txn-id \d+$/);
      const retry = await runCli(printed!.split(' '), { env });
      expect(retry.code, retry.stderr).toBe(0);
      const payments = gateway.received.filter((form) => form.get('RequestType') === 'Payment');
      expect(payments.map((form) => [form.get('Extra[0].Value'), form.get('Amount')])).toEqual([
        ['88001', '2497.00'],
        ['88001', '2497.00'],
      ]);
      expect(new Set(payments.map((form) => form.get('TransactionID'))).size).toBe(1);
    } finally {
      await gateway.close();
    }
  });
});
