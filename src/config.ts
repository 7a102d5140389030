import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
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

export interface Sourced<T> {
  value: T;
  source: SettingSource;
  /** The env var name or file the value came from, for messages. */
  origin?: string;
}

const profileSchema = z.strictObject({
  baseUrl: z.string().optional(),
  agentId: z.string().optional(),
  password: z.string().optional(),
  passwordFile: z.string().optional(),
  passwordFormat: z.enum(passwordFormats).optional(),
  timeout: z.union([z.number(), z.string()]).optional(),
  pendingCodes: z.union([z.string(), z.array(z.union([z.string(), z.number()]))]).optional(),
  dateFormat: z.enum(requestDateFormats).optional(),
  journal: z.string().optional(),
  notFoundCodes: z.union([z.string(), z.array(z.union([z.string(), z.number()]))]).optional(),
});
export type Profile = z.infer<typeof profileSchema>;

const configFileSchema = z.strictObject({
  profiles: z.record(z.string(), profileSchema).default({}),
});

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

function readConfigFile(path: string): z.infer<typeof configFileSchema> | undefined {
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

export function resolveSettings(flags: GlobalFlags, env: NodeJS.ProcessEnv): Settings {
  const configPath = join(configDirectory(env), 'config.json');
  const profileName: Sourced<string> =
    flags.profile !== undefined
      ? { value: flags.profile, source: 'flag' }
      : env.AGENTPAY_PROFILE
        ? { value: env.AGENTPAY_PROFILE, source: 'env', origin: 'AGENTPAY_PROFILE' }
        : { value: 'default', source: 'default' };
  const file = readConfigFile(configPath);
  // Own keys only: "constructor" or "__proto__" must not find Object.prototype's members.
  const profile = file && Object.hasOwn(file.profiles, profileName.value) ? file.profiles[profileName.value] : undefined;
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
