import type { Said } from '../i18n/language.js';
import type { OptionDefinition } from '../options/definition.js';
import type { CodeList } from '../protocol/codes.js';
import { passwordFormats } from '../protocol/password.js';
import { requestDateFormats } from '../protocol/request-date.js';
import { codeListSettings } from './code-lists.js';
import * as parse from './parsers.js';

const sandboxDefaults: Record<CodeList, string> = {
  pending: '`11` under `--sandbox`',
  notFound: '`25` under `--sandbox`',
  failed: "the sandbox's refusals under `--sandbox`",
};
const codeHelp: Record<CodeList, Said> = {
  pending: {
    en: 'ResponseStatus codes that mean in progress, comma-separated',
    ru: 'коды ResponseStatus, означающие «в обработке», через запятую',
  },
  notFound: {
    en: 'Status codes meaning "no such transaction", comma-separated',
    ru: 'коды Status, означающие «нет такой транзакции», через запятую',
  },
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
  } as const satisfies OptionDefinition;
}

/** Which gateway, as whom, and how its answers read: the connection and the protocol's dialect. */
export const connectionSettings = {
  profile: {
    flag: '--profile <name>',
    env: ['AGENTPAY_PROFILE'],
    parse: parse.text,
    fallback: () => 'default',
    defaultText: '`default`',
    help: {
      en: 'profile in $XDG_CONFIG_HOME/agentpay/config.json',
      ru: 'профиль в $XDG_CONFIG_HOME/agentpay/config.json',
    },
    docs: 'profile in the config file',
  },
  baseUrl: {
    flag: '--base-url <url>',
    env: ['AGENTPAY_BASE_URL'],
    profile: { key: 'baseUrl', shape: 'text' },
    parse: parse.baseUrl,
    defaultText: 'none',
    underSandbox: 'embedded',
    help: {
      en: 'gateway base URL; requests go to POST <url>/home/index',
      ru: 'базовый URL шлюза; запросы идут на POST <URL>/home/index',
    },
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
    help: {
      en: 'the agent password; never a flag (it would show in ps)',
      ru: 'пароль агента; никогда не флаг (его было бы видно в ps)',
    },
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
    help: {
      en: 'RequestDate as local "YYYY-MM-DD HH:mm:ss" or UTC ISO 8601',
      ru: 'RequestDate как местное «YYYY-MM-DD HH:mm:ss» или UTC ISO 8601',
    },
    docs: 'RequestDate as local `YYYY-MM-DD HH:mm:ss`, or UTC ISO 8601',
  },
} as const satisfies Record<string, OptionDefinition>;
