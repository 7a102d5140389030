import { readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { ConfigFile, Profile } from './config-file.js';
import { UsageError } from './errors.js';
import { redactUrlCredentials, registerSecret } from './secrets.js';
import { codeListSettings, type CodeList, type CodeTable } from './protocol/codes.js';
import { passwordFormats, type PasswordFormat } from './protocol/password.js';
import { requestDateFormats, type RequestDateFormat } from './protocol/request-date.js';

/**
 * Settings come from, in order: a flag, the environment, the profile in the config file,
 * a default. Each resolved value remembers where it came from (for `doctor` and errors).
 * The password is resolved separately and lazily (see password-source.ts): only commands
 * that talk to the gateway need it.
 */
export type SettingSource = 'flag' | 'env' | 'profile' | 'default' | 'sandbox' | 'prompt';

export type { Profile } from './config-file.js';

export interface Sourced<T> {
  value: T;
  source: SettingSource;
  /** The env var name or file the value came from, for messages. */
  origin?: string;
}

/** The global flags as commander hands them over. */
export interface GlobalFlags {
  baseUrl?: string;
  agentId?: string;
  passwordFile?: string;
  passwordFormat?: string;
  profile?: string;
  sandbox?: boolean;
  json?: boolean;
  timeout?: string;
  pendingCodes?: string;
  dateFormat?: string;
  journal?: string;
  notFoundCodes?: string;
  failedCodes?: string;
  settleAttempts?: string;
  settleDelay?: string;
  verbose?: boolean;
  color?: boolean;
  caFile?: string;
  proxy?: string;
  insecurePasswordFile?: boolean;
}

/** How requests reach the gateway, each part with where it came from (for `doctor`). */
export interface NetworkSettings {
  /** An explicit proxy for every request: --proxy or the profile's `proxy`. */
  proxy: Sourced<string> | undefined;
  /** The environment's proxies, used when no explicit one is set (lower-case names first, as curl). */
  httpProxy: Sourced<string> | undefined;
  httpsProxy: Sourced<string> | undefined;
  noProxy: Sourced<string> | undefined;
  /** A PEM file of the CA certificates to trust instead of the built-in ones. */
  caFile: Sourced<string> | undefined;
}

export interface Settings {
  sandbox: boolean;
  json: boolean;
  verbose: boolean;
  profileName: Sourced<string>;
  configPath: string;
  configFileFound: boolean;
  baseUrl: Sourced<string> | undefined;
  agentId: Sourced<string> | undefined;
  passwordFormat: Sourced<PasswordFormat>;
  timeoutMs: Sourced<number>;
  /**
   * This gateway's ResponseStatus codes besides 10 (protocol/codes.ts): empty until configured,
   * the sandbox's own under --sandbox. An unclassified code never makes a payment final.
   */
  codes: CodeSettings;
  dateFormat: Sourced<RequestDateFormat>;
  journalPath: Sourced<string>;
  settle: { attempts: Sourced<number>; delayMs: Sourced<number> };
  network: NetworkSettings;
  /** Where the password may come from, in order; read by password-source.ts. */
  passwordFileFlag: string | undefined;
  /** --insecure-password-file: accept a password file anyone may read. */
  insecurePasswordFile: boolean;
  /** Things to tell the user before anything else (a config file others can read). */
  warnings: string[];
  profile: Profile | undefined;
  env: NodeJS.ProcessEnv;
}

/** Each list of the code table with where it came from; `table` is what classifies. */
export type CodeSettings = { [list in CodeList]: Sourced<ReadonlySet<string>> } & { table: CodeTable };
export const defaultSettleAttempts = 5;
export const defaultSettleDelayMs = 500;
export const defaultTimeoutMs = 30_000;

export function configDirectory(env: NodeJS.ProcessEnv): string {
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'agentpay');
}

export function stateDirectory(env: NodeJS.ProcessEnv): string {
  return join(env.XDG_STATE_HOME || join(homedir(), '.local', 'state'), 'agentpay');
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;

const isText = (value: unknown) => typeof value === 'string';
// zod's number is a finite one (JSON's 1e400 parses to Infinity).
const isNumber = (value: unknown) => typeof value === 'number' && Number.isFinite(value);
const isCodes = (value: unknown) => isText(value) || (Array.isArray(value) && value.every((item) => isText(item) || isNumber(item)));

/** What each profile key may hold (config-file.ts); a key not here is not allowed. */
const profileChecks = new Map<string, (value: unknown) => boolean>([
  ['baseUrl', isText],
  ['agentId', isText],
  ['password', isText],
  ['passwordFile', isText],
  ['passwordFormat', (value) => (passwordFormats as readonly unknown[]).includes(value)],
  ['timeout', (value) => isText(value) || isNumber(value)],
  ['pendingCodes', isCodes],
  ['dateFormat', (value) => (requestDateFormats as readonly unknown[]).includes(value)],
  ['journal', isText],
  ['notFoundCodes', isCodes],
  ['failedCodes', isCodes],
  ['caFile', isText],
  ['proxy', isText],
]);

/**
 * The config file when it is plainly what configFileSchema (config-file.ts) accepts, without
 * loading zod; undefined when only the schema can say. A test keeps the two in agreement.
 */
export function acceptConfigFile(json: unknown): ConfigFile | undefined {
  if (!isPlainObject(json) || Object.keys(json).some((key) => key !== 'profiles')) return undefined;
  const { profiles = {} } = json;
  // A "__proto__" profile name is left to the schema: a plain object cannot hold it as data.
  if (!isPlainObject(profiles) || Object.hasOwn(profiles, '__proto__')) return undefined;
  for (const profile of Object.values(profiles)) {
    if (!isPlainObject(profile)) return undefined;
    for (const [key, value] of Object.entries(profile)) if (!profileChecks.get(key)?.(value)) return undefined;
  }
  return { profiles: profiles as Record<string, Profile> };
}

async function readConfigFile(path: string): Promise<{ file: ConfigFile; warnings: string[] } | undefined> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new UsageError(`cannot read the config file ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    // V8's message quotes the text around the fault, which may be the password: say where only.
    throw new UsageError(`the config file ${path} is not valid JSON${jsonErrorPlace(text, error)}`, { hint: `check it with: jq . ${path}` });
  }
  const accepted = acceptConfigFile(json);
  if (accepted) return { file: accepted, warnings: configFileWarnings(path, accepted) };
  const { configFileSchema } = await import('./config-file.js');
  const parsed = configFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UsageError(`the config file ${path} is not valid: ${issue?.path.join('.') || 'root'}: ${issue?.message ?? 'invalid'}`, {
      hint: 'it holds {"profiles": {"default": {"baseUrl", "agentId", "password", "passwordFormat", ...}}}',
    });
  }
  return { file: parsed.data, warnings: configFileWarnings(path, parsed.data) };
}

function jsonErrorPlace(text: string, error: unknown): string {
  const position = /at position (\d+)/.exec((error as Error).message)?.[1];
  if (position === undefined) return '';
  const before = text.slice(0, Number(position));
  const line = before.split('\n').length;
  return ` (line ${line}, column ${Number(position) - before.lastIndexOf('\n')})`;
}

/** As ssh does for a private key: a password that others can read is no secret. */
function configFileWarnings(path: string, file: ConfigFile): string[] {
  if (!Object.values(file.profiles).some((profile) => profile.password !== undefined)) return [];
  const mode = statSync(path).mode & 0o777;
  if ((mode & 0o077) === 0) return [];
  return [`the config file ${path} holds a password and can be read by group or others (mode ${mode.toString(8).padStart(4, '0')}); run: chmod 600 ${path}`];
}

/** flag > env > profile > default, remembering which one won. */
function pick<T>(
  flag: string | undefined,
  envName: string,
  env: NodeJS.ProcessEnv,
  profileValue: T | undefined,
  parse: (raw: string | T, where: string) => T,
): Sourced<T> | undefined {
  if (flag !== undefined) return { value: parse(flag, 'flag'), source: 'flag' };
  const fromEnv = env[envName];
  if (fromEnv !== undefined && fromEnv !== '') return { value: parse(fromEnv, envName), source: 'env', origin: envName };
  if (profileValue !== undefined) return { value: parse(profileValue, 'profile'), source: 'profile' };
  return undefined;
}

function parseTimeout(raw: string | number | string, where: string): number {
  const text = String(raw);
  if (!/^[1-9]\d{0,8}$/.test(text)) throw new UsageError(`timeout ${JSON.stringify(text)} (${where}) is not a whole number of milliseconds`);
  return Number(text);
}

function parseCount(name: string, min: number, max: number) {
  return (raw: string | number, where: string): number => {
    const text = String(raw);
    if (/^\d{1,7}$/.test(text) && Number(text) >= min && Number(text) <= max) return Number(text);
    throw new UsageError(`${name} ${JSON.stringify(text)} (${where}) must be a whole number from ${min} to ${max}`);
  };
}

/** A code list of one setting ("11, 12" or [11, "12"]); its errors name that setting. */
function parseCodes(list: CodeList) {
  const { key } = codeListSettings[list];
  return (raw: string | readonly (string | number)[], where: string): ReadonlySet<string> => {
    const items = typeof raw === 'string' ? raw.split(',') : raw.map(String);
    const codes = items.map((item) => item.trim()).filter((item) => item !== '');
    for (const code of codes) {
      if (!/^-?\d+$/.test(code)) throw new UsageError(`${key}: code ${JSON.stringify(code)} (${where}) is not an integer`);
      if (code === '10') throw new UsageError(`${key} (${where}) cannot include 10: it means success (spec 7)`);
    }
    return new Set(codes);
  };
}

/**
 * The code table: flag > env > profile > nothing, except under --sandbox, where the sandbox's
 * own table stands in for env and profile (they describe a real gateway). A code in two lists
 * would make its meaning depend on the order of checks: refused.
 */
function resolveCodes(flags: GlobalFlags, env: NodeJS.ProcessEnv, profile: Profile | undefined, sandboxTable: CodeTable | undefined): CodeSettings {
  const resolveList = (list: CodeList): Sourced<ReadonlySet<string>> => {
    const { key, env: envName } = codeListSettings[list];
    const flag = flags[key];
    if (sandboxTable !== undefined) {
      return flag === undefined ? { value: sandboxTable[list], source: 'sandbox' } : { value: parseCodes(list)(flag, 'flag'), source: 'flag' };
    }
    const parse = parseCodes(list);
    const fromProfile = profile?.[key];
    return pick<ReadonlySet<string>>(flag, envName, env, fromProfile === undefined ? undefined : parse(fromProfile, 'profile'), (raw, where) =>
      typeof raw === 'string' ? parse(raw, where) : raw,
    ) ?? { value: new Set(), source: 'default' };
  };
  const codes = { pending: resolveList('pending'), notFound: resolveList('notFound'), failed: resolveList('failed') };
  const lists = Object.keys(codeListSettings) as CodeList[];
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
  return { ...codes, table: { pending: codes.pending.value, notFound: codes.notFound.value, failed: codes.failed.value } };
}

function oneOf<T extends string>(allowed: readonly T[], name: string) {
  return (raw: string | T, where: string): T => {
    if ((allowed as readonly string[]).includes(raw)) return raw as T;
    throw new UsageError(`${name} ${JSON.stringify(raw)} (${where}) must be one of: ${allowed.join(', ')}`);
  };
}

function parseBaseUrl(raw: string, where: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`base URL ${JSON.stringify(raw)} (${where}) is not a URL`, { hint: 'give one such as https://gateway.example/' });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`base URL ${JSON.stringify(raw)} (${where}) must start with http:// or https://`);
  }
  if (url.search || url.hash) throw new UsageError(`base URL ${JSON.stringify(raw)} (${where}) must not carry a query or fragment`);
  if (url.username || url.password) {
    // spec 5: the credentials are form fields; a password in the URL would end up in messages.
    throw new UsageError(`base URL (${where}) must not carry a user name or password`, { hint: 'the gateway takes AgentID and AgentPassword as form fields: drop the user:password@ part' });
  }
  return raw.replace(/\/+$/, '');
}

function parseProxyUrl(raw: string, where: string): string {
  // `proxy.example:3128` without a scheme means http://, as curl takes it.
  const text = /^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `http://${raw}`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`proxy ${JSON.stringify(redactUrlCredentials(raw))} (${where}) is not a URL`, { hint: 'give one such as http://proxy.example:3128' });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`proxy ${JSON.stringify(redactUrlCredentials(text))} (${where}) must start with http:// or https://`);
  }
  // Proxy credentials are secrets too: kept out of every message from here on.
  if (url.password) {
    registerSecret(url.password);
    try {
      registerSecret(decodeURIComponent(url.password));
    } catch {
      // not percent-encoded text: registered as it is
    }
  }
  return text;
}

/** The first of these environment variables that is set and not empty. */
function fromEnvironment(env: NodeJS.ProcessEnv, names: readonly string[], parse: (raw: string, where: string) => string): Sourced<string> | undefined {
  for (const name of names) {
    const value = env[name];
    if (value !== undefined && value !== '') return { value: parse(value, name), source: 'env', origin: name };
  }
  return undefined;
}

function resolveNetwork(flags: GlobalFlags, env: NodeJS.ProcessEnv, profile: Profile | undefined): NetworkSettings {
  const proxy =
    flags.proxy !== undefined
      ? { value: parseProxyUrl(flags.proxy, '--proxy'), source: 'flag' as const }
      : profile?.proxy !== undefined
        ? { value: parseProxyUrl(profile.proxy, 'profile'), source: 'profile' as const }
        : undefined;
  return {
    proxy,
    // Lower-case first, as curl and undici read them.
    httpProxy: fromEnvironment(env, ['http_proxy', 'HTTP_PROXY'], parseProxyUrl),
    httpsProxy: fromEnvironment(env, ['https_proxy', 'HTTPS_PROXY'], parseProxyUrl),
    noProxy: fromEnvironment(env, ['no_proxy', 'NO_PROXY'], (raw) => raw),
    caFile: pick(flags.caFile, 'AGENTPAY_CA_FILE', env, profile?.caFile, (raw) => raw),
  };
}

function parseAgentId(raw: string, where: string): string {
  // spec 2.1: AgentID is numeric.
  if (/^\d{1,19}$/.test(raw)) return raw;
  throw new UsageError(`agent id ${JSON.stringify(raw)} (${where}) must be digits only`);
}

export async function resolveSettings(flags: GlobalFlags, env: NodeJS.ProcessEnv): Promise<Settings> {
  const configPath = join(configDirectory(env), 'config.json');
  const profileName: Sourced<string> =
    flags.profile !== undefined
      ? { value: flags.profile, source: 'flag' }
      : env.AGENTPAY_PROFILE
        ? { value: env.AGENTPAY_PROFILE, source: 'env', origin: 'AGENTPAY_PROFILE' }
        : { value: 'default', source: 'default' };
  const read = await readConfigFile(configPath);
  const file = read?.file;
  // Own keys only: "constructor" or "__proto__" must not find Object.prototype's members.
  const profile = file && Object.hasOwn(file.profiles, profileName.value) ? file.profiles[profileName.value] : undefined;
  // Naming "default" where there is no config file at all is the default itself (the cron line
  // of docs/commands.md names it): only another name, or a profile missing from an existing file, is a mistake.
  const defaultWithoutFile = profileName.value === 'default' && file === undefined;
  if (profile === undefined && profileName.source !== 'default' && !defaultWithoutFile) {
    throw new UsageError(`profile ${JSON.stringify(profileName.value)} is not in ${configPath}`, {
      hint: file ? `profiles there: ${Object.keys(file.profiles).join(', ') || 'none'}` : 'create the file or drop --profile',
    });
  }

  const sandbox = flags.sandbox === true;
  if (sandbox && flags.baseUrl !== undefined) {
    throw new UsageError('--sandbox and --base-url cannot be used together', { hint: 'drop one of them' });
  }

  return {
    sandbox,
    json: flags.json === true,
    verbose: flags.verbose === true,
    profileName,
    configPath,
    configFileFound: read !== undefined,
    // Under --sandbox the connection settings come from the embedded sandbox alone, so a
    // real gateway configured in the environment is never reached by accident.
    baseUrl: sandbox ? undefined : pick(flags.baseUrl, 'AGENTPAY_BASE_URL', env, profile?.baseUrl, parseBaseUrl),
    agentId: sandbox ? undefined : pick(flags.agentId, 'AGENTPAY_AGENT_ID', env, profile?.agentId, parseAgentId),
    passwordFormat: pick(flags.passwordFormat, 'AGENTPAY_PASSWORD_FORMAT', env, profile?.passwordFormat, oneOf(passwordFormats, 'password format')) ?? {
      value: 'plain',
      source: 'default',
    },
    timeoutMs: pick<number>(flags.timeout, 'AGENTPAY_TIMEOUT', env, profile?.timeout === undefined ? undefined : parseTimeout(profile.timeout, 'profile'), parseTimeout) ?? {
      value: defaultTimeoutMs,
      source: 'default',
    },
    codes: resolveCodes(flags, env, profile, sandbox ? (await import('./sandbox/codes.js')).sandboxCodeTable : undefined),
    dateFormat: pick(flags.dateFormat, 'AGENTPAY_DATE_FORMAT', env, profile?.dateFormat, oneOf(requestDateFormats, 'date format')) ?? {
      value: 'local',
      source: 'default',
    },
    journalPath: pick(flags.journal, 'AGENTPAY_JOURNAL', env, profile?.journal, (raw) => raw) ?? {
      value: join(stateDirectory(env), 'journal.jsonl'),
      source: 'default',
    },
    settle: {
      attempts: pick<number>(flags.settleAttempts, 'AGENTPAY_SETTLE_ATTEMPTS', env, undefined, parseCount('settle attempts', 0, 100)) ?? {
        value: defaultSettleAttempts,
        source: 'default',
      },
      delayMs: pick<number>(flags.settleDelay, 'AGENTPAY_SETTLE_DELAY', env, undefined, parseCount('settle delay', 0, 600_000)) ?? {
        value: defaultSettleDelayMs,
        source: 'default',
      },
    },
    network: resolveNetwork(flags, env, profile),
    passwordFileFlag: flags.passwordFile,
    insecurePasswordFile: flags.insecurePasswordFile === true,
    warnings: read?.warnings ?? [],
    profile,
    env,
  };
}

/** One setting as `doctor` shows it: its value (secrets never), and where it came from. */
export interface SettingReport {
  key: string;
  value: string | null;
  source: SettingSource | 'unset';
  /** The flag, environment variable or file the value came from. */
  origin?: string;
}

/** Which profile of which file a setting came from: `"default" in /home/me/.config/agentpay/config.json`. */
export function profileOrigin(settings: Pick<Settings, 'profileName' | 'configPath'>): string {
  return `${JSON.stringify(settings.profileName.value)} in ${settings.configPath}`;
}

/**
 * Every setting with its source, for `doctor`. Proxy URLs are shown without credentials; the
 * password is not here at all (doctor adds its source, masked).
 */
export function describeSettings(settings: Settings): SettingReport[] {
  const report = <T>(key: string, flag: string | undefined, sourced: Sourced<T> | undefined, show: (value: T) => string = String): SettingReport => {
    if (sourced === undefined) return { key, value: null, source: 'unset' };
    const origin = sourced.origin ?? (sourced.source === 'flag' ? flag : sourced.source === 'profile' ? profileOrigin(settings) : undefined);
    return { key, value: show(sourced.value), source: sourced.source, ...(origin === undefined ? {} : { origin }) };
  };
  const codes = (set: ReadonlySet<string>) => [...set].join(',');
  const sandboxed = (key: string): SettingReport => ({ key, value: '(the embedded sandbox)', source: 'sandbox' });
  const { network } = settings;
  return [
    report('profile', '--profile', settings.profileName),
    {
      key: 'configFile',
      value: settings.configFileFound ? settings.configPath : `${settings.configPath} (not found)`,
      ...(settings.env.XDG_CONFIG_HOME ? { source: 'env' as const, origin: 'XDG_CONFIG_HOME' } : { source: 'default' as const }),
    },
    settings.sandbox ? sandboxed('baseUrl') : report('baseUrl', '--base-url', settings.baseUrl),
    settings.sandbox ? sandboxed('agentId') : report('agentId', '--agent-id', settings.agentId),
    report('passwordFormat', '--password-format', settings.passwordFormat),
    report('timeoutMs', '--timeout', settings.timeoutMs),
    ...(Object.keys(codeListSettings) as CodeList[]).map((list) => report(codeListSettings[list].key, codeListSettings[list].flag, settings.codes[list], codes)),
    report('dateFormat', '--date-format', settings.dateFormat),
    report('journal', '--journal', settings.journalPath),
    report('settleAttempts', '--settle-attempts', settings.settle.attempts),
    report('settleDelayMs', '--settle-delay', settings.settle.delayMs),
    report('proxy', '--proxy', network.proxy, redactUrlCredentials),
    report('httpsProxy', undefined, network.httpsProxy, redactUrlCredentials),
    report('httpProxy', undefined, network.httpProxy, redactUrlCredentials),
    report('noProxy', undefined, network.noProxy),
    report('caFile', '--ca-file', network.caFile),
  ];
}
