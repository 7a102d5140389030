import { isSwitch, longFlag } from '../options/definition.js';
import { redactedText, redactUrlCredentials } from '../secrets.js';
import { locatePassword } from './password.js';
import type { Settings } from './resolve.js';
import type { SettingSource, Sourced } from './sources.js';
import { settingEntries } from './table.js';

/** One setting as `doctor` shows it: its value (secrets never), and where it came from. */
export interface SettingReport {
  key: string;
  value: string | null;
  /** `replay`: the embedded gateway of --replay gives it, as the sandbox does under --sandbox. */
  source: SettingSource | 'unset' | 'replay';
  /** The flag, environment variable or file the value came from. */
  origin?: string;
}

/** Which profile of which file a setting came from: `"default" in /home/me/.config/agentpay/config.json`. */
function profileOrigin(settings: Pick<Settings, 'profileName' | 'configPath'>): string {
  return `${JSON.stringify(settings.profileName.value)} in ${settings.configPath}`;
}

/** A value as text; URLs without their credentials (a proxy's user:pass@). */
function shown(value: unknown): string {
  if (value instanceof Set) return [...(value as Set<string>)].join(',');
  // Amounts per currency as the flag takes them: KZT=50000.00,USD=100.
  if (value instanceof Map)
    return [...(value as Map<string, string>)]
      .map(([currency, amount]) => (currency === '*' ? amount : `${currency}=${amount}`))
      .join(',');
  // A ledger location names itself without its password (ledger-location.ts).
  if (typeof value === 'object' && value !== null && 'shown' in value) return String(value.shown);
  return redactUrlCredentials(String(value));
}

/** The password as doctor shows it: masked, with where it was (or would be) read from. */
function passwordReport(settings: Settings, stdin: { isTerminal: boolean; wasAsked: boolean }): SettingReport {
  if (settings.sandbox) return { key: 'password', value: redactedText, source: embeddedOf(settings).source };
  const location = locatePassword(settings, stdin.isTerminal);
  if (location.kind === 'none') return { key: 'password', value: null, source: 'unset' };
  if (location.kind === 'prompt')
    return { key: 'password', value: stdin.wasAsked ? redactedText : '(asked for)', source: 'prompt' };
  // Shown after the source: "profile "default" in <file>", not "profile <file>".
  const where = location.source === 'profile' ? profileOrigin(settings) : location.origin;
  const origin =
    location.kind === 'file'
      ? `${where}${location.source === 'profile' ? ': passwordFile' : ''} ${location.path}`
      : where;
  return { key: 'password', value: redactedText, source: location.source, origin };
}

function configFileReport(settings: Settings): SettingReport {
  return {
    key: 'configFile',
    value: settings.configFileFound ? settings.configPath : `${settings.configPath} (not found)`,
    ...(settings.env.XDG_CONFIG_HOME
      ? { source: 'env' as const, origin: 'XDG_CONFIG_HOME' }
      : { source: 'default' as const }),
  };
}

/** The embedded gateway that gives the connection settings: the replay's recordings, or the sandbox. */
function embeddedOf(settings: Settings) {
  return settings.replay
    ? { value: '(the embedded replay)', source: 'replay' as const }
    : { value: '(the embedded sandbox)', source: 'sandbox' as const };
}

/** Every setting of the table with its source, for `doctor`, in the table's order; the config
 * file after the profile. Secrets are masked; proxy URLs shown without credentials. */
export function describeSettings(
  settings: Settings,
  stdin: { isTerminal: boolean; wasAsked: boolean },
): SettingReport[] {
  const rows: SettingReport[] = [];
  for (const [name, setting] of settingEntries) {
    if (setting.report === false || isSwitch(setting)) continue;
    const key = setting.report ?? name;
    if (setting.secret) rows.push(passwordReport(settings, stdin));
    else if (settings.sandbox && setting.underSandbox === 'embedded') rows.push({ key, ...embeddedOf(settings) });
    else rows.push(reportOf(key, longFlag(setting), settings.resolved[name], settings));
    if (name === 'profile') rows.push(configFileReport(settings));
  }
  return rows;
}

function reportOf(
  key: string,
  flag: string | undefined,
  sourced: Sourced<unknown> | undefined,
  settings: Settings,
): SettingReport {
  if (sourced === undefined) return { key, value: null, source: 'unset' };
  const origin =
    sourced.origin ??
    (sourced.source === 'flag' ? flag : sourced.source === 'profile' ? profileOrigin(settings) : undefined);
  return { key, value: shown(sourced.value), source: sourced.source, ...(origin === undefined ? {} : { origin }) };
}
