import { languageOfLocale, languages } from '../i18n/language.js';
import type { OptionDefinition } from '../options/definition.js';
import * as parse from './parsers.js';

/** How a run behaves and speaks: the sandbox, JSON, verbosity, colour, language. */
export const modeSettings = {
  sandbox: {
    flag: '--sandbox',
    defaultText: 'off',
    help: {
      en: 'talk to the embedded sandbox gateway with its demo credentials',
      ru: 'работать со встроенным шлюзом-песочницей и его демо-учётными данными',
    },
    docs: 'use the embedded sandbox and its demo credentials; ignores base URL and agent settings from env and profile, and reaches it directly (no proxy, no TLS: it is on loopback in the same process)',
  },
  json: {
    flag: '--json',
    defaultText: 'off',
    help: {
      en: 'print JSON on stdout, one object a line; messages stay on stderr',
      ru: 'печатать JSON в stdout, по объекту в строке; сообщения остаются в stderr',
    },
    docs: 'stdout carries only JSON, one object a line; messages and errors go to stderr',
  },
  verbose: {
    flag: '-v, --verbose',
    defaultText: 'off',
    help: {
      en: 'show each request and response on stderr (the password as ***)',
      ru: 'показывать каждый запрос и ответ в stderr (пароль как ***)',
    },
    docs: "each request and response on stderr, the password as `***`; the first bytes of an answer not understood; an internal error's stack trace (an expected refusal has none)",
  },
  color: {
    flag: '--no-color',
    defaultText: 'colour on a terminal only',
    docsEnv: '`NO_COLOR`, `FORCE_COLOR`',
    help: {
      en: 'no colour, even on a terminal (NO_COLOR and FORCE_COLOR are honoured too)',
      ru: 'без цвета, даже в терминале (NO_COLOR и FORCE_COLOR тоже учитываются)',
    },
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
    help: {
      en: 'language of the messages, en or ru',
      ru: 'язык сообщений: en или ru; по умолчанию из LC_ALL, LC_MESSAGES или LANG',
    },
    docs: "language of what a person reads: prompts, tables, receipts, errors, help (docs/language.md); an explicit setting wins over the locale; `--json` output, the ledger and the gateway's own Messages are never translated",
  },
} as const satisfies Record<string, OptionDefinition>;
