import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { ConfigFile, Profile } from './config-file.js';
import { UsageError } from './errors.js';
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
  settleAttempts?: string;
  settleDelay?: string;
  verbose?: boolean;
  color?: boolean;
}

export interface Settings {
  sandbox: boolean;
  json: boolean;
  verbose: boolean;
  profileName: Sourced<string>;
  configPath: string;
  baseUrl: Sourced<string> | undefined;
  agentId: Sourced<string> | undefined;
  passwordFormat: Sourced<PasswordFormat>;
  timeoutMs: Sourced<number>;
  pendingCodes: Sourced<ReadonlySet<string>>;
  dateFormat: Sourced<RequestDateFormat>;
  journalPath: Sourced<string>;
  /** Status codes meaning "the gateway does not know this TransactionID". */
  notFoundCodes: Sourced<ReadonlySet<string>>;
  settle: { attempts: Sourced<number>; delayMs: Sourced<number> };
  /** Where the password may come from, in order; read by password-source.ts. */
  passwordFileFlag: string | undefined;
  profile: Profile | undefined;
  env: NodeJS.ProcessEnv;
}

export const defaultPendingCodes = '11';
export const defaultNotFoundCodes = '25';
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

async function readConfigFile(path: string): Promise<ConfigFile | undefined> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new UsageError(`cannot read the config file ${path}: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`the config file ${path} is not valid JSON: ${(error as Error).message}`);
  }
  const accepted = acceptConfigFile(json);
  if (accepted) return accepted;
  const { configFileSchema } = await import('./config-file.js');
  const parsed = configFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UsageError(`the config file ${path} is not valid: ${issue?.path.join('.') || 'root'}: ${issue?.message ?? 'invalid'}`, {
      hint: 'it holds {"profiles": {"default": {"baseUrl", "agentId", "password", "passwordFormat", ...}}}',
    });
  }
  return parsed.data;
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

function parseCodes(raw: string | readonly (string | number)[], where: string): ReadonlySet<string> {
  const items = typeof raw === 'string' ? raw.split(',') : raw.map(String);
  const codes = items.map((item) => item.trim()).filter((item) => item !== '');
  for (const code of codes) {
    if (!/^-?\d+$/.test(code)) throw new UsageError(`pending code ${JSON.stringify(code)} (${where}) is not an integer`);
    if (code === '10') throw new UsageError(`pending codes (${where}) cannot include 10: it means success (spec 7)`);
  }
  return new Set(codes);
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
  return raw.replace(/\/+$/, '');
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
  const file = await readConfigFile(configPath);
  const profile = file?.profiles[profileName.value];
  if (profile === undefined && profileName.source !== 'default') {
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
    pendingCodes: pick<ReadonlySet<string>>(
      flags.pendingCodes,
      'AGENTPAY_PENDING_CODES',
      env,
      profile?.pendingCodes === undefined ? undefined : parseCodes(profile.pendingCodes, 'profile'),
      (raw, where) => (typeof raw === 'string' ? parseCodes(raw, where) : raw),
    ) ?? { value: parseCodes(defaultPendingCodes, 'default'), source: 'default' },
    dateFormat: pick(flags.dateFormat, 'AGENTPAY_DATE_FORMAT', env, profile?.dateFormat, oneOf(requestDateFormats, 'date format')) ?? {
      value: 'local',
      source: 'default',
    },
    journalPath: pick(flags.journal, 'AGENTPAY_JOURNAL', env, profile?.journal, (raw) => raw) ?? {
      value: join(stateDirectory(env), 'journal.jsonl'),
      source: 'default',
    },
    notFoundCodes: pick<ReadonlySet<string>>(
      flags.notFoundCodes,
      'AGENTPAY_NOT_FOUND_CODES',
      env,
      profile?.notFoundCodes === undefined ? undefined : parseCodes(profile.notFoundCodes, 'profile'),
      (raw, where) => (typeof raw === 'string' ? parseCodes(raw, where) : raw),
    ) ?? { value: parseCodes(defaultNotFoundCodes, 'default'), source: 'default' },
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
    passwordFileFlag: flags.passwordFile,
    profile,
    env,
  };
}
