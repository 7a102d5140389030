import { join } from 'node:path';
import type { OptionDefinition } from '../options/definition.js';
import { defaultOperator, stateDirectory } from './directories.js';
import * as parse from './parsers.js';
import { serviceEntries } from './services.js';

/** The desk's rules: where payments are recorded and by whom, what it sells, its limits, how a payment settles. */
export const deskSettings = {
  ledger: {
    flag: '--ledger <path|url>',
    env: ['AGENTPAY_LEDGER', 'AGENTPAY_JOURNAL'],
    profile: { key: 'ledger', shape: 'text' },
    alias: { flag: '--journal <path>', profileKey: 'journal' },
    parse: parse.ledgerLocation,
    fallback: (env) => parse.ledgerLocation(join(stateDirectory(env), 'ledger.sqlite'), 'default'),
    defaultText: '`$XDG_STATE_HOME/agentpay/ledger.sqlite`',
    help: {
      en: 'where payments are recorded: a SQLite ledger file, or a postgres:// URL for a team ledger',
      ru: 'куда записываются платежи: файл журнала SQLite или URL postgres:// общего журнала команды',
    },
    docs: 'where payments are recorded: a SQLite database file on this machine (created on first use, on a local disk), or a `postgres://` (`postgresql://`) URL for a ledger the whole team shares (docs/team-ledger.md); `--journal`, `AGENTPAY_JOURNAL` and the profile key `journal` are older names for it; a JSON Lines journal of an earlier agentpay is loaded with `agentpay ledger import`; `--sandbox` and `--replay` record in a ledger of their own instead (`sandbox-ledger.sqlite`, `replay-ledger.sqlite` in `$XDG_STATE_HOME/agentpay`; docs/sandbox.md), and refuse this flag',
  },
  operator: {
    env: ['AGENTPAY_OPERATOR'],
    profile: { key: 'operator', shape: 'text' },
    parse: parse.text,
    fallback: () => defaultOperator(),
    defaultText: 'the user name',
    help: { en: 'who records a payment, on every ledger record', ru: 'кто записывает платёж, в каждой записи журнала' },
    docs: 'who makes the payments, recorded with each of them (history shows it); the system user name by default',
  },
  services: {
    // Read by buy (its service picker) and by shell completion, which reads the file itself (completion/answer.ts).
    profile: { key: 'services', shape: 'services by id' },
    parse: serviceEntries,
    defaultText: 'none',
    report: false,
    help: {
      en: 'services by id: a name, or {"name", "kind": "static", "amounts"}; buy offers them, completion after --service',
      ru: 'услуги по id: название или {"name", "kind": "static", "amounts"}; buy предлагает их списком, дополнение по Tab — после --service',
    },
    docs: 'the services the desk sells, by id: a name, or an object that may declare a static service and its amounts ([Services](#services)); `buy` offers them in a list, shell completion after `--service`; `doctor` does not list them',
  },
  live: {
    profile: { key: 'live', shape: 'true or false' },
    parse: parse.yesOrNo,
    fallback: () => false,
    defaultText: '`false`',
    underSandbox: 'embedded',
    help: {
      en: 'this profile pays real money: each command that can pay names it first, and pay from a script needs --yes',
      ru: 'этот профиль платит настоящими деньгами: каждая команда, которая может платить, сначала называет его, а pay из скрипта требует --yes',
    },
    docs: 'the profile pays real money (docs/desk-safety.md): every command that can pay says so on stderr before anything is sent, `pay` asks (or needs `--yes` from a script); also when its base URL is chosen another way',
  },
  maxAmount: {
    flag: '--max-amount <limits>',
    profile: { key: 'maxAmount', shape: 'amounts per currency' },
    parse: parse.amountsPerCurrency('max amount'),
    defaultText: 'none',
    help: {
      en: "refuse a single payment above this, per currency (KZT=50000.00); a flag only lowers the profile's",
      ru: 'отказывать в платеже больше этой суммы, по валютам (KZT=50000.00); флаг может только понизить лимит профиля',
    },
    docs: 'refuse one payment above this amount, per currency (`{"KZT": "50000.00"}`; the flag `KZT=50000.00,USD=100`, or one amount for any currency); the flag can only lower the profile\'s, `--over-limit` lifts both',
  },
  dailyLimit: {
    flag: '--daily-limit <limits>',
    profile: { key: 'dailyLimit', shape: 'amounts per currency' },
    parse: parse.amountsPerCurrency('daily limit'),
    defaultText: 'none',
    help: {
      en: "refuse a payment that takes the operator's payments of the day above this, per currency",
      ru: 'отказывать в платеже, который поднимет платежи оператора за день выше этой суммы, по валютам',
    },
    docs: "refuse a payment that would take the operator's payments of the day (local date; success, in progress and unknown count) above this, per currency; as `maxAmount` for the flag",
  },
  accountDailyLimit: {
    flag: '--account-daily-limit <limits>',
    profile: { key: 'accountDailyLimit', shape: 'amounts per currency' },
    parse: parse.amountsPerCurrency('account daily limit'),
    defaultText: 'none',
    help: {
      en: "refuse a payment that takes the customer account's payments of the day above this, per currency",
      ru: 'отказывать в платеже, который поднимет платежи на счёт клиента за день выше этой суммы, по валютам',
    },
    docs: "refuse a payment that would take one customer account's payments of the day, by anyone, above this, per currency; as `maxAmount` for the flag",
  },
  approvalOver: {
    flag: '--approval-over <limits>',
    profile: { key: 'approvalOver', shape: 'amounts per currency' },
    parse: parse.amountsPerCurrency('approval threshold'),
    defaultText: 'none',
    help: {
      en: "a payment above this, per currency, needs a supervisor's approval (team ledger); a flag only lowers the profile's",
      ru: 'платёж больше этой суммы, по валютам, требует одобрения старшего кассира (общий журнал); флаг может только понизить порог профиля',
    },
    docs: 'a payment above this amount, per currency, needs a second person: `pay --request-approval` records it for a supervisor, `pay --approved <txn>` sends it once approved (docs/desk-safety.md, Approval; team ledger only); as `maxAmount` for the flag',
  },
  approvalTtl: {
    profile: { key: 'approvalTtl', shape: 'text or number' },
    parse: parse.duration('approval time to live'),
    fallback: () => 1_800_000,
    defaultText: '`30m`',
    report: 'approvalTtlMs',
    help: {
      en: 'how long a request for approval, and the approval, stay good: 30m, 2h (the database caps it at 24h)',
      ru: 'сколько действуют запрос на одобрение и само одобрение: 30m, 2h (база данных ограничивает 24 часами)',
    },
    docs: "how long a request for approval, and then the approval, stay good, by the database's clock: `30m`, `2h`, a number of seconds (at least a minute, at most 24 hours)",
  },
  shifts: {
    profile: { key: 'shifts', shape: 'true or false' },
    parse: parse.yesOrNo,
    fallback: () => false,
    defaultText: '`false`',
    help: {
      en: "a payment needs the operator's open shift (`agentpay shift open`; team ledger)",
      ru: 'для платежа нужна открытая смена оператора (`agentpay shift open`; общий журнал)',
    },
    docs: "a payment (pay, buy, a bulk run's rows, pay --approved) needs the operator role's open shift on the team ledger (`agentpay shift open`, docs/desk-safety.md, Shifts); refused otherwise (exit 7)",
  },
  duplicateWindow: {
    flag: '--duplicate-window <span>',
    profile: { key: 'duplicateWindow', shape: 'text or number' },
    parse: parse.duration('duplicate window'),
    fallback: () => 600_000,
    defaultText: '`10m`',
    report: 'duplicateWindowMs',
    help: {
      en: 'a payment like one made this recently (same service, account and amount) is a duplicate: 30s, 10m, 1h; a flag only lengthens it',
      ru: 'такой же платёж (та же услуга, счёт и сумма) за этот срок считается дублем: 30s, 10m, 1h; флаг может только удлинить срок',
    },
    docs: 'a payment to the same service and account for the same amount (and InvoiceId) within this span, not failed, is a duplicate top-up: `pay` refuses it without `--allow-duplicate`, `buy` asks; `30s`, `10m`, `1h`, a number of seconds, or `0` (in the profile) for no check; the flag only lengthens it',
  },
  settleAttempts: {
    flag: '--settle-attempts <n>',
    env: ['AGENTPAY_SETTLE_ATTEMPTS'],
    parse: parse.wholeNumberBetween('settle attempts', 0, 100),
    fallback: () => 5,
    defaultText: '`5`',
    help: {
      en: 'Status look-ups after a payment answer that is lost or not final',
      ru: 'запросов Status после ответа на платёж, который потерян или не окончателен',
    },
  },
  settleDelay: {
    flag: '--settle-delay <ms>',
    env: ['AGENTPAY_SETTLE_DELAY'],
    parse: parse.wholeNumberBetween('settle delay', 0, 600_000),
    fallback: () => 500,
    defaultText: '`500`',
    report: 'settleDelayMs',
    help: {
      en: 'first wait before such a look-up, doubling each time up to 10 s; also the first wait (10 ms to 5 s) between the polls of status --wait, buy and a scenario, which grow 1.6 times up to 5 s',
      ru: 'первая пауза перед таким запросом, удваивается до 10 с; и первая пауза (от 10 мс до 5 с) между опросами status --wait, buy и сценария, растущими в 1,6 раза до 5 с',
    },
  },
} as const satisfies Record<string, OptionDefinition>;
