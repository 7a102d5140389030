import { readFileSync, statSync } from 'node:fs';
import { UsageError } from '../errors.js';
import type { FileShape } from './definition.js';
import type { RawValue } from './parsers.js';
import { type Profile, settingEntries } from './table.js';

/**
 * The config file, `$XDG_CONFIG_HOME/agentpay/config.json`: `{"profiles": {"<name>": {<key>:
 * <value>}}}`, the keys and what each may hold taken from the settings table. Read on every
 * command, so checked by hand here rather than with a schema library (docs/configuration.md).
 * The values' content (a URL, digits) is checked when a setting is resolved, naming its source.
 */
interface ConfigFile {
  profiles: Readonly<Record<string, Profile>>;
}

const fileShapes = new Map(
  settingEntries.flatMap(([, { profile, alias }]) =>
    profile === undefined
      ? []
      : [[profile.key, profile.shape] as const, ...(alias ? [[alias.profileKey, profile.shape] as const] : [])],
  ),
);

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Describes a JSON value's type for "expected …, got …". */
function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object'
    ? 'an object'
    : typeof value === 'string'
      ? `text ${JSON.stringify(value)}`
      : `${typeof value} ${String(value)}`;
}

const isText = (value: unknown): value is string => typeof value === 'string';
// JSON's 1e400 parses to Infinity: not a number a setting can use.
const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/** What `shape` says of `value`: undefined when it fits, else what was expected. */
function shapeMismatch(value: unknown, shape: FileShape): string | undefined {
  if (shape === 'text') return isText(value) ? undefined : 'text';
  if (shape === 'text or number') return isText(value) || isNumber(value) ? undefined : 'text or a number';
  if (shape === 'true or false') return typeof value === 'boolean' ? undefined : 'true or false';
  if (shape === 'amounts per currency') {
    const fits = isPlainObject(value) && Object.values(value).every((amount) => isText(amount) || isNumber(amount));
    return fits ? undefined : 'amounts per currency, as {"KZT": "50000.00"}';
  }
  if (shape === 'services by id') {
    // Each entry's content (kind, amounts) is checked where the setting is parsed (settings/services.ts).
    const fits = isPlainObject(value) && Object.values(value).every((entry) => isText(entry) || isPlainObject(entry));
    return fits
      ? undefined
      : 'services by id, as {"101": "GameCoins top-up"} or {"601": {"name": "Cinema voucher", "kind": "static"}}';
  }
  if (shape === 'code list') {
    const fits = isText(value) || (Array.isArray(value) && value.every((item) => isText(item) || isNumber(item)));
    return fits ? undefined : 'codes as text ("11,12") or a list ([11, "12"])';
  }
  return (shape as readonly unknown[]).includes(value)
    ? undefined
    : `one of ${shape.map((choice) => JSON.stringify(choice)).join(', ')}`;
}

/** Where the file departs from its format, what belongs there, and what is there (unless secret or obvious). */
class ConfigShapeError extends Error {
  constructor(
    readonly path: string,
    readonly expected: string,
    readonly got?: { value: unknown },
  ) {
    super(`${path}: expected ${expected}`);
  }
}

/** A path segment as it reads best: `profiles.default.timeout`, or quoted when it needs to be. */
const segment = (name: string) => (/^[\w-]+$/.test(name) ? name : JSON.stringify(name));

function checkProfile(name: string, value: unknown): Profile {
  const path = `profiles.${segment(name)}`;
  if (!isPlainObject(value)) throw new ConfigShapeError(path, 'an object of settings', { value });
  const profile: Record<string, RawValue> = {};
  for (const [key, setting] of Object.entries(value)) {
    const shape = fileShapes.get(key);
    if (shape === undefined)
      throw new ConfigShapeError(
        `${path}.${segment(key)}`,
        `a known key instead (${[...fileShapes.keys()].join(', ')})`,
      );
    const mismatch = shapeMismatch(setting, shape);
    if (mismatch !== undefined)
      throw new ConfigShapeError(
        `${path}.${segment(key)}`,
        mismatch,
        key === 'password' ? undefined : { value: setting },
      );
    profile[key] = setting as RawValue;
  }
  return profile;
}

/** The config file's JSON as profiles, or a ConfigShapeError naming the first thing wrong. */
function checkConfigFile(json: unknown): ConfigFile {
  if (!isPlainObject(json)) throw new ConfigShapeError('the file', 'an object {"profiles": {...}}', { value: json });
  for (const key of Object.keys(json))
    if (key !== 'profiles') throw new ConfigShapeError(segment(key), 'only the key "profiles" at the top');
  const profiles = json.profiles === undefined ? {} : json.profiles;
  if (!isPlainObject(profiles))
    throw new ConfigShapeError('profiles', 'an object of named profiles', { value: profiles });
  // fromEntries makes own properties, so a profile named "__proto__" stays one.
  return {
    profiles: Object.fromEntries(
      Object.entries(profiles).map(([name, profile]) => [name, checkProfile(name, profile)]),
    ),
  };
}

/** The config file and what to warn about it, or undefined when there is none. */
export function readConfigFile(path: string): { file: ConfigFile; warnings: string[] } | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new UsageError(
      `cannot read the config file ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    // V8's message quotes the text around the fault, which may be the password: say where only.
    throw new UsageError(`the config file ${path} is not valid JSON${jsonErrorPlace(text, error)}`, {
      hint: `check it with: jq . ${path}`,
    });
  }
  try {
    const file = checkConfigFile(json);
    return { file, warnings: configFileWarnings(path, file) };
  } catch (error) {
    if (!(error instanceof ConfigShapeError)) throw error;
    const got = error.got === undefined ? '' : `, got ${typeOf(error.got.value)}`;
    throw new UsageError(`the config file ${path} is not valid: ${error.path}: expected ${error.expected}${got}`, {
      hint: 'it holds {"profiles": {"default": {"baseUrl", "agentId", "passwordFile", "passwordFormat", ...}}} (docs/configuration.md)',
    });
  }
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
  return [
    `the config file ${path} holds a password and can be read by group or others (mode ${mode.toString(8).padStart(4, '0')}); run: chmod 600 ${path}`,
  ];
}
