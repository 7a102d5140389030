import type { OptionDefinition, RawValue } from '../options/definition.js';
import { connectionSettings } from './connection-settings.js';
import { deskSettings } from './desk-settings.js';
import { modeSettings } from './mode-settings.js';
import { networkSettings } from './network-settings.js';
import { recordingSettings } from './recording-settings.js';

/** Every setting, in the order --help, doctor and the docs list them. Each group declares its
 * own settings; this is the one place that lists the groups, and their order is the table's. */
export const settingsTable = {
  ...connectionSettings,
  ...deskSettings,
  ...networkSettings,
  ...modeSettings,
  ...recordingSettings,
} as const satisfies Record<string, OptionDefinition>;

export type SettingsTable = typeof settingsTable;
export type SettingName = keyof SettingsTable;

/** The entries of the table, typed loosely for code that walks all of them. */
export const settingEntries = Object.entries(settingsTable) as [SettingName, OptionDefinition][];

type WithFlag = { [K in SettingName]: SettingsTable[K] extends { flag: string } ? K : never }[SettingName];

/** The global flags as commander hands them over: text for a value, true or false for a switch. */
export type GlobalFlags = {
  [K in WithFlag]?: SettingsTable[K]['flag'] extends `${string}<${string}` ? string : boolean;
};

/** The settings a profile may hold, as the config file gives them. */
type ProfileKeyOf<K extends SettingName> = SettingsTable[K] extends { profile: { key: infer P extends string } }
  ? P
  : never;
type ProfileKey = { [K in SettingName]: ProfileKeyOf<K> }[SettingName];
export type Profile = { readonly [K in ProfileKey]?: RawValue };
