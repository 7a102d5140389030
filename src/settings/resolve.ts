import { join } from 'node:path';
import { UsageError } from '../errors.js';
import type { LedgerLocation } from '../ledger-location.js';
import type { CodeList, CodeTable } from '../protocol/codes.js';
import type { PasswordFormat } from '../protocol/password.js';
import type { RequestDateFormat } from '../protocol/request-date.js';
import { t } from '../run-scope.js';
import { codeListSettings, codeLists } from './code-lists.js';
import { readConfigFile } from './config-file.js';
import { type DeskSettings, resolveDesk } from './desk.js';
import { configDirectory } from './directories.js';
import type { Parse } from './parsers.js';
import { playLedgerOf } from './play-ledger.js';
import type { ServiceEntries } from './services.js';
import { pickSourced, resolveSourced, type Sourced, type SourceInputs } from './sources.js';
import { type GlobalFlags, type Profile, type SettingName, type SettingsTable, settingsTable } from './table.js';

/** How requests reach the gateway, each part with where it came from (for `doctor`). */
export interface NetworkSettings {
  /** An explicit proxy for every request: --proxy or the profile's `proxy`. */
  proxy: Sourced<string> | undefined;
  /** The environment's proxies, used when no explicit one is set. */
  httpProxy: Sourced<string> | undefined;
  httpsProxy: Sourced<string> | undefined;
  noProxy: Sourced<string> | undefined;
  /** A PEM file of the CA certificates to trust instead of the built-in ones. */
  caFile: Sourced<string> | undefined;
}

/** Each list of the code table with where it came from; `table` is what classifies. */
type CodeSettings = { [list in CodeList]: Sourced<ReadonlySet<string>> } & { table: CodeTable };

/** --replay: the embedded gateway answers with the recordings in `directory` (docs/replay.md). */
export interface ReplaySettings {
  directory: string;
  /** --replay-fallback: the sandbox answers what was not recorded. */
  fallback: boolean;
}

export interface Settings {
  /** An embedded gateway: --sandbox, or --replay (its recordings). */
  sandbox: boolean;
  replay: ReplaySettings | undefined;
  /** --record: the directory each exchange is written to (gateway/recorder.ts). */
  record: string | undefined;
  json: boolean;
  verbose: boolean;
  profileName: Sourced<string>;
  configPath: string;
  configFileFound: boolean;
  baseUrl: Sourced<string> | undefined;
  agentId: Sourced<string> | undefined;
  passwordFormat: Sourced<PasswordFormat>;
  timeoutMs: Sourced<number>;
  /** This gateway's ResponseStatus codes besides 10 (protocol/codes.ts): empty until configured,
   * the sandbox's own under --sandbox. An unclassified code never makes a payment final. */
  codes: CodeSettings;
  dateFormat: Sourced<RequestDateFormat>;
  /** Where payments are recorded: a journal file, or a PostgreSQL team ledger (ledger-location.ts). */
  ledger: Sourced<LedgerLocation>;
  /** Who is recorded as making each payment: the profile's `operator`, else the user name. */
  operator: Sourced<string>;
  /** The profile's services, each checked (settings/services.ts): what `buy` offers. Empty when none. */
  services: ServiceEntries;
  settle: { attempts: Sourced<number>; delayMs: Sourced<number> };
  /** The guards at the desk: a live profile, limits, the duplicate window (settings/desk.ts). */
  desk: DeskSettings;
  network: NetworkSettings;
  /** --insecure-password-file: accept a password file anyone may read. */
  insecurePasswordFile: boolean;
  /** Things to tell the user before anything else (a config file others can read). */
  warnings: string[];
  /** Each resolved setting by its name in the table, for `doctor` (settings/report.ts). */
  resolved: { readonly [name in SettingName]?: Sourced<unknown> | undefined };
  /** What the password is located from (settings/password.ts). */
  sources: SourceInputs;
  env: NodeJS.ProcessEnv;
}

type ValueOf<K extends SettingName> = SettingsTable[K] extends { parse: Parse<infer T> } ? T : string;

/** One setting from the table: flag > env > profile > default. */
function resolveOne<K extends SettingName>(name: K, inputs: SourceInputs): Sourced<ValueOf<K>> | undefined {
  return resolveSourced(name, settingsTable[name], inputs) as Sourced<ValueOf<K>> | undefined;
}

/** For a setting that has a default: never undefined. */
function resolveWithDefault<K extends SettingName>(name: K, inputs: SourceInputs): Sourced<ValueOf<K>> {
  return resolveOne(name, inputs)!;
}

/** The code table: flag > env > profile > nothing, except under --sandbox, where the sandbox's
 * own table stands in for env and profile (they describe a real gateway). A code in two lists
 * would make its meaning depend on the order of checks: refused. */
function resolveCodes(inputs: SourceInputs, sandboxTable: CodeTable | undefined): CodeSettings {
  const resolveList = (list: CodeList): Sourced<ReadonlySet<string>> => {
    const name = codeListSettings[list].key;
    if (sandboxTable === undefined) return resolveWithDefault(name, inputs);
    return (
      (pickSourced(name, settingsTable[name], inputs, ['flag']) as Sourced<ReadonlySet<string>> | undefined) ?? {
        value: sandboxTable[list],
        source: 'sandbox',
      }
    );
  };
  const codes = { pending: resolveList('pending'), notFound: resolveList('notFound'), failed: resolveList('failed') };
  const lists = codeLists;
  for (const [index, list] of lists.entries()) {
    for (const other of lists.slice(index + 1)) {
      const both = [...codes[list].value].find((code) => codes[other].value.has(code));
      if (both !== undefined) {
        throw new UsageError(
          `ResponseStatus ${both} is in both ${codeListSettings[list].key} (${codes[list].source}) and ${codeListSettings[other].key} (${codes[other].source})`,
          { hint: 'a code has one meaning: keep it in one list' },
        );
      }
    }
  }
  return {
    ...codes,
    table: { pending: codes.pending.value, notFound: codes.notFound.value, failed: codes.failed.value },
  };
}

/** The chosen profile of the config file, refusing a name the file does not hold. */
function chooseProfile(
  profileName: Sourced<string>,
  configPath: string,
  profiles: Readonly<Record<string, Profile>> | undefined,
): Profile | undefined {
  // Own keys only: "constructor" or "__proto__" must not find Object.prototype's members.
  const profile = profiles && Object.hasOwn(profiles, profileName.value) ? profiles[profileName.value] : undefined;
  // Naming "default" where there is no config file at all is the default itself (the cron line
  // of docs/commands.md names it): only another name, or a profile missing from an existing file, is a mistake.
  const defaultWithoutFile = profileName.value === 'default' && profiles === undefined;
  if (profile === undefined && profileName.source !== 'default' && !defaultWithoutFile) {
    const said = t();
    throw new UsageError(said.config.noProfile(profileName.value, configPath), {
      hint: profiles
        ? said.config.profilesThere(Object.keys(profiles).join(', ') || said.config.noProfiles)
        : said.config.createOrDrop,
    });
  }
  return profile;
}

/** A database password in a ledger URL given as a flag is in the process's command line, which
 * any user of the machine can read (`ps`): a warning naming the places that keep it out of
 * sight. Not for AGENTPAY_LEDGER or a profile, which are such places; the password is never named. */
function ledgerPasswordWarning(ledger: Sourced<LedgerLocation>, flags: GlobalFlags): string[] {
  if (ledger.source !== 'flag' || ledger.value.kind !== 'postgres') return [];
  let url: URL;
  try {
    url = new URL(ledger.value.url);
  } catch {
    return [];
  }
  if (url.password === '' && !url.searchParams.has('password')) return [];
  return [t().settings.ledgerPasswordOnCommandLine(flags.ledger === undefined ? '--journal' : '--ledger')];
}

/** --replay and --replay-fallback; the fallback alone is a mistake, refused. */
function replayOf(flags: GlobalFlags): ReplaySettings | undefined {
  const fallback = flags.replayFallback === true;
  if (flags.replay === undefined) {
    if (fallback) throw new UsageError(t().replay.fallbackAlone, { hint: t().replay.fallbackAloneHint });
    return undefined;
  }
  return { directory: flags.replay, fallback };
}

export async function resolveSettings(flags: GlobalFlags, env: NodeJS.ProcessEnv): Promise<Settings> {
  const configPath = join(configDirectory(env), 'config.json');
  const profileName = resolveWithDefault('profile', { flags, env, profile: undefined });
  const read = readConfigFile(configPath);
  const inputs: SourceInputs = { flags, env, profile: chooseProfile(profileName, configPath, read?.file.profiles) };
  const replay = replayOf(flags);
  const sandbox = flags.sandbox === true || replay !== undefined;
  if (sandbox && flags.baseUrl !== undefined) {
    throw new UsageError(replay ? t().replay.andBaseUrl : t().settings.sandboxAndBaseUrl, {
      hint: t().settings.dropOne,
    });
  }
  // Under --sandbox the connection settings come from the embedded sandbox alone, so a real
  // gateway configured in the environment is never reached by accident. A replay's answers
  // are a real gateway's: its codes are the ones configured for it.
  const codes = resolveCodes(
    inputs,
    sandbox && !replay ? (await import('../protocol/sandbox-codes.js')).sandboxCodeTable : undefined,
  );
  const baseUrlInUse = sandbox ? undefined : resolveOne('baseUrl', inputs);
  const desk = resolveDesk({ inputs, sandbox, profileName, baseUrl: baseUrlInUse, profiles: read?.file.profiles });
  const resolved = {
    profile: profileName,
    baseUrl: baseUrlInUse,
    agentId: sandbox ? undefined : resolveOne('agentId', inputs),
    passwordFormat: resolveWithDefault('passwordFormat', inputs),
    timeout: resolveWithDefault('timeout', inputs),
    pendingCodes: codes.pending,
    notFoundCodes: codes.notFound,
    failedCodes: codes.failed,
    dateFormat: resolveWithDefault('dateFormat', inputs),
    ledger: sandbox ? playLedgerOf(inputs, replay !== undefined) : resolveWithDefault('ledger', inputs),
    operator: resolveWithDefault('operator', inputs),
    services: resolveOne('services', inputs),
    live: sandbox ? undefined : resolveWithDefault('live', inputs),
    maxAmount: resolveOne('maxAmount', inputs),
    dailyLimit: resolveOne('dailyLimit', inputs),
    accountDailyLimit: resolveOne('accountDailyLimit', inputs),
    approvalOver: resolveOne('approvalOver', inputs),
    approvalTtl: resolveWithDefault('approvalTtl', inputs),
    shifts: resolveWithDefault('shifts', inputs),
    duplicateWindow: desk.duplicateWindowMs,
    settleAttempts: resolveWithDefault('settleAttempts', inputs),
    settleDelay: resolveWithDefault('settleDelay', inputs),
    proxy: resolveOne('proxy', inputs),
    httpsProxy: resolveOne('httpsProxy', inputs),
    httpProxy: resolveOne('httpProxy', inputs),
    noProxy: resolveOne('noProxy', inputs),
    caFile: resolveOne('caFile', inputs),
    lang: resolveWithDefault('lang', inputs),
    record: resolveOne('record', inputs),
    replay: resolveOne('replay', inputs),
  } satisfies Settings['resolved'];
  const { baseUrl, agentId, passwordFormat, dateFormat, proxy, httpProxy, httpsProxy, noProxy, caFile } = resolved;
  return {
    sandbox,
    replay,
    record: resolved.record?.value,
    json: flags.json === true,
    verbose: flags.verbose === true,
    profileName,
    configPath,
    configFileFound: read !== undefined,
    baseUrl,
    agentId,
    passwordFormat,
    timeoutMs: resolved.timeout,
    codes,
    dateFormat,
    ledger: resolved.ledger,
    operator: resolved.operator,
    services: resolved.services?.value ?? [],
    settle: { attempts: resolved.settleAttempts, delayMs: resolved.settleDelay },
    desk,
    network: { proxy, httpProxy, httpsProxy, noProxy, caFile },
    insecurePasswordFile: flags.insecurePasswordFile === true,
    warnings: [...(read?.warnings ?? []), ...ledgerPasswordWarning(resolved.ledger, flags)],
    resolved,
    sources: inputs,
    env,
  };
}
