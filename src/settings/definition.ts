import { homedir, userInfo } from 'node:os';
import type { Said } from '../i18n/language.js';
import { configDirectory as platformConfigDirectory, stateDirectory as platformStateDirectory } from '../platform.js';
import type { Parse } from './parsers.js';

/** What a config file may hold for a profile key (settings/config-file.ts checks it). */
export type FileShape =
  | 'text'
  | 'text or number'
  | 'code list'
  | 'true or false'
  | 'amounts per currency'
  | 'services by id'
  | readonly string[];

/**
 * One setting, declared once. From this come the global options (options.ts), resolution and
 * its sources (resolve.ts), `doctor`'s report (report.ts), the config file's reader
 * (config-file.ts) and the settings table of docs/configuration.md (docs-table.ts).
 */
export interface SettingDefinition {
  /** commander's flags, such as '--base-url <url>'; its attribute name is the table's key. */
  flag?: string;
  /** Environment variables, the first set and not empty wins (lower-case proxy names first, as curl). */
  env?: readonly string[];
  /** The key of a profile in the config file, and what the file may hold there. */
  profile?: { key: string; shape: FileShape };
  /** A value (flag, env or profile) to what the program uses; errors name the source. */
  parse?: Parse<unknown>;
  /**
   * An older name still taken: a flag (hidden from --help) and a profile key, each used when
   * the setting's own name is not given at that level (`--journal` for `--ledger`).
   */
  alias?: { flag: string; profileKey: string };
  /** The value when no source gives one. */
  fallback?: (env: NodeJS.ProcessEnv) => unknown;
  /** The default as the docs and --help say it. */
  defaultText: string;
  /** The password: never shown (doctor prints *** and where it is read from, settings/password.ts). */
  secret?: boolean;
  /**
   * Under --sandbox: 'embedded' means the sandbox supplies it (env and profile describe a real
   * gateway); 'code table' means the sandbox's list replaces env and profile, a flag still wins.
   */
  underSandbox?: 'embedded' | 'code table';
  /** The key in doctor's report (and its --json), when not the table's key; false: not shown. */
  report?: string | false;
  /** A switch (a flag without a value, never from env or profile). */
  switch?: true;
  /** For commander: the values a flag may take. */
  choices?: readonly string[];
  /** One line for --help, in every language (the Russian --help is built from it: cli-language.ts). */
  help: Said;
  /** The docs table's description, when it says more than --help. */
  docs?: string;
  /** The docs table's environment column, when other code reads those variables. */
  docsEnv?: string;
}

export function stateDirectory(env: NodeJS.ProcessEnv): string {
  return platformStateDirectory(env, process.platform, homedir());
}

/** The system user name, as `whoami` gives it; "unknown" where the system has none (a container's uid without a passwd entry). */
export function defaultOperator(): string {
  try {
    return userInfo().username || 'unknown';
  } catch {
    return 'unknown';
  }
}

export function configDirectory(env: NodeJS.ProcessEnv): string {
  return platformConfigDirectory(env, process.platform, homedir());
}

/** A setting's long flag, as messages name it: `--base-url`. */
export function flagName(setting: SettingDefinition): string | undefined {
  return setting.flag === undefined ? undefined : /--[\w-]+/.exec(setting.flag)?.[0];
}
