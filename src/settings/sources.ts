import type { OptionDefinition, RawValue } from '../options/definition.js';
import type { GlobalFlags, Profile, SettingName } from './table.js';

/** Where a value came from; 'sandbox' and 'prompt' are a setting's special sources. */
export type SettingSource = 'flag' | 'env' | 'profile' | 'default' | 'sandbox' | 'prompt';

export interface Sourced<T> {
  value: T;
  source: SettingSource;
  /** The env var name the value came from, for messages and `doctor`. */
  origin?: string;
}

/** What resolution reads: the flags, the environment and the chosen profile. */
export interface SourceInputs {
  flags: GlobalFlags;
  env: NodeJS.ProcessEnv;
  profile: Profile | undefined;
}

/** The levels of a setting, in the order they win. */
export const sourceLevels = ['flag', 'env', 'profile'] as const;
type SourceLevel = (typeof sourceLevels)[number];

/** A raw value found at one level, before parsing; undefined when that level says nothing. */
export function rawAt(
  name: SettingName,
  setting: OptionDefinition,
  level: SourceLevel,
  inputs: SourceInputs,
): Sourced<RawValue> | undefined {
  if (level === 'flag') {
    const flags = inputs.flags as Record<string, unknown>;
    const flag =
      setting.flag === undefined
        ? undefined
        : (flags[name] ?? (setting.alias && flags[attributeOf(setting.alias.flag)]));
    return typeof flag === 'string' ? { value: flag, source: 'flag' } : undefined;
  }
  if (level === 'env') {
    // An empty variable does not count as set (`AGENTPAY_BASE_URL= agentpay …` unsets it).
    const envName = setting.env?.find(
      (candidate) => inputs.env[candidate] !== undefined && inputs.env[candidate] !== '',
    );
    return envName === undefined ? undefined : { value: inputs.env[envName]!, source: 'env', origin: envName };
  }
  const profile = inputs.profile as Readonly<Record<string, RawValue>> | undefined;
  const fromProfile =
    setting.profile === undefined
      ? undefined
      : (profile?.[setting.profile.key] ?? (setting.alias && profile?.[setting.alias.profileKey]));
  return fromProfile === undefined ? undefined : { value: fromProfile, source: 'profile' };
}

/** commander's attribute name of a flag: `--journal <path>` is `journal`, `--base-url` is `baseUrl`. */
export function attributeOf(flag: string): string {
  const long = /--([\w-]+)/.exec(flag)?.[1] ?? '';
  return long.replace(/-(\w)/g, (_, letter: string) => letter.toUpperCase());
}

/** flag > env > profile, parsed, remembering which one won; undefined when none is set. */
export function pickSourced(
  name: SettingName,
  setting: OptionDefinition,
  inputs: SourceInputs,
  levels: readonly SourceLevel[] = sourceLevels,
): Sourced<unknown> | undefined {
  for (const level of levels) {
    const raw = rawAt(name, setting, level, inputs);
    if (raw === undefined) continue;
    const parse = setting.parse ?? String;
    return { ...raw, value: parse(raw.value, raw.origin ?? level) };
  }
  return undefined;
}

/** As pickSourced, falling back to the setting's default, worked out when first read: some
 * defaults ask the system (the operator is the user name, a passwd look-up), and most commands
 * never read them. */
export function resolveSourced(
  name: SettingName,
  setting: OptionDefinition,
  inputs: SourceInputs,
): Sourced<unknown> | undefined {
  const picked = pickSourced(name, setting, inputs);
  const { fallback } = setting;
  if (picked !== undefined || fallback === undefined) return picked;
  let value: { made: unknown } | undefined;
  return {
    source: 'default',
    get value() {
      value ??= { made: fallback(inputs.env) };
      return value.made;
    },
  };
}
