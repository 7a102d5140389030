import { sandboxServices } from '../../src/sandbox/catalogue.js';

/**
 * The word check of the Russian screens (test/e2e/language.test.ts, test/tty/buy-ru.test.ts):
 * any token of three or more Latin letters left is English, unless it is a name the spec gives
 * (TransactionID, InvoiceId, ResponseStatus…), a code, a flag, a command as typed, the
 * sandbox's voucher names, or the gateway's own Message, which is shown as sent.
 */
const allowed = new Set([
  ...[
    'agentpay',
    'TransactionID',
    'RequestID',
    'ResponseStatus',
    'InvoiceId',
    'OrderAmount',
    'AccountCheck',
    'Payment',
    'Status',
    'Amount',
  ],
  ...[
    'KZT',
    'USD',
    'EUR',
    'HTTP',
    'MD5',
    'URL',
    'PEM',
    'TLS',
    'JSON',
    'CI',
    'stdin',
    'stdout',
    'postgres',
    'XDG_CONFIG_HOME',
    'XDG_STATE_HOME',
  ],
  ...[
    'check',
    'pay',
    'buy',
    'status',
    'reconcile',
    'history',
    'report',
    'receipt',
    'ledger',
    'doctor',
    'scenario',
    'sandbox',
    'help',
    'options',
    'completion',
    'approvals',
    'approve',
    'decline',
    'shift',
    'approvedBy',
    'PostgreSQL',
    'SQLite',
    'Prometheus',
  ],
  // Shells by their names.
  ...['bash', 'zsh', 'fish'],
  ...['local', 'iso', 'plain', 'md5', 'stderr', 'default'],
  // File formats by their names (`--from-format csv|jsonl`, "JSON Lines").
  ...['csv', 'jsonl', 'Lines'],
  // Keys as printed on the keyboard.
  ...['Enter', 'Esc', 'Ctrl', 'Tab'],
  ...[
    'maxAmount',
    'dailyLimit',
    'accountDailyLimit',
    'RequestDate',
    'YYYY',
    'MM',
    'DD',
    'HH',
    'mm',
    'ss',
    'UTC',
    'ISO',
    'cron',
    'examples',
    'spec',
  ],
]);
/** The gateway's own words (the sandbox's refusal Message), and the names of its services and vouchers: shown as sent, never translated. */
const gatewayMessages = [/account \d+ is refused by the provider/g, /transaction \d+ not found/g];
const sandboxNames = sandboxServices
  .flatMap((service) => [
    service.name,
    ...('vouchers' in service ? service.vouchers.map((voucher) => voucher.name) : []),
  ])
  .sort((a, b) => b.length - a.length);

/** Every token of three or more Latin letters that is not a name, a code, a flag or the gateway's. */
export function englishLeft(screen: string, alsoAllowed: Iterable<string> = []): string[] {
  const given = new Set(alsoAllowed);
  let text = screen;
  for (const message of gatewayMessages) text = text.replace(message, '');
  for (const name of sandboxNames) {
    text = text.replaceAll(name, '');
    // A picker cuts a long name to fit its line: "2500 GameCoins with the Legendary Drago…".
    for (let length = name.length - 1; length >= 4; length--)
      text = text.replaceAll(`${name.slice(0, length).trimEnd()}…`, '');
  }
  text = text
    .replace(/`[^`]*`/g, '') // commands as typed
    .replace(/«[^»]*»/g, '') // names quoted the Russian way (a file's columns)
    .replace(/agentpay(?: [a-z]+)?/g, '') // the program and its command
    .replace(/<[^>]*>|\[txn-id\.*\]|\/home\/index/g, '') // placeholders, the gateway's path
    .replace(/\((?:варианты|choices): [^)]*\)/g, '') // the values a flag takes, typed as listed
    .replace(/--?[\w-]+/g, '') // flags
    .replace(/\b[A-Z][A-Z_\d]+\b/g, '') // environment variables and codes
    .replace(/https?:\/\/\S+|\S+\.(?:json|jsonl|sqlite|txt|csv|md)\b|\$\S+/g, ''); // URLs and paths
  return [...new Set((text.match(/[A-Za-z]{3,}/g) ?? []).filter((word) => !allowed.has(word) && !given.has(word)))];
}
