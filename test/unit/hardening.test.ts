import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { buildPaymentForm, encodeForm } from '../../src/protocol/form.js';
import { parseAmount } from '../../src/protocol/money.js';
import { md5Hex } from '../../src/protocol/password.js';
import { InvalidFieldError } from '../../src/protocol/problems.js';
import { parseTransactionId } from '../../src/protocol/transaction-id.js';
import { proxyRouteOf } from '../../src/purchase/endpoint.js';
import { redactSecrets, registerSecret } from '../../src/run-scope.js';
import { redactUrlCredentials } from '../../src/secrets.js';
import { locatePassword } from '../../src/settings/password.js';
import { describeSettings } from '../../src/settings/report.js';
import { resolveSettings } from '../../src/settings/resolve.js';
import { inRun } from '../helpers/in-run.js';
import { rejection } from '../helpers/thrown.js';

/** The validation behind the CLI's exit-2 cases, exhaustively and in-process. */
describe('amounts are plain non-negative decimals, never floats', () => {
  it.each(['0', '0.00', '1', '2497.00', '10.630', '9007199254740993.123456789'])(
    '%j is taken byte for byte',
    (text) => {
      expect(parseAmount(text)).toBe(text);
    },
  );

  it.each([
    ['1e3', 'not a plain decimal'],
    ['-5', 'is negative'],
    ['abc', 'not a plain decimal'],
    ['10,00', 'use a dot, as in 10.00'],
    ['', 'is empty'],
    [' ', 'is empty'],
    ['0x10', 'not a plain decimal'],
    ['Infinity', 'not a plain decimal'],
    ['NaN', 'not a plain decimal'],
    ['1.2.3', 'not a plain decimal'],
    ['+5', 'not a plain decimal'],
    ['.5', 'not a plain decimal'],
    ['5.', 'not a plain decimal'],
    ['007', 'leading zero'],
    [' 5', 'spaces around it'],
    ['５', 'not a plain decimal'],
  ])('%j is refused: %s', (text, message) => {
    expect(() => parseAmount(text)).toThrow(InvalidFieldError);
    expect(() => parseAmount(text)).toThrow(message);
  });
});

describe('transaction ids are digits that fit a signed 64-bit Long', () => {
  it.each(['0', '1', '9223372036854775807'])('%j is taken', (text) => expect(parseTransactionId(text)).toBe(text));

  it.each([
    ['abc', 'is not valid: a TransactionID is digits only'],
    ['-1', 'is not valid: a TransactionID is digits only'],
    ['1.5', 'is not valid: a TransactionID is digits only'],
    ['12345678901234567890', 'too large'],
    ['9223372036854775808', 'too large'],
    ['', 'is not valid: a TransactionID is digits only'],
    ['1e5', 'is not valid: a TransactionID is digits only'],
    ['007', 'is not valid: a TransactionID is digits only'],
  ])('%j is refused: %s', (text, message) => {
    expect(() => parseTransactionId(text, '--txn-id')).toThrow(`--txn-id ${JSON.stringify(text)}`);
    expect(() => parseTransactionId(text, '--txn-id')).toThrow(message);
  });
});

describe('form encoding keeps every value one field', () => {
  it.each(['a&b', 'a=b', 'a+b', 'a b', 'a%20b', 'Жанар', '😀', 'x=1&Account=y', '\n'])('%j round-trips', (value) => {
    const fields = buildPaymentForm(
      { agentId: '1', wirePassword: value },
      { service: value, account: value, amount: '1', currency: 'KZT', transactionId: '1', requestDate: value },
    );
    const decoded = new URLSearchParams(encodeForm(fields));
    expect([...decoded.entries()]).toEqual(fields.map(([name, v]) => [name, v]));
  });
});

describe('secrets', () => {
  const password = 'p@ss &=+ wörd"\\';

  it('every spelling of a registered secret is blanked: typed, MD5, form-, URI- and JSON-encoded', async () => {
    await inRun('en', async () => {
      registerSecret(password);
      const spelled = [
        password,
        md5Hex(password),
        md5Hex(password).toUpperCase(),
        new URLSearchParams({ p: password }).toString().slice(2),
        encodeURIComponent(password),
        JSON.stringify(password).slice(1, -1),
        // JSON that escapes all but ASCII, in either case of hex digits (PHP, Python).
        JSON.stringify(password).slice(1, -1).replace('ö', '\\u00f6'),
        JSON.stringify(password).slice(1, -1).replace('ö', '\\u00F6'),
      ];
      expect(redactSecrets('ab\\/cd', ['ab/cd'])).toBe('***');
      for (const spelling of spelled) expect(redactSecrets(`before ${spelling} after`)).toBe('before *** after');
    });
  });

  it('an unregistered secret passed along is blanked too; other text is left alone', () => {
    expect(redactSecrets('RequestID 9007199254740993 for hunter2x', ['hunter2x'])).toBe(
      'RequestID 9007199254740993 for ***',
    );
  });

  it('URL credentials are masked for display', () => {
    expect(redactUrlCredentials('http://user:pw@proxy.example:3128/')).toBe('http://***:***@proxy.example:3128/');
    expect(redactUrlCredentials('http://proxy.example:3128')).toBe('http://proxy.example:3128');
  });
});

describe('settings', () => {
  function home(profile?: Record<string, unknown>, mode = 0o600): Record<string, string> {
    const dir = mkdtempSync(join(tmpdir(), 'agentpay-unit-'));
    const env = { HOME: dir, XDG_CONFIG_HOME: join(dir, 'config'), XDG_STATE_HOME: join(dir, 'state') };
    if (profile) {
      mkdirSync(join(env.XDG_CONFIG_HOME, 'agentpay'), { recursive: true });
      const path = join(env.XDG_CONFIG_HOME, 'agentpay', 'config.json');
      writeFileSync(path, JSON.stringify({ profiles: { default: profile } }));
      chmodSync(path, mode);
    }
    return env;
  }

  it.each([
    [{ password: 'x' }, 0o644, 1],
    [{ password: 'x' }, 0o640, 1],
    [{ password: 'x' }, 0o600, 0],
    [{ agentId: '1' }, 0o644, 0],
  ])('a config file %j with mode %o draws %i chmod warning(s)', async (profile, mode, count) => {
    const warnings = (await resolveSettings({}, home(profile, mode))).warnings;
    expect(warnings).toHaveLength(count);
    for (const warning of warnings) expect(warning).toContain('chmod 600');
  });

  it('a base URL with credentials is refused without echoing them', async () => {
    const attempt = () => resolveSettings({ baseUrl: 'https://agent:hunter2@gateway.example' }, home());
    await expect(attempt()).rejects.toThrow(UsageError);
    await expect(attempt()).rejects.toThrow('must not carry a user name or password');
    expect((await rejection(attempt)).message).not.toContain('hunter2');
  });

  it('the password is looked for in order, and located without being read', async () => {
    const env = {
      ...home({ password: 'from-profile', passwordFile: '/nowhere' }),
      AGENTPAY_PASSWORD_FILE: '/also/nowhere',
    };
    expect(locatePassword(await resolveSettings({ passwordFile: '/flag' }, env), false)).toMatchObject({
      kind: 'file',
      path: '/flag',
      source: 'flag',
    });
    expect(locatePassword(await resolveSettings({}, { ...env, AGENTPAY_PASSWORD: 'e' }), false)).toMatchObject({
      kind: 'value',
      source: 'env',
      origin: 'AGENTPAY_PASSWORD',
    });
    expect(locatePassword(await resolveSettings({}, env), false)).toMatchObject({
      kind: 'file',
      source: 'env',
      origin: 'AGENTPAY_PASSWORD_FILE',
    });
    expect(locatePassword(await resolveSettings({}, { ...env, AGENTPAY_PASSWORD_FILE: '' }), false)).toMatchObject({
      kind: 'value',
      source: 'profile',
    });
    expect(locatePassword(await resolveSettings({}, home()), true)).toEqual({ kind: 'prompt', source: 'prompt' });
    expect(locatePassword(await resolveSettings({}, home()), false)).toEqual({ kind: 'none' });
  });

  it('proxies: --proxy, else the environment (lower-case first), else direct', async () => {
    const env = {
      ...home({ proxy: 'http://profile-proxy:1' }),
      HTTPS_PROXY: 'http://upper:2',
      https_proxy: 'lower:3',
      NO_PROXY: '127.0.0.1',
    };
    expect(proxyRouteOf((await resolveSettings({ proxy: 'http://flag-proxy:4' }, env)).network).route).toEqual({
      kind: 'explicit',
      url: 'http://flag-proxy:4',
    });
    expect(proxyRouteOf((await resolveSettings({}, env)).network).route).toEqual({
      kind: 'explicit',
      url: 'http://profile-proxy:1',
    });
    const fromEnv = proxyRouteOf(
      (
        await resolveSettings(
          {},
          { ...home(), HTTPS_PROXY: 'http://upper:2', https_proxy: 'lower:3', NO_PROXY: '127.0.0.1' },
        )
      ).network,
    );
    expect(fromEnv.route).toEqual({ kind: 'env', httpProxy: '', httpsProxy: 'http://lower:3', noProxy: '127.0.0.1' });
    expect(fromEnv.description).toBe('https_proxy=http://lower:3, NO_PROXY=127.0.0.1');
    expect(proxyRouteOf((await resolveSettings({}, home())).network).route).toEqual({ kind: 'direct' });
    await expect(resolveSettings({ proxy: 'socks5://x:1' }, home())).rejects.toThrow(
      'must start with http:// or https://',
    );
  });

  it('doctor sees each setting with its source; proxy credentials never', async () => {
    await inRun('en', async () => {
      const env = {
        ...home({ timeout: 1234, dateFormat: 'iso' }),
        AGENTPAY_AGENT_ID: '77',
        HTTP_PROXY: 'http://me:proxy-pass@p:1',
      };
      const shown = Object.fromEntries(
        describeSettings(await resolveSettings({ baseUrl: 'https://g.example' }, env), {
          isTerminal: false,
          wasAsked: false,
        }).map((s) => [s.key, s]),
      );
      expect(shown.baseUrl).toEqual({
        key: 'baseUrl',
        value: 'https://g.example',
        source: 'flag',
        origin: '--base-url',
      });
      expect(shown.agentId).toEqual({ key: 'agentId', value: '77', source: 'env', origin: 'AGENTPAY_AGENT_ID' });
      expect(shown.timeoutMs).toMatchObject({ value: '1234', source: 'profile' });
      expect(shown.dateFormat).toMatchObject({ value: 'iso', source: 'profile' });
      expect(shown.passwordFormat).toMatchObject({ value: 'plain', source: 'default' });
      expect(shown.httpProxy).toMatchObject({ value: 'http://***:***@p:1/', source: 'env', origin: 'HTTP_PROXY' });
      expect(JSON.stringify(shown)).not.toContain('proxy-pass');
      expect(redactSecrets('proxy-pass')).toBe('***');
    });
  });
});
