import type { OptionDefinition } from '../options/definition.js';
import { settingEntries } from './table.js';

/** The settings table of docs/configuration.md, written from the settings table so the two
 * cannot differ: `npm run docs:settings` rewrites the block between the markers, and a unit
 * test fails when the file's block is not what this gives. */
const settingsBlockMarkers = { start: '<!-- settings-table:start -->', end: '<!-- settings-table:end -->' } as const;

const code = (text: string) => `\`${text}\``;

function flagCell(setting: OptionDefinition): string {
  if (setting.flag === undefined) return '(none)';
  // `--date-format local|iso` says more than `--date-format <format>`; the pipe is escaped for the table.
  const flag = setting.choices ? setting.flag.replace(/<[^>]+>/, setting.choices.join('|')) : setting.flag;
  return code(flag).replaceAll('|', '\\|');
}

function row(setting: OptionDefinition): string {
  const env = setting.docsEnv ?? (setting.env ?? []).map(code).join(', ');
  const profileKey = setting.profile ? code(setting.profile.key) : '';
  const cells = [flagCell(setting), env, profileKey, setting.defaultText ?? 'none', setting.docs ?? setting.help.en];
  return `|${cells.map((cell) => (cell === '' ? ' ' : ` ${cell} `)).join('|')}|`;
}

function settingsMarkdownTable(): string {
  const header = ['| flag | environment | profile key | default | meaning |', '|---|---|---|---|---|'];
  return [...header, ...settingEntries.map(([, setting]) => row(setting))].join('\n');
}

/** `document` with the block between the markers replaced by the table; an error without both markers. */
export function withSettingsTable(document: string): string {
  const start = document.indexOf(settingsBlockMarkers.start);
  const end = document.indexOf(settingsBlockMarkers.end);
  if (start === -1 || end < start)
    throw new Error(`the document has no ${settingsBlockMarkers.start} … ${settingsBlockMarkers.end} block`);
  return `${document.slice(0, start + settingsBlockMarkers.start.length)}\n${settingsMarkdownTable()}\n${document.slice(end)}`;
}
