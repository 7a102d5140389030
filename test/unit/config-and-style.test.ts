import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { colorLevelFor } from '../../src/render/style.js';
import { resolveSettings } from '../../src/settings/resolve.js';
import type { GlobalFlags } from '../../src/settings/table.js';

/** An environment whose XDG_CONFIG_HOME is a fresh directory, with the config file given (if any). */
function envWithConfig(config?: unknown, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const home = mkdtempSync(join(tmpdir(), 'agentpay-config-'));
  const configHome = join(home, 'config');
  if (config !== undefined) {
    mkdirSync(join(configHome, 'agentpay'), { recursive: true });
    writeFileSync(
      join(configHome, 'agentpay', 'config.json'),
      typeof config === 'string' ? config : JSON.stringify(config),
    );
  }
  return { HOME: home, XDG_CONFIG_HOME: configHome, ...extra };
}

async function usageError(action: () => unknown): Promise<UsageError> {
  try {
    await action();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return error as UsageError;
  }
  throw new Error('expected a UsageError');
}

const profiles = {
  profiles: {
    default: {
      baseUrl: 'http://profile.invalid',
      agentId: '3',
      passwordFormat: 'md5',
      timeout: 1234,
      pendingCodes: [11, '12'],
      dateFormat: 'iso',
    },
    qa: { baseUrl: 'http://qa.invalid/', agentId: '4' },
  },
};

describe('resolveSettings: the code table', () => {
  it("is the sandbox's own under --sandbox, whatever env and profile say for a real gateway; a flag still wins", async () => {
    const env = envWithConfig({ profiles: { default: { failedCodes: '33' } } }, { AGENTPAY_PENDING_CODES: '40' });
    const sandboxed = await resolveSettings({ sandbox: true, notFoundCodes: '77' }, env);
    expect(sandboxed.codes.pending).toEqual({ value: new Set(['11']), source: 'sandbox' });
    expect(sandboxed.codes.failed.value).toEqual(new Set(['20', '21', '22', '23', '24', '26', '27', '28', '29']));
    expect(sandboxed.codes.notFound).toEqual({ value: new Set(['77']), source: 'flag' });
    const real = await resolveSettings({}, env);
    expect(real.codes.table).toEqual({ pending: new Set(['40']), notFound: new Set(), failed: new Set(['33']) });
    expect(real.codes.failed.source).toBe('profile');
  });

  it("is the one configured for a real gateway under --replay: the answers are a real gateway's", async () => {
    const env = envWithConfig({ profiles: { default: { failedCodes: '33' } } }, { AGENTPAY_PENDING_CODES: '40' });
    const replaying = await resolveSettings({ replay: 'cassettes' }, env);
    expect(replaying.codes.table).toEqual({ pending: new Set(['40']), notFound: new Set(), failed: new Set(['33']) });
    expect(replaying).toMatchObject({ sandbox: true, replay: { directory: 'cassettes', fallback: false } });
  });

  it('takes failedCodes from a profile as a list of numbers and strings', async () => {
    const settings = await resolveSettings(
      {},
      envWithConfig({ profiles: { default: { failedCodes: [20, '21'], notFoundCodes: '404' } } }),
    );
    expect(settings.codes.table).toEqual({
      pending: new Set(),
      notFound: new Set(['404']),
      failed: new Set(['20', '21']),
    });
  });
});

describe('resolveSettings: flag > env > profile > default', () => {
  it('defaults when nothing is set', async () => {
    const settings = await resolveSettings({}, envWithConfig());
    expect(settings.baseUrl).toBeUndefined();
    expect(settings.agentId).toBeUndefined();
    expect(settings.passwordFormat).toEqual({ value: 'plain', source: 'default' });
    expect(settings.timeoutMs).toEqual({ value: 30000, source: 'default' });
    // A real gateway's code table is empty until configured: only 10 is final.
    expect(settings.codes.pending).toEqual({ value: new Set(), source: 'default' });
    expect(settings.codes.table).toEqual({ pending: new Set(), notFound: new Set(), failed: new Set() });
    expect(settings.dateFormat).toEqual({ value: 'local', source: 'default' });
    expect(settings.profileName).toEqual({ value: 'default', source: 'default' });
  });

  it('the profile fills what flag and env leave out', async () => {
    const settings = await resolveSettings({}, envWithConfig(profiles));
    expect(settings.baseUrl).toEqual({ value: 'http://profile.invalid', source: 'profile' });
    expect(settings.agentId).toEqual({ value: '3', source: 'profile' });
    expect(settings.passwordFormat).toEqual({ value: 'md5', source: 'profile' });
    expect(settings.timeoutMs).toEqual({ value: 1234, source: 'profile' });
    expect([...settings.codes.pending.value].sort()).toEqual(['11', '12']);
    expect(settings.dateFormat.value).toBe('iso');
  });

  it('env beats the profile, and a flag beats both', async () => {
    const env = envWithConfig(profiles, {
      AGENTPAY_BASE_URL: 'http://env.invalid',
      AGENTPAY_AGENT_ID: '2',
      AGENTPAY_PASSWORD_FORMAT: 'plain',
      AGENTPAY_TIMEOUT: '999',
      AGENTPAY_PENDING_CODES: '13',
    });
    const fromEnv = await resolveSettings({}, env);
    expect(fromEnv.baseUrl).toEqual({ value: 'http://env.invalid', source: 'env', origin: 'AGENTPAY_BASE_URL' });
    expect(fromEnv.agentId).toMatchObject({ value: '2', source: 'env' });
    expect(fromEnv.passwordFormat).toMatchObject({ value: 'plain', source: 'env' });
    expect(fromEnv.timeoutMs).toMatchObject({ value: 999, source: 'env' });
    expect([...fromEnv.codes.pending.value]).toEqual(['13']);

    const flags: GlobalFlags = {
      baseUrl: 'http://flag.invalid/',
      agentId: '1',
      passwordFormat: 'md5',
      timeout: '300',
      pendingCodes: '14, 15',
    };
    const fromFlags = await resolveSettings(flags, env);
    expect(fromFlags.baseUrl).toEqual({ value: 'http://flag.invalid', source: 'flag' });
    expect(fromFlags.agentId).toEqual({ value: '1', source: 'flag' });
    expect(fromFlags.passwordFormat).toEqual({ value: 'md5', source: 'flag' });
    expect(fromFlags.timeoutMs).toEqual({ value: 300, source: 'flag' });
    expect([...fromFlags.codes.pending.value]).toEqual(['14', '15']);
    // As ResponseStatus comes, a JSON number: 01 is 1, -0 is 0.
    const padded = await resolveSettings({ ...flags, pendingCodes: '01, -0, 0016' }, env);
    expect([...padded.codes.pending.value]).toEqual(['1', '0', '16']);
  });

  it('an empty env var does not count as set', async () => {
    const settings = await resolveSettings({}, envWithConfig(profiles, { AGENTPAY_BASE_URL: '' }));
    expect(settings.baseUrl?.source).toBe('profile');
  });

  it('--profile and AGENTPAY_PROFILE choose the profile, the flag first', async () => {
    expect((await resolveSettings({}, envWithConfig(profiles, { AGENTPAY_PROFILE: 'qa' }))).baseUrl?.value).toBe(
      'http://qa.invalid',
    );
    expect(
      (await resolveSettings({ profile: 'default' }, envWithConfig(profiles, { AGENTPAY_PROFILE: 'qa' }))).baseUrl
        ?.value,
    ).toBe('http://profile.invalid');
  });

  it.each(['nope', 'constructor', '__proto__', 'toString', 'hasOwnProperty'])(
    'a profile %j that the file does not hold is a UsageError',
    async (name) => {
      const error = await usageError(() => resolveSettings({ profile: name }, envWithConfig(profiles)));
      expect(error.message).toContain(`profile ${JSON.stringify(name)} is not in`);
      expect(error.hint).toContain('default, qa');
      expect(error.exitCode).toBe(2);
    },
  );

  it('a named profile without any config file is a UsageError', async () => {
    expect(
      (await usageError(() => resolveSettings({}, envWithConfig(undefined, { AGENTPAY_PROFILE: 'qa' })))).message,
    ).toMatch(/profile "qa" is not in/);
  });

  it('no config file and no profile asked for is fine', async () => {
    expect((await resolveSettings({}, envWithConfig())).sources.profile).toBeUndefined();
  });

  it.each([
    ['{"profiles": {', /not valid JSON/],
    ['{"profiles": {"default": {"baseUrl": 5}}}', /not valid: profiles\.default\.baseUrl/],
    ['{"profiles": {"default": {"pasword": "x"}}}', /not valid/],
    ['{"profile": {}}', /not valid/],
    ['[]', /not valid/],
  ])('a broken config file %j is a UsageError naming the file', async (text, why) => {
    const error = await usageError(() => resolveSettings({}, envWithConfig(text)));
    expect(error.message).toMatch(why);
    expect(error.message).toContain('config.json');
  });

  it('--sandbox with --base-url is refused; with env and profile they are ignored', async () => {
    expect(
      (await usageError(() => resolveSettings({ sandbox: true, baseUrl: 'http://x.invalid' }, envWithConfig())))
        .message,
    ).toMatch(/--sandbox and --base-url/);
    const settings = await resolveSettings(
      { sandbox: true },
      envWithConfig(profiles, { AGENTPAY_BASE_URL: 'http://env.invalid', AGENTPAY_AGENT_ID: '2' }),
    );
    expect(settings.sandbox).toBe(true);
    expect(settings.baseUrl).toBeUndefined();
    expect(settings.agentId).toBeUndefined();
  });

  it.each<[GlobalFlags, Record<string, string>, RegExp]>([
    [{ baseUrl: 'gateway.example' }, {}, /is not a URL/],
    [{ baseUrl: 'ftp://gateway.example' }, {}, /http:\/\/ or https:\/\//],
    [{ baseUrl: 'http://gateway.example/?a=1' }, {}, /query or fragment/],
    [{ baseUrl: 'http://gateway.example/pay/home/index/' }, {}, /ends in \/home\/index, which agentpay adds itself/],
    [{ agentId: '12a' }, {}, /agent id "12a" \(flag\) must be digits/],
    [{}, { AGENTPAY_AGENT_ID: '-1' }, /agent id "-1" \(AGENTPAY_AGENT_ID\)/],
    [{ timeout: '0' }, {}, /timeout "0"/],
    [{ timeout: '1.5' }, {}, /timeout "1.5"/],
    [{}, { AGENTPAY_TIMEOUT: 'soon' }, /timeout "soon" \(AGENTPAY_TIMEOUT\)/],
    [{ pendingCodes: '11,x' }, {}, /pendingCodes: code "x"/],
    [{ pendingCodes: '10' }, {}, /^pendingCodes \(flag\) cannot include 10/],
    [{ pendingCodes: '11, 010' }, {}, /^pendingCodes \(flag\) cannot include 10/],
    [{ notFoundCodes: '10' }, {}, /^notFoundCodes \(flag\) cannot include 10/],
    [{}, { AGENTPAY_FAILED_CODES: '20,10' }, /^failedCodes \(AGENTPAY_FAILED_CODES\) cannot include 10/],
    [
      { pendingCodes: '11', failedCodes: '11' },
      {},
      /ResponseStatus 11 is in both pendingCodes \(flag\) and failedCodes \(flag\)/,
    ],
    [{}, { AGENTPAY_PASSWORD_FORMAT: 'sha1' }, /password format "sha1"/],
    [{}, { AGENTPAY_DATE_FORMAT: 'unix' }, /date format "unix"/],
  ])('%j with env %j is a UsageError', async (flags, env, why) => {
    expect((await usageError(() => resolveSettings(flags, envWithConfig(undefined, env)))).message).toMatch(why);
  });
});

describe('colorLevelFor', () => {
  const tty = { isTTY: true };
  const pipe = { isTTY: false };

  it('a terminal gets colour; a pipe or a dumb terminal does not', () => {
    expect(colorLevelFor(tty, { TERM: 'xterm' }, true)).toBeGreaterThan(0);
    expect(colorLevelFor(tty, { TERM: 'xterm-256color' }, true)).toBe(2);
    expect(colorLevelFor(tty, { COLORTERM: 'truecolor' }, true)).toBe(3);
    expect(colorLevelFor(pipe, { TERM: 'xterm' }, true)).toBe(0);
    expect(colorLevelFor({}, {}, true)).toBe(0);
    expect(colorLevelFor(tty, { TERM: 'dumb' }, true)).toBe(0);
  });

  it('--no-color wins over everything', () => {
    expect(colorLevelFor(tty, { FORCE_COLOR: '3', TERM: 'xterm' }, false)).toBe(0);
  });

  it('NO_COLOR (any non-empty value) switches colour off, even on a terminal', () => {
    expect(colorLevelFor(tty, { NO_COLOR: '1', TERM: 'xterm' }, true)).toBe(0);
    expect(colorLevelFor(tty, { NO_COLOR: 'false', TERM: 'xterm' }, true)).toBe(0);
    expect(colorLevelFor(tty, { NO_COLOR: '', TERM: 'xterm' }, true)).toBeGreaterThan(0);
  });

  it('FORCE_COLOR switches colour on off a terminal, or off with 0', () => {
    expect(colorLevelFor(pipe, { FORCE_COLOR: '1' }, true)).toBe(1);
    expect(colorLevelFor(pipe, { FORCE_COLOR: '' }, true)).toBe(1);
    expect(colorLevelFor(pipe, { FORCE_COLOR: 'true' }, true)).toBe(1);
    expect(colorLevelFor(pipe, { FORCE_COLOR: '2' }, true)).toBe(2);
    expect(colorLevelFor(pipe, { FORCE_COLOR: '3' }, true)).toBe(3);
    expect(colorLevelFor(tty, { FORCE_COLOR: '0', TERM: 'xterm' }, true)).toBe(0);
    expect(colorLevelFor(tty, { FORCE_COLOR: 'false', TERM: 'xterm' }, true)).toBe(0);
  });

  it('the flag left at its default decides nothing', () => {
    expect(colorLevelFor(pipe, {}, undefined)).toBe(0);
    expect(colorLevelFor(tty, { TERM: 'xterm' }, undefined)).toBe(1);
  });
});

describe('base URL hints', () => {
  it('a URL copied with /home/index is refused with the base to give; a missing scheme is named', async () => {
    const doubled = await usageError(() =>
      resolveSettings({ baseUrl: 'https://gateway.example/pay/home/index' }, envWithConfig()),
    );
    expect(doubled.hint).toBe('give https://gateway.example/pay');
    const bare = await usageError(() => resolveSettings({ baseUrl: '127.0.0.1:8080' }, envWithConfig()));
    expect(bare.message).toMatch(/base URL "127.0.0.1:8080" \(flag\) is not a URL/);
    expect(bare.hint).toBe('give it as https://127.0.0.1:8080 (or http://)');
  });
});
