import { readFileSync, statSync } from 'node:fs';
import { UsageError } from '../errors.js';
import type { Catalogue } from '../i18n/en.js';
import type { FileShape, RawValue } from '../options/definition.js';
import { t } from '../run-scope.js';
import { type Profile, settingEntries } from './table.js';

/** `$XDG_CONFIG_HOME/agentpay/config.json` (docs/configuration.md): each profile's keys and their
 * JSON types come from the settings table; read on every command, so checked by hand. A value's
 * content (a URL, digits) is checked when its setting is resolved, naming its source. */
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

/** Describes a JSON value's type for "expected …, got …", in the catalogue's words. */
function typeOf(value: unknown, said: Catalogue): string {
  const got = said.config.got;
  if (value === null) return got.null;
  if (Array.isArray(value)) return got.list;
  if (typeof value === 'object') return got.object;
  if (typeof value === 'string') return `${got.text} ${JSON.stringify(value)}`;
  return `${typeof value === 'number' ? got.number : got.boolean} ${String(value)}`;
}

/** What belongs at a place in the file, said in the catalogue's words when the error is shown. */
type Expected = (said: Catalogue) => string;

const isText = (value: unknown): value is string => typeof value === 'string';
// JSON's 1e400 parses to Infinity: not a number a setting can use.
const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/** What `shape` says of `value`: undefined when it fits, else what was expected. */
function shapeMismatch(value: unknown, shape: FileShape): Expected | undefined {
  if (shape === 'text') return isText(value) ? undefined : (said) => said.config.expected.text;
  if (shape === 'text or number')
    return isText(value) || isNumber(value) ? undefined : (said) => said.config.expected.textOrNumber;
  if (shape === 'true or false')
    return typeof value === 'boolean' ? undefined : (said) => said.config.expected.trueOrFalse;
  if (shape === 'amounts per currency') {
    const fits = isPlainObject(value) && Object.values(value).every((amount) => isText(amount) || isNumber(amount));
    return fits ? undefined : (said) => said.config.expected.amountsPerCurrency;
  }
  if (shape === 'services by id') {
    // Each entry's content (kind, amounts) is checked where the setting is parsed (settings/services.ts).
    const fits = isPlainObject(value) && Object.values(value).every((entry) => isText(entry) || isPlainObject(entry));
    return fits ? undefined : (said) => said.config.expected.servicesById;
  }
  if (shape === 'code list') {
    const fits = isText(value) || (Array.isArray(value) && value.every((item) => isText(item) || isNumber(item)));
    return fits ? undefined : (said) => said.config.expected.codeList;
  }
  return (shape as readonly unknown[]).includes(value)
    ? undefined
    : (said) => said.config.expected.oneOf(shape.map((choice) => JSON.stringify(choice)).join(', '));
}

/** Where the file departs from its format, what belongs there, and what is there (unless secret or obvious). */
class ConfigShapeError extends Error {
  constructor(
    /** A path in the file, or undefined for the file as a whole. */
    readonly path: string | undefined,
    readonly expected: Expected,
    readonly got?: { value: unknown },
  ) {
    super(`${path ?? 'the file'}: expected ${expected(t())}`);
  }
}

/** A path segment as it reads best: `profiles.default.timeout`, or quoted when it needs to be. */
const segment = (name: string) => (/^[\w-]+$/.test(name) ? name : JSON.stringify(name));

function checkProfile(name: string, value: unknown): Profile {
  const path = `profiles.${segment(name)}`;
  if (!isPlainObject(value)) throw new ConfigShapeError(path, (said) => said.config.expected.settings, { value });
  const profile: Record<string, RawValue> = {};
  for (const [key, setting] of Object.entries(value)) {
    const shape = fileShapes.get(key);
    if (shape === undefined)
      throw new ConfigShapeError(`${path}.${segment(key)}`, (said) =>
        said.config.expected.knownKey([...fileShapes.keys()].join(', ')),
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
  if (!isPlainObject(json))
    throw new ConfigShapeError(undefined, (said) => said.config.expected.profilesObject, { value: json });
  for (const key of Object.keys(json))
    if (key !== 'profiles') throw new ConfigShapeError(segment(key), (said) => said.config.expected.onlyProfiles);
  const profiles = json.profiles === undefined ? {} : json.profiles;
  if (!isPlainObject(profiles))
    throw new ConfigShapeError('profiles', (said) => said.config.expected.namedProfiles, { value: profiles });
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
      t().config.cannotRead(path, (error as NodeJS.ErrnoException).code ?? (error as Error).message),
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    // JSON.parse's message quotes the text around the fault, which may be the password: say where only.
    throw new UsageError(t().config.notJson(path, jsonErrorPlace(text, error)), { hint: t().config.notJsonHint(path) });
  }
  try {
    const file = checkConfigFile(json);
    return { file, warnings: configFileWarnings(path, file) };
  } catch (error) {
    if (!(error instanceof ConfigShapeError)) throw error;
    const said = t();
    const got = error.got === undefined ? undefined : typeOf(error.got.value, said);
    throw new UsageError(said.config.notValid(path, error.path ?? said.config.theFile, error.expected(said), got), {
      hint: said.config.notValidHint,
    });
  }
}

function jsonErrorPlace(text: string, error: unknown): { line: number; column: number } | undefined {
  const position = /at position (\d+)/.exec((error as Error).message)?.[1];
  if (position === undefined) return undefined;
  const before = text.slice(0, Number(position));
  return { line: before.split('\n').length, column: Number(position) - before.lastIndexOf('\n') };
}

/** As ssh does for a private key: a password that others can read is no secret. */
function configFileWarnings(path: string, file: ConfigFile): string[] {
  if (!Object.values(file.profiles).some((profile) => profile.password !== undefined)) return [];
  const mode = statSync(path).mode & 0o777;
  if ((mode & 0o077) === 0) return [];
  return [t().config.readableByOthers(path, mode.toString(8).padStart(4, '0'))];
}
