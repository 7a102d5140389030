import type { OptionDefinition } from '../options/definition.js';
import * as parse from './parsers.js';

/** How requests reach the gateway and what is trusted on the way: proxies, CA certificates, the password file. */
export const networkSettings = {
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
    defaultText: 'off',
    help: {
      en: 'accept a password file that anyone on the machine can read',
      ru: 'принять файл пароля, который может прочитать любой на этой машине',
    },
    docs: 'accept a password file that anyone on the machine can read (refused otherwise)',
  },
} as const satisfies Record<string, OptionDefinition>;
