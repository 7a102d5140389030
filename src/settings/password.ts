import { longFlag } from '../options/definition.js';
import type { Settings } from './resolve.js';
import { rawAt, type SettingSource, sourceLevels } from './sources.js';
import { settingsTable } from './table.js';

/** Where the agent password will be read from, found without reading it: flag > env > profile,
 * the password before a password file at each level, last a hidden prompt on a terminal. No flag
 * holds the password itself: it would show in ps. */
type PasswordLocation =
  | { kind: 'file'; path: string; source: SettingSource; origin: string }
  | { kind: 'value'; value: string; source: SettingSource; origin: string }
  | { kind: 'prompt'; source: 'prompt' }
  | { kind: 'none' };

const passwordSettings = [
  { kind: 'value', name: 'password', setting: settingsTable.password },
  { kind: 'file', name: 'passwordFile', setting: settingsTable.passwordFile },
] as const;

export function locatePassword(settings: Pick<Settings, 'sources'>, stdinIsTerminal: boolean): PasswordLocation {
  for (const level of sourceLevels) {
    for (const { kind, name, setting } of passwordSettings) {
      const raw = rawAt(name, setting, level, settings.sources);
      // An empty password (or path) in a profile is no password: the next source is asked.
      if (raw === undefined || (raw.source === 'profile' && raw.value === '')) continue;
      const origin =
        raw.origin ?? (level === 'flag' ? longFlag(setting) : undefined) ?? `profile ${setting.profile.key}`;
      const value = String(raw.value);
      return kind === 'file'
        ? { kind, path: value, source: raw.source, origin }
        : { kind, value, source: raw.source, origin };
    }
  }
  return stdinIsTerminal ? { kind: 'prompt', source: 'prompt' } : { kind: 'none' };
}

/** `--password-file -`: the password is read from stdin, which then holds nothing else. */
export function passwordReadsStdin(settings: Pick<Settings, 'sources'>): boolean {
  const location = locatePassword(settings, false);
  return location.kind === 'file' && location.path === '-';
}
