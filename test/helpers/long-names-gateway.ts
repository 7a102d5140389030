import { type SpecServer, startSpecServer } from './spec-server.js';

/**
 * A gateway whose voucher names are longer than any terminal's name column, one with a line
 * separator inside (shown as `\u2028`, an escape a table must never split), unlike the sandbox's.
 */
const longVoucherName = 'Battle-pass-season-bundle-with-the-legendary-skin-and\u2028на 60 UC';
/** The same name as a person is shown it (render/sanitize.ts). */
export const shownLongVoucherName = 'Battle-pass-season-bundle-with-the-legendary-skin-and\\u2028на 60 UC';

export function startLongNamesGateway(): Promise<SpecServer> {
  return startSpecServer({
    vouchers: [
      { invoiceId: '7001', orderAmount: '499.00', name: longVoucherName },
      { invoiceId: '7002', orderAmount: '12500.50', name: 'Подарочная карта на 120 UC' },
    ],
  });
}
