import { join } from 'node:path';
import { languageOfLocale, languages, type Said } from '../i18n/language.js';
import type { CodeList } from '../protocol/codes.js';
import { passwordFormats } from '../protocol/password.js';
import { requestDateFormats } from '../protocol/request-date.js';
import { codeListSettings } from './code-lists.js';
import { defaultOperator, type SettingDefinition, stateDirectory } from './definition.js';
import * as parse from './parsers.js';
import { serviceEntries } from './services.js';

const sandboxDefaults: Record<CodeList, string> = { pending: '`11` under `--sandbox`', notFound: '`25` under `--sandbox`', failed: "the sandbox's refusals under `--sandbox`" };
const codeHelp: Record<CodeList, Said> = {
  pending: { en: 'ResponseStatus codes that mean in progress, comma-separated', ru: 'коды ResponseStatus, означающие «в обработке», через запятую' },
  notFound: { en: 'Status codes meaning "no such transaction", comma-separated', ru: 'коды Status, означающие «нет такой транзакции», через запятую' },
  failed: {
    en: 'ResponseStatus codes that are final refusals, comma-separated: only these, and 10, make a payment final',
    ru: 'коды ResponseStatus окончательного отказа, через запятую: только они и 10 делают платёж окончательным',
  },
};

function codeListSetting(list: CodeList) {
  const { flag, env, key } = codeListSettings[list];
  return {
    flag: `${flag} <list>`,
    env: [env],
    profile: { key, shape: 'code list' },
    parse: parse.codeList(list),
    fallback: () => new Set<string>(),
    defaultText: `none (${sandboxDefaults[list]})`,
    underSandbox: 'code table',
    help: codeHelp[list],
  } as const satisfies SettingDefinition;
}

/** Every setting, in the order --help, doctor and the docs list them. */
export const settingsTable = {
  profile: {
    flag: '--profile <name>',
    env: ['AGENTPAY_PROFILE'],
    parse: parse.text,
    fallback: () => 'default',
    defaultText: '`default`',
    help: { en: 'profile in $XDG_CONFIG_HOME/agentpay/config.json', ru: 'профиль в $XDG_CONFIG_HOME/agentpay/config.json' },
    docs: 'profile in the config file',
  },
  baseUrl: {
    flag: '--base-url <url>',
    env: ['AGENTPAY_BASE_URL'],
    profile: { key: 'baseUrl', shape: 'text' },
    parse: parse.baseUrl,
    defaultText: 'none',
    underSandbox: 'embedded',
    help: { en: 'gateway base URL; requests go to POST <url>/home/index', ru: 'базовый URL шлюза; запросы идут на POST <url>/home/index' },
    docs: 'requests go to `POST <url>/home/index`',
  },
  agentId: {
    flag: '--agent-id <id>',
    env: ['AGENTPAY_AGENT_ID'],
    profile: { key: 'agentId', shape: 'text' },
    parse: parse.agentId,
    defaultText: 'none',
    underSandbox: 'embedded',
    help: { en: 'agent id, digits', ru: 'id агента, цифры' },
    docs: 'AgentID, digits',
  },
  password: {
    env: ['AGENTPAY_PASSWORD'],
    profile: { key: 'password', shape: 'text' },
    defaultText: 'prompt',
    secret: true,
    underSandbox: 'embedded',
    help: { en: 'the agent password; never a flag (it would show in ps)', ru: 'пароль агента; никогда не флаг (его было бы видно в ps)' },
    docs: 'the agent password; never a flag (it would show in `ps`), looked for in the order below',
  },
  passwordFile: {
    flag: '--password-file <path>',
    env: ['AGENTPAY_PASSWORD_FILE'],
    profile: { key: 'passwordFile', shape: 'text' },
    defaultText: 'none',
    underSandbox: 'embedded',
    report: false,
    help: {
      en: 'read the agent password from a file, - for stdin; AGENTPAY_PASSWORD may hold it instead',
      ru: 'читать пароль агента из файла, - значит stdin; вместо этого пароль может быть в AGENTPAY_PASSWORD',
    },
    docs: 'read the password from a file; `-` reads stdin; one trailing newline is dropped',
  },
  passwordFormat: {
    flag: '--password-format <format>',
    choices: passwordFormats,
    env: ['AGENTPAY_PASSWORD_FORMAT'],
    profile: { key: 'passwordFormat', shape: passwordFormats },
    parse: parse.oneOf(passwordFormats, 'password format'),
    fallback: () => 'plain',
    defaultText: '`plain`',
    help: { en: 'send the password plain or as MD5', ru: 'отправлять пароль как есть или как MD5' },
    docs: 'md5 = lower-case hex MD5 of the UTF-8 password',
  },
  timeout: {
    flag: '--timeout <ms>',
    env: ['AGENTPAY_TIMEOUT'],
    profile: { key: 'timeout', shape: 'text or number' },
    parse: parse.wholeMilliseconds('timeout'),
    fallback: () => 30_000,
    defaultText: '`30000`',
    report: 'timeoutMs',
    help: { en: 'time-out of each request in milliseconds', ru: 'время ожидания каждого запроса в миллисекундах' },
    docs: 'one deadline for each request: connect, headers and body (a body that trickles forever ends there too)',
  },
  pendingCodes: codeListSetting('pending'),
  notFoundCodes: codeListSetting('notFound'),
  failedCodes: codeListSetting('failed'),
  dateFormat: {
    flag: '--date-format <format>',
    choices: requestDateFormats,
    env: ['AGENTPAY_DATE_FORMAT'],
    profile: { key: 'dateFormat', shape: requestDateFormats },
    parse: parse.oneOf(requestDateFormats, 'date format'),
    fallback: () => 'local',
    defaultText: '`local`',
    help: { en: 'RequestDate as local "YYYY-MM-DD HH:mm:ss" or UTC ISO 8601', ru: 'RequestDate как местное «YYYY-MM-DD HH:mm:ss» или UTC ISO 8601' },
    docs: 'RequestDate as local `YYYY-MM-DD HH:mm:ss`, or UTC ISO 8601',
  },
  ledger: {
    flag: '--ledger <path|url>',
    env: ['AGENTPAY_LEDGER', 'AGENTPAY_JOURNAL'],
    profile: { key: 'ledger', shape: 'text' },
    alias: { flag: '--journal <path>', profileKey: 'journal' },
    parse: parse.ledgerLocation,
    fallback: (env) => parse.ledgerLocation(join(stateDirectory(env), 'journal.jsonl'), 'default'),
    defaultText: '`$XDG_STATE_HOME/agentpay/journal.jsonl`',
    help: {
      en: 'where payments are recorded: a journal file, or a postgres:// URL for a team ledger',
      ru: 'куда записываются платежи: файл журнала или URL postgres:// общего журнала команды',
    },
    docs: 'where payments are recorded: a JSON Lines journal file, or a `postgres://` (`postgresql://`) URL for a ledger the whole team shares (docs/team-ledger.md); `--journal`, `AGENTPAY_JOURNAL` and the profile key `journal` are older names for it',
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
    help: { en: 'Status look-ups after a payment answer that is lost or not final', ru: 'запросов Status после ответа на платёж, который потерян или не окончателен' },
  },
  settleDelay: {
    flag: '--settle-delay <ms>',
    env: ['AGENTPAY_SETTLE_DELAY'],
    parse: parse.wholeNumberBetween('settle delay', 0, 600_000),
    fallback: () => 500,
    defaultText: '`500`',
    report: 'settleDelayMs',
    help: { en: 'first wait before such a look-up, doubling each time up to 10 s', ru: 'первая пауза перед таким запросом, удваивается до 10 с' },
  },
  proxy: {
    flag: '--proxy <url>',
    profile: { key: 'proxy', shape: 'text' },
    parse: parse.proxyUrl,
    defaultText: 'none',
    help: {
      en: 'send every request through this HTTP proxy, whatever HTTPS_PROXY, HTTP_PROXY and NO_PROXY say',
      ru: 'отправлять каждый запрос через этот HTTP-прокси, что бы ни говорили HTTPS_PROXY, HTTP_PROXY и NO_PROXY',
    },
    docs: 'send every request through this HTTP(S) proxy, whatever the proxy variables say; `user:pass@` in it is never shown',
  },
  httpsProxy: {
    env: ['https_proxy', 'HTTPS_PROXY'],
    parse: parse.proxyUrl,
    defaultText: 'none',
    help: { en: 'proxy for an https:// gateway', ru: 'прокси для шлюза https://' },
    docs: 'proxy for an `https://` gateway (when no `--proxy`); lower-case wins, as in curl',
  },
  httpProxy: {
    env: ['http_proxy', 'HTTP_PROXY'],
    parse: parse.proxyUrl,
    defaultText: 'none',
    help: { en: 'proxy for an http:// gateway', ru: 'прокси для шлюза http://' },
    docs: 'proxy for an `http://` gateway, and for `https://` too when `HTTPS_PROXY` is unset; a URL without a scheme means `http://`',
  },
  noProxy: {
    env: ['no_proxy', 'NO_PROXY'],
    parse: parse.text,
    defaultText: 'none',
    help: { en: 'hosts reached directly', ru: 'хосты, к которым идти напрямую' },
    docs: 'hosts (comma-separated; `.example.com`, `host:port`, `*`) reached directly',
  },
  caFile: {
    flag: '--ca-file <pem>',
    env: ['AGENTPAY_CA_FILE'],
    profile: { key: 'caFile', shape: 'text' },
    parse: parse.text,
    defaultText: 'built-in CAs',
    help: {
      en: 'trust the CA certificates in this PEM file instead of the built-in ones; verification stays on',
      ru: 'доверять сертификатам CA из этого PEM-файла вместо встроенных; проверка остаётся включённой',
    },
    docs: "trust the CA certificates in this PEM file instead of the built-in ones (as curl's `--cacert`), for a gateway with a private CA; verification itself cannot be turned off",
  },
  insecurePasswordFile: {
    flag: '--insecure-password-file',
    switch: true,
    defaultText: 'off',
    help: { en: 'accept a password file that anyone on the machine can read', ru: 'принять файл пароля, который может прочитать любой на этой машине' },
    docs: 'accept a password file that anyone on the machine can read (refused otherwise)',
  },
  sandbox: {
    flag: '--sandbox',
    switch: true,
    defaultText: 'off',
    help: { en: 'talk to the embedded sandbox gateway with its demo credentials', ru: 'работать со встроенным шлюзом-песочницей и его демо-учётными данными' },
    docs: 'use the embedded sandbox and its demo credentials; ignores base URL and agent settings from env and profile, and reaches it directly (no proxy, no TLS: it is on loopback in the same process)',
  },
  json: {
    flag: '--json',
    switch: true,
    defaultText: 'off',
    help: { en: 'print JSON on stdout, one object a line; messages stay on stderr', ru: 'печатать JSON в stdout, по объекту в строке; сообщения остаются в stderr' },
    docs: 'stdout carries only JSON, one object a line; messages and errors go to stderr',
  },
  verbose: {
    flag: '-v, --verbose',
    switch: true,
    defaultText: 'off',
    help: { en: 'show each request and response on stderr (the password as ***)', ru: 'показывать каждый запрос и ответ в stderr (пароль как ***)' },
    docs: "each request and response on stderr, the password as `***`; the first bytes of an answer not understood; an internal error's stack trace (an expected refusal has none)",
  },
  color: {
    flag: '--no-color',
    switch: true,
    defaultText: 'colour on a terminal only',
    docsEnv: '`NO_COLOR`, `FORCE_COLOR`',
    help: { en: 'no colour, even on a terminal (NO_COLOR and FORCE_COLOR are honoured too)', ru: 'без цвета, даже в терминале (NO_COLOR и FORCE_COLOR тоже учитываются)' },
    docs: 'no colour, even on a terminal; see the environment below',
  },
  lang: {
    flag: '--lang <lang>',
    choices: languages,
    env: ['AGENTPAY_LANG'],
    profile: { key: 'lang', shape: languages },
    parse: parse.oneOf(languages, 'language'),
    fallback: (env) => languageOfLocale(env),
    defaultText: 'the locale (`LC_ALL`, `LC_MESSAGES`, `LANG`): `ru` for `ru_RU.UTF-8`, else `en`',
    help: { en: 'language of the messages, en or ru', ru: 'язык сообщений: en или ru; по умолчанию из LC_ALL, LC_MESSAGES или LANG' },
    docs: "language of what a person reads: prompts, tables, receipts, errors, help (docs/language.md); an explicit setting wins over the locale; `--json` output, the ledger and the gateway's own Messages are never translated",
  },
} as const satisfies Record<string, SettingDefinition>;

export type SettingsTable = typeof settingsTable;
export type SettingName = keyof SettingsTable;

/** The entries of the table, typed loosely for code that walks all of them. */
export const settingEntries = Object.entries(settingsTable) as [SettingName, SettingDefinition][];

type WithFlag = { [K in SettingName]: SettingsTable[K] extends { flag: string } ? K : never }[SettingName];

/** The global flags as commander hands them over: text for a value, true or false for a switch. */
export type GlobalFlags = { [K in WithFlag]?: SettingsTable[K] extends { switch: true } ? boolean : string };

/** The settings a profile may hold, as the config file gives them. */
type ProfileKeyOf<K extends SettingName> = SettingsTable[K] extends { profile: { key: infer P extends string } } ? P : never;
type ProfileKey = { [K in SettingName]: ProfileKeyOf<K> }[SettingName];
export type Profile = { readonly [K in ProfileKey]?: parse.RawValue };
