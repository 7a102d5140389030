import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { addOptions } from '../../src/options/commander.js';
import { withSettingsTable } from '../../src/settings/docs-table.js';
import { locatePassword, passwordReadsStdin } from '../../src/settings/password.js';
import { resolveSettings } from '../../src/settings/resolve.js';
import { attributeOf } from '../../src/settings/sources.js';
import { settingEntries, settingsTable } from '../../src/settings/table.js';

function envWithConfig(text: string): NodeJS.ProcessEnv {
  const home = mkdtempSync(join(tmpdir(), 'agentpay-settings-'));
  mkdirSync(join(home, 'config', 'agentpay'), { recursive: true });
  writeFileSync(join(home, 'config', 'agentpay', 'config.json'), text, { mode: 0o600 });
  return { HOME: home, XDG_CONFIG_HOME: join(home, 'config') };
}

async function configError(text: string): Promise<UsageError> {
  const error = await resolveSettings({}, envWithConfig(text)).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(UsageError);
  return error as UsageError;
}

describe('the settings table', () => {
  it('docs/configuration.md holds the table it gives (npm run docs:settings rewrites it)', () => {
    const document = readFileSync(new URL('../../docs/configuration.md', import.meta.url), 'utf8');
    expect(document).toBe(withSettingsTable(document));
  });

  it("names each flag's setting by the attribute commander gives it, so GlobalFlags is what commander hands over", () => {
    const program = addOptions(new Command(), 'en', settingsTable);
    const flagged = settingEntries.flatMap(([name, setting]) =>
      setting.flag === undefined ? [] : [name, ...(setting.alias ? [attributeOf(setting.alias.flag)] : [])],
    );
    expect(program.options.map((option) => option.attributeName())).toEqual(flagged);
    expect(flagged).toContain('journal');
  });

  it('--not-found-codes 10 names notFoundCodes, not another list', async () => {
    await expect(resolveSettings({ notFoundCodes: '10' }, envWithConfig('{}'))).rejects.toThrow(
      /^notFoundCodes \(flag\) cannot include 10/,
    );
  });
});

describe('the config file: errors name the profile, the key and what was expected', () => {
  it.each([
    ['{"profiles": {"default": {"baseUrl": 5}}}', 'profiles.default.baseUrl: expected text, got number 5'],
    ['{"profiles": {"qa": {"timeout": true}}}', 'profiles.qa.timeout: expected text or a number, got boolean true'],
    ['{"profiles": {"qa": {"timeout": 1e400}}}', 'profiles.qa.timeout: expected text or a number, got number Infinity'],
    [
      '{"profiles": {"qa": {"failedCodes": [20, null]}}}',
      'profiles.qa.failedCodes: expected codes as text ("11,12") or a list ([11, "12"]), got a list',
    ],
    [
      '{"profiles": {"qa": {"passwordFormat": "MD5"}}}',
      'profiles.qa.passwordFormat: expected one of "plain", "md5", got text "MD5"',
    ],
    [
      '{"profiles": {"my qa": {"pasword": "x"}}}',
      'profiles."my qa".pasword: expected a known key instead (baseUrl, agentId, password,',
    ],
    ['{"profiles": {"qa": "x"}}', 'profiles.qa: expected an object of settings, got text "x"'],
    ['{"profiles": null}', 'profiles: expected an object of named profiles, got null'],
    ['{"profile": {}}', 'profile: expected only the key "profiles" at the top'],
    ['[]', 'the file: expected an object {"profiles": {...}}, got a list'],
  ])('%s', async (text, message) => {
    const error = await configError(text);
    expect(error.message).toContain('config.json is not valid: ');
    expect(error.message).toContain(message);
    expect(error.exitCode).toBe(2);
  });

  it('a password of the wrong type is not echoed', async () => {
    const error = await configError('{"profiles": {"default": {"password": 123456789}}}');
    expect(error.message).toContain('profiles.default.password: expected text');
    expect(error.message).not.toContain('123456789');
  });

  it('takes a file with no profiles, and a profile named like an Object member', async () => {
    expect((await resolveSettings({}, envWithConfig('{}'))).configFileFound).toBe(true);
    const settings = await resolveSettings(
      { profile: '__proto__' },
      envWithConfig('{"profiles": {"__proto__": {"agentId": "7"}}}'),
    );
    expect(settings.agentId).toEqual({ value: '7', source: 'profile' });
  });
});

describe("the password's source order", () => {
  it('an empty password or passwordFile in a profile is skipped; an empty --password-file is not', async () => {
    const env = envWithConfig('{"profiles": {"default": {"password": "", "passwordFile": "/from/profile"}}}');
    expect(locatePassword(await resolveSettings({}, env), false)).toEqual({
      kind: 'file',
      path: '/from/profile',
      source: 'profile',
      origin: 'profile passwordFile',
    });
    expect(locatePassword(await resolveSettings({ passwordFile: '' }, env), false)).toMatchObject({
      kind: 'file',
      path: '',
      source: 'flag',
      origin: '--password-file',
    });
    expect(
      locatePassword(
        await resolveSettings({}, envWithConfig('{"profiles": {"default": {"passwordFile": ""}}}')),
        false,
      ),
    ).toEqual({ kind: 'none' });
  });

  it('stdin holds the password only with --password-file - (or the same from env or profile)', async () => {
    expect(passwordReadsStdin(await resolveSettings({ passwordFile: '-' }, envWithConfig('{}')))).toBe(true);
    expect(passwordReadsStdin(await resolveSettings({}, { ...envWithConfig('{}'), AGENTPAY_PASSWORD_FILE: '-' }))).toBe(
      true,
    );
    expect(
      passwordReadsStdin(
        await resolveSettings({}, { ...envWithConfig('{}'), AGENTPAY_PASSWORD: 'x', AGENTPAY_PASSWORD_FILE: '-' }),
      ),
    ).toBe(false);
  });
});
