import type { Said } from '../i18n/language.js';
// What the sandbox sells: two dynamic services (one in USD with three decimals and an exchange rate), two
// static ones, and one account that is always refused.
export const sandboxCredentials = { agentId: '1001', password: 'sandbox-demo-password' } as const;

export interface SandboxVoucher {
  invoiceId: string;
  name: string;
  orderAmount: string;
}

interface ServiceBase {
  id: string;
  name: string;
  /** The Currency a request must carry. */
  currency: string;
  serviceCurrency: string;
  exchangeRate: string;
}

export interface DynamicService extends ServiceBase {
  kind: 'dynamic';
  vouchers: SandboxVoucher[];
}

export interface StaticService extends ServiceBase {
  kind: 'static';
  /** A fixed denomination the Amount must equal; undefined accepts any positive amount. */
  denomination: string | undefined;
}

export type SandboxService = DynamicService | StaticService;

export const sandboxServices: readonly SandboxService[] = [
  {
    id: '101',
    kind: 'dynamic',
    name: 'GameCoins top-up',
    currency: 'KZT',
    serviceCurrency: 'KZT',
    exchangeRate: '1',
    vouchers: [
      { invoiceId: '5001', name: '100 GameCoins', orderAmount: '499.00' },
      { invoiceId: '5002', name: '550 GameCoins', orderAmount: '2497.00' },
      { invoiceId: '5003', name: '1200 GameCoins', orderAmount: '4990.50' },
      {
        invoiceId: '5004',
        name: '2500 GameCoins with the Legendary Dragon Rider bonus bundle and a season pass',
        orderAmount: '9990.00',
      },
    ],
  },
  {
    id: '102',
    kind: 'dynamic',
    name: 'Global gift card (USD)',
    currency: 'USD',
    serviceCurrency: 'EUR',
    exchangeRate: '0.921',
    vouchers: [
      { invoiceId: '7010', name: 'Gift card 10 EUR', orderAmount: '10.630' },
      { invoiceId: '7025', name: 'Gift card 25 EUR', orderAmount: '26.575' },
      { invoiceId: '7050', name: 'Gift card 50 EUR', orderAmount: '53.150' },
    ],
  },
  {
    id: '201',
    kind: 'static',
    name: 'Mobile balance top-up',
    currency: 'KZT',
    serviceCurrency: 'KZT',
    exchangeRate: '1',
    denomination: undefined,
  },
  {
    id: '202',
    kind: 'static',
    name: 'Cinema ticket voucher',
    currency: 'KZT',
    serviceCurrency: 'KZT',
    exchangeRate: '1',
    denomination: '1500.00',
  },
];

/** The sandbox's accounts; a note for the banner in every language (--json gives the English one). */
export const sandboxAccounts = [
  { account: '7011234567', accepted: true, note: { en: 'a phone-number account', ru: 'счёт по номеру телефона' } },
  { account: 'player-42', accepted: true, note: { en: 'a game login', ru: 'игровой логин' } },
  {
    account: '0000000000',
    accepted: false,
    note: { en: 'always refused (code 22)', ru: 'всегда отказ (код 22)' },
  },
] as const satisfies readonly { account: string; accepted: boolean; note: Said }[];

export const refusedAccount = '0000000000';

export function findService(id: string): SandboxService | undefined {
  return sandboxServices.find((service) => service.id === id);
}
