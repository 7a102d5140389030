import { join } from 'node:path';
import type { Language } from '../i18n/language.js';
import { readConfigFile } from './config-file.js';
import { configDirectory } from './directories.js';
import { resolveSourced } from './sources.js';
import { type GlobalFlags, settingsTable } from './table.js';

/** The value of a global flag on the command line (`--lang ru`, `--lang=ru`), before commander has parsed it. */
function flagValue(argv: readonly string[], flag: string): string | undefined {
  let value: string | undefined;
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index]!;
    if (arg === '--') break;
    if (arg === flag) value = argv[++index];
    else if (arg.startsWith(`${flag}=`)) value = arg.slice(flag.length + 1);
  }
  return value;
}

/** The language from the very start (help, commander's errors): the `lang` setting, read as
 * resolveSettings reads it; English under --json, so scripts read stable text (docs/language.md).
 * A setting unreadable here is reported later by resolveSettings, in English. */
export function languageOfCommandLine(argv: readonly string[], env: NodeJS.ProcessEnv): Language {
  if (argv.includes('--json')) return 'en';
  try {
    const flags: GlobalFlags = {};
    const lang = flagValue(argv, '--lang');
    const profileFlag = flagValue(argv, '--profile');
    if (lang !== undefined) flags.lang = lang;
    if (profileFlag !== undefined) flags.profile = profileFlag;
    const needsProfile = lang === undefined && !env.AGENTPAY_LANG;
    const profileName = String(
      resolveSourced('profile', settingsTable.profile, { flags, env, profile: undefined })?.value,
    );
    const profiles = needsProfile
      ? readConfigFile(join(configDirectory(env), 'config.json'))?.file.profiles
      : undefined;
    const profile = profiles && Object.hasOwn(profiles, profileName) ? profiles[profileName] : undefined;
    return resolveSourced('lang', settingsTable.lang, { flags, env, profile })?.value as Language;
  } catch {
    return 'en';
  }
}
